"""The move clock with vacations (accounts.vacations): a turn's deadline moves on by the time its
player spent on vacation since the turn began, so a player away has no deadline running at all.

The deadline scan (jobs.deadlines) finds overdue turns and due reminders with indexed queries on
``turn_started_at``; the few rows it finds pass through ``running`` here, which drops those whose
player was away long enough to push the deadline (or the reminder) past now.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from accounts.vacations import UNKNOWN, paused
from games.models import Game, Seat


def deadline(
    game: Game, user_id: int | None, now: datetime | None = None, last_vacation_end=UNKNOWN
) -> datetime | None:
    """When the turn running now runs out for the deciding player ``user_id`` (None if no clock).
    ``last_vacation_end``: their ``User.vacation_until``, when the caller has read it (spares
    the vacation query for a turn that began after it: ``accounts.vacations.paused``)."""
    if game.turn_started_at is None:
        return None
    now = now or timezone.now()
    base = game.turn_started_at + timedelta(seconds=game.move_seconds)
    return base + paused(user_id, game.turn_started_at, now, last_vacation_end)


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


def reminder_due(game: Game, seat: Seat, now: datetime) -> bool:
    """The one definition of "remind this player now" (the scan's SQL, ``deadlines.
    reminders_due``, only narrows the candidates; the email task asks again before sending): a
    running game whose turn this human seat holds, waiting longer than the player's reminder
    hours plus the time they were away, not yet past its deadline (the computer plays the turn
    then, and says so), and the player is not on vacation now."""
    if game.status != Game.Status.ACTIVE or game.turn_started_at is None:
        return False
    if seat.kind != Seat.Kind.HUMAN or seat.is_ai or game.to_move_seat != seat.index:
        return False
    user = seat.user
    if user is None or user.on_vacation(now):
        return False
    away = paused(user.pk, game.turn_started_at, now, user.vacation_until)
    if game.turn_started_at + timedelta(hours=user.reminder_hours) + away > now:
        return False
    return deadline(game, user.pk, now, user.vacation_until) > now


def reminders_running(
    rows: list[tuple[int, int, int]], now: datetime
) -> list[tuple[int, int, int]]:
    """The reminder scan's rows (game id, turn ply, user id) for which ``reminder_due`` holds."""
    if not rows:
        return rows
    seats = {
        (s.game_id, s.user_id): s
        for s in Seat.objects.filter(
            game_id__in={r[0] for r in rows}, user_id__in={r[2] for r in rows}
        ).select_related("game", "user")
    }
    return [
        row
        for row in rows
        if (seat := seats.get((row[0], row[2]))) is not None and reminder_due(seat.game, seat, now)
    ]
