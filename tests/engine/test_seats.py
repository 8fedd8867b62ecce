"""Seats and control: RULES.md R2.3 (two players), R2.4 and R2.4a (three players), R2.5."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import DEFAULT_RECIPE, IllegalAction, apply, legal_actions, new_game, score
from games.engine.cards import recipe_cards
from tests.engine.helpers import make_state, play

CORNERS = {"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]}
# A setup round: each colour's "1" in its corner, in turn order.
SETUP = [{"place": "a1"}, {"place": "t1"}, {"place": "t20"}, {"place": "a20"}]


def refused(state, action, rule: str) -> str:
    """Assert that ``action`` is refused naming ``rule`` and leaves the state unchanged."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert rule in str(info.value), str(info.value)
    assert state.to_json() == before
    return str(info.value)


def to_move(state) -> str:
    return state.to_json()["to_move"]


# -- R2.3 Two players -----------------------------------------------------------------------


def test_r2_3_two_players_one_deck_of_28_per_player():
    s = new_game(players=2, seed=7)
    piles = s.to_json()["draw_piles"]
    assert set(piles) == {"blue", "yellow"}  # one deck per player, named by its first colour
    for cards in piles.values():
        assert len(cards) == 28
        assert Counter(cards) == Counter(recipe_cards(DEFAULT_RECIPE) * 2)


def test_r2_3_two_players_one_hand_for_both_colours():
    s = play(new_game(players=2, seed=7), *SETUP)
    hands = s.to_json()["hands"]
    assert set(hands) == {"blue", "yellow"}
    # Each player drew two after their first setup placement, and only then (R3.2).
    assert len(hands["blue"]) == 2 and len(hands["yellow"]) == 2
    assert len(s.to_json()["draw_piles"]["blue"]) == 26
    assert to_move(s) == "blue" and s.step == "card"


def test_r2_3_card_on_reds_turn_comes_from_the_blue_red_hand():
    s = make_state(
        players=2,
        pieces=CORNERS,
        hands={"blue": ["reverse", "skip"], "yellow": ["wild", "edge"]},
        piles={"blue": ["warp"], "yellow": ["double"]},
        to_move="red",
    )
    assert s.step == "card"
    assert legal_actions(s) == [{"card": "skip"}, {"card": "reverse"}]
    refused(s, {"card": "wild"}, "R5.1")  # the yellow/green player's card
    s = play(s, {"card": "reverse"}, {"place": "r19,s19"})
    assert s.to_json()["discards"] == {"blue": ["reverse"], "yellow": []}
    assert s.to_json()["hands"] == {"blue": ["skip", "warp"], "yellow": ["wild", "edge"]}
    assert to_move(s) == "yellow"  # reversed: red → yellow


def test_r2_3_seat_0_controls_blue_and_red():
    s = make_state(players=2, pieces=CORNERS)
    assert s.seat_colours(0) == [0, 2]
    assert s.seat_colours(1) == [1, 3]
    for colour, seat in (("blue", 0), ("yellow", 1), ("red", 0), ("green", 1)):
        assert make_state(players=2, pieces=CORNERS, to_move=colour).controller() == seat
    players = score(s)["players"]
    assert [p["colours"] for p in players] == [["blue", "red"], ["yellow", "green"]]


def test_r2_3_two_players_turn_order_stays_blue_yellow_red_green():
    s = make_state(players=2, pieces=CORNERS)
    seen = []
    for move in ("b2,c2", "r2,s2", "r19,s19", "b19,c19"):
        seen.append(to_move(s))
        s = play(s, {"place": move})
    assert seen == ["blue", "yellow", "red", "green"]
    assert to_move(s) == "blue"


# -- R2.4 Three players ---------------------------------------------------------------------


