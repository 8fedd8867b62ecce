"""Running a game's analysis: the task's body, resumable and idempotent.

One run of ``games.tasks.analyse_game`` claims the analysis (a lease, taken by a conditional
``update``: STYLE.md habit 7), judges the game's decisions that have no row yet, in order, storing
each as it is done (``DecisionAnalysis``, unique per ply: no decision is judged twice), renews the
lease after each, and stops after ``ANALYSIS_CHUNK_SECONDS``: it then queues the next slice and
returns, so that a worker reading other queues too (``make run``) plays the computer's turns in
between. A worker killed mid-run leaves the rows it stored; the redelivered task, the
every-minute sweep (``sweep``) or a later ask (games.services.analysis) takes over once the lease
lapses and goes on from the first decision without a row. Each decision stored nudges the
game's pages (the progress bar).
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.ai import judge
from games.jobs import queue, task
from games.live import nudges
from games.models import DecisionAnalysis, Game, GameAnalysis

logger = logging.getLogger(__name__)


def _lease() -> timezone.datetime:
    return timezone.now() + timedelta(seconds=settings.ANALYSIS_LEASE_SECONDS)


def claim(analysis_id: int) -> bool:
    """Take the analysis for this run: True unless it is finished or another run holds it."""
    now = timezone.now()
    return bool(
        GameAnalysis.objects.filter(pk=analysis_id, status__in=GameAnalysis.IN_FLIGHT)
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
        .update(status=GameAnalysis.Status.RUNNING, lease_until=_lease(), updated_at=now)
    )


def seed_for(game: Game, ply: int) -> int:
    """The searches' seed for a decision: the same on every run, so a resumed analysis is the
    analysis it would have been."""
    return game.pk * 100_003 + ply * 7 + 1


def run(analysis_id: int, *, chunk_seconds: float | None = None) -> str:
    """One slice of the analysis: "done", "more" (the next slice is queued), "busy" (another run
    holds it: tried again once its lease lapses), "failed" (a decision raised: the page offers
    to ask again, which goes on from there) or "gone"."""
    row = GameAnalysis.objects.select_related("game").filter(pk=analysis_id).first()
    if row is None or row.status not in GameAnalysis.IN_FLIGHT:
        return "gone"
    if not claim(analysis_id):
        row.refresh_from_db()
        if row.status in GameAnalysis.IN_FLIGHT and row.lease_until is not None:
            wait = (row.lease_until - timezone.now()).total_seconds()
            queue_later(analysis_id, max(1.0, wait + 1.0))
        return "busy"
    game = row.game
    if game.status != Game.Status.FINISHED:  # never: the request checks; but never leak either
        GameAnalysis.objects.filter(pk=row.pk).update(
            status=GameAnalysis.Status.FAILED, lease_until=None
        )
        return "gone"
    chunk = settings.ANALYSIS_CHUNK_SECONDS if chunk_seconds is None else chunk_seconds
    stop = time.monotonic() + chunk
    judged = set(DecisionAnalysis.objects.filter(analysis=row).values_list("ply", flat=True))
    payloads = list(game.actions.order_by("ply").values_list("payload", flat=True))
    positions = {}
    finished = True
    try:
        for ply, state, action in judge.decisions(game.initial_state(), payloads):
            positions[ply] = (state, action)
            if ply in judged:
                continue
            if time.monotonic() >= stop:
                finished = False
                break
            result = judge.analyse_decision(
                state, action, ply=ply, sims=row.sims, seed=seed_for(game, ply)
            )
            _store(row, result)
            judged.add(ply)
        finished = finished and _look_again(row, positions, stop)
    except Exception:  # a bug, not a dead worker: stop, rather than retry it every minute
        logger.exception("analysis %s: a decision could not be judged", row.pk)
        GameAnalysis.objects.filter(pk=row.pk).update(
            status=GameAnalysis.Status.FAILED, lease_until=None, updated_at=timezone.now()
        )
        _nudge(game.public_id, len(judged), row.total, finished=True)
        return "failed"
    if finished:
        GameAnalysis.objects.filter(pk=row.pk).update(
            status=GameAnalysis.Status.DONE,
            done=len(judged),
            lease_until=None,
            finished_at=timezone.now(),
            updated_at=timezone.now(),
        )
        _nudge(game.public_id, len(judged), row.total, finished=True)
        return "done"
    GameAnalysis.objects.filter(pk=row.pk).update(lease_until=None, updated_at=timezone.now())
    transaction.on_commit(lambda: queue("analyse_game", row.pk))
    return "more"


def _look_again(row: GameAnalysis, positions: dict, stop: float) -> bool:
    """Once every decision is judged: each player's biggest drops judged again deeper
    (judge.next_to_refine, which reads only the stored rows: a run that stops here and the
    one that takes over judge each again once). True when none is left, False when the slice
    is over first."""
    while True:
        rows = list(
            DecisionAnalysis.objects.filter(analysis=row).values(
                "ply", "seat", "loss", "sims", "judged", "best", "before", "after"
            )
        )
        ply = judge.next_to_refine(rows, row.sims)
        if ply is None:
            return True
        if time.monotonic() >= stop:
            return False
        _nudge(row.game.public_id, len(rows), row.total, finished=False, second=True)
        state, action = positions[ply]
        old = next(r for r in rows if r["ply"] == ply)
        result = judge.judge_again(state, action, old, sims=row.sims, seed=seed_for(row.game, ply))
        # Only over the row as it was read (another run may have been here first).
        DecisionAnalysis.objects.filter(analysis=row, ply=ply, sims=old["sims"]).update(
            **{k: v for k, v in result.as_dict().items() if k != "ply"}
        )
        GameAnalysis.objects.filter(pk=row.pk).update(
            lease_until=_lease(), updated_at=timezone.now()
        )


def sweep() -> int:
    """Every minute (CELERY_BEAT_SCHEDULE): queue again the analyses in flight that no run has
    held for two leases (a worker killed, and Redis would hand its task out again only after
    the visibility timeout, an hour). How many were queued."""
    quiet = timezone.now() - timedelta(seconds=2 * settings.ANALYSIS_LEASE_SECONDS)
    stalled = list(
        GameAnalysis.objects.filter(status__in=GameAnalysis.IN_FLIGHT, updated_at__lt=quiet)
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=timezone.now()))
        .values_list("pk", flat=True)
    )
    for pk in stalled:
        queue("analyse_game", pk)
    return len(stalled)


def queue_later(analysis_id: int, seconds: float) -> None:
    task("analyse_game").apply_async((analysis_id,), countdown=seconds)


def _store(row: GameAnalysis, result: judge.DecisionResult) -> None:
    try:
        with transaction.atomic():
            DecisionAnalysis.objects.create(analysis=row, **result.as_dict())
    except IntegrityError:  # another run stored it first (a lease lapsed under a slow search)
        logger.warning("analysis %s: ply %s was already judged", row.pk, result.ply)
    done = DecisionAnalysis.objects.filter(analysis=row).count()
    GameAnalysis.objects.filter(pk=row.pk).update(
        done=done, lease_until=_lease(), updated_at=timezone.now()
    )
    _nudge(row.game.public_id, done, row.total, finished=False)


def _nudge(public_id: str, done: int, total: int, *, finished: bool, second: bool = False) -> None:
    try:
        nudges.analysis_progress(public_id, done, total, finished=finished, second=second)
    except Exception:  # a nudge is a courtesy: the rows are stored whatever happens here
        logger.warning("analysis progress nudge failed for %s", public_id, exc_info=True)
