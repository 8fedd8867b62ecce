"""Pentobi's game files (.blksgf): export a classic record, import it back (games/engine/blksgf.py).

The round trip is checked against the engine: the imported game must reach the same position as
the original, seen through the board symmetry the export chose."""

from __future__ import annotations

import os
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


# Corners R3.1 allows and no board symmetry takes to Pentobi's (blue and yellow diagonally
# opposite, or red beside blue).
UNMATCHED = [
    {"blue": "a20", "yellow": "t1", "red": "t20", "green": "a1"},
    {"blue": "a20", "yellow": "t20", "red": "a1", "green": "t1"},
    {"blue": "t1", "yellow": "a20", "red": "a1", "green": "t20"},
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("corners", UNMATCHED, ids=["diagonal", "red-beside-blue", "other"])
def test_corners_no_symmetry_matches_go_in_the_root_node_as_setup(players, corners):
    """Such a game is written as played, its setup round as the root node's setup
    properties (A1 ... A4, one piece each, PL for the colour to move next: Pentobi-SGF.md), and
    the file reads back to the same game."""
    record = random_record(players, seed=players, corners=corners)
    text = export(record)
    root, first_move = text.split("\n")[0], text.split("\n")[1]
    setup = "".join(f"A{n}[{corners[c]}]" for n, c in enumerate(PENTOBI_SETUP, start=1))
    assert root.endswith(setup + "PL[1]")
    assert first_move.startswith(";1[")  # the first move after the setup round: blue's
    assert text.count(";") == len(record["actions"]) - 4 + 1  # the root + one node per move
    back = parse(text)
    assert back["actions"] == record["actions"]
    assert view(replay(back), None)["board"] == view(replay(record), None)["board"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("(;GM[Blokus]A1[a20]A2[t20]A3[t1]A4[a1][a2])", "sets up a position"),  # two pieces
        ("(;GM[Blokus]A1[a20]AE[a20])", "sets up a position"),
        ("(;GM[Blokus];1[a20];A2[t20])", "sets up a position"),  # not in the root
        ("(;GM[Blokus]A1[b20])", "R3.1"),  # a setup piece must cover a corner
        ("(;GM[Blokus]A2[t20])", "setup"),  # yellow set up before blue
    ],
)
def test_other_setups_are_refused(text, message):
    with pytest.raises(RecordError, match=message):
        parse(text)


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
        ("(;GM[Blokus]AB[a1])", "sets up a position"),
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


# -- the real Pentobi -----------------------------------------------------------------------

PENTOBI_MARKS = {"X": "blue", "O": "yellow", "#": "red", "@": "green"}  # its showboard
PENTOBI_GAME = {2: "classic_2", 3: "classic_3", 4: "classic"}


def pentobi_board(path, players: int) -> dict[str, int]:
    """Squares per colour on Pentobi's board once ``loadsgf`` has read the file."""
    import subprocess

    done = subprocess.run(
        [os.environ["PENTOBI_GTP"], "--nobook", "-q", "-g", PENTOBI_GAME[players]],
        input=f"loadsgf {path}\nshowboard\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    answers = done.stdout.split("\n\n")
    assert answers[0].startswith("="), f"loadsgf refused the file: {answers[0]}"
    counts = dict.fromkeys(PENTOBI_MARKS.values(), 0)
    for line in done.stdout.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and parts[0].isdigit() and 1 <= int(parts[0]) <= 20:
            cells = parts[1][:40]
            for mark, colour in PENTOBI_MARKS.items():
                counts[colour] += cells.count(mark)
    return counts


@pytest.mark.skipif(not os.environ.get("PENTOBI_GTP"), reason="PENTOBI_GTP is not set")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("corners", [PENTOBI_SETUP, *UNMATCHED[:2]], ids=["pentobi", "diag", "red"])
def test_pentobi_opens_every_exported_classic_game(tmp_path, players, corners):
    """Pentobi's own engine (``loadsgf``) opens the file and shows every piece."""
    record = random_record(players, seed=10 + players, corners=corners)
    path = tmp_path / "game.blksgf"
    path.write_text(export(record, names=["alice", "bob", "carol", "dave"][:players]))
    board = view(replay(record), None)["board"]
    expected = {c: sum(row.count(c[0].upper()) for row in board) for c in PENTOBI_MARKS.values()}
    assert pentobi_board(path, players) == expected
