"""The action cards: RULES.md R6.1–R6.9 (each card's effect, when it is able, and when not)."""

from __future__ import annotations

import re

import pytest

from games.engine import IllegalAction, apply, legal_actions
from games.engine.pieces import parse_squares
from games.engine.state import COLOUR_INDEX
from tests.engine.helpers import make_state, play

# One "1" in each corner: every colour has a piece and its corner's diagonal square is free.
CORNERS = {"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]}


def refused(state, action, rule: str) -> str:
    """Assert that ``action`` is refused naming ``rule`` and leaves the state unchanged."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert rule in str(info.value), str(info.value)
    assert state.to_json() == before
    return str(info.value)


def events(state, kind: str) -> list[dict]:
    return [e for e in state.events if e["event"] == kind]


def placed_squares(state) -> list[set[str]]:
    """Every placement legal now, as sets of square names."""
    return [set(a["place"].split(",")) for a in legal_actions(state)]


def covers(state, colour: str, squares: str) -> bool:
    mask = parse_squares(squares)
    return state.boards[COLOUR_INDEX[colour]] & mask == mask


# -- R6.1 Skip ------------------------------------------------------------------------------


def test_r6_1_skip_next_colour_loses_its_whole_turn():
    s = make_state(
        pieces=CORNERS,
        hands={"blue": ["skip", "reverse"], "yellow": ["wild", "edge"]},
        piles={"blue": ["warp"], "yellow": ["double"]},
    )
    yellow_before = s.to_json()
    s = play(s, {"card": "skip"}, {"place": "b2,c2"})
    # Yellow lost its turn: red moves next; yellow played no card, placed nothing, drew nothing.
    assert s.to_json()["to_move"] == "red"
    assert {"colour": "yellow", "event": "skipped"} in s.events
    assert s.hands[1] == ["wild", "edge"]
    assert s.piles[1] == ["double"]
    assert s.discards[1] == []
    assert s.to_json()["supply"]["yellow"] == yellow_before["supply"]["yellow"]
    assert s.to_json()["pieces"]["yellow"] == ["t1"]
    # Blue's own turn went on normally: Skip discarded, piece placed, one card drawn.
    assert s.discards[0] == ["skip"]
    assert s.hands[0] == ["reverse", "warp"]
    # A turn lost to Skip is not a pass (R8.1).
    assert "yellow" not in s.to_json()["passed"]


def test_r6_1_skip_applies_in_the_reversed_direction():
    s = make_state(pieces=CORNERS, hands={"blue": ["skip", "reverse"]}, direction=-1)
    s = play(s, {"card": "skip"}, {"place": "b2,c2"})
    # Going blue → green → red: green is skipped, red moves.
    assert {"colour": "green", "event": "skipped"} in s.events
    assert s.to_json()["to_move"] == "red"
    assert s.direction == -1


def test_r6_1_skip_skips_the_next_colour_in_play():
    # Yellow has no piece left (not in play, R7.2): the next colour after blue is red.
    s = make_state(pieces=CORNERS, supply={"yellow": []}, hands={"blue": ["skip", "reverse"]})
    s = play(s, {"card": "skip"}, {"place": "b2,c2"})
    assert {"colour": "red", "event": "skipped"} in s.events
    assert s.to_json()["to_move"] == "green"


def test_r6_1_skip_not_able_without_another_colour_in_play():
    s = make_state(
        pieces=CORNERS,
        supply={"yellow": [], "red": [], "green": []},
        hands={"blue": ["skip", "reverse"]},
    )
    s = play(s, {"card": "skip"})
    assert {"colour": "blue", "event": "no_effect", "card": "skip"} in s.events
    assert s.discards[0] == ["skip"]
    assert s.skip_pending is False
    s = play(s, {"place": "b2,c2"})
    assert not events(s, "skipped")
    assert s.to_json()["to_move"] == "blue"  # blue is the only colour in play


def test_r6_1_skip_of_the_shared_colour_does_not_advance_its_rotation():
    # Three players, green shared; green's next turn is player 2's (seat 1).
    s = make_state(
        players=3,
        pieces=CORNERS,
        hands={"red": ["skip"]},
        to_move="red",
        rotation=1,
    )
    s = play(s, {"card": "skip"}, {"place": "r19,s19"})
    assert {"colour": "green", "event": "skipped"} in s.events
    assert s.to_json()["to_move"] == "blue"
    assert s.rotation == 1  # R2.4a
    s = play(s, {"place": "b2,c2"}, {"place": "r2,s2"}, {"place": "o18,p18,q18"})
    assert s.to_json()["to_move"] == "green"
    assert s.controller() == 1


# -- R6.2 Reverse ---------------------------------------------------------------------------


def test_r6_2_reverse_flips_direction_next_after_blue_is_green():
    s = make_state(pieces=CORNERS, hands={"blue": ["reverse", "skip"]})
    s = play(s, {"card": "reverse"})
    assert s.direction == -1
    s = play(s, {"place": "b2,c2"})
    assert s.to_json()["to_move"] == "green"
    s = play(s, {"place": "b19,c19"})
    assert s.to_json()["to_move"] == "red"


def test_r6_2_reverse_when_already_reversed_restores_clockwise():
    s = make_state(pieces=CORNERS, hands={"blue": ["reverse", "skip"]}, direction=-1)
    s = play(s, {"card": "reverse"}, {"place": "b2,c2"})
    assert s.direction == 1
    assert s.to_json()["to_move"] == "yellow"


# -- R6.3 Draw 2 ----------------------------------------------------------------------------


def test_r6_3_draw2_two_drawn_keep_one_other_to_bottom():
    s = make_state(
        pieces=CORNERS,
        hands={"blue": ["draw2", "edge"]},
        piles={"blue": ["skip", "reverse", "warp"]},
    )
    s = play(s, {"card": "draw2"})
    assert s.step == "keep"
    assert sorted(s.drawn) == ["reverse", "skip"]
    assert s.piles[0] == ["warp"]
    assert legal_actions(s) == [{"keep": "skip"}, {"keep": "reverse"}]
    s = play(s, {"keep": "reverse"})
    # The kept card's action is carried out, the other goes to the bottom of the pile.
    assert s.direction == -1
    assert s.piles[0] == ["warp", "skip"]
    assert s.discards[0] == ["draw2", "reverse"]
    assert s.drawn == []
    assert s.hands[0] == ["edge"]
    assert s.step == "place"
    s = play(s, {"place": "b2,c2"})
    assert s.hands[0] == ["edge", "warp"]  # R5.4 draws from the top
    assert s.piles[0] == ["skip"]
    assert s.to_json()["to_move"] == "green"


def test_r6_3_draw2_two_of_the_same_kind_is_still_a_choice():
    s = make_state(pieces=CORNERS, hands={"blue": ["draw2"]}, piles={"blue": ["skip", "skip"]})
    s = play(s, {"card": "draw2"})
    assert s.step == "keep"
    assert legal_actions(s) == [{"keep": "skip"}]
    s = play(s, {"keep": "skip"})
    assert s.piles[0] == ["skip"]
    assert s.skip_pending is True


def test_r6_3_draw2_keep_must_be_a_drawn_card():
    s = make_state(
        pieces=CORNERS, hands={"blue": ["draw2", "warp"]}, piles={"blue": ["skip", "reverse"]}
    )
    s = play(s, {"card": "draw2"})
    refused(s, {"keep": "warp"}, "R6.3")
    refused(s, {"keep": "wild"}, "R6.3")


def test_r6_3_draw2_one_card_left_is_played_without_choice():
    s = make_state(pieces=CORNERS, hands={"blue": ["draw2", "edge"]}, piles={"blue": ["reverse"]})
    s = play(s, {"card": "draw2"})
    assert s.step == "place"  # no keep decision
    assert s.direction == -1
    assert s.discards[0] == ["draw2", "reverse"]
    assert s.piles[0] == []
    assert s.drawn == []


def test_r6_3_draw2_empty_pile_has_no_effect():
    s = make_state(pieces=CORNERS, hands={"blue": ["draw2", "edge"]})
    s = play(s, {"card": "draw2"})
    assert {"colour": "blue", "event": "no_effect", "card": "draw2"} in s.events
    assert s.step == "place"
    assert s.discards[0] == ["draw2"]
    assert s.hands[0] == ["edge"]
    s = play(s, {"place": "b2,c2"})
    assert s.to_json()["to_move"] == "yellow"


def test_r6_3_draw2_kept_card_may_be_draw2():
    s = make_state(
        pieces=CORNERS, hands={"blue": ["draw2"]}, piles={"blue": ["draw2", "skip", "wild"]}
    )
    s = play(s, {"card": "draw2"}, {"keep": "draw2"})
    # Skip went to the bottom, then the kept Draw 2 draws wild and that skip.
    assert s.step == "keep"
    assert sorted(s.drawn) == ["skip", "wild"]
    assert s.piles[0] == []
    s = play(s, {"keep": "wild"})
    assert s.piles[0] == ["skip"]
    assert s.discards[0] == ["draw2", "draw2", "wild"]
    assert s.step == "declare"


def test_r6_3_draw2_kept_wild_is_carried_out():
    s = make_state(pieces=CORNERS, hands={"blue": ["draw2"]}, piles={"blue": ["wild", "skip"]})
    s = play(s, {"card": "draw2"}, {"keep": "wild"})
    assert s.step == "declare"
    s = play(s, {"declare": "red"})
    # The piece is placed as if red: next to t20 at a corner, nowhere near blue's a1.
    refused(s, {"place": "b2,c2"}, "R4.2")
    s = play(s, {"place": "s18,s19"})
    assert covers(s, "blue", "s18,s19")


def test_r6_3_draw2_kept_skip_is_carried_out():
    s = make_state(pieces=CORNERS, hands={"blue": ["draw2"]}, piles={"blue": ["skip", "reverse"]})
    s = play(s, {"card": "draw2"}, {"keep": "skip"}, {"place": "b2,c2"})
    assert {"colour": "yellow", "event": "skipped"} in s.events
    assert s.to_json()["to_move"] == "red"


# -- R6.4 Wild ------------------------------------------------------------------------------


def test_r6_4_wild_any_of_the_four_colours_may_be_declared():
    s = make_state(pieces=CORNERS, hands={"blue": ["wild", "skip"]})
    s = play(s, {"card": "wild"})
    assert s.step == "declare"
    assert legal_actions(s) == [{"declare": c} for c in ("blue", "yellow", "red", "green")]
    refused(s, {"declare": "purple"}, "R6.4")


def test_r6_4_wild_places_as_if_of_the_declared_colour():
    s = make_state(pieces=CORNERS, hands={"blue": ["wild", "skip"]})
    s = play(s, {"card": "wild"}, {"declare": "red"})
    # Every legal placement touches red's t20 at its corner s19 (red's only diagonal square).
    options = placed_squares(s)
    assert options and all("s19" in squares for squares in options)
    refused(s, {"place": "b2,c2"}, "R6.4")  # touches blue, not red
    refused(s, {"place": "r20,s20"}, "R4.3")  # shares a side with red
    s = play(s, {"place": "s18,s19"})
    # Once placed, the piece is blue again.
    assert covers(s, "blue", "s18,s19")
    assert not covers(s, "red", "s19")
    assert s.to_json()["board"][1][18] == "B"  # row 19, column s
    assert "2" not in s.to_json()["supply"]["blue"]
    assert s.to_json()["supply"]["red"] == make_state(pieces=CORNERS).to_json()["supply"]["red"]
    assert s.to_json()["to_move"] == "yellow"
    assert s.wild is None


def test_r6_4_wild_lifts_the_own_colour_side_rule():
    # Blue's "2" sits at s17,s18; the square s19 shares a side with it but touches red at a corner.
    pieces = {"blue": ["s17,s18"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]}
    plain = make_state(pieces=pieces, hands={"blue": ["wild", "skip"]})
    s = play(plain, {"card": "skip"})
    refused(s, {"place": "s19"}, "R4.3")  # without Wild: side contact with blue
    s = play(plain, {"card": "wild"}, {"declare": "red"}, {"place": "s19"})
    assert covers(s, "blue", "s19")


def test_r6_4_wild_declared_colour_without_pieces_must_cover_a_corner():
    pieces = {"blue": ["a1"], "yellow": ["t1"], "red": ["t20"]}
    s = make_state(pieces=pieces, hands={"blue": ["wild", "skip"]})
    s = play(s, {"card": "wild"}, {"declare": "green"})
    options = placed_squares(s)
    assert options and all("a20" in squares for squares in options)
    refused(s, {"place": "b2,c2"}, "R4.5")
    s = play(s, {"place": "a19,a20"})
    assert covers(s, "blue", "a19,a20")
    assert s.boards[COLOUR_INDEX["green"]] == 0


def test_r6_4_wild_declaration_leaving_no_placement_means_a_pass():
    # Green has no piece and every corner is taken: declaring green leaves no placement.
    pieces = {"blue": ["a1", "a19,a20"], "yellow": ["t1"], "red": ["t20"]}
    s = make_state(pieces=pieces, hands={"blue": ["wild", "skip"]})
    before = s.to_json()
    s = play(s, {"card": "wild"}, {"declare": "green"})
    assert {"colour": "blue", "event": "pass"} in s.events
    assert s.to_json()["to_move"] == "yellow"
    assert s.to_json()["supply"]["blue"] == before["supply"]["blue"]
    assert s.to_json()["board"] == before["board"]


# -- R6.5 Edge to Edge ----------------------------------------------------------------------


def test_r6_5_edge_needs_side_contact_with_own_colour():
    s = make_state(pieces=CORNERS, hands={"blue": ["edge", "skip"]})
    s = play(s, {"card": "edge"})
    options = placed_squares(s)
    assert options and all(squares & {"a2", "b1"} for squares in options)
    refused(s, {"place": "b2,c2"}, "R6.5")  # corner contact only: R4.2 no longer enough
    refused(s, {"place": "r1,s1"}, "R6.5")  # side contact with yellow does not count
    refused(s, {"place": "a1,a2"}, "R4.1")  # R4.1 still applies
    s = play(s, {"place": "a2,a3"})  # shares a side with blue: R4.3 lifted
    assert covers(s, "blue", "a1,a2,a3")
    assert s.to_json()["to_move"] == "yellow"


def test_r6_5_edge_in_two_players_either_own_colour():
    s = make_state(players=2, pieces=CORNERS, hands={"blue": ["edge", "skip"]})
    s = play(s, {"card": "edge"})
    # Side contact with red (blue's partner colour) counts; side contact with yellow does not.
    refused(s, {"place": "r1,s1"}, "R6.5")
    s = play(s, {"place": "r20,s20"})
    assert covers(s, "blue", "r20,s20")


def test_r6_5_edge_not_able_is_discarded_then_normal_placement():
    # Blue's a1 is boxed in along its sides by yellow: no piece can share a side with blue.
    pieces = {"blue": ["a1"], "yellow": ["t1", "a2,a3", "b1,c1,d1"], "red": ["t20"]}
    s = make_state(pieces=pieces, hands={"blue": ["edge", "skip"]})
    s = play(s, {"card": "edge"})
    assert {"colour": "blue", "event": "no_effect", "card": "edge"} in s.events
    assert s.discards[0] == ["edge"]
    assert s.edge is False
    s = play(s, {"place": "b2,c2"})  # an ordinary R4 placement
    assert covers(s, "blue", "b2,c2")


# -- R6.6 Double Play -----------------------------------------------------------------------

DOUBLE = {
    "blue": ["a1,b1,c1", "k10,k11,l10,l11"],
    "yellow": ["t1"],
    "red": ["t20"],
    "green": ["a20"],
}


def test_r6_6_double_second_piece_touches_the_first_at_a_corner():
    s = make_state(pieces=DOUBLE, hands={"blue": ["double", "skip"]})
    s = play(s, {"card": "double"}, {"place": "d2"})
    assert s.step == "place_second"
    assert s.to_json()["to_move"] == "blue"
    options = placed_squares(s)
    # d2's free corner squares (c1 is blue): c3, e1, e3.
    assert options and all(squares & {"c3", "e1", "e3"} for squares in options)
    refused(s, {"place": "m12,m13"}, "R6.6")  # touches blue's O at a corner, not the first piece
    refused(s, {"place": "d3,e3"}, "R4.3")  # shares a side with the first piece
    refused(s, {"place": "c2,c3"}, "R4.3")  # shares a side with blue's I3
    s = play(s, {"place": "e3,f3"})
    assert covers(s, "blue", "d2") and covers(s, "blue", "e3,f3")
    assert s.to_json()["to_move"] == "yellow"
    assert s.double is False


def test_r6_6_double_no_second_placement_means_nothing_more():
    # The first piece b2,b3 has corner squares a1 (blue), c1, a4, c4 (yellow): no second spot.
    pieces = {"blue": ["a1"], "yellow": ["t1", "c1,d1", "a4,a5,a6", "c4,d4,e4,f4"], "red": ["t20"]}
    s = make_state(pieces=pieces, hands={"blue": ["double", "skip"]})
    s = play(s, {"card": "double"}, {"place": "b2,b3"})
    assert s.to_json()["to_move"] == "yellow"
    assert not events(s, "pass")
    assert s.to_json()["pieces"]["blue"] == ["a1", "b2,b3"]


def test_r6_6_double_first_piece_cannot_be_placed_means_nothing_more():
    # Blue's only corner square b2 is taken: no placement at all.
    pieces = {"blue": ["a1"], "yellow": ["t1", "b2,b3"], "red": ["t20"], "green": ["a20"]}
    s = make_state(pieces=pieces, hands={"blue": ["double", "skip"]})
    before = s.to_json()
    s = play(s, {"card": "double"})
    assert {"colour": "blue", "event": "pass"} in s.events
    assert s.to_json()["to_move"] == "yellow"
    assert s.to_json()["board"] == before["board"]


def test_r6_6_double_first_piece_empties_supply_then_nothing_more():
    s = make_state(pieces=CORNERS, supply={"blue": ["2"]}, hands={"blue": ["double", "skip"]})
    s = play(s, {"card": "double"}, {"place": "b2,c2"})
    assert s.to_json()["to_move"] == "yellow"


# -- R6.7 Recycle ---------------------------------------------------------------------------

RECYCLE = {"blue": ["a1", "b2,b3,c2"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]}


def test_r6_7_recycle_returns_own_piece_to_supply_then_place():
    s = make_state(pieces=RECYCLE, hands={"blue": ["recycle", "skip"]})
    s = play(s, {"card": "recycle"})
    assert s.step == "recycle"
    assert legal_actions(s) == [{"recycle": "a1"}, {"recycle": "b2,b3,c2"}]
    s = play(s, {"recycle": "b2,b3,c2"})
    assert "V3" in s.to_json()["supply"]["blue"]
    assert s.to_json()["pieces"]["blue"] == ["a1"]
    assert s.step == "place"
    # The same piece may go back to the same spot.
    assert {"place": "b2,b3,c2"} in legal_actions(s)
    s = play(s, {"place": "b2,b3,c2"})
    assert s.to_json()["pieces"]["blue"] == ["a1", "b2,b3,c2"]
    assert s.to_json()["to_move"] == "yellow"


def test_r6_7_recycle_refuses_an_opponent_piece():
    s = play(make_state(pieces=RECYCLE, hands={"blue": ["recycle", "skip"]}), {"card": "recycle"})
    refused(s, {"recycle": "t1"}, "R6.7")
    refused(s, {"recycle": "b2,b3"}, "R6.7")  # not exactly one piece


def test_r6_7_recycle_in_two_players_either_own_colour():
    pieces = {"blue": ["a1"], "yellow": ["t1"], "red": ["t20", "s18,s19"], "green": ["a20"]}
    s = make_state(players=2, pieces=pieces, hands={"blue": ["recycle", "skip"]})
    s = play(s, {"card": "recycle"})
    assert legal_actions(s) == [{"recycle": "a1"}, {"recycle": "s18,s19"}, {"recycle": "t20"}]
    refused(s, {"recycle": "a20"}, "R6.7")  # green is the opponent's
    s = play(s, {"recycle": "s18,s19"})
    assert "2" in s.to_json()["supply"]["red"]
    assert s.to_json()["pieces"]["red"] == ["t20"]
    assert s.to_json()["to_move"] == "blue"
    assert s.step == "place"


def test_r6_7_recycle_able_in_two_players_with_only_the_partner_colour_on_board():
    pieces = {"yellow": ["t1"], "red": ["t20"], "green": ["a20"]}
    s = make_state(players=2, pieces=pieces, hands={"blue": ["recycle", "skip"]})
    s = play(s, {"card": "recycle"})
    assert s.step == "recycle"
    assert legal_actions(s) == [{"recycle": "t20"}]
    s = play(s, {"recycle": "t20"})
    assert "1" in s.to_json()["supply"]["red"]


def test_r6_7_recycle_not_able_without_own_piece_on_board():
    pieces = {"yellow": ["t1"], "red": ["t20"], "green": ["a20"]}
    s = make_state(pieces=pieces, hands={"blue": ["recycle", "skip"]})
    s = play(s, {"card": "recycle"})
    assert {"colour": "blue", "event": "no_effect", "card": "recycle"} in s.events
    assert s.step == "place"
    assert s.discards[0] == ["recycle"]
    s = play(s, {"place": "a1"})  # R4.5: no blue piece, so a corner
    assert covers(s, "blue", "a1")


def test_r6_7_recycling_the_last_piece_means_a_corner_placement():
    s = make_state(pieces=CORNERS, hands={"blue": ["recycle", "skip"]})
    s = play(s, {"card": "recycle"}, {"recycle": "a1"})
    assert s.boards[0] == 0
    options = placed_squares(s)
    assert options and all("a1" in squares for squares in options)  # the only free corner
    refused(s, {"place": "b2,c2"}, "R4.5")
    s = play(s, {"place": "a1"})
    assert covers(s, "blue", "a1")


# -- R6.8 Warp ------------------------------------------------------------------------------

WARP = {"blue": ["a1"], "yellow": ["t1", "s2,s3"], "red": ["t20"], "green": ["a20"]}


def warp_state(**kw):
    return play(make_state(pieces=WARP, hands={"blue": ["warp", "skip"]}, **kw), {"card": "warp"})


def test_r6_8_warp_moves_an_opponent_piece_to_another_legal_spot():
    s = warp_state()
    assert s.step == "warp"
    assert legal_actions(s) == [
        {"warp": "s2,s3", "to": "r2,s2"},
        {"warp": "t1", "to": "r1"},
        {"warp": "t1", "to": "r4"},
        {"warp": "t1", "to": "t4"},
    ]
    # Any orientation: the upright "2" lies down; it may reuse its own old square s2.
    s = play(s, {"warp": "s2,s3", "to": "r2,s2"})
    assert s.to_json()["pieces"]["yellow"] == ["t1", "r2,s2"]
    assert not covers(s, "yellow", "s3")
    assert s.step == "place"
    assert s.to_json()["to_move"] == "blue"
    s = play(s, {"place": "b2,c2"})
    assert s.to_json()["to_move"] == "yellow"


def test_r6_8_warp_needs_another_piece_of_its_colour():
    s = warp_state()
    msg = refused(s, {"warp": "t20", "to": "t19"}, "R6.8")  # red has only t20
    assert "red" in msg


def test_r6_8_lone_piece_is_never_offered_even_with_a_free_corner():
    pieces = {"blue": ["a1"], "yellow": ["t1", "s2,s3"], "red": ["k10"], "green": ["a20"]}
    s = play(make_state(pieces=pieces, hands={"blue": ["warp", "skip"]}), {"card": "warp"})
    assert {a["warp"] for a in legal_actions(s)} == {"t1", "s2,s3"}
    refused(s, {"warp": "k10", "to": "t20"}, "R6.8")


def test_r6_8_warp_refusals_name_the_rule():
    s = warp_state()
    refused(s, {"warp": "a1", "to": "b2"}, "R6.8")  # own colour
    refused(s, {"warp": "s2,s3", "to": "s2,s3"}, "R6.8")  # not a different spot
    refused(s, {"warp": "s2,s3", "to": "r2,s2,q2"}, "R6.8")  # another shape
    refused(s, {"warp": "s2,s3", "to": "k10,k11"}, "R6.8")  # no corner contact
    refused(s, {"warp": "s2,s3", "to": "t2,t3"}, "R6.8")  # side contact with t1
    refused(s, {"warp": "s2,s3", "to": "s1,s2"}, "R6.8")  # side contact with t1
    refused(s, {"warp": "s2,s3", "to": "t1,t2"}, "R6.8")  # not free
    refused(s, {"warp": "k10", "to": "k11"}, "R6.8")  # no piece there


def test_r6_8_warp_not_able_without_a_spot():
    # Each opponent colour has a single piece: nothing can be warped.
    s = make_state(pieces=CORNERS, hands={"blue": ["warp", "skip"]})
    s = play(s, {"card": "warp"})
    assert {"colour": "blue", "event": "no_effect", "card": "warp"} in s.events
    assert s.step == "place"
    assert s.discards[0] == ["warp"]


def test_r6_8_warp_not_able_when_pieces_have_no_free_spot():
    # Yellow's "2" can only cover s2 (t1's one corner square), with r2 taken; its "1" could
    # only go to r1, r4 or t4, all taken. Blue's own pieces do the blocking (never warpable).
    blue = ["a1", "r1,r2", "r4,s4,t4"]
    pieces = {"blue": blue, "yellow": ["t1", "s2,s3"], "red": ["t20"], "green": ["a20"]}
    s = make_state(pieces=pieces, hands={"blue": ["warp", "skip"]})
    s = play(s, {"card": "warp"})
    assert {"colour": "blue", "event": "no_effect", "card": "warp"} in s.events
    assert s.step == "place"


# -- R6.9 One card per turn -----------------------------------------------------------------


def test_r6_9_only_one_card_per_turn():
    s = play(make_state(pieces=CORNERS, hands={"blue": ["reverse", "skip"]}), {"card": "reverse"})
    refused(s, {"card": "skip"}, "R6.9")


def test_r6_9_no_second_card_after_a_card_with_no_effect():
    s = play(make_state(pieces=CORNERS, hands={"blue": ["warp", "skip"]}), {"card": "warp"})
    with pytest.raises(IllegalAction):
        apply(s, {"card": "skip"})


def test_r6_9_draw2_kept_card_is_played_on_top_and_no_third():
    s = make_state(
        pieces=CORNERS, hands={"blue": ["draw2", "skip"]}, piles={"blue": ["reverse", "wild"]}
    )
    s = play(s, {"card": "draw2"})
    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        apply(s, {"card": "skip"})  # during the keep decision
    assert re.search(r"R6\.[39]", str(info.value))
    assert s.to_json() == before
    s = play(s, {"keep": "reverse"})
    assert s.discards[0] == ["draw2", "reverse"]
    with pytest.raises(IllegalAction):
        apply(s, {"card": "skip"})
    s = play(s, {"place": "b2,c2"})
    assert s.hands[0] == ["skip", "wild"]
