"""Computer players for Blokus and Blokus Shuffle, at three levels (pure Python, no Django).

A player decides from one seat's view only (``games.engine.view``, R9): ``decide(view, …)``
samples the hidden cards consistently with that view (``determinize``) and picks an action in the
record format (RECORD.md) for the decision at hand.

* Beginner — a legal random choice, placements weighted towards large pieces.
* Casual — greedy one-step scores: squares placed, corners (anchors) won, opponents' anchors
  covered; a card is worth the best turn it leads to (players.py).
* Expert — a search over whole turns (card + placement) with sampled hidden cards, short
  rollouts and a mobility evaluation, within a time budget per decision (expert.py).

``choose_action(state, …)`` is the website's entry point: it takes the referee's state but only
passes the deciding seat's view on.
"""

from __future__ import annotations

import random

from games.engine import State, view

from .determinize import determinize
from .expert import DEFAULT_BUDGET, expert_action
from .players import beginner_action, casual_action

LEVELS = ("beginner", "casual", "expert")

__all__ = ["DEFAULT_BUDGET", "LEVELS", "choose_action", "decide", "determinize"]


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
    makes the choice repeatable (Expert: repeatable when ``max_sims`` bounds its search before
    the time ``budget`` in seconds does; default budget ``DEFAULT_BUDGET``).
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
    return expert_action(
        seat_view,
        state,
        rng,
        budget=DEFAULT_BUDGET if budget is None else budget,
        max_sims=max_sims,
    )


def choose_action(state: State, *, level: str = "beginner", seed: int | None = None) -> dict:
    """The website's entry point: the AI's action for the seat that decides in ``state``.

    Only that seat's view is passed on, so the choice never depends on what the seat may not
    know (other hands, the order of draw piles).
    """
    if state.over:
        raise ValueError("no decision to take: the game is over")
    return decide(view(state, state.controller()), level=level, seed=seed)