def test_r2_4_three_players_shared_colour_has_no_cards():
    s = new_game(players=3, seed=11)
    assert set(s.to_json()["draw_piles"]) == {"blue", "yellow", "red"}
    s = play(s, *SETUP)
    hands = s.to_json()["hands"]
    assert {k: len(v) for k, v in hands.items()} == {"blue": 2, "yellow": 2, "red": 2}
    # Green's setup placement drew nothing for anyone.
    assert [len(v) for v in s.to_json()["draw_piles"].values()] == [12, 12, 12]


def test_r2_4_shared_colour_plays_and_draws_no_card_on_its_turn():
    s = make_state(
        players=3,
        pieces=CORNERS,
        hands={"blue": ["skip", "wild"], "yellow": ["edge", "warp"], "red": ["draw2", "reverse"]},
        piles={"blue": ["double"], "yellow": ["recycle"], "red": ["skip"]},
        to_move="green",
    )
    assert s.step == "place"
    refused(s, {"card": "skip"}, "R5.3")
    before = s.to_json()
    s = play(s, {"place": "b19,c19"})
    after = s.to_json()
    for key in ("hands", "draw_piles", "discards"):
        assert after[key] == before[key]
    assert to_move(s) == "blue"


def test_r2_4_chosen_shared_colour():
    s = new_game(players=3, shared_color="red", seed=3)
    assert set(s.to_json()["draw_piles"]) == {"blue", "yellow", "green"}
    # Players are numbered by their colour's place in turn order: blue, yellow, green.
    assert [s.seat_colours(seat) for seat in range(3)] == [[0], [1], [3]]
    s = play(s, {"place": "a1"}, {"place": "t1"})
    assert to_move(s) == "red" and s.controller() == 0  # red's setup placement: player 1
    s = play(s, {"place": "t20"})
    assert s.to_json()["hands"]["blue"] and not s.to_json()["hands"].get("red")


def test_r2_4_shared_colour_taken_in_rotation():
    # Classic mode keeps the turns to placements; the rotation is the same in both modes.
    s = new_game(mode="classic", players=3)
    s = play(s, *SETUP[:3])
    assert to_move(s) == "green" and s.controller() == 0  # setup placement: player 1
    s = play(s, SETUP[3])
    controllers = []
    for _ in range(3):
        for colour in ("blue", "yellow", "red"):
            assert to_move(s) == colour
            s = play(s, legal_actions(s)[0])
        assert to_move(s) == "green"
        controllers.append(s.controller())
        s = play(s, legal_actions(s)[0])
    # After player 1's setup placement, the main turns go to player 2, then 3, then 1 again.
    assert controllers == [1, 2, 0]


def test_r2_4_shared_colour_score_is_ignored():
    s = make_state(
        players=3,
        pieces=CORNERS,
        supply={"blue": ["1"], "yellow": ["2"], "red": ["I3"], "green": []},
    )
    players = score(s)["players"]
    assert [p["colours"] for p in players] == [["blue"], ["yellow"], ["red"]]
    assert [p["score"] for p in players] == [1, 2, 3]
    assert [p["place"] for p in players] == [1, 2, 3]  # green's 0 would beat them all


def test_r2_4_chosen_shared_colour_score_is_ignored():
    s = make_state(
        players=3,
        shared_color="blue",
        pieces=CORNERS,
        supply={"blue": [], "yellow": ["I3"], "red": ["2"], "green": ["1"]},
        to_move="yellow",
    )
    players = score(s)["players"]
    assert [p["colours"] for p in players] == [["yellow"], ["red"], ["green"]]
    assert [(p["score"], p["place"]) for p in players] == [(3, 3), (2, 2), (1, 1)]


# -- R2.4a Rotation advances only on turns taken ---------------------------------------------


def test_r2_4a_shared_turn_advances_rotation():
    s = make_state(players=3, pieces=CORNERS, to_move="green", rotation=1)
    assert s.controller() == 1
    s = play(s, {"place": "b19,c19"})
    assert s.rotation == 2


