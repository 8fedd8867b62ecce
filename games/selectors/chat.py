"""Who may read which chat lines (STYLE.md habit 19: the rule lives with the data, lila's
``ChatApi``): the chat panel and the report form both ask here, so a line a reader cannot see in
the panel cannot be quoted through the report form either."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import blocked_ids
from games.models import ChatMessage, Game, Seat


def visible_lines(game: Game, user, seat: Seat | None) -> QuerySet[ChatMessage]:
    """The lines of ``game``'s chat that ``user`` (seated at ``seat``, or None) may read.

    Staff see every line, hidden ones marked. Everyone else: no hidden line, no line of a player
    they blocked, and a seated player sees only the players' room while the game runs (the
    spectators' room opens to them at the end)."""
    lines = game.chat.select_related("user")
    if user.is_authenticated and user.is_staff:
        return lines
    lines = lines.filter(hidden=False).exclude(user_id__in=blocked_ids(user))
    if seat is not None and not game.is_over:
        lines = lines.filter(room=ChatMessage.Room.PLAYERS)
    return lines


def latest_lines(game: Game, user, seat: Seat | None, limit: int) -> list[ChatMessage]:
    """The ``limit`` latest lines ``user`` may read, oldest first (the chat panel)."""
    return list(visible_lines(game, user, seat).order_by("-created_at", "-pk")[:limit])[::-1]
