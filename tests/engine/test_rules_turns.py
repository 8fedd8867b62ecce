"""Rule-book tests for turns, turn order, the end of the game and scoring: RULES.md R5, R7, R8, R10.

Expected values are derived from RULES.md, never copied from the engine's output.
"""

from __future__ import annotations

import random

import pytest

from games.engine import (
    CARD_KINDS,
    CARD_NAMES,
    COLOURS,
    IllegalAction,
    apply,
    has_placement,
    legal_actions,
    new_game,
    score,
)
from games.engine.pieces import SHAPES
from tests.engine.helpers import make_state, play

COLUMNS = "abcdefghijklmnopqrst"
SIZE = {name: len(shape) for name, shape in SHAPES.items()}  # R1.3's table: squares per piece


# -- helpers ----------------------------------------------------------------------------------


def refused(state, action: dict, rule: str) -> str:
    """Assert ``apply`` refuses ``action`` naming ``rule`` and leaves ``state`` untouched."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert rule in str(info.value), str(info.value)
    assert state.to_json() == before
    return str(info.value)


def placements(state) -> list[dict]:
    return [a for a in legal_actions(state) if "place" in a]


def to_move(state) -> str | None:
    return state.to_json()["to_move"]


def kinds(state) -> list[tuple[str, str]]:
    """The (colour, event) pairs of the last apply, cards and draws included."""
    return [(e["colour"], e["event"]) for e in state.events]


def cell(square: str) -> tuple[int, int]:
    return COLUMNS.index(square[0]), int(square[1:]) - 1


def corners(mode="shuffle", players=4, **kw):
    """Every colour holds its corner with a ``2``: blue a1, yellow t1, red t20, green a20."""
    pieces = {"blue": ["a1,b1"], "yellow": ["s1,t1"], "red": ["s20,t20"], "green": ["a20,b20"]}
    pieces.update(kw.pop("pieces", {}))
    return make_state(mode, players, pieces=pieces, **kw)


def first_place(state):
    return apply(state, placements(state)[0])


def corners_held_by_others(**extra):
    """Red holds a1 and t20, green t1 and a20; neither has anything left to place (out of play,
    R7.2). Blue and yellow have no piece on the board and no free corner, so they can never place
    (R4.5) although they are in play."""
    return {
        "pieces": {
            "red": ["a1,b1", "t20", "r18,r19,s19"],
            "green": ["t1,t2,t3", "a20,a19,a18,a17"],
        },
        "supply": {"red": [], "green": [], **extra},
    }


# -- R5 A main turn ---------------------------------------------------------------------------


def test_r5_1_card_step_comes_first_then_place_then_draw():
    s = corners(hands={"blue": ["reverse", "skip"]}, piles={"blue": ["wild", "edge"]})
    assert s.step == "card"
    assert sorted(a["card"] for a in legal_actions(s)) == ["reverse", "skip"]
    refused(s, {"place": "c2,d2,e2"}, "R5.1")  # no placement before the card
    refused(s, {"card": "wild"}, "R5.1")  # only a card from the hand
    s = apply(s, {"card": "reverse"})
    data = s.to_json()
    assert data["discards"]["blue"] == ["reverse"]  # face up on the discard pile
    assert data["hands"]["blue"] == ["skip"]  # nothing drawn yet
    assert data["to_move"] == "blue" and s.step == "place"
    refused(s, {"card": "skip"}, "R5.3")  # one card per turn: now the placement
    s = apply(s, {"place": "c2,d2,e2"})
    data = s.to_json()
    assert [k for _, k in kinds(s)][:2] == ["place", "draw"]  # draw after the placement
    assert data["hands"]["blue"] == ["skip", "wild"]
    assert data["draw_piles"]["blue"] == ["edge"]


def test_r5_1_empty_hand_skips_the_card_step():
    s = corners(piles={"blue": ["skip"]})
    assert s.step == "place"
    assert placements(s) and all("place" in a for a in legal_actions(s))
    refused(s, {"card": "skip"}, "R5.3")
    s = apply(s, {"place": "c2,d2,e2"})
    assert s.to_json()["hands"]["blue"] == ["skip"]


def test_r5_1_card_that_cannot_be_carried_out_is_discarded_with_no_effect():
    # Draw 2 is able only with cards in the pile (R6.3); here the pile is empty.
    s = corners(hands={"blue": ["draw2"]}, discards={"blue": ["skip"]})
    s = apply(s, {"card": "draw2"})
    data = s.to_json()
    assert ("blue", "no_effect") in kinds(s)
    assert data["discards"]["blue"] == ["skip", "draw2"]
    assert data["hands"]["blue"] == [] and data["drawn"] == []
    assert s.step == "place" and to_move(s) == "blue"


def test_r5_2_card_effect_applies_to_this_turns_piece_only():
    # Yellow, red and green have nothing left to place, so blue moves again right away (R7.2).
    out = {"yellow": [], "red": [], "green": []}
    s = corners(hands={"blue": ["wild"]}, supply=out)
    s = play(s, {"card": "wild"}, {"declare": "red"})
    assert s.to_json()["effect"]["wild"] == "red"
    s = apply(s, {"place": "r19"})  # r19 touches red s20 at a corner, blue nowhere
    data = s.to_json()
    assert data["board"][1][17] == "B"  # placed as blue
    assert to_move(s) == "blue" and s.step == "place"
    assert data["effect"]["wild"] is None
    # Blue's next piece follows R4 for blue again: its r19 piece counts as blue.
    found = {a["place"] for a in placements(s)}
    assert "q16,q17,q18" in found  # q18 touches blue r19 at a corner
    assert "s17,s18,s19" not in found  # s19 lies along blue r19's side
    blue = {cell(q) for q in ("a1", "b1", "r19")}
    for text in found:
        sq = {cell(q) for q in text.split(",")}
        near = {(x + dx, y + dy) for x, y in sq for dx in (1, -1) for dy in (1, -1)}
        beside = {(x + d, y) for x, y in sq for d in (1, -1)} | {
            (x, y + d) for x, y in sq for d in (1, -1)
        }
        assert near & blue and not beside & blue, text


def test_r5_2_effect_lapses_when_the_colour_places_no_piece():
    # Blue declares green with Wild; green has no piece on the board and no corner is free
    # (R4.5, R6.4), so blue passes and the effect lapses.
    s = make_state(
        "shuffle",
        pieces={"blue": ["a1,b1"], "yellow": ["t1"], "red": ["t20", "a20,b20"]},
        hands={"blue": ["wild", "wild"]},
    )
    s = play(s, {"card": "wild"}, {"declare": "green"})
    assert ("blue", "pass") in kinds(s)
    assert to_move(s) == "yellow" and s.to_json()["effect"]["wild"] is None
    s = first_place(first_place(s))  # yellow, red; green passes by itself
    assert ("green", "pass") in kinds(s)
    assert to_move(s) == "blue" and s.step == "card"
    assert s.to_json()["effect"]["wild"] is None
    s = apply(s, {"card": "wild"})
    assert s.step == "declare" and s.to_json()["effect"]["wild"] is None


def test_r5_3_classic_turn_is_only_the_placement():
    s = corners("classic")
    assert s.step == "place"
    actions = legal_actions(s)
    assert actions and all(set(a) == {"place"} for a in actions)
    s = apply(s, {"place": "c2,d2,e2"})
    assert kinds(s) == [("blue", "place")]
    assert to_move(s) == "yellow"


def test_r5_3_piece_must_come_from_the_supply():
    s = corners("classic", supply={"blue": ["I3", "V3"]})
    refused(s, {"place": "c2,d2"}, "R5.3")  # the 2 is on the board already
    refused(s, {"place": "c2,d2,e2,f2"}, "R5.3")  # I4 is not in the supply
    assert {len(a["place"].split(",")) for a in placements(s)} == {3}
    s = apply(s, {"place": "c2,d2,e2"})
    assert s.to_json()["supply"]["blue"] == ["V3"]


def test_r5_3_a_colour_that_cannot_place_passes_by_itself():
    # Blue, in play with a full supply, can never place (corners_held_by_others).
    s = make_state("shuffle", **corners_held_by_others(), hands={"blue": ["reverse"]})
    refused(s, {"pass": "blue"}, "")  # a pass is never an action
    s = apply(s, {"card": "reverse"})  # then the pass happens inside apply
    assert ("blue", "pass") in kinds(s)
    assert s.to_json()["discards"]["blue"] == ["reverse"]
    # While a placement exists, legal_actions offers only placements: no pass.
    s = corners("classic")
    assert all(set(a) == {"place"} for a in legal_actions(s)) and legal_actions(s)


def test_r5_4_draw_the_top_card_after_the_turn():
    s = corners(hands={"blue": ["reverse"]}, piles={"blue": ["skip", "wild", "edge"]})
    s = play(s, {"card": "reverse"}, {"place": "c2,d2,e2"})
    data = s.to_json()
    assert data["hands"]["blue"] == ["skip"]  # the top card
    assert data["draw_piles"]["blue"] == ["wild", "edge"]


def test_r5_4_draw_even_when_the_placement_is_passed():
    s = make_state(
        "shuffle",
        **corners_held_by_others(),
        hands={"blue": ["reverse"], "yellow": ["skip"]},
        piles={"blue": ["warp", "edge"], "yellow": ["double"]},
    )
    s = apply(s, {"card": "reverse"})
    assert kinds(s) == [("blue", "card"), ("blue", "pass"), ("blue", "draw")]
    assert s.to_json()["hands"]["blue"] == ["warp"]
    assert to_move(s) == "yellow" and s.step == "card"


def test_r5_4_empty_pile_draws_nothing_and_discards_are_never_reshuffled():
    s = corners(hands={"blue": ["reverse"]}, discards={"blue": ["skip", "edge", "wild"]})
    s = play(s, {"card": "reverse"}, {"place": "c2,d2,e2"})
    data = s.to_json()
    assert ("blue", "draw") not in kinds(s)
    assert data["hands"]["blue"] == []
    assert data["draw_piles"]["blue"] == []
    assert data["discards"]["blue"] == ["skip", "edge", "wild", "reverse"]
    # Next time round blue has no card and skips the card step.
    s = first_place(first_place(first_place(s)))
    assert to_move(s) == "blue" and s.step == "place"
    assert s.to_json()["draw_piles"]["blue"] == []


def test_r5_5_hand_shrinks_once_the_pile_is_empty():
    s = corners(hands={"blue": ["reverse", "reverse"]}, piles={"blue": ["reverse"]})
    sizes = []
    for _ in range(4):
        assert to_move(s) == "blue"
        sizes.append(len(s.to_json()["hands"]["blue"]))
        if s.step == "card":
            s = apply(s, {"card": "reverse"})
        s = first_place(s)
        while to_move(s) != "blue":  # the others have no cards
            s = first_place(s)
    assert sizes == [2, 2, 1, 0]


def test_r5_5_hand_holds_two_cards_at_each_turn_start_while_the_pile_lasts():
    rng = random.Random(55)
    s = new_game(mode="shuffle", players=4, seed=55)
    starts = 0
    emptied = set()
    while not s.over:
        if s.step == "card":  # the card step only ever opens a turn
            owner = COLOURS[s.owner(s.turn)]
            hand = s.to_json()["hands"][owner]
            pile = s.to_json()["draw_piles"][owner]
            if pile:
                assert len(hand) == 2, (owner, hand, pile)
            else:
                assert 1 <= len(hand) <= 2
                emptied.add(owner)
            starts += 1
        s = apply(s, rng.choice(legal_actions(s)))
    assert starts > 40 and emptied  # some pile ran out during the game
    for hand in s.to_json()["hands"].values():
        assert len(hand) <= 2


# -- R7 Turn order ----------------------------------------------------------------------------


def test_r7_1_play_moves_blue_yellow_red_green_blue():
    s = corners("classic")
    order = []
    for _ in range(6):
        order.append(to_move(s))
        s = first_place(s)
    assert order == ["blue", "yellow", "red", "green", "blue", "yellow"]
    assert s.direction == 1


def test_r7_1_reverse_flips_the_direction():
    s = corners(hands={"blue": ["reverse"]})
    s = play(s, {"card": "reverse"}, {"place": "c2,d2,e2"})
    assert s.direction == -1 and s.to_json()["direction"] == -1
    order = []
    for _ in range(5):
        order.append(to_move(s))
        s = first_place(s)
    assert order == ["green", "red", "yellow", "blue", "green"]


def test_r7_2_colour_with_empty_supply_takes_no_turns_and_plays_no_cards():
    s = corners(
        supply={"yellow": []},
        hands={"yellow": ["skip", "reverse"]},
        piles={"yellow": ["wild"]},
    )
    order = []
    for _ in range(4):
        order.append(to_move(s))
        s = first_place(s)
    assert order == ["blue", "red", "green", "blue"]
    data = s.to_json()
    assert data["hands"]["yellow"] == ["skip", "reverse"]
    assert data["draw_piles"]["yellow"] == ["wild"] and data["discards"]["yellow"] == []


def test_r7_2_recycle_brings_a_colour_back_into_play():
    # Two players: blue's player also plays red. Red has placed everything.
    s = make_state(
        "shuffle",
        2,
        pieces={
            "blue": ["a1,b1"],
            "yellow": ["s1,t1"],
            "red": ["t20", "r19,s19"],
            "green": ["a20,b20"],
        },
        supply={"red": []},
        hands={"blue": ["recycle"]},
    )
    assert [a["recycle"] for a in legal_actions(apply(s, {"card": "recycle"}))] == [
        "a1,b1",
        "r19,s19",
        "t20",
    ]
    # Without red in play: blue → yellow → green.
    t = first_place(
        first_place(apply(corners(players=2, supply={"red": []}), {"place": "c2,d2,e2"}))
    )
    assert to_move(t) == "blue"
    s = play(s, {"card": "recycle"}, {"recycle": "r19,s19"}, {"place": "c2,d2,e2"})
    assert s.to_json()["supply"]["red"] == ["2"]
    assert to_move(s) == "yellow"
    s = first_place(s)
    assert to_move(s) == "red"  # back in play


def test_r7_3_next_colour_is_the_next_in_play_in_the_current_direction():
    s = corners("classic", direction=-1, supply={"red": []})
    order = []
    for _ in range(4):
        order.append(to_move(s))
        s = first_place(s)
    assert order == ["blue", "green", "yellow", "blue"]


def test_r7_3_skip_hits_the_next_colour_in_play():
    s = corners(supply={"yellow": []}, hands={"blue": ["skip"]})
    s = play(s, {"card": "skip"}, {"place": "c2,d2,e2"})
    assert ("red", "skipped") in kinds(s)
    assert to_move(s) == "green"


# -- R8 End and scoring -----------------------------------------------------------------------


def blue_holds_every_corner(blue_supply):
    """Classic. Blue holds all four corners; yellow, red and green have no piece on the board,
    so with no free corner they can never place (R4.5) though they are in play."""
    return make_state(
        "classic",
        pieces={"blue": ["a1,b1,c1", "t1,t2,t3,t4", "p20,q20,r20,s20,t20", "a19,a20,b19,b20"]},
        supply={"blue": blue_supply},
    )


def test_r8_1_game_ends_when_every_colour_in_play_has_passed_since_the_last_change():
    s = blue_holds_every_corner(["1", "2"])
    s = apply(s, {"place": "d2"})
    assert kinds(s) == [("blue", "place"), ("yellow", "pass"), ("red", "pass"), ("green", "pass")]
    # Three of the four colours in play have passed: blue has not, so the game goes on.
    assert not s.over and to_move(s) == "blue"
    assert s.to_json()["passed"] == ["yellow", "red", "green"]
    # Blue's placement changes the board: the others must pass again before the end (blue,
    # with an empty supply, is no longer in play).
    s = apply(s, {"place": "e3,f3"})
    assert kinds(s)[:4] == [("blue", "place"), ("yellow", "pass"), ("red", "pass")] + [
        ("green", "pass")
    ]
    assert kinds(s)[-1][1] == "over" and s.over
    assert s.step == "over" and to_move(s) is None
    assert legal_actions(s) == []
    refused(s, {"place": "g4"}, "R8.1")


def test_r8_1_classic_ends_when_nobody_can_place():
    s = blue_holds_every_corner(["I5"])
    # Blue can place the I5 once; afterwards nobody can place anything.
    s = apply(s, {"place": "d2,e2,f2,g2,h2"})
    assert s.over
    for c in range(4):
        if s.supply[c]:
            probe = s.copy()
            probe.turn, probe.step = c, "place"
            assert not has_placement(probe)


def test_r8_1_game_ends_when_no_colour_is_in_play():
    s = corners("classic", supply={c: ["1"] for c in COLOURS})
    s = first_place(first_place(first_place(s)))  # blue, yellow, red each place their 1
    assert not s.over and to_move(s) == "green"
    s = first_place(s)
    assert s.over
    assert not any(k == "pass" for _, k in kinds(s))
    assert score(s)["remaining"] == {c: 0 for c in COLOURS}


def test_r8_1_a_warp_turn_changes_the_board_and_is_not_a_pass():
    # Only blue is in play, and blue can never place. Red and green hold the corners; red has
    # three pieces, so blue may warp one of them (R6.8).
    setup = corners_held_by_others()
    base = dict(pieces=setup["pieces"], supply={**setup["supply"], "yellow": []})
    # Baseline: a card that leaves the board as it is: blue passes and the game ends at once.
    s = make_state("shuffle", **base, hands={"blue": ["reverse"]})
    s = apply(s, {"card": "reverse"})
    assert s.over and [k for _, k in kinds(s)].count("pass") == 1
    # A Warp changes the board: that turn is not a pass, so blue must pass once more.
    s = make_state("shuffle", **base, hands={"blue": ["warp"]})
    s = apply(s, {"card": "warp"})
    assert s.step == "warp" and not s.over
    # Red's V3 moves next to red a1–b1 (c2 touches b1 at a corner); every corner stays taken.
    s = apply(s, {"warp": "r18,r19,s19", "to": "c2,c3,d2"})
    events = [k for _, k in kinds(s)]
    assert events[0] == "warp" and events.count("pass") == 2 and events[-1] == "over"


def test_r8_1_a_recycle_turn_changes_the_board_and_is_not_a_pass():
    # Two players. Blue (no piece on the board, no free corner) cannot place; its player
    # recycles a red piece, so the turn counts as a change even though blue then passes.
    s = make_state(
        "shuffle",
        2,
        pieces={
            "red": ["a1", "t20,s20", "r19,r18,r17"],
            "green": ["t1,t2,t3", "a20,a19,a18,a17"],
        },
        supply={"red": [], "green": [], "yellow": []},
        hands={"blue": ["recycle"]},
    )
    s = play(s, {"card": "recycle"}, {"recycle": "r17,r18,r19"})
    assert ("blue", "pass") in kinds(s)
    assert not s.over
    assert s.to_json()["passed"] == []
    assert to_move(s) == "red"  # red, back in play, may put its I3 somewhere


def test_r8_1_a_turn_lost_to_skip_is_not_a_pass():
    # Blue and yellow are in play and can never place; red and green are out of play.
    s = make_state("shuffle", **corners_held_by_others(), hands={"blue": ["skip"]})
    s = apply(s, {"card": "skip"})
    assert s.over
    assert kinds(s)[:5] == [
        ("blue", "card"),
        ("blue", "pass"),
        ("yellow", "skipped"),  # not a pass: yellow still has to pass
        ("blue", "pass"),
        ("yellow", "pass"),
    ]
    assert len(kinds(s)) == 6 and kinds(s)[5][1] == "over"


def test_r8_2_remaining_is_the_squares_left_in_the_supply():
    s = new_game(mode="classic")
    assert score(s)["remaining"]["blue"] == sum(SIZE.values()) == 89
    s = apply(s, {"place": "a1,a2,a3,a4,a5"})
    assert score(s)["remaining"] == {"blue": 84, "yellow": 89, "red": 89, "green": 89}
    s = make_state("classic", supply={"red": ["X", "1", "V3"]}, settle=False)
    assert score(s)["remaining"]["red"] == 5 + 1 + 3


def scored(mode, players, scoring, supply, pieces=None, shared_color=None):
    s = make_state(
        mode,
        players,
        pieces=pieces or {},
        supply=supply,
        scoring=scoring,
        shared_color=shared_color,
        settle=False,
    )
    return score(s)


def by_seat(result) -> list[tuple[int, int]]:
    return [(p["score"], p["place"]) for p in result["players"]]


@pytest.mark.parametrize("mode", ["classic", "shuffle"])
def test_r8_3_basic_scoring_four_players(mode):
    supply = {"blue": ["I5", "O"], "yellow": ["1"], "red": [], "green": ["2", "V3"]}
    result = scored(mode, 4, "basic", supply)
    assert result["remaining"] == {"blue": 9, "yellow": 1, "red": 0, "green": 5}
    # Lowest wins: red 1st, yellow 2nd, green 3rd, blue 4th.
    assert by_seat(result) == [(9, 4), (1, 2), (0, 1), (5, 3)]
    assert [p["colours"] for p in result["players"]] == [[c] for c in COLOURS]


@pytest.mark.parametrize("mode", ["classic", "shuffle"])
def test_r8_3_basic_scoring_three_players_ignores_the_shared_colour(mode):
    supply = {"blue": ["I5"], "yellow": ["O", "1"], "red": ["2"], "green": []}
    result = scored(mode, 3, "basic", supply)
    assert [p["colours"] for p in result["players"]] == [["blue"], ["yellow"], ["red"]]
    assert by_seat(result) == [(5, 2), (5, 2), (2, 1)]  # green's 0 counts for nobody
    result = scored(mode, 3, "basic", supply, shared_color="yellow")
    assert [p["colours"] for p in result["players"]] == [["blue"], ["red"], ["green"]]
    assert by_seat(result) == [(5, 3), (2, 2), (0, 1)]


def test_r8_3_basic_scoring_two_players_shuffle_uses_the_larger_remaining():
    supply = {"blue": ["I5", "O", "1"], "red": ["V3"], "yellow": ["X", "1"], "green": ["P", "1"]}
    result = scored("shuffle", 2, "basic", supply)
    assert result["players"][0]["colours"] == ["blue", "red"]
    assert result["players"][1]["colours"] == ["yellow", "green"]
    # A: max(10, 3) = 10; B: max(6, 6) = 6, lower wins.
    assert by_seat(result) == [(10, 2), (6, 1)]


def test_r8_3_basic_scoring_two_players_classic_uses_the_sum():
    supply = {"blue": ["I5", "O", "1"], "red": ["V3"], "yellow": ["X", "1"], "green": ["P", "1"]}
    result = scored("classic", 2, "basic", supply)
    # A: 10 + 3 = 13; B: 6 + 6 = 12, lower wins.
    assert by_seat(result) == [(13, 2), (12, 1)]
    supply["green"] = ["P", "1", "I4"]  # B: 6 + 10 = 16 > 13 although its larger is 10 too
    assert by_seat(scored("classic", 2, "basic", supply)) == [(13, 1), (16, 2)]


def test_r8_3_equal_scores_share_the_place():
    supply = {"blue": ["V3"], "yellow": ["I3"], "red": ["O"], "green": ["1", "2"]}
    result = scored("classic", 4, "basic", supply)
    places = [p["place"] for p in result["players"]]
    assert places[0] == places[1] == places[3] == 1  # 3, 3, 3
    assert places[2] > 1  # red's 4 is worse


def finished(colour_last: dict[str, str]) -> dict[str, list[str]]:
    """Pieces on the board whose last placed piece is the ``1`` or the ``2`` (the others are
    left out: scoring reads only the supply and the last piece)."""
    spot = {
        "blue": ("a1", "a1,b1"),
        "yellow": ("t1", "s1,t1"),
        "red": ("t20", "s20,t20"),
        "green": ("a20", "a20,b20"),
    }
    return {c: [spot[c][0] if p == "1" else spot[c][1]] for c, p in colour_last.items()}


@pytest.mark.parametrize("mode", ["classic", "shuffle"])
def test_r8_4_advanced_scoring_four_players(mode):
    supply = {"blue": [], "yellow": [], "red": ["V3", "I3"], "green": ["2"]}
    pieces = finished({"blue": "1", "yellow": "2", "green": "1"})
    result = scored(mode, 4, "advanced", supply, pieces)
    # blue: nothing left, 1 last → 15 + 5; yellow: nothing left → 15; red −6; green −2 (its 1
    # came last but something remains: no bonus).
    assert result["points"] == {"blue": 20, "yellow": 15, "red": -6, "green": -2}
    assert by_seat(result) == [(20, 1), (15, 2), (-6, 4), (-2, 3)]  # highest wins


@pytest.mark.parametrize("mode", ["classic", "shuffle"])
def test_r8_4_advanced_scoring_three_players(mode):
    supply = {"blue": ["O"], "yellow": [], "red": ["2"], "green": []}
    pieces = finished({"yellow": "2", "green": "1"})
    result = scored(mode, 3, "advanced", supply, pieces)
    assert len(result["players"]) == 3
    assert by_seat(result) == [(-4, 3), (15, 1), (-2, 2)]  # green's +20 counts for nobody


def test_r8_4_advanced_scoring_two_players_shuffle_uses_the_worse_colour():
    supply = {"blue": [], "red": ["L5", "V3"], "yellow": ["O"], "green": ["I5"]}
    pieces = finished({"blue": "1"})
    result = scored("shuffle", 2, "advanced", supply, pieces)
    # A: min(+20, −8) = −8; B: min(−4, −5) = −5; highest wins.
    assert by_seat(result) == [(-8, 2), (-5, 1)]


def test_r8_4_advanced_scoring_two_players_classic_uses_the_sum():
    supply = {"blue": [], "red": ["L5", "V3"], "yellow": ["O"], "green": ["I5"]}
    pieces = finished({"blue": "1"})
    result = scored("classic", 2, "advanced", supply, pieces)
    # A: 20 − 8 = 12; B: −4 − 5 = −9.
    assert by_seat(result) == [(12, 1), (-9, 2)]


def test_r8_4_equal_advanced_scores_share_the_place():
    supply = {"blue": ["O"], "yellow": ["T4"], "red": ["1"], "green": ["V3"]}
    result = scored("classic", 4, "advanced", supply)
    places = [p["place"] for p in result["players"]]
    assert places[0] == places[1]  # −4 and −4
    assert places[2] == 1 and places[3] == 2 and places[0] > 2


def test_r8_5_worked_examples():
    supply = {
        "blue": [],
        "yellow": ["L4", "Z4"],  # two 4-square pieces
        "red": ["V3", "I4", "O", "T4", "L4", "X"],  # one 3-, four 4-, one 5-square piece
        "green": ["I3", "I4", "O", "T4", "N"],  # one 3-, three 4-, one 5-square piece
    }
    result = scored("classic", 4, "advanced", supply, finished({"blue": "1"}))
    assert result["points"] == {"blue": 20, "yellow": -8, "red": -24, "green": -20}


def test_r8_5_all_placed_with_the_1_last_by_actual_play():
    s = corners(
        "classic",
        scoring="advanced",
        supply={"blue": ["1"], "yellow": ["1"], "red": ["V3"], "green": ["I4"]},
    )
    s = play(s, {"place": "c2"}, {"place": "r2"})  # blue's and yellow's last piece: the 1
    s = play(s, {"place": "r19,r18,q18"}, {"place": "c19,c18,c17,c16"})
    assert s.over
    points = score(s)["points"]
    assert points == {"blue": 20, "yellow": 20, "red": 15, "green": 15}


# -- a whole game -----------------------------------------------------------------------------


def test_whole_seeded_classic_four_player_game_ends_with_a_consistent_score():
    rng = random.Random(20240607)
    s = new_game(mode="classic", players=4)
    for _ in range(400):
        if s.over:
            break
        s = apply(s, rng.choice(legal_actions(s)))
    assert s.over
    data = s.to_json()
    result = score(s)
    seen: set[tuple[int, int]] = set()
    for colour in COLOURS:
        own: set[tuple[int, int]] = set()
        for i, text in enumerate(data["pieces"][colour]):
            sq = {cell(q) for q in text.split(",")}
            assert not sq & seen  # R4.1: no square covered twice
            if i == 0:  # R3.1: the first piece covers a corner
                assert sq & {(0, 0), (19, 0), (19, 19), (0, 19)}
            else:  # R4.2 / R4.3 against the colour's earlier pieces
                sides = {(x + dx, y + dy) for x, y in own for dx, dy in ((1, 0), (-1, 0))}
                sides |= {(x + dx, y + dy) for x, y in own for dx, dy in ((0, 1), (0, -1))}
                diag = {(x + dx, y + dy) for x, y in own for dx in (1, -1) for dy in (1, -1)}
                assert sq & diag and not sq & sides
            own |= sq
            seen |= sq
        # R8.2: remaining = 89 minus the squares on the board; the supply matches.
        assert result["remaining"][colour] == 89 - len(own)
        assert result["remaining"][colour] == sum(SIZE[p] for p in data["supply"][colour])
        assert len(data["supply"][colour]) + len(data["pieces"][colour]) == 21
    # R8.1 in classic: nobody in play can place any more.
    for c in range(4):
        if s.supply[c]:
            probe = s.copy()
            probe.turn, probe.step = c, "place"
            assert not has_placement(probe)
    # R8.3 basic, four players: score = remaining; lowest wins, ties share.
    scores = [p["score"] for p in result["players"]]
    assert scores == [result["remaining"][c] for c in COLOURS]
    for p in result["players"]:
        assert p["place"] == 1 + sum(1 for other in scores if other < p["score"])


# -- R10 Card names ---------------------------------------------------------------------------


def test_r10_english_card_names_match_the_rule_sheet():
    en = ["Skip", "Reverse", "Draw 2", "Wild", "Edge to Edge", "Recycle", "Warp", "Double Play"]
    assert set(CARD_NAMES) == set(CARD_KINDS)
    assert sorted(CARD_NAMES.values()) == sorted(en)
    assert CARD_NAMES == {
        "skip": "Skip",
        "reverse": "Reverse",
        "draw2": "Draw 2",
        "wild": "Wild",
        "edge": "Edge to Edge",
        "recycle": "Recycle",
        "warp": "Warp",
        "double": "Double Play",
    }
