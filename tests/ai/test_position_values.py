"""The tree search's value of a position for a seat, whoever is to move there (``mcts.seat_value``),
and Expert's use of it: a Shuffle candidate after which the colour cannot place (a declared
colour that leaves it no placement, R6.4 / R5.3) is valued by the same search as the candidates
after which it places."""

from __future__ import annotations

import random

import pytest

from games.ai import decide, determinize, mcts
from games.ai.expert import ExpertParams, candidates, places, rest_of_turn
from games.ai.players import Casual
from games.engine import apply, legal_actions, new_game, score, view
from tests.ai.positions import random_positions

INF = float("inf")


def _mid_game(players: int, seed: int):
    """A classic position of random play, well into the game, with the game still on."""
    states = [s for s in random_positions("classic", players, seed=seed) if s.ply >= 24]
    assert states, "the random game ended early"
    return states[0]


def test_the_movers_value_is_the_value_of_the_search_pick_and_two_players_add_up_to_one():
    s = _mid_game(2, 21)
    mover = s.controller()
    _, stats = mcts.mcts_choose(s, deadline=INF, max_sims=300, seed=5)
    mine = mcts.seat_value(s, mover, deadline=INF, max_sims=300, seed=5)
    theirs = mcts.seat_value(s, 1 - mover, deadline=INF, max_sims=300, seed=5)
    assert mine == pytest.approx(stats["value"], abs=1e-5)
    assert stats["values"] == pytest.approx([mine, theirs] if mover == 0 else [theirs, mine])
    assert mine + theirs == pytest.approx(1.0)  # a playout's two values add up to 1


def test_a_finished_game_is_valued_by_its_result():
    rng = random.Random(3)
    s = new_game(mode="classic", players=4, seed=3)
    while not s.over:
        s = apply(s, rng.choice(legal_actions(s)))
    places_ = {p["seat"]: p["place"] for p in score(s)["players"]}
    found = [mcts.seat_value(s, seat, deadline=INF, max_sims=50, seed=1) for seat in range(4)]
    assert found == list(mcts.final_values(s))
    best, worst = min(places_, key=places_.get), max(places_, key=places_.get)
    assert places_[best] < places_[worst] and found[best] > found[worst]
    # The same board with the game not yet declared over: no colour can place, so the search
    # has nothing to search and stops at once, with no simulation cap and no deadline.
    stuck = s.copy()
    stuck.step, stuck.turn = "place", 0
    assert not stuck.over
    assert [mcts.seat_value(stuck, seat, deadline=INF, seed=1) for seat in range(4)] == found


def _stranded(players: int, seed: int):
    """A Shuffle decision of random play (card, kept card or colour) where, in the world Expert
    samples with ``seed``, one of the candidates it searches leaves the colour no placement:
    the position and that candidate. The games are searched in a fixed order; none: a failure."""
    for game in range(40):
        for s in random_positions("shuffle", players, seed=game):
            if s.step not in ("card", "keep", "declare"):
                continue
            seat = s.controller()
            world = determinize(view(s, seat), random.Random(seed))
            casual = Casual(seat)
            options = candidates(world, casual)[: ExpertParams.card_searched]
            for action in options if len(options) > 1 else []:
                if not places(rest_of_turn(apply(world, action), world.turn, casual), world.turn):
                    return s, action
    raise AssertionError("no candidate that leaves the colour without a placement")


@pytest.mark.parametrize("players", [3, 4])
def test_a_candidate_that_leaves_the_colour_no_placement_is_valued_by_the_tree_search(
    monkeypatch, players
):
    s, stranded = _stranded(players, seed=4)
    seat = s.controller()
    valued = []
    real = mcts.seat_value

    def recorded(state, for_seat, **kwargs):
        value = real(state, for_seat, **kwargs)
        valued.append((for_seat, value))
        return value

    monkeypatch.setattr(mcts, "seat_value", recorded)
    seen = view(s, seat)
    runs = [decide(seen, level="expert", seed=4, budget=30, max_sims=40) for _ in range(2)]
    assert runs[0] == runs[1] and runs[0] in legal_actions(s)
    assert valued and all(who == seat and 0.0 <= value <= 1.0 for who, value in valued), stranded
