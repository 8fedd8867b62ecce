"""Resigning (games.engine.rules.resign; RULES.md R11.1 and R11.2): the resigner's colours take no
more turns (as R7.2), their squares left count as left (R8.2), they rank below every player who did
not resign (R8.3) and among themselves by score, and the game ends when at most one player is
left."""

from __future__ import annotations

import random

import pytest

from games.engine import IllegalAction, apply, legal_actions, new_game, score, view
from games.engine.state import State
from tests.engine.helpers import make_state


def after_setup(mode="classic", players=4, **kw) -> State:
    s = new_game(mode=mode, players=players, seed=7, **kw)
    for corner in ("a1", "t1", "t20", "a20"):
        s = apply(s, {"place": corner})
    return s


def test_r7_2_a_resigned_players_colour_takes_no_more_turns():
    s = after_setup(players=4)
    assert s.turn == 0
    s = apply(s, {"resign": "yellow"})  # out of turn: blue is still to move
    assert s.turn == 0 and s.step == "place"
    assert view(s, None)["resigned"] == [1]
    s = apply(s, legal_actions(s)[0])
    assert s.turn == 2  # yellow is passed by (R7.3)


def test_r7_3_resigning_on_your_turn_ends_it():
    s = after_setup(players=4)
    s = apply(s, {"resign": "blue"})
    assert s.turn == 1 and not s.over
    assert [e["event"] for e in s.events] == ["resign"]


def test_r8_1_a_two_player_resignation_ends_the_game_and_the_other_wins():
    s = after_setup(players=2)
    s = apply(s, {"resign": "red"})  # red is the blue/red player's: seat 0 resigns
    assert s.over and s.turn is None
    places = {p["seat"]: (p["place"], p["resigned"]) for p in score(s)["players"]}
    assert places == {0: (2, True), 1: (1, False)}


def test_r8_3_a_resigner_ranks_below_everyone_else_whatever_the_squares():
    s = make_state(
        "classic",
        4,
        pieces={"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]},
        supply={"blue": ["1"], "yellow": ["I5", "L5"], "red": ["I5"], "green": ["I5", "L5", "N"]},
    )
    s = apply(s, {"resign": "blue"})
    final = {p["seat"]: p for p in score(s)["players"]}
    assert final[0]["score"] == 1 and final[0]["place"] == 4  # fewest squares, still last
    assert [final[k]["place"] for k in (1, 2, 3)] == [2, 1, 3]


def test_r8_1_the_last_player_left_wins_at_once_with_four_players():
    s = after_setup(players=4)
    for colour in ("yellow", "red"):
        s = apply(s, {"resign": colour})
        assert not s.over
    s = apply(s, {"resign": "green"})
    assert s.over
    assert [p["place"] for p in score(s)["players"]][0] == 1


def test_r8_2_the_squares_left_in_a_resigners_supply_count():
    s = after_setup(players=4)
    s = apply(s, {"resign": "green"})
    assert score(s)["remaining"]["green"] == 89 - 1


def test_r2_4_the_shared_colours_rotation_passes_a_resigned_player_by():
    s = after_setup(players=3)  # green is shared; its setup piece was player 1's
    s = apply(s, {"resign": "red"})  # player 3 (red) resigns: player 2's turn of green is next
    rng = random.Random(1)
    seen = []
    for _ in range(40):
        if s.over:
            break
        if s.turn == 3:
            seen.append(s.controller())
        s = apply(s, rng.choice(legal_actions(s)))
    assert seen and 2 not in seen


def test_r3_1_no_resignation_during_the_setup_round_while_others_play_on():
    s = apply(new_game(mode="classic", players=4, seed=1), {"place": "a1"})
    with pytest.raises(IllegalAction, match=r"\(R3\.1\)"):
        apply(s, {"resign": "red"})


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        ({"resign": "purple"}, "R2.5"),
        ({"resign": 3}, "resign"),
        ({"resign": "blue", "place": "a1"}, "resign"),
    ],
)
def test_a_bad_resignation_names_what_is_wrong(action, rule):
    s = after_setup(players=4)
    with pytest.raises(IllegalAction, match=rule):
        apply(s, action)


def test_r2_5_the_shared_colour_cannot_resign_and_nobody_resigns_twice():
    s = after_setup(players=3)
    with pytest.raises(IllegalAction, match=r"R2\.5"):
        apply(s, {"resign": "green"})
    s = apply(s, {"resign": "blue"})
    with pytest.raises(IllegalAction, match=r"R7\.2"):
        apply(s, {"resign": "blue"})


