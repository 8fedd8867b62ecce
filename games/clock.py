"""The move clock with vacations (accounts.vacations): a turn's deadline moves on by the time its
player spent on vacation since the turn began, so a player away has no deadline running at all.

The deadline scan (games.deadlines) finds overdue turns and due reminders with indexed queries on
``turn_started_at``; the few rows it finds pass through ``running`` here, which drops those whose
player was away long enough to push the deadline (or the reminder) past now.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from accounts.models import User
from accounts.vacations import paused
from games.models import Game, Seat


def deadline(game: Game, user_id: int | None, now: datetime | None = None) -> datetime | None:
    """When the turn running now runs out for the deciding player ``user_id`` (None if no clock)."""
    if game.turn_started_at is None:
        return None
    now = now or timezone.now()
    base = game.turn_started_at + timedelta(seconds=game.move_seconds)
    return base + paused(user_id, game.turn_started_at, now)


def deciding_user(game: Game) -> int | None:
    """The human player whose clock runs (None for a computer seat or no seat)."""
    seat = (
        Seat.objects.filter(game=game, index=game.to_move_seat, kind=Seat.Kind.HUMAN)
        .exclude(ai_takeover=True)
        .values_list("user_id", flat=True)
        .first()
    )
    return seat


def overdue_running(
    rows: list[tuple[int, int, bool]], now: datetime
) -> list[tuple[int, int, bool]]:
    """The overdue scan's rows (game id, ply, by computer) less the turns paused by a vacation."""
    humans = [game_id for game_id, _ply, by_computer in rows if not by_computer]
    if not humans:
        return rows
    games = {g.pk: g for g in Game.objects.filter(pk__in=humans)}
    keep = []
    for row in rows:
        game = games.get(row[0])
        if game is not None and not row[2]:
            when = deadline(game, deciding_user(game), now)
            if when is not None and when > now:
                continue  # the player was away: their time is not up yet
        keep.append(row)
    return keep


def reminders_running(
    rows: list[tuple[int, int, int]], now: datetime
) -> list[tuple[int, int, int]]:
    """The reminder scan's rows (game id, turn ply, user id) less those of players on vacation or
    whose wait, less the time they were away, is still short of their reminder hours."""
    if not rows:
        return rows
    users = {u.pk: u for u in User.objects.filter(pk__in={r[2] for r in rows})}
    games = {g.pk: g for g in Game.objects.filter(pk__in={r[0] for r in rows})}
    keep = []
    for row in rows:
        user, game = users.get(row[2]), games.get(row[0])
        if user is None or game is None or user.on_vacation(now):
            continue
        away = paused(user.pk, game.turn_started_at, now)
        if away and game.turn_started_at + timedelta(hours=user.reminder_hours) + away > now:
            continue
        keep.append(row)
    return keep