def test_r2_4a_skipped_shared_turn_does_not_advance_rotation():
    s = make_state(players=3, pieces=CORNERS, hands={"red": ["skip"]}, to_move="red", rotation=2)
    s = play(s, {"card": "skip"}, {"place": "r19,s19"})
    assert {"colour": "green", "event": "skipped"} in s.events
    assert s.rotation == 2
    s = play(s, {"place": "b2,c2"}, {"place": "r2,s2"}, {"place": "o18,p18,q18"})
    assert to_move(s) == "green"
    assert s.controller() == 2  # still player 3's turn with green


# -- R2.5 Own and opponent colours ----------------------------------------------------------

# Two pieces per colour, so that every colour's second piece could be warped (R6.8).
TWO_EACH = {
    "blue": ["a1", "b2,c2"],
    "yellow": ["t1", "r2,s2"],
    "red": ["t20", "r19,s19"],
    "green": ["a20", "b19,c19"],
}


def warp_targets(state) -> set[str]:
    """The colours of the pieces the player may warp."""
    board = state.to_json()["pieces"]
    owner = {text: colour for colour, texts in board.items() for text in texts}
    return {owner[a["warp"]] for a in legal_actions(state)}


def test_r2_5_warp_cannot_move_own_colour():
    s = play(make_state(pieces=TWO_EACH, hands={"blue": ["warp", "skip"]}), {"card": "warp"})
    assert warp_targets(s) == {"yellow", "red", "green"}
    refused(s, {"warp": "b2,c2", "to": "b2,b3"}, "R6.8")


def test_r2_5_two_players_warp_cannot_move_either_own_colour():
    hands = {"blue": ["warp", "skip"]}
    s = play(make_state(players=2, pieces=TWO_EACH, hands=hands), {"card": "warp"})
    assert warp_targets(s) == {"yellow", "green"}
    refused(s, {"warp": "r19,s19", "to": "s18,s19"}, "R6.8")  # red is blue's partner colour
    # On red's turn, the same player still may not move blue.
    s = play(make_state(players=2, pieces=TWO_EACH, hands=hands, to_move="red"), {"card": "warp"})
    assert warp_targets(s) == {"yellow", "green"}
    refused(s, {"warp": "b2,c2", "to": "b2,b3"}, "R6.8")


def test_r2_5_three_players_shared_colour_is_an_opponent_colour():
    hands = {"blue": ["warp", "recycle"]}
    s = play(make_state(players=3, pieces=TWO_EACH, hands=hands), {"card": "warp"})
    assert warp_targets(s) == {"yellow", "red", "green"}
    s = play(s, {"warp": "b19,c19", "to": "b18,b19"})
    assert s.to_json()["pieces"]["green"] == ["a20", "b18,b19"]


def test_r2_5_three_players_shared_colour_is_nobodys_own_for_recycle():
    s = make_state(players=3, pieces=TWO_EACH, hands={"blue": ["recycle", "skip"]})
    s = play(s, {"card": "recycle"})
    assert legal_actions(s) == [{"recycle": "a1"}, {"recycle": "b2,c2"}]
    refused(s, {"recycle": "b19,c19"}, "R6.7")
    # With no blue piece on the board, green's pieces do not make Recycle able.
    pieces = {"yellow": ["t1"], "red": ["t20"], "green": ["a20", "b19,c19"]}
    s = make_state(players=3, pieces=pieces, hands={"blue": ["recycle", "skip"]})
    s = play(s, {"card": "recycle"})
    assert {"colour": "blue", "event": "no_effect", "card": "recycle"} in s.events


def test_r2_5_three_players_edge_side_contact_with_shared_colour_does_not_count():
    pieces = {"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["k10"]}
    s = make_state(players=3, pieces=pieces, hands={"blue": ["edge", "skip"]})
    s = play(s, {"card": "edge"})
    refused(s, {"place": "k11,k12"}, "R6.5")  # shares a side with green only
    s = play(s, {"place": "a2,a3"})
    assert s.to_json()["pieces"]["blue"] == ["a1", "a2,a3"]
