"""Hidden information: RULES.md R9.1–R9.4, through ``view(state, seat)``.

A leak test is only meaningful against a second state that differs in exactly the parts a seat may
not know: two such states must give that seat identical views (and serialised views), while the
seat that may know them sees the difference.
"""

from __future__ import annotations

import json

import pytest

from games.engine import new_game, view
from games.engine.state import State
from tests.engine.helpers import make_state, play

CORNERS = {"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]}
SETUP = [{"place": "a1"}, {"place": "t1"}, {"place": "t20"}, {"place": "a20"}]
SEED = 918273645546372819  # long and distinctive: searchable in a serialised view
OTHER_SEED = 102938475610293847


def variant(state: State, change) -> State:
    """A copy of ``state`` with ``change(data)`` applied to its referee JSON."""
    data = state.to_json()
    change(data)
    return State.from_json(data)


def seats(state: State) -> list[int | None]:
    return [*range(state.players), None]


def same_view(a: State, b: State, seat: int | None) -> bool:
    va, vb = view(a, seat), view(b, seat)
    return va == vb and json.dumps(va, sort_keys=True) == json.dumps(vb, sort_keys=True)


def mid_game() -> State:
    """Four players, blue to place after Wild declared red; every deck holds something."""
    s = make_state(
        pieces=CORNERS,
        hands={"blue": ["wild", "skip"], "yellow": ["reverse", "warp"], "red": ["draw2"]},
        piles={"blue": ["edge", "double"], "yellow": ["recycle"]},
        discards={"red": ["skip"]},
        direction=-1,
    )
    s = play(s, {"card": "wild"}, {"declare": "red"})
    return variant(s, lambda d: d.update(seed=SEED))


# -- R9.1 Public ----------------------------------------------------------------------------


def test_r9_1_every_seat_sees_the_public_parts():
    s = mid_game()
    full = s.to_json()
    for seat in seats(s):
        v = view(s, seat)
        for key in ("board", "supply", "pieces", "discards", "to_move", "step", "direction"):
            assert v[key] == full[key], key
        assert v["discards"] == {"blue": ["wild"], "yellow": [], "red": ["skip"], "green": []}
        assert v["hand_counts"] == {"blue": 1, "yellow": 2, "red": 1, "green": 0}
        assert v["pile_counts"] == {"blue": 2, "yellow": 1, "red": 0, "green": 0}
        assert v["to_move"] == "blue" and v["controller"] == 0
        assert v["direction"] == -1
        assert v["step"] == "place"
        assert v["effect"]["wild"] == "red"


def test_r9_1_public_changes_show_in_every_view():
    s = mid_game()
    # Another discard pile, direction and effect: every seat's view changes.
    t = variant(s, lambda d: d.update(direction=1))
    u = variant(s, lambda d: d["discards"]["yellow"].append("edge"))
    for seat in seats(s):
        assert not same_view(s, t, seat)
        assert not same_view(s, u, seat)


# -- R9.2 Private to the player -------------------------------------------------------------


def test_r9_2_own_hand_visible_to_own_seat_only():
    s = mid_game()
    assert view(s, 0)["hand"] == ["skip"]
    assert view(s, 1)["hand"] == ["reverse", "warp"]
    assert view(s, 2)["hand"] == ["draw2"]
    assert view(s, 3)["hand"] == []
    assert view(s, None)["hand"] is None
    # Yellow holding other cards (same count) changes only yellow's own view.
    t = variant(s, lambda d: d["hands"].update(yellow=["double", "edge"]))
    assert not same_view(s, t, 1)
    for seat in (0, 2, 3, None):
        assert same_view(s, t, seat)


def test_r9_2_two_players_hand_shared_by_both_colours():
    s = make_state(
        players=2,
        pieces=CORNERS,
        hands={"blue": ["reverse", "skip"], "yellow": ["wild", "edge"]},
        piles={"blue": ["warp", "double"], "yellow": ["draw2"]},
        to_move="red",
    )
    assert view(s, 0)["hand"] == ["reverse", "skip"]  # red's turn: the blue/red hand
    assert view(s, 1)["hand"] == ["wild", "edge"]
    t = variant(s, lambda d: d["hands"].update(blue=["recycle", "recycle"]))
    assert not same_view(s, t, 0)
    assert same_view(s, t, 1) and same_view(s, t, None)
    u = variant(s, lambda d: d["hands"].update(yellow=["skip", "skip"]))
    assert not same_view(s, u, 1)
    assert same_view(s, u, 0) and same_view(s, u, None)


def test_r9_2_two_players_draw2_on_reds_turn_seen_by_the_blue_red_player():
    s = make_state(
        players=2,
        pieces=CORNERS,
        hands={"blue": ["draw2", "skip"], "yellow": ["wild", "edge"]},
        piles={"blue": ["warp", "reverse", "double"]},
        to_move="red",
    )
    s = play(s, {"card": "draw2"})
    assert s.step == "keep"
    assert view(s, 0)["drawn"] == ["warp", "reverse"]
    assert view(s, 1)["drawn"] == [] and view(s, None)["drawn"] == []
    t = variant(s, lambda d: d.update(drawn=["recycle", "recycle"]))
    assert not same_view(s, t, 0)
    assert same_view(s, t, 1) and same_view(s, t, None)


def draw2_pair() -> tuple[State, State]:
    """Two games equal in public parts whose blue decks differ under the first card."""
    hands = {"blue": ["draw2", "reverse"], "yellow": ["skip", "edge"]}
    a = make_state(pieces=CORNERS, hands=hands, piles={"blue": ["skip", "wild", "edge", "double"]})
    b = make_state(pieces=CORNERS, hands=hands, piles={"blue": ["skip", "warp", "recycle", "wild"]})
    return a, b


def test_r9_2_draw2_cards_seen_by_their_player_only():
    a, b = (play(s, {"card": "draw2"}) for s in draw2_pair())
    assert a.step == "keep"
    assert view(a, 0)["drawn"] == ["skip", "wild"]
    assert view(b, 0)["drawn"] == ["skip", "warp"]
    for seat in (1, 2, 3, None):
        assert view(a, seat)["drawn"] == []
        assert view(a, seat)["drawn_count"] == 2
        assert same_view(a, b, seat)


def test_r9_2_card_put_to_the_bottom_known_to_its_player_only():
    a, b = (play(s, {"card": "draw2"}, {"keep": "skip"}) for s in draw2_pair())
    assert view(a, 0)["pile_bottom"] == ["wild"]
    assert view(b, 0)["pile_bottom"] == ["warp"]
    for seat in (1, 2, 3, None):
        assert view(a, seat)["pile_bottom"] == []
        assert same_view(a, b, seat)
    # Blue places and draws its next card (edge / recycle): still hidden from the others,
    # and blue still knows the bottom card.
    a, b = (play(s, {"place": "b2,c2"}) for s in (a, b))
    assert view(a, 0)["hand"] == ["reverse", "edge"]
    assert view(a, 0)["pile_bottom"] == ["wild"]
    assert view(b, 0)["pile_bottom"] == ["warp"]
    for seat in (1, 2, 3, None):
        assert same_view(a, b, seat)


# -- R9.3 Secret from everyone --------------------------------------------------------------


def test_r9_3_pile_order_secret_even_from_its_owner():
    s = mid_game()
    t = variant(s, lambda d: d["draw_piles"].update(blue=["double", "edge"]))
    for seat in seats(s):
        assert same_view(s, t, seat)


def test_r9_3_unknown_part_of_pile_secret_when_bottom_is_known():
    a = play(draw2_pair()[0], {"card": "draw2"}, {"keep": "skip"})
    assert a.to_json()["draw_piles"]["blue"] == ["edge", "double", "wild"]
    b = variant(a, lambda d: d["draw_piles"].update(blue=["double", "edge", "wild"]))
    for seat in seats(a):
        assert same_view(a, b, seat)


def test_r9_3_seed_secret():
    s = mid_game()
    t = variant(s, lambda d: d.update(seed=OTHER_SEED))
    for seat in seats(s):
        assert same_view(s, t, seat)
        assert str(SEED) not in json.dumps(view(s, seat))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r9_3_shuffle_secret_in_a_new_game(players):
    a, b = new_game(players=players, seed=SEED), new_game(players=players, seed=OTHER_SEED)
    assert a.to_json()["draw_piles"] != b.to_json()["draw_piles"]
    # Before anyone holds a card, the two shuffles look the same to everyone.
    for seat in seats(a):
        assert same_view(a, b, seat)
        assert str(SEED) not in json.dumps(view(a, seat))
    # Blue's player draws two after its setup placement: only that seat may see them.
    a, b = play(a, SETUP[0]), play(b, SETUP[0])
    for seat in seats(a)[1:]:
        assert same_view(a, b, seat)
    assert view(a, 0)["hand"] == a.to_json()["hands"]["blue"]
    # After the whole setup round, spectators still see nothing of any hand.
    a, b = play(a, *SETUP[1:]), play(b, *SETUP[1:])
    assert same_view(a, b, None)


# -- R9.4 After the end ---------------------------------------------------------------------


def nearly_over() -> State:
    """Blue places its last piece and no colour is left in play: the game ends."""
    s = make_state(
        pieces={"yellow": ["t1"], "red": ["t20"], "green": ["a20"]},
        supply={"blue": ["1"], "yellow": [], "red": [], "green": []},
        hands={"yellow": ["skip", "wild"], "red": ["edge"]},
        piles={"blue": ["warp", "double"], "yellow": ["recycle", "reverse"]},
    )
    return variant(s, lambda d: d.update(seed=SEED))


def test_r9_4_everything_shown_after_the_game_ends():
    before = nearly_over()
    for seat in (0, 2, 3, None):
        assert "seed" not in view(before, seat)
        assert view(before, seat)["hand"] != ["skip", "wild"]
    s = play(before, {"place": "a1"})
    assert s.over
    full = s.to_json()
    for seat in seats(s):
        v = view(s, seat)
        assert v["seed"] == SEED
        assert v["hands"] == full["hands"]
        assert v["hands"]["yellow"] == ["skip", "wild"]
        assert v["draw_piles"] == full["draw_piles"]
        assert v["draw_piles"]["blue"] == ["double"]
        assert {k: v[k] for k in full} == full
