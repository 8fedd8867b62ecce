"""``manage.py devserver``: the development server with a Celery worker and beat inside it.

What ``make run`` starts, with ``--prepare``: migrate and the demo accounts first, in the same
process (each ``manage.py`` start-up costs seconds). With DEV_WORKER=1 and no REDIS_URL
(config/settings.py) tasks are queued on a SQLite file (kombu's SQLAlchemy transport: durable,
no server to install) instead of running inside the request that queued them, and this command
runs, in threads of the serving process, a worker (solo pool: one task at a time) and beat (the
every-minute deadline scan, the sweep). The computer's turn then comes a moment after the
player's move, through the websocket, as in production; the in-memory channel layer reaches the
pages because the worker lives in the same process. Runserver's autoreloader runs
``inner_run`` in the child process it restarts on a code change, so the worker and beat restart
with the code. Ctrl-C stops everything (daemon threads).

Two things follow the command line unless the environment sets them: ``SITE_URL``,
the address in emails' links, is the one served (``make run PORT=8101`` links to port 8101),
and Django's console email backend gives way to ``ReadableConsoleBackend``, which prints each
message's text decoded (no quoted-printable: a link stays on one line and ä stays ä).
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from daphne.management.commands.runserver import Command as RunserverCommand
from django.conf import settings
from django.core.mail.backends.console import EmailBackend as ConsoleBackend

CONSOLE = "django.core.mail.backends.console.EmailBackend"
READABLE = "games.management.commands.devserver.ReadableConsoleBackend"

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
        # The analysis queue too: an analysis runs in slices of a few seconds
        # (ANALYSIS_CHUNK_SECONDS), between which the computer's turns get their turn. And the
        # notices' queue (Web Push, webhooks), which production gives a worker of its own.
        queues=[app.conf.task_default_queue, settings.ANALYSIS_QUEUE, settings.NOTICES_QUEUE],
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


class ReadableConsoleBackend(ConsoleBackend):
    """The console backend for people: the headers that matter, then each text part decoded
    (an HTML alternative is only mentioned), instead of the raw MIME with its encodings."""

    def write_message(self, message):
        msg = message.message()
        lines = [f"{name}: {msg[name]}" for name in ("From", "To", "Subject") if msg[name]]
        others = []
        for part in msg.walk():
            if part.is_multipart():
                continue
            kind = part.get_content_type()
            if kind == "text/plain" and not part.get_filename():
                charset = part.get_content_charset() or "utf-8"
                lines += ["", part.get_payload(decode=True).decode(charset).rstrip()]
            else:
                others.append(part.get_filename() or kind)
        if others:
            lines += ["", f"(also in this message: {', '.join(others)})"]
        self.stream.write("\n".join(lines) + "\n" + "-" * 79 + "\n")


def follow_the_command_line(addr: str, port: str) -> None:
    """SITE_URL and a readable console for emails, unless the environment chose them."""
    if not os.environ.get("SITE_URL", "").strip():
        host = {"0.0.0.0": "127.0.0.1", "::": "localhost"}.get(addr, addr)  # noqa: S104
        host = f"[{host}]" if ":" in host else host
        settings.SITE_URL = f"http://{host}:{port}"
    if settings.EMAIL_BACKEND == CONSOLE and not os.environ.get("EMAIL_BACKEND", "").strip():
        settings.EMAIL_BACKEND = READABLE


class Command(RunserverCommand):
    help = "runserver, with a Celery worker and beat in the same process (make run)"

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--prepare",
            action="store_true",
            help="migrate and create the demo accounts first (make run), in this process",
        )

    def handle(self, *args, **options):
        # The autoreloader runs this command again in its child (RUN_MAIN): prepare once.
        if options.get("prepare") and os.environ.get("RUN_MAIN") != "true":
            from django.core.management import call_command

            self.stdout.write("Migrating the database")
            call_command("migrate", verbosity=0, interactive=False)
            call_command("demo_accounts", stdout=self.stdout)
        super().handle(*args, **options)

    def inner_run(self, *args, **options):
        follow_the_command_line(self.addr, self.port)
        start_worker_and_beat()
        super().inner_run(*args, **options)
