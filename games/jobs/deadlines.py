"""Move deadlines and reminders, found by scanning the database (STYLE.md habit 7).

Celery beat runs ``tasks.scan_deadlines`` every minute (CELERY_BEAT_SCHEDULE). Nothing waits in
the queue for hours: a long-delayed task dies with its broker, and fires for turns played long
ago. The scan reads what is due now and queues one thin task per item; each task re-checks
everything under its own conditions and is safe to run twice, so a scan that overlaps the next
one, or a task still queued when the next scan runs, does no harm.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from games import jobs
from games.jobs.digests import digests_due
from games.models import Action, Game, Seat, TurnNotice
from games.selectors import clock

logger = logging.getLogger(__name__)


def _turn_start_subquery():
    """``turn_start_ply`` for each row of a Seat queryset."""
    last = (
        Action.objects.filter(game=OuterRef("game"), out_of_turn=False)
        .exclude(seat=OuterRef("index"))
        .order_by("-ply")
        .values("ply")[:1]
    )
    return Coalesce(Subquery(last), 0)


def _started_before(now: datetime, spans: dict[int, timedelta], *, field: str, at: str) -> Q:
    """Rows whose ``at`` is at least the row's span before now: one ``field = value AND at <=
    cut-off`` term per span in use, so the comparison stays a plain indexed range on ``at``
    (date arithmetic on columns differs between SQLite and PostgreSQL)."""
    cutoff = Q(pk__in=[])  # nothing, when no span is in use
    for value, span in spans.items():
        cutoff |= Q(**{field: value, f"{at}__lte": now - span})
    return cutoff


def reminders_due(now: datetime) -> list[tuple[int, int, int]]:
    """(game id, turn's first ply, user id) of every player to remind now.

    A player is reminded once per turn, ``reminder_hours`` after it began, if they want
    reminders and still have not finished their turn, unless the move time has run out already
    (the computer plays the turn then, and says so). Served by game_turn_clock_idx (the
    cut-off on the active games' turn_started_at) and turnnotice_once (the "not yet reminded"
    subquery).
    """
    seats = Seat.objects.filter(
        game__status=Game.Status.ACTIVE,
        index=F("game__to_move_seat"),
        kind=Seat.Kind.HUMAN,
        ai_takeover=False,
        user__is_active=True,
        user__email_turns__in=[User.EmailTurns.EVERY, User.EmailTurns.REMINDERS],
    )
    hours = seats.order_by().values_list("user__reminder_hours", flat=True).distinct()
    spans = {h: timedelta(hours=h) for h in hours}
    if not spans:
        return []
    seconds = seats.order_by().values_list("game__move_seconds", flat=True).distinct()
    overdue = _started_before(
        now,
        {s: timedelta(seconds=s) for s in seconds},
        field="game__move_seconds",
        at="game__turn_started_at",
    )
    reminded = TurnNotice.objects.filter(
        seat=OuterRef("pk"), ply=OuterRef("turn_ply"), kind=TurnNotice.Kind.REMINDER
    )
    due = (
        seats.filter(
            _started_before(now, spans, field="user__reminder_hours", at="game__turn_started_at")
        )
        .exclude(overdue)
        .annotate(turn_ply=_turn_start_subquery())
        .filter(~Exists(reminded))
        .order_by("game__turn_started_at")
    )
    return list(due.values_list("game_id", "turn_ply", "user_id"))


def overdue_turns(now: datetime) -> list[tuple[int, int, bool]]:
    """(game id, ply, whether a computer plays that seat) of every active game whose move time
    ran out. Served by game_turn_clock_idx: active games whose turn began before a cut-off."""
    active = Game.objects.filter(status=Game.Status.ACTIVE, to_move_seat__isnull=False)
    seconds = active.order_by().values_list("move_seconds", flat=True).distinct()
    spans = {s: timedelta(seconds=s) for s in seconds}
    if not spans:
        return []
    computer = Seat.objects.filter(game=OuterRef("pk"), index=OuterRef("to_move_seat")).filter(
        Q(kind=Seat.Kind.AI) | Q(ai_takeover=True)
    )
    overdue = (
        active.filter(_started_before(now, spans, field="move_seconds", at="turn_started_at"))
        .annotate(by_computer=Exists(computer))
        .order_by("turn_started_at")
    )
    return list(overdue.values_list("pk", "ply", "by_computer"))


# A computer's decision takes at most a few seconds (Expert's budget is 2 s): one still pending
# after this long lost its task. The sweep runs every 15 s, so a lost turn waits under a minute.
COMPUTER_STALL = timedelta(seconds=45)


def stalled_computer_turns(now: datetime) -> list[tuple[int, int]]:
    """(game id, ply) of active games where a computer seat decides and nothing happened for
    COMPUTER_STALL: neither the turn's start nor any action since."""
    computer = Seat.objects.filter(game=OuterRef("pk"), index=OuterRef("to_move_seat")).filter(
        Q(kind=Seat.Kind.AI) | Q(ai_takeover=True)
    )
    last_action = Action.objects.filter(game=OuterRef("pk")).order_by("-ply").values("created_at")
    cutoff = now - COMPUTER_STALL
    stalled = (
        Game.objects.filter(status=Game.Status.ACTIVE, to_move_seat__isnull=False)
        .filter(Exists(computer))
        .annotate(last=Coalesce(Subquery(last_action[:1]), F("started_at")))
        .filter(last__lte=cutoff, turn_started_at__lte=cutoff)
        .order_by("last")
    )
    return list(stalled.values_list("pk", "ply"))


def sweep(now: datetime | None = None) -> int:
    """Queue the computer turns that lost their task again (each is a no-op if played since)."""
    stalled = stalled_computer_turns(now or timezone.now())
    for game_id, ply in stalled:
        _queue("ai_play", game_id, ply)
    return len(stalled)


def scan(now: datetime | None = None) -> dict[str, int]:
    """Queue the reminders due and the overdue turns; returns how many of each."""

    now = now or timezone.now()
    reminders = clock.reminders_running(reminders_due(now), now)
    for game_id, ply, user_id in reminders:
        _queue("send_turn_email", game_id, ply, user_id, "reminder")
    overdue = clock.overdue_running(overdue_turns(now), now)
    for game_id, ply, by_computer in overdue:
        # A computer seat this late lost its ai_play task (a worker died, the broker forgot
        # it): queue it again. A human seat's turn is played for them (services.turn_timeout).
        _queue("ai_play" if by_computer else "play_overdue_turn", game_id, ply)
    digests = digests_due(now)
    for user_id, day in digests:
        _queue("send_digest", user_id, day)
    return {"reminders": len(reminders), "overdue": len(overdue), "digests": len(digests)}


def _queue(name: str, *args) -> None:
    # One failing item (an eager task that raised, a broker hiccup) must not stop the scan:
    # the next scan, a minute later, finds whatever it left undone.
    try:
        jobs.queue(name, *args)
    except Exception:
        logger.exception("deadline scan: %s%r failed", name, args)
