"""Computer players for Blokus and Blokus Shuffle, at four levels (pure Python, no Django).

A player decides from one seat's view only (``games.engine.view``, R9): ``decide(view, …)``
samples the hidden cards consistently with that view (``determinize``) and picks an action in the
record format (RECORD.md) for the decision at hand.

The levels and their facts (name, budget, where they may think that long, how they measured
against the level below) are one table, ``LEVELS`` (levels.py):

* Beginner — a legal random choice, placements weighted towards large pieces.
* Casual — greedy one-step scores: squares placed, corners (anchors) won, opponents' anchors
  covered; a card is worth the best turn it leads to (players.py).
* Expert — Monte Carlo tree search with a compiled inner loop (mcts/: PUCT with one-step
  priors, all-moves-as-first values, playouts that answer the opponents' latest pieces) for
  every placement, two to four players; in Shuffle mode the same search values each candidate
  card, kept card, colour, Recycle and Warp at the position it leads to (expert.py). Within a
  time budget per move (2 s).
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

import random

from games.engine import State, view

from .determinize import determinize
from .expert import expert_action
from .levels import DEFAULT_BUDGET, LEVELS, MASTER_BUDGET, Level, below
from .players import beginner_action, casual_action

__all__ = [
    "DEFAULT_BUDGET",
    "LEVELS",
    "MASTER_BUDGET",
    "Level",
    "choose_action",
    "decide",
    "determinize",
    "level_budget",
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
    before the time ``budget`` in seconds does; default: the level's budget, ``LEVELS``).
    """
    if level not in LEVELS:
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
    if budget is None:
        budget = level_budget(level, worker=True)
    return expert_action(seat_view, state, rng, budget=budget, max_sims=max_sims)


def _playing(level: str, worker: bool) -> Level:
    """The level a seat of ``level`` plays at: a worker-only level outside a worker plays as
    the level below it."""
    found = LEVELS[level]
    while found.worker_only and not worker:
        found = LEVELS[below(found.name)]
    return found


def level_budget(level: str, *, worker: bool = False) -> float:
    """The seconds a decision of ``level`` searches for: Master's long budget only in a worker
    (``choose_action``), Expert's otherwise. A level that answers at once counts in Expert's
    (games.jobs.computer measures the players' wait in budgets)."""
    budget = _playing(level, worker).budget
    return DEFAULT_BUDGET if budget is None else budget


def choose_action(
    state: State,
    *,
    level: str = "beginner",
    seed: int | None = None,
    worker: bool = False,
    budget_share: float = 1.0,
    max_sims: int | None = None,
) -> dict:
    """The website's entry point: the AI's action for the seat that decides in ``state``.

    Only that seat's view is passed on, so the choice never depends on what the seat may not
    know (other hands, the order of draw piles). ``worker`` says that a Celery worker asks
    (games.jobs.tasks.ai_play, not an eager task in a web request): only then does Master think for
    its long budget; otherwise a Master seat plays at Expert's budget. ``budget_share`` (at most
    1) scales the searching levels' time (games.jobs.computer: a player waiting through many
    computer turns in a row). ``max_sims`` bounds each search by simulations as well (the
    worker's ``AI_MAX_SIMS`` setting): with the bound reached first, the action depends on the
    view and ``seed`` only, as in the arena and the command line with the same ``--sims``.
    """
    if state.over:
        raise ValueError("no decision to take: the game is over")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: pick one of {', '.join(LEVELS)}")
    playing = _playing(level, worker)
    budget = None
    if budget_share < 1.0 and playing.budget is not None:
        budget = playing.budget * max(0.0, budget_share)
    return decide(
        view(state, state.controller()),
        level=playing.name,
        seed=seed,
        budget=budget,
        max_sims=max_sims,
    )
