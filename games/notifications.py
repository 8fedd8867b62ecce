"""Websocket nudges and presence (STYLE.md habit 9). A nudge says *that* something changed,
never *what*: each page re-fetches its own partials through the views, which apply engine.view.
"""

from __future__ import annotations

import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache

ONLINE_SECONDS = 90  # a page's socket says it is alive every 30 s


def game_group(public_id: str) -> str:
    return f"game-{public_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def game_changed(public_id: str, ply: int) -> None:
    """Everyone watching the game: fetch your view again (ply lets a client spot a gap)."""
    _send(game_group(public_id), {"type": "game.changed", "ply": ply})


def your_turn(user_id: int, public_id: str, title: str) -> None:
    """A signed-in player on any page: it is your turn in this game."""
    _send(user_group(user_id), {"type": "turn.notice", "game": public_id, "title": title})


def mark_online(user_id: int) -> None:
    cache.set(f"online:{user_id}", time.time(), ONLINE_SECONDS)


def mark_offline(user_id: int) -> None:
    cache.delete(f"online:{user_id}")


def is_online(user_id: int) -> bool:
    """Whether the user has a page of the site open (no turn email then)."""
    seen = cache.get(f"online:{user_id}")
    return seen is not None and time.time() - seen < ONLINE_SECONDS
