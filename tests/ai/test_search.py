"""Expert's placement search (games/ai/search.py): its one-step scores, values and budgets."""

from __future__ import annotations

import pytest

from games.ai.evaluate import QuickScorer, seat_weights
from games.ai.expert import ExpertParams, make_evaluator, search_placement
from games.ai.players import Casual
from games.ai.search import OutOfBudget, Searcher, SearchParams, quick_scores
from games.engine import legal_actions, legal_placements
from games.engine.pieces import ALL_PIECES_MASK
from tests.ai.positions import random_positions


class NoCentre:
    anchor, block, size_bonus, centre = 0.7, 0.5, 1.0, 0.0


@pytest.mark.parametrize("players", [2, 4])
def test_the_cached_scores_agree_with_casuals_scorer(players):
    states = [s for s in random_positions("classic", players, seed=31) if s.ply > 8][::9]
    assert states
    for s in states:
        seat = s.controller()
        values = sorted(legal_placements(s))
        weights = [w and (1.0 if w > 0 else -1.0) for w in seat_weights(s, seat)]
        reference = QuickScorer(s, weights, NoCentre).scores(s.turn, values)
        ours = quick_scores(s.boards, s.turn, values, weights, NoCentre)
        assert ours == pytest.approx(reference)


def test_a_finished_game_is_valued_by_its_result():
    s = random_positions("classic", 2, seed=4)[-1]
    ev = make_evaluator(s, 0)
    supply = [0, ALL_PIECES_MASK, 0, ALL_PIECES_MASK]  # seat 0 placed everything, seat 1 nothing
    assert ev.final(supply) > 89 * 2 + 2 * SearchParams.finished
    assert make_evaluator(s, 1).final(supply) == -ev.final(supply)


def test_the_node_budget_stops_the_search():
    s = [s for s in random_positions("classic", 2, seed=6) if s.ply > 10][0]
    searcher = Searcher(make_evaluator(s, s.controller()), max_nodes=3)
    colour, values = s.turn, sorted(legal_placements(s))
    with pytest.raises(OutOfBudget):
        searcher.value(s.boards, list(s.supply), colour, values, 1, 4, -1e9, 1e9)
    assert searcher.nodes == 4


@pytest.mark.parametrize("max_nodes", [1, 50])
def test_a_bounded_search_repeats_and_plays_legally(max_nodes):
    s = [s for s in random_positions("classic", 2, seed=8) if s.ply > 12][0]
    seat = s.controller()
    first, again = (
        search_placement(s, seat, Casual(seat), float("inf"), 12, max_nodes, ExpertParams)
        for _ in range(2)
    )
    assert first == again
    assert first in legal_actions(s)


def test_shuffle_without_the_compiled_search_plays_legally(monkeypatch):
    """Without numba (``ExpertParams.mcts`` off) every Shuffle decision is the pure-Python
    search's, legal."""
    from games.ai import decide, expert
    from games.engine import view
    from tests.ai.positions import positions

    assert not hasattr(expert, "baseline_action")
    monkeypatch.setattr(ExpertParams, "mcts", False)
    found = positions("shuffle", 2, seed=13)
    assert {"card", "keep", "declare", "recycle", "warp"} <= set(found)
    for step, state in found.items():
        seen = view(state, state.controller())
        action = decide(seen, level="expert", seed=5, budget=30, max_sims=2)
        assert action in legal_actions(state), step
