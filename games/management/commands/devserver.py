"""``manage.py devserver``: the development server with a Celery worker and beat inside it.

What ``make run`` starts. With DEV_WORKER=1 and no REDIS_URL (config/settings.py) tasks are
queued on a SQLite file (kombu's SQLAlchemy transport: durable, no server to install) instead of
running inside the request that queued them, and this command runs, in threads of the serving
process, a worker (solo pool: one task at a time) and beat (the every-minute deadline scan, the
sweep). The computer's turn then comes a moment after the player's move, through the websocket,
as in production; the in-memory channel layer reaches the pages because the worker lives in the
same process. Runserver's autoreloader runs ``inner_run`` in the child process it restarts on a
code change, so the worker and beat restart with the code. Ctrl-C stops everything (daemon
threads).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from daphne.management.commands.runserver import Command as RunserverCommand
from django.conf import settings

logger = logging.getLogger(__name__)


def start_worker_and_beat() -> None:
    from celery.beat import EmbeddedService

    from config.celery import app

    if app.conf.task_always_eager:
        logger.warning("devserver: tasks run eagerly (REDIS_URL set or DEV_WORKER off)")
        return
    Path(settings.BASE_DIR, "out").mkdir(exist_ok=True)
    worker = app.WorkController(
        pool_cls="solo",
        concurrency=1,
        # The analysis queue too (issue #28): an analysis runs in slices of a few seconds
        # (ANALYSIS_CHUNK_SECONDS), between which the computer's turns get their turn.
        queues=[app.conf.task_default_queue, settings.ANALYSIS_QUEUE],
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        loglevel="INFO",
    )
    threading.Thread(target=worker.start, name="celery-worker", daemon=True).start()
    beat = EmbeddedService(
        app,
        thread=True,
        schedule_filename=str(Path(settings.BASE_DIR, "out", "celerybeat-schedule")),
    )
    beat.daemon = True
    beat.start()
    logger.info("devserver: a Celery worker and beat run in this process")


class Command(RunserverCommand):
    help = "runserver, with a Celery worker and beat in the same process (make run)"

    def inner_run(self, *args, **options):
        start_worker_and_beat()
        super().inner_run(*args, **options)
