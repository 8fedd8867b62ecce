"""The one way in for the computer (issue #22, STYLE.md habit 20): a job asks the AI for its
moves from the position at ``ply``, outside any lock, and hands them to the write path's entry
for its caller: ``services.computer_submit`` for a computer seat, ``services.turn_timeout`` for a
player's turn whose time ran out. The services never call the AI themselves."""

from __future__ import annotations

from games import engine, services
from games.ai import choose_action
from games.models import Game
from games.services.timeouts import overdue


def _seed(game: Game, ply: int, offset: int = 0) -> int:
    """The computer's seed for the decision at ``ply``: the same on every delivery of a task."""
    return game.pk * 100003 + ply + offset


def play_computer_turn(game: Game, ply: int, *, worker: bool) -> int | None:
    """Play the computer seat's decision at ``ply``; None if the game moved on, ended, or the
    seat is not the computer's. ``worker``: a Celery worker runs this (Master thinks long only
    there)."""
    if game.status != Game.Status.ACTIVE or game.ply != ply:
        return None
    state = game.current_state()
    seat = game.seats.get(index=state.controller())
    if not seat.is_ai:
        return None
    action = choose_action(
        state, level=seat.ai_level or "beginner", seed=_seed(game, ply), worker=worker
    )
    try:
        result = services.computer_submit(
            game=game, action=action, expected_ply=ply, key=f"ai:{ply}"
        )
    except services.Conflict:  # another delivery of this task got there first
        return None
    return result.ply


def timeout_plan(game: Game, ply: int) -> list[dict]:
    """The rest of the overdue seat's turn as the computer would play it, chosen from the
    position at ``ply`` without any lock: every decision until another seat controls."""
    game = Game.objects.get(pk=game.pk)
    if not overdue(game, ply):
        return []
    state = game.current_state()
    controller, plan = state.controller(), []
    while not state.over and state.controller() == controller:
        level = services.TIMEOUT_LEVEL
        action = choose_action(state, level=level, seed=_seed(game, ply, len(plan)))
        plan.append(action)
        state = engine.apply(state, action)
    return plan


def play_overdue_turn(game: Game, ply: int) -> bool:
    """The computer plays a player's overdue turn at ``ply`` (the deadline scan queues this);
    False if they moved meanwhile, were on vacation, or the turn is not overdue."""
    return services.turn_timeout(game=game, ply=ply, plan=timeout_plan(game, ply))
