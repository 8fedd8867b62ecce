"""Real services: PostgreSQL, Redis and ``celery worker`` processes started by the tests.

The tests commit (``django_db(transaction=True)``) to the xdist worker's PostgreSQL test
database, which the Celery worker, another process, reads and writes as production would. They
skip without PostgreSQL and Redis, and fail instead with REQUIRE_SERVICES=1 (CI).

Keeping apart in a Redis shared by the xdist workers (and by whatever else runs on the machine):
each xdist worker uses a Redis database of its own, ``8 + n`` for worker ``gwn`` (kombu keeps
its book of unacknowledged messages per database, and a short visibility timeout sweeps the
whole book), and each test a Celery queue of its own, so that a task one test leaves behind
never reaches another test's worker. Channel layer groups are named after games' random public
ids. The tests delete their queues, and never flush a database.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import signal
import subprocess
import sys
import uuid
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

import kombu.pools
import pytest

from tests.integration.helpers import WAIT, wait_for

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).parent / "celery"


# -- Redis and the test process's Celery app ---------------------------------------------------


@pytest.fixture
def redis_url(require_redis) -> str:
    """REDIS_URL with this xdist worker's database number in place of the one it names."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    number = int(worker.removeprefix("gw") or 0) % 8
    parts = urlsplit(require_redis)
    if parts.scheme not in ("redis", "rediss"):
        pytest.skip(f"the integration tests need a redis:// REDIS_URL, not {require_redis}")
    return urlunsplit(parts._replace(path=f"/{8 + number}"))


def _forget_connections(app) -> None:
    # The app caches its broker connection pool, and its amqp and control objects cache the
    # queues, the router and the producers built from the configuration at first use.
    app._pool = None
    for cached in ("amqp", "control"):
        app.__dict__.pop(cached, None)


class Broker:
    """One test's Celery queue on Redis, and the test process's Celery app sending to it."""

    SWITCHED = ("task_always_eager", "broker_url", "task_default_queue")
    # Routed to the notices' queue (NOTICES_QUEUE in config/settings.py): this test's own.
    NOTICE_TASKS = ("games.tasks.send_push", "games.tasks.send_webhook")

    def __init__(self, url: str):
        import redis

        self.url = url
        self.queue = f"test-{uuid.uuid4().hex[:12]}"
        # What a worker started with CELERY_TASK_DEFAULT_QUEUE=queue takes for NOTICES_QUEUE.
        self.notices_queue = f"{self.queue}-notices"
        self.redis = redis.Redis.from_url(url)
        self._saved: dict | None = None
        self._saved_routes: dict = {}

    def connect(self) -> None:
        """From now on this process queues tasks on Redis, as the web processes do, instead of
        running them eagerly (tests/settings.py). Create a test's game before: its start then
        queues nothing (a turn email for the first player, say) that the test is not about."""
        from config.celery import app

        self._saved = {name: app.conf[name] for name in self.SWITCHED}
        app.conf.update(task_always_eager=False, broker_url=self.url, task_default_queue=self.queue)
        # Only the notices' routes change: a test may have routed another task (the analysis).
        routes = dict(app.conf.task_routes or {})
        self._saved_routes = {name: routes.get(name) for name in self.NOTICE_TASKS}
        routes.update({name: {"queue": self.notices_queue} for name in self.NOTICE_TASKS})
        app.conf.task_routes = routes
        _forget_connections(app)

    def disconnect(self) -> None:
        from config.celery import app

        if self._saved is not None:
            app.conf.update(self._saved)
            routes = dict(app.conf.task_routes or {})
            for name, route in self._saved_routes.items():
                if route is None:
                    routes.pop(name, None)
                else:
                    routes[name] = route
            app.conf.task_routes = routes
            _forget_connections(app)
            # kombu keeps one pool per broker URL for the process: close them all (the next
            # use opens new ones), Redis's connections with them.
            kombu.pools.reset()
            self._saved = None
        # The queue, and kombu's record of its binding to the exchange of the same name.
        queues = (self.queue, self.notices_queue)
        bindings = [
            f"_kombu.{kind}.{queue}"
            for kind in ("binding", "binding_permanent")
            for queue in queues
        ]
        self.redis.delete(*queues, *bindings)
        self.redis.close()

    @staticmethod
    def _task(message: dict) -> tuple[str, list]:
        args, _kwargs, _embed = json.loads(base64.b64decode(message["body"]))
        return message["headers"]["task"], args

    def queued(self) -> list[tuple[str, list]]:
        """(task name, arguments) of each message waiting in the queue, oldest first."""
        waiting = reversed(self.redis.lrange(self.queue, 0, -1))  # LPUSH in, BRPOP out
        return [self._task(json.loads(raw)) for raw in waiting]

    def taken(self) -> dict[str, tuple[tuple[str, list], float]]:
        """This queue's messages that a worker took and has not acknowledged: delivery tag ->
        ((task name, arguments), when it was taken). Kombu keeps them in a hash and a sorted
        set per database, whatever their queue."""
        found = {}
        for tag, raw in self.redis.hgetall("unacked").items():
            message, _exchange, routing_key = json.loads(raw)
            if routing_key == self.queue:
                found[tag] = (self._task(message), self.redis.zscore("unacked_index", tag))
        return found


