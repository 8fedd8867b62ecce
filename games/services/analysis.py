"""Asking for a finished game's analysis: checks, then the row and the queued task.

The caller (the replay's view) has already fetched the game through
``selectors.access.game_for_viewer``, so the asker may see the game. Here: only finished games (an
analysis of a running game would judge a player's decisions for everyone to read, and the
search would work from positions the game has not revealed yet); a signed-in asker; at most one
analysis in flight per user (each player's share of the queue), and at most
settings.ANALYSIS_QUEUE_MAX analyses waiting for the worker, whoever asked (the queue has an end:
each analysis is minutes of a worker's time). An analysis is computed once per game and then
shown to everyone who may see the game: asking again for a game already analysed (or being
analysed) returns it.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import jobs
from games.models import Game, GameAnalysis
from games.services.errors import Conflict, NotAllowed, TooMany

# The advisory lock (PostgreSQL) that serialises the queue's length check: a number of its own.
QUEUE_LOCK = 0x616E616C  # "anal"(ysis queue) in ASCII


def analysis_request(*, game: Game, user) -> GameAnalysis:
    """The game's analysis, queued now if nobody asked before (or if its run was lost)."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Sign in to ask for an analysis."))
    with transaction.atomic():
        # The game's row serialises two asks for the same game; the user's row two asks by the
        # same user for different games (the one-in-flight rule).
        game = Game.objects.select_for_update().get(pk=game.pk)
        User.objects.select_for_update().filter(pk=user.pk).first()
        if game.status != Game.Status.FINISHED:
            raise Conflict(_("Only a finished game can be analysed."))
        existing = GameAnalysis.objects.filter(game=game).first()
        if existing is not None and existing.status != GameAnalysis.Status.FAILED:
            if _stalled(existing):
                _queue(existing.pk)
            return existing
        busy = (
            GameAnalysis.objects.filter(requested_by=user, status__in=GameAnalysis.IN_FLIGHT)
            .exclude(game=game)
            .exists()
        )
        if busy:
            raise Conflict(
                _("You already have an analysis running. Ask for this one when it has finished.")
            )
        _check_queue()
        total = game.actions.count()
        if existing is not None:  # failed before: start again, keeping the decisions judged
            existing.status = GameAnalysis.Status.QUEUED
            existing.requested_by = user
            existing.lease_until = None
            existing.save(update_fields=["status", "requested_by", "lease_until", "updated_at"])
            row = existing
        else:
            row = GameAnalysis.objects.create(
                game=game, requested_by=user, sims=settings.ANALYSIS_SIMS, total=total
            )
        _queue(row.pk)
        return row


def _check_queue() -> None:
    """Refuse a new analysis while ANALYSIS_QUEUE_MAX wait already. Two asks by different
    players are serialised by a lock of their own on PostgreSQL, so that both cannot take the
    last place (SQLite writes one transaction at a time anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [QUEUE_LOCK])
    waiting = GameAnalysis.objects.filter(status=GameAnalysis.Status.QUEUED).count()
    if waiting >= settings.ANALYSIS_QUEUE_MAX:
        raise TooMany(
            _(
                "The queue of analyses is full (%(n)d waiting for the computer): ask again in a "
                "few minutes."
            )
            % {"n": waiting}
        )


def _stalled(row: GameAnalysis) -> bool:
    """In flight, but no run has held it for a while: its task was lost (a worker killed and
    Redis not handing the task out again before its visibility timeout)."""
    if row.status not in GameAnalysis.IN_FLIGHT:
        return False
    quiet = timezone.now() - row.updated_at > timedelta(seconds=2 * settings.ANALYSIS_LEASE_SECONDS)
    lapsed = row.lease_until is None or row.lease_until < timezone.now()
    return quiet and lapsed


def _queue(analysis_id: int) -> None:
    transaction.on_commit(lambda: jobs.queue("analyse_game", analysis_id), robust=True)
