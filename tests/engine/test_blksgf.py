"""Pentobi's game files (.blksgf): export a classic record, import it back (games/engine/blksgf.py).

The round trip is checked against the engine: the imported game must reach the same position as
the original, seen through the board symmetry the export chose."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import RecordError, legal_actions, new_game, replay, score, view
from games.engine import apply as engine_apply
from games.engine.blksgf import SYMMETRIES, ExportError, export, parse

# Corner squares chosen in the setup round, clockwise from the top left as Pentobi has them.
PENTOBI_SETUP = {"blue": "a20", "yellow": "t20", "red": "t1", "green": "a1"}


def random_record(players: int, seed: int, *, corners: dict[str, str] | None = None, plies=None):
    """A classic record played by random legal moves; ``corners`` fixes each colour's setup
    corner (a monomino there), ``plies`` stops early."""
    rng = random.Random(seed)
    state = new_game(mode="classic", players=players)
    actions = []
    while not view(state, None)["over"] and (plies is None or len(actions) < plies):
        colour = view(state, None)["to_move"]
        if corners and view(state, None)["step"] == "setup":
            action = {"place": corners[colour]}
        else:
            action = rng.choice(legal_actions(state))
        state = engine_apply(state, action)
        actions.append(action)
    return {"format": "blokus-record/1", "mode": "classic", "players": players, "actions": actions}


def board_under(record: dict, symmetry) -> list[str]:
    """The final board of ``record`` drawn after mapping every square by ``symmetry``."""
    rows = view(replay(record), None)["board"]  # row 20 first
    out = [["."] * 20 for _ in range(20)]
    for r, line in enumerate(rows):
        for x, mark in enumerate(line):
            nx, ny = symmetry(x, 19 - r)
            out[19 - ny][nx] = mark
    return ["".join(line) for line in out]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_in_pentobis_corners_round_trips_exactly(players):
    """R3.1 corners as Pentobi has them: the file holds the very same moves (R1.1 squares)."""
    record = random_record(players, seed=players, corners=PENTOBI_SETUP)
    text = export(record, names=["alice", "bob", "carol", "dave"][: min(players, 4)])
    assert text.startswith("(;FF[4]CA[UTF-8]")
    assert {2: "GM[Blokus Two-Player]", 3: "GM[Blokus Three-Player]", 4: "GM[Blokus]"}[
        players
    ] in text
    back = parse(text)
    assert back["players"] == players
    assert [set(a["place"].split(",")) for a in back["actions"]] == [
        set(a["place"].split(",")) for a in record["actions"]
    ]
    assert score(replay(back)) == score(replay(record))


@settings(max_examples=25, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 10_000),
    symmetry=st.integers(0, 7),
)
def test_any_game_pentobi_can_show_round_trips_under_a_board_symmetry(players, seed, symmetry):
    """Corners chosen as some turn or mirror image of Pentobi's (R3.1): exported, imported, the
    position is the original one seen through that symmetry, with the same score (R8)."""
    to_board = SYMMETRIES[symmetry]
    # The inverse image of Pentobi's corners under the symmetry: the corners this game uses.
    corners = {}
    for colour, square in PENTOBI_SETUP.items():
        target = (ord(square[0]) - 97, int(square[1:]) - 1)
        for x in (0, 19):
            for y in (0, 19):
                if to_board(x, y) == target:
                    corners[colour] = f"{chr(97 + x)}{y + 1}"
    record = random_record(players, seed, corners=corners, plies=24)
    back = parse(export(record))
    assert view(replay(back), None)["board"] == board_under(record, to_board)
    assert score(replay(back))["remaining"] == score(replay(record))["remaining"]


def test_corners_no_symmetry_matches_are_refused():
    """Blue and yellow diagonally opposite (R3.1 allows it) do not fit Pentobi's corners."""
    corners = {"blue": "a20", "yellow": "t1", "red": "t20", "green": "a1"}
    record = random_record(4, seed=1, corners=corners, plies=8)
    with pytest.raises(ExportError, match="corners"):
        export(record)


def test_shuffle_games_and_other_shared_colours_are_refused():
    shuffle = {"format": "blokus-record/1", "mode": "shuffle", "players": 2, "seed": 1}
    with pytest.raises(ExportError, match="classic"):
        export({**shuffle, "actions": []})
    three = random_record(3, seed=2, corners=PENTOBI_SETUP, plies=4)
    with pytest.raises(ExportError, match="green"):
        export({**three, "shared_color": "red"})


def test_the_main_line_is_read_and_side_variations_dropped():
    text = """(;GM[Blokus Two-Player]C[a comment with \\] inside]
      ;1[a20]
      (;2[t20];3[t1](;4[a1])(;4[a1,a2]))
      (;2[t20,s20]))"""
    assert parse(text)["actions"] == [
        {"place": "a20"},
        {"place": "t20"},
        {"place": "t1"},
        {"place": "a1"},
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        ("(;GM[Blokus Duo];1[e10])", "classic variants"),
        ("(;GM[Blokus];AB[a1])", "sets up a position"),
        ("(;GM[Blokus];1[a20];2[a19])", "R3.1"),  # the setup must cover a free corner
        ("(;GM[Blokus];1[a20];3[t1])", "R5.3"),  # yellow passed while it could place
        ("(;GM[Blokus];1[z99])", "R1.1"),
        ("(;GM[Blokus];1[a20]", "unbalanced"),
        ("not sgf at all", "not SGF"),
    ],
)
def test_bad_files_are_refused_naming_the_move_and_rule(text, message):
    with pytest.raises(RecordError, match=message):
        parse(text)
