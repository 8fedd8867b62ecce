"""Shared test helpers (moved from tests/games/test_lobby.py)."""

from __future__ import annotations

from games import engine
from games.models import Seat


def new_game_data(**overrides) -> dict:
    """The new-game form as a browser posts it with its defaults, changed by ``overrides``."""
    data = {
        "mode": "shuffle",
        "players": "2",
        "scoring": "basic",
        "recipe": "default",
        "shared_color": "green",
        "move_seconds": str(24 * 3600),
        "visibility": "public",
        "seating": "chosen",
    }
    for kind, count in engine.DEFAULT_RECIPE.items():
        data[f"card_{kind}"] = str(count)
    for i in range(4):
        data[f"seat{i}_kind"] = Seat.Kind.HUMAN if i == 0 else Seat.Kind.OPEN
        data[f"seat{i}_username"] = ""
        data[f"seat{i}_level"] = "casual"
    data.update({key: str(value) for key, value in overrides.items()})
    return data
