"""Shared test helpers (moved from tests/games/test_history.py)."""

from __future__ import annotations

import io
import random

from games import engine, services
from games.models import Game


def play(game: Game, count: int | None = None, *, seed: int = 1) -> Game:
    """Play ``count`` random legal actions (all of them: to the end), each by the seat to move."""
    rng = random.Random(seed)
    done = 0
    while count is None or done < count:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = game.current_state()
        action = rng.choice(engine.legal_actions(state))
        seat = game.seats.get(index=state.controller())
        services.action_submit(game=game, user=seat.user, action=action, expected_ply=game.ply)
        done += 1
    game.refresh_from_db()
    return game


def upload_file(content: str | bytes, name: str = "game.json") -> io.BytesIO:
    data = content.encode() if isinstance(content, str) else content
    handle = io.BytesIO(data)
    handle.name = name
    return handle


def state_at(game: Game, ply: int):
    state = game.initial_state()
    for action in game.actions.order_by("ply")[:ply]:
        state = engine.apply(state, action.payload)
    return state