@pytest.fixture
def broker(redis_url):
    broker = Broker(redis_url)
    yield broker
    broker.disconnect()


# -- the worker's outbox -------------------------------------------------------------------


class Mailbox:
    """What the worker's email backend (tests/integration/mailbox.py) wrote."""

    def __init__(self, path: Path):
        self.path = path
        path.mkdir()

    def messages(self) -> list[EmailMessage]:
        return [
            message_from_bytes(file.read_bytes(), policy=policy.default)
            for file in sorted(self.path.glob("*.eml"))
        ]

    def attempts(self) -> int:
        attempts = self.path / "attempts"
        return len(attempts.read_text().splitlines()) if attempts.exists() else 0


@pytest.fixture
def mailbox(tmp_path) -> Mailbox:
    return Mailbox(tmp_path / "mailbox")


# -- Celery worker processes ---------------------------------------------------------------


def worker_database_url(name: str) -> str:
    """DATABASE_URL of the test database this process uses (test_<name>[_gwN])."""
    from django.db import connection

    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        user += ":" + quote(db["PASSWORD"], safe="")
    host = db["HOST"] or "127.0.0.1"
    netloc = f"{user}@{host}" if user else host
    if db["PORT"]:
        netloc += f":{db['PORT']}"
    options = {k: v for k, v in db["OPTIONS"].items() if isinstance(v, str)}
    # Its connections carry the worker's name, so that teardown can find any it left behind.
    options["application_name"] = name
    return f"postgres://{netloc}/{quote(db['NAME'], safe='')}?{urlencode(options)}"


