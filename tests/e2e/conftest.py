"""Browser tests: Playwright for Python driving Debian's Chromium against the whole site.

The site runs in Daphne (HTTP, static files and websockets), in a thread of the test process.
pytest-django's ``live_server`` speaks WSGI only (no websockets), and channels'
``ChannelsLiveServerTestCase`` runs Daphne in another process, which can see neither the in-memory
SQLite test database nor ``django.core.mail.outbox``. In this process both are at hand:

* with the in-memory SQLite database every thread uses the test's own connection (as Django's
  live server does), and HTTP requests are served one at a time so that two of them never
  interleave their transactions on it; with PostgreSQL (CI) each thread connects itself;
* static files are collected and served by WhiteNoise as in production (hashed names, gzip), so
  that the page weight measured here is what a browser would download;
* the computer's turn runs a moment after the move that queued it, outside that request, as a
  Celery worker would run it: its move reaches the page only through the websocket nudge.

Without Chromium (or Playwright) the tests skip, unless REQUIRE_SERVICES=1 (CI), where they fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
import types
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

from tests.support.needs import missing

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(settings.BASE_DIR) / "out" / "screenshots"
PRODUCTION_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
AI_DELAY = 0.4  # seconds between a move and the computer's answer (a worker picking the task up)


# -- the browser ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright is not installed (pip install playwright)")
    # Playwright's sync API keeps its event loop running in this thread, so Django takes every
    # database call of the test (and of its teardown) for one made from async code. They are
    # not: the test is plain synchronous code, and the server runs in its own threads.
    unsafe = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if unsafe is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = unsafe


# -- the server -----------------------------------------------------------------------------


class _Daphne:
    """One Daphne server for the whole test process (Twisted's reactor starts only once); each
    test plugs its application in and out."""

    _instance: _Daphne | None = None

    @classmethod
    def get(cls) -> _Daphne:
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def __init__(self):
        from daphne.server import Server  # installs Twisted's asyncio reactor on import

        self.app = None
        self.lock: asyncio.Lock | None = None
        # One request (or computer turn) at a time: needed when every thread shares the test's
        # in-memory SQLite connection; with PostgreSQL they run side by side, as in production,
        # so that a nudge can overtake a page's request (tests/e2e/test_live_page.py).
        self.serial = True
        self.pending: list = []  # computer turns queued and not yet played
        self.server = Server(
            application=self._dispatch,
            endpoints=["tcp:port=0:interface=127.0.0.1"],
            signal_handlers=False,
            verbosity=0,
        )
        threading.Thread(target=self.server.run, name="daphne", daemon=True).start()
        deadline = time.monotonic() + 20
        while not self.server.listening_addresses:
            if time.monotonic() > deadline:
                raise RuntimeError("Daphne did not start listening")
            time.sleep(0.05)
        self.port = self.server.listening_addresses[0][1]
        from twisted.internet import reactor

        self.loop: asyncio.AbstractEventLoop = reactor._asyncioEventloop

    async def _dispatch(self, scope, receive, send):
        app = self.app
        if app is None:  # between tests
            if scope["type"] == "http":
                await send({"type": "http.response.start", "status": 503, "headers": []})
                await send({"type": "http.response.body", "body": b""})
            return
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        if not self.serial:
            await app(scope, receive, send)
            return
        async with self._lock():  # one request at a time (see the module docstring)
            await app(scope, receive, send)

    def _lock(self) -> asyncio.Lock:
        if self.lock is None:
            self.lock = asyncio.Lock()
        return self.lock

    @contextlib.contextmanager
    def locked(self):
        """Hold the server still (no request in flight) while the test itself uses the database."""
        asyncio.run_coroutine_threadsafe(self._acquire(), self.loop).result(timeout=60)
        try:
            yield
        finally:
            self.loop.call_soon_threadsafe(self._lock().release)

    async def _acquire(self):
        await self._lock().acquire()

    def later(self, delay: float, func, *args) -> None:
        """Run ``func(*args)`` in a worker thread after ``delay`` seconds, between requests."""
        from asgiref.sync import sync_to_async

        def run():
            from django.db import connections

            try:
                func(*args)
            finally:
                connections.close_all()  # this thread's own connections (PostgreSQL)

        async def job():
            await asyncio.sleep(delay)
            if not self.serial:
                await sync_to_async(run, thread_sensitive=False)()
                return
            async with self._lock():
                await sync_to_async(run, thread_sensitive=False)()

        self.pending.append(asyncio.run_coroutine_threadsafe(job(), self.loop))

    def settle(self, timeout: float = 60) -> None:
        """Wait for the queued computer turns (and the turns they queue) to be played."""
        deadline = time.monotonic() + timeout
        while self.pending:
            self.pending.pop(0).result(timeout=max(0.1, deadline - time.monotonic()))


@contextlib.contextmanager
def _one_connection():
    """With the in-memory SQLite database, every thread uses the test's own connection (a new
    connection would open another, empty, database); closing it is a no-op there."""
    from django.db import connections

    conn = connections["default"]
    if conn.vendor != "sqlite" or not conn.is_in_memory_db():
        yield
        return
    conn.inc_thread_sharing()
    original = connections._connections
    connections._connections = types.SimpleNamespace(default=conn)
    try:
        yield
    finally:
        connections._connections = original
        conn.dec_thread_sharing()


@pytest.fixture(scope="session")
def _collected_static(tmp_path_factory):
    """The static files as `collectstatic` lays them out for production (hashed names, gzip
    copies), when WhiteNoise serves them; None otherwise."""
    if "whitenoise.middleware.WhiteNoiseMiddleware" not in settings.MIDDLEWARE:
        return None
    from django.core.management import call_command
    from django.test import override_settings

    root = tmp_path_factory.mktemp("static")
    with override_settings(STATIC_ROOT=str(root), STORAGES=PRODUCTION_STORAGES):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@dataclass
class Site:
    url: str
    daphne: _Daphne

    def locked(self):
        return self.daphne.locked()

    def call(self, func, *args):
        """``func(*args)`` between requests, in a thread of its own: what sends a nudge (a move
        through the services) cannot run in the test's thread, where Playwright's event loop
        runs and asgiref's async_to_sync refuses to."""

        def run():
            from django.db import connections

            try:
                return func(*args)
            finally:
                connections.close_all()  # this thread's own connections (PostgreSQL)

        with self.locked(), ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(run).result()


