"""Computer players for Blokus and Blokus Shuffle, at four levels (pure Python, no Django).

A player decides from one seat's view only (``games.engine.view``, R9): ``decide(view, …)``
samples the hidden cards consistently with that view (``determinize``) and picks an action in the
record format (RECORD.md) for the decision at hand.

* Beginner — a legal random choice, placements weighted towards large pieces.
* Casual — greedy one-step scores: squares placed, corners (anchors) won, opponents' anchors
  covered; a card is worth the best turn it leads to (players.py).
* Expert — Monte Carlo tree search with a compiled inner loop (mcts/: PUCT with one-step
  priors, all-moves-as-first values, playouts that answer the opponents' latest pieces) for
  every placement, two to four players, when numba is installed; in Shuffle mode the same
  search values each candidate card, kept card, colour, Recycle and Warp at the placement it
  leads to. Without numba: rollouts for the best couple of hundred placements and a mobility /
  reach evaluation (search.py, expert.py), simulated turns for the cards. Within a time budget
  per decision (2 s).
* Master — Expert with a budget of ``MASTER_BUDGET`` (9.9 s) a move: a classic move is one
  decision; a Shuffle turn shares it among its decisions as Expert's turn shares its 2 s
  (``ExpertParams.turn_shares``: card, kept card or colour, Recycle, Warp, placement, second
  piece), so that a whole Master turn stays within about 10 s. Only a Celery worker plays it:
  ``choose_action(…, worker=True)``; everywhere else (an eager task inside a web request, a
  timed-out turn) the same seat plays at Expert's budget.

``choose_action(state, …)`` is the website's entry point: it takes the referee's state but only
passes the deciding seat's view on.
"""

from __future__ import annotations

import importlib
import random

from games.engine import State, view

from .determinize import determinize
from .expert import DEFAULT_BUDGET, expert_action
from .players import beginner_action, casual_action

LEVELS = ("beginner", "casual", "expert", "master")
# Frozen opponents for arena runs only, kept under bench/ (never imported by the site): the level
# name and the module (on the path from the project's root) whose ``<name>_action`` plays it.
BENCH_LEVELS = ("baseline",)
BENCH_MODULES = {"baseline": "bench.ai_baseline"}
# Seconds a move (a Shuffle turn: shared by its decisions), Celery workers only. The new-game
# form shows it (games.forms.LEVEL_SECONDS, checked against this by tests/ai/test_master.py).
# 9.9 s of search: with the move's preparation (a few ms) a Master's move stays within 10 s.
MASTER_BUDGET = 9.9
WORKER_ONLY = ("master",)  # levels choose_action plays only with worker=True

__all__ = [
    "BENCH_LEVELS",
    "DEFAULT_BUDGET",
    "LEVELS",
    "MASTER_BUDGET",
    "choose_action",
    "level_budget",
    "decide",
    "determinize",
]


def decide(
    seat_view: dict,
    *,
    level: str = "beginner",
    seed: int | None = None,
    budget: float | None = None,
    max_sims: int | None = None,
) -> dict:
    """The action the AI of ``level`` takes for the decision at hand, from a seat's view.

    ``seat_view`` is ``games.engine.view(state, seat)`` for the seat that decides now. ``seed``
    makes the choice repeatable (Expert, Master: repeatable when ``max_sims`` bounds the search
    before the time ``budget`` in seconds does; default budget ``DEFAULT_BUDGET``, Master's
    ``MASTER_BUDGET``). ``baseline`` (BENCH_LEVELS) is the frozen Expert, for arena runs.
    """
    if level not in LEVELS + BENCH_LEVELS:
        raise ValueError(f"unknown level {level!r}: pick one of {', '.join(LEVELS)}")
    if not isinstance(seat_view, dict) or "step" not in seat_view:
        raise ValueError("decide() takes a seat's view (games.engine.view(state, seat))")
    if seat_view.get("over"):
        raise ValueError("no decision to take: the game is over")
    seat = seat_view.get("seat")
    if seat is None or seat_view.get("controller") != seat:
        raise ValueError("the view is not the view of the seat that decides now")
    rng = random.Random(seed)
    state = determinize(seat_view, rng)
    if level == "beginner":
        return beginner_action(state, seat, rng)
    if level == "casual":
        return casual_action(state, seat, rng)
    if level in BENCH_LEVELS:
        search = getattr(importlib.import_module(BENCH_MODULES[level]), f"{level}_action")
    else:
        search = expert_action
    if budget is None:
        budget = level_budget(level, worker=True)
    return search(seat_view, state, rng, budget=budget, max_sims=max_sims)


def level_budget(level: str, *, worker: bool = False) -> float:
    """The seconds a decision of ``level`` searches for: Master's long budget only in a worker
    (``choose_action``), Expert's otherwise."""
    if level in WORKER_ONLY and not worker:
        level = "expert"
    return MASTER_BUDGET if level == "master" else DEFAULT_BUDGET


def choose_action(
    state: State,
    *,
    level: str = "beginner",
    seed: int | None = None,
    worker: bool = False,
    budget_share: float = 1.0,
) -> dict:
    """The website's entry point: the AI's action for the seat that decides in ``state``.

    Only that seat's view is passed on, so the choice never depends on what the seat may not
    know (other hands, the order of draw piles). ``worker`` says that a Celery worker asks
    (games.jobs.tasks.ai_play, not an eager task in a web request): only then does Master think for
    its long budget; otherwise a Master seat plays at Expert's budget. ``budget_share`` (at most
    1) scales the searching levels' time (games.jobs.computer: a player waiting through many
    computer turns in a row).
    """
    if state.over:
        raise ValueError("no decision to take: the game is over")
    if level in WORKER_ONLY and not worker:
        level = "expert"
    budget = None
    if budget_share < 1.0 and level in ("expert", "master"):
        budget = level_budget(level, worker=worker) * max(0.0, budget_share)
    return decide(view(state, state.controller()), level=level, seed=seed, budget=budget)