def test_r6_3_a_draw2_abandoned_by_a_resignation_goes_to_the_bottom_unseen():
    s = make_state(
        "shuffle",
        4,
        pieces={"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]},
        hands={"blue": ["draw2"]},
        piles={"blue": ["skip", "wild", "warp"]},
    )
    s = apply(s, {"card": "draw2"})
    assert s.step == "keep"
    s = apply(s, {"resign": "blue"})
    assert s.drawn == [] and s.piles[0] == ["warp", "skip", "wild"]
    assert view(s, 1)["drawn"] == [] and s.turn == 1


def test_a_resignation_round_trips_through_json_and_replays():
    s = after_setup(players=4)
    s = apply(s, {"resign": "red"})
    again = State.from_json(s.to_json())
    assert again.to_json() == s.to_json()
    assert again.in_play() == 0b1011


# -- R11.1 and R11.2, point by point -------------------------------------------------------


@pytest.mark.parametrize("mode", ["classic", "shuffle"])
def test_r11_1_with_two_players_a_resignation_during_setup_ends_the_game(mode):
    s = new_game(mode=mode, players=2, seed=3)
    s = apply(s, {"resign": "blue"})  # before any piece, on her own turn
    assert s.over and [p["place"] for p in score(s)["players"]] == [2, 1]
    s = apply(new_game(mode=mode, players=2, seed=3), {"place": "a1"})
    s = apply(s, {"resign": "blue"})  # yellow is deciding: out of turn
    assert s.over and [p["place"] for p in score(s)["players"]] == [2, 1]


def test_r11_1_no_resignation_during_setup_with_three_players():
    s = apply(new_game(mode="classic", players=3, seed=1), {"place": "a1"})
    with pytest.raises(IllegalAction, match=r"\(R3\.1\)"):
        apply(s, {"resign": "yellow"})


@pytest.mark.parametrize(("card", "next_colour"), [("skip", 2), ("reverse", 3)])
def test_r11_1_a_card_played_before_resigning_stays_played(card, next_colour):
    s = make_state(
        "shuffle",
        4,
        pieces={"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]},
        hands={"blue": [card, "wild"]},
        piles={"blue": ["edge"]},
    )
    s = apply(s, {"card": card})
    s = apply(s, {"resign": "blue"})  # the turn ends with no piece and no draw
    assert s.discards[0] == [card] and s.hands[0] == ["wild"] and s.piles[0] == ["edge"]
    # Skip: yellow loses its turn (R6.1); Reverse: play goes the other way (R6.2).
    assert s.turn == next_colour and s.direction == (-1 if card == "reverse" else 1)


def test_r11_1_a_resigned_players_colours_play_no_card_place_nothing_and_draw_none():
    s = after_setup("shuffle", players=4)
    s = apply(s, {"resign": "yellow"})
    frozen = (list(s.hands[1]), list(s.piles[1]), list(s.discards[1]), s.supply[1])
    rng = random.Random(5)
    for _ in range(80):
        if s.over:
            break
        s = apply(s, rng.choice(legal_actions(s)))
        assert s.turn != 1
        assert all(e["colour"] != "yellow" for e in s.events)  # never its turn, never skipped
        assert (list(s.hands[1]), list(s.piles[1]), list(s.discards[1]), s.supply[1]) == frozen


def test_r11_1_a_resigned_colours_pieces_stay_and_a_warp_may_move_them():
    s = make_state(
        "shuffle",
        4,
        pieces={
            "blue": ["a1"],
            "yellow": ["t1", "s2"],
            "red": ["t20"],
            "green": ["a20"],
        },
        hands={"blue": ["warp"]},
        piles={"blue": ["skip"]},
    )
    s = apply(s, {"resign": "yellow"})  # out of turn: blue still decides
    assert s.boards[1] and len(s.pieces[1]) == 2  # its pieces stay on the board
    s = apply(s, {"card": "warp"})
    assert s.step == "warp"
    warps = [a for a in legal_actions(s) if a["warp"] in ("t1", "s2")]
    assert warps  # a Warp may move the resigned colour's pieces (R6.8)
    board = s.boards[1]
    s = apply(s, warps[0])
    assert s.boards[1] != board and len(s.pieces[1]) == 2


@pytest.mark.parametrize("scoring", ["basic", "advanced"])
def test_r11_2_players_who_resigned_rank_among_themselves_by_score(scoring):
    s = make_state(
        "classic",
        4,
        scoring=scoring,
        pieces={"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]},
        supply={"blue": ["1"], "yellow": ["I5", "L5"], "red": ["I5"], "green": ["I5", "L5", "N"]},
    )
    s = apply(s, {"resign": "yellow"})  # out of turn: 10 squares left
    s = apply(s, {"resign": "blue"})  # on her turn: 1 square left, the best score of all
    assert not s.over  # red and green play on (R11.2)
    places = {p["seat"]: p["place"] for p in score(s)["players"]}
    # Red (5 left) and green (15 left) first and second; then blue (1), then yellow (10).
    assert places == {2: 1, 3: 2, 0: 3, 1: 4}