class Worker:
    """``celery -A config worker`` in a subprocess: production's settings (config.settings,
    DEBUG off) on the test database, this test's Redis database and queue, and the test email
    backend."""

    def __init__(self, *, broker: Broker, mailbox: Mailbox, log: Path, env: dict[str, str]):
        self.broker = broker
        self.name = f"{broker.queue}-{secrets.token_hex(3)}"
        self.hostname = f"{self.name}@localhost"
        self.log_path = log
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/tmp"),
            "LANG": "C.UTF-8",
            "PYTHONPATH": str(ROOT),  # for tests.integration.mailbox
            "PYTHONDONTWRITEBYTECODE": "1",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "testserver",
            "LOG_LEVEL": "WARNING",
            "DATABASE_URL": worker_database_url(self.name),
            "REDIS_URL": broker.url,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CELERY_TASK_DEFAULT_QUEUE": broker.queue,
            # A turn email queued by the worker (after the computer's move) waits a real
            # countdown, short enough for the tests.
            "TURN_EMAIL_GRACE_SECONDS": "1",
            "EMAIL_BACKEND": "tests.integration.mailbox.EmailBackend",
            "TEST_MAILBOX": str(mailbox.path),
            "SITE_URL": "http://testserver",
            **env,
        }
        self.process: subprocess.Popen | None = None

    def start(self) -> Worker:
        command = [
            str(CELERY),
            "-A",
            "config",
            "worker",
            # One task at a time, and one taken from the queue at a time (the prefetch count is
            # the multiplier times the concurrency, which solo would take from the CPU count).
            "--pool=solo",
            "--concurrency=1",
            "--loglevel=warning",
            "-Q",
            f"{self.broker.queue},{self.broker.notices_queue}",
            "--hostname",
            self.hostname,
            # Nothing to synchronise with other workers: start at once, and stay out of them.
            "--without-mingle",
            "--without-gossip",
            "--without-heartbeat",
        ]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        return self

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-5000:] if self.log_path.exists() else ""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def ran(self, task: str) -> int:
        """How many ``task`` messages the worker has run (0 while it is not answering yet).

        The solo pool answers remote control between two tasks only, so a count includes only
        tasks that have finished."""
        from config.celery import app

        assert self.alive(), f"the worker died:\n{self.log()}"
        reply = app.control.inspect(destination=[self.hostname], timeout=0.5, limit=1).stats()
        return (reply or {}).get(self.hostname, {}).get("total", {}).get(task, 0)

    def wait_ran(self, task: str, times: int) -> None:
        wait_for(lambda: self.ran(task) >= times, what=f"{times} x {task}", log=self.log)
        assert self.ran(task) == times, self.log()

    def kill(self) -> None:
        """SIGKILL: the worker dies at once, with no chance to acknowledge or requeue."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=WAIT)

    def stop(self) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGTERM)  # warm shutdown: finish the task at hand
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=WAIT)
        # A killed worker's database session can outlive it (blocked on a lock, it notices the
        # closed socket only when it answers): end it, before the test database is emptied.
        from django.db import connection

        def sessions() -> int:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND application_name = %s",
                    [self.name],
                )
                return cursor.fetchone()[0]

        wait_for(lambda: sessions() == 0, what="the worker's database sessions to end")


@pytest.fixture
def workers(require_postgres, broker, mailbox, tmp_path):
    """``workers.start(**env)`` starts a worker (extra environment variables for it); each is
    stopped when the test ends, whatever happened."""
    started: list[Worker] = []

    class Workers:
        def start(self, **env: str) -> Worker:
            log = tmp_path / f"worker-{len(started)}.log"
            worker = Worker(broker=broker, mailbox=mailbox, log=log, env=env)
            started.append(worker)
            return worker.start()

    yield Workers()
    failures = []
    for worker in started:  # every one, even after one failed to stop
        try:
            worker.stop()
        except Exception as exc:
            failures.append(exc)
    if failures:
        raise failures[0]


# -- the cast ------------------------------------------------------------------------------


@pytest.fixture
def verified(db):
    """Turn emails go to verified primary addresses only (allauth's EmailAddress)."""
    from allauth.account.models import EmailAddress

    def verify(*users):
        for user in users:
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)

    return verify


@pytest.fixture
def vs_computer(alice):
    """A started 2-player shuffle game, alice (seat 0: blue and red) against the computer
    (seat 1, beginner): alice's setup placement first. Made before a test connects the broker,
    so its start runs in-process (and alice's address is not verified yet: no email)."""
    from games import services
    from games.models import Seat
    from games.services import SeatSpec

    return services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )


@pytest.fixture
def redis_channel_layer(settings, redis_url):
    """This process's channel layer on Redis, configured as in production (config.settings), the
    one a worker sends its nudges through."""
    from channels.layers import channel_layers

    from config.settings import redis_channel_layer as production_layer

    settings.CHANNEL_LAYERS = {"default": production_layer(redis_url)}
    channel_layers.backends.clear()  # built once per process; setting_changed clears it too
    yield
    channel_layers.backends.clear()
