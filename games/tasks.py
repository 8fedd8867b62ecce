"""Celery tasks: thin, take ids, safe to run twice (STYLE.md habit 7)."""

from __future__ import annotations

from celery import shared_task

from games import services
from games.ai import choose_action
from games.models import Game


@shared_task(acks_late=True, reject_on_worker_lost=True)
def ai_play(game_id: int, ply: int) -> int | None:
    """Play the computer's decision at ``ply``; a no-op if the game has moved on or ended."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.ply != ply:
        return None
    state = services.game_state(game)
    seat = game.seats.get(index=state.controller())
    if not seat.is_ai:
        return None
    action = choose_action(state, level=seat.ai_level or "beginner", seed=game.pk * 100003 + ply)
    try:
        result = services.action_submit(
            game=game, action=action, expected_ply=ply, key=f"ai:{ply}", by_ai=True
        )
    except services.Conflict:  # another delivery of this task got there first
        return None
    return result.ply