def _application(static_root):
    from channels.routing import ProtocolTypeRouter
    from django.core.handlers.asgi import ASGIHandler

    from config.asgi import application as production

    http = ASGIHandler()  # built now: WhiteNoise reads the collected files at start-up
    if static_root is None:
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        http = ASGIStaticFilesHandler(http)
    # Websockets exactly as in production (origin check, sessions, the consumers).
    return ProtocolTypeRouter(
        {"http": http, "websocket": production.application_mapping["websocket"]}
    )


@pytest.fixture
def site(transactional_db, _collected_static, monkeypatch):
    """The site on http://127.0.0.1:<port>, with the computer playing through a 'worker'."""
    from django.test import override_settings

    import games.jobs.tasks

    daphne = _Daphne.get()
    overrides = {"ALLOWED_HOSTS": ["127.0.0.1", "localhost"]}
    policy = getattr(settings, "CONTENT_SECURITY_POLICY", None)
    if policy:  # enforced as in production (DEBUG only reports it): a blocked script shows here
        overrides.update(SECURE_CSP=policy, SECURE_CSP_REPORT_ONLY={})
    if _collected_static is not None:
        overrides.update(STATIC_ROOT=str(_collected_static), STORAGES=PRODUCTION_STORAGES)
    task = games.jobs.tasks.ai_play  # queued by name (games.jobs): the registered task's delay
    monkeypatch.setattr(task, "delay", lambda *args: daphne.later(AI_DELAY, task, *args))
    from django.db import connection

    daphne.serial = connection.vendor == "sqlite"
    with override_settings(**overrides), _one_connection():
        daphne.app = _application(_collected_static)
        try:
            yield Site(url=f"http://127.0.0.1:{daphne.port}", daphne=daphne)
        finally:
            daphne.settle()  # a computer turn still queued plays before the database is emptied
            daphne.app = None


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
