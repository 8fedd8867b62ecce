"""A time-budgeted search stops once its pick cannot change (``settle=True``, after Pentobi's
``SearchBase::check_cannot_change``), and only then: the player waits less for the same pick.
The searches run on a clock the tests drive (tests/ai/clocks.py), not the machine's."""

from __future__ import annotations

import random

import numpy as np

from games.ai import mcts
from games.ai.mcts.choose import SETTLE_AFTER, _settled
from games.engine import apply, legal_actions, legal_placements, new_game
from tests.ai.clocks import Ticking


def _tree(visits: list[int], first: int = 3) -> tuple:
    """The parts of a search tree ``_settled`` reads: the root's first edge and edge count
    (arrays 0 and 1) and the edges' visits (array 7)."""
    arrays = [np.zeros(16, np.int32) for _ in range(8)]
    arrays[0][0], arrays[1][0] = first, len(visits)
    arrays[7][first : first + len(visits)] = visits
    return tuple(arrays)


def test_the_pick_is_settled_when_its_lead_exceeds_the_simulations_left():
    assert _settled((_tree([10, 200, 50]),), remaining=149)
    assert not _settled((_tree([10, 200, 50]),), remaining=150)
    # the threads' visits are added: 60 + 60 against 100 + 5 leads by 15
    assert not _settled((_tree([60, 100]), _tree([60, 5])), remaining=20)
    assert _settled((_tree([60, 100]), _tree([80, 5])), remaining=34)  # 140 against 105
    assert _settled((_tree([7]),), remaining=1e9)  # one move: nothing to choose
    assert not _settled((_tree([], first=0),), remaining=0)  # not expanded yet


def _with_placements(least: int, most: int):
    """A classic two-player position from random play where the colour to move has between
    ``least`` and ``most`` placements."""
    for seed in range(200):
        rng = random.Random(seed)
        s = new_game(mode="classic", players=2, seed=seed)
        while not s.over:
            if s.step == "place" and least <= len(legal_placements(s)) <= most:
                return s
            s = apply(s, rng.choice(legal_actions(s)))
    raise AssertionError("no such position")


def test_a_settling_search_with_one_move_in_it_stops_at_once():
    s = _with_placements(1, 1)
    mcts.forget()
    clock = Ticking()
    began = clock.now
    value, stats = mcts.mcts_choose(s, deadline=began + 5.0, seed=1, settle=True, clock=clock)
    assert stats["settled"] and {value} == legal_placements(s)
    # It judged its pick once SETTLE_AFTER had passed on its clock, long before its deadline.
    assert SETTLE_AFTER <= clock.now - began < SETTLE_AFTER + 0.05


def test_a_settling_search_stops_no_later_than_its_deadline_and_picks_the_most_visited():
    s = _with_placements(2, 4)
    clock = Ticking()
    deadline = clock.now + 0.3
    value, stats = mcts.mcts_choose(s, deadline=deadline, seed=2, settle=True, clock=clock)
    assert value in legal_placements(s)
    # Its last slice ended at the first reading past the deadline, or it settled before.
    assert clock.now < deadline + 2 * clock.tick
    assert stats["settled"] or clock.now >= deadline
    assert 0 < stats["visits"] <= stats["root_visits"]


def test_searches_without_settle_or_bounded_by_simulations_run_to_their_end():
    s = _with_placements(2, 3)
    _, bounded = mcts.mcts_choose(s, deadline=float("inf"), max_sims=2000, seed=3, settle=True)
    assert bounded["sims"] == 2000 and not bounded["settled"]
    clock = Ticking()
    deadline = clock.now + 0.3
    _, timed = mcts.mcts_choose(s, deadline=deadline, seed=3, clock=clock)
    assert clock.now >= deadline and not timed["settled"]
