"""Health checks (django-health-check): ``/health/`` for a load balancer, public; ``/health/full/``
for a monitor, with its token.

``/health/``: the database answers. A web process is worth traffic when it does, whatever Redis
and the workers are doing: the cache degrades to a miss without Redis (config.cache), and a
check that failed with Redis would take every web process out of the load balancer at once.
``/health/full/``: also the cache, Redis itself (the channel layer and the broker), a Celery
worker's heartbeat is fresh, and beat's every-minute deadline scan ran recently: the scan task
writes when it ran (``mark_scan``), so a stale mark with a worker beating means beat is down (and
a computer turn whose task was lost, a reminder, a timeout would wait for ever).

The worker's heartbeat: each worker process marks the time in the cache every
HEALTH_WORKER_BEAT_SECONDS from a thread of its own (``start_heartbeat``, on Celery's
``worker_ready``), and the check reads the mark. It used to ping the workers and wait a second
for a pong: under CPU load (the computer's searches on every core) the pong came late and the
monitor saw the worker down while it was serving turns. A mark older than
HEALTH_WORKER_STALE_SECONDS means no worker is alive.

Each answers 200 when every check passes and 500 otherwise; ``?format=json`` for machines.

The full check reads Redis and the database in a web worker that serves pages meanwhile, and
its reasons may name hosts. So it answers only a request carrying
``Authorization: Bearer <MONITOR_TOKEN>`` (404 otherwise, and 404 to everyone when no token is
set), both endpoints keep their results ``HEALTH_CACHE_SECONDS`` per process (a burst of requests
runs the checks once), and every check is reported under a fixed name ("database", "redis", ...)
instead of its ``repr`` (which named a client factory's or the Celery app's address), with any
host:port in a reason masked.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import hmac
import logging
import re
import threading
import time

from celery.signals import worker_ready
from django.conf import settings
from django.core.cache import cache
from django.http import Http404
from health_check.base import HealthCheck, HealthCheckResult
from health_check.exceptions import HealthCheckException, ServiceUnavailable
from health_check.views import HealthCheckView

SCAN_MARK = "health:deadline-scan"
SCAN_STALE_SECONDS = 180  # three missed runs of the every-minute scan
CLIENT_TIMEOUT = 1.0  # seconds for the Redis check's own client: a dead Redis fails fast


WORKER_MARK = "health:worker-heartbeat"

log = logging.getLogger(__name__)


def mark_scan() -> None:
    cache.set(SCAN_MARK, time.time(), None)


def mark_worker() -> None:
    """A worker is alive now (its heartbeat thread calls this)."""
    cache.set(WORKER_MARK, time.time(), None)


def _beat() -> None:
    while True:
        try:
            mark_worker()
        except Exception:  # the cache degrades without Redis; anything else: logged, go on
            log.exception("the worker's heartbeat could not be written")
        time.sleep(settings.HEALTH_WORKER_BEAT_SECONDS)


@worker_ready.connect
def start_heartbeat(**_signal) -> None:
    """In a Celery worker's main process, once it is ready: mark it alive now and every
    HEALTH_WORKER_BEAT_SECONDS, from a thread that a busy pool does not hold up."""
    threading.Thread(target=_beat, name="health-heartbeat", daemon=True).start()


@dataclasses.dataclass
class WorkerBeats(HealthCheck):
    """A Celery worker marked itself alive within HEALTH_WORKER_STALE_SECONDS."""

    timeout = datetime.timedelta(seconds=2)

    def run(self):
        last = cache.get(WORKER_MARK)
        if last is None:
            raise ServiceUnavailable("workers unavailable: no heartbeat since the cache started")
        age = time.time() - last
        if age > settings.HEALTH_WORKER_STALE_SECONDS:
            raise ServiceUnavailable(f"workers unavailable: last heartbeat {int(age)} s ago")


@dataclasses.dataclass
class BeatRan(HealthCheck):
    """Beat's deadline scan ran within SCAN_STALE_SECONDS (it runs every minute)."""

    timeout = datetime.timedelta(seconds=2)

    def run(self):
        last = cache.get(SCAN_MARK)
        if last is None:
            raise ServiceUnavailable("beat's deadline scan has not run since the cache started")
        age = time.time() - last
        if age > SCAN_STALE_SECONDS:
            raise ServiceUnavailable(f"beat's deadline scan last ran {int(age)} s ago")


def checks(*, full: bool) -> list[tuple[str, object]]:
    """The checks of one endpoint, each with the name it is reported under."""
    basic: list[tuple[str, object]] = [("database", "health_check.checks.Database")]
    if not full:
        return basic
    named = [*basic, ("cache", "health_check.checks.Cache")]
    if settings.REDIS_URL:  # the channel layer and the broker live there too
        factory = _redis_factory(settings.REDIS_URL)
        named.append(("redis", ("health_check.contrib.redis.Redis", {"client_factory": factory})))
    named.append(("celery", WorkerBeats))
    named.append(("beat", BeatRan))
    return named


def _redis_factory(url: str):
    def client():
        from redis.asyncio import Redis

        return Redis.from_url(
            url, socket_connect_timeout=CLIENT_TIMEOUT, socket_timeout=CLIENT_TIMEOUT
        )

    return client


@dataclasses.dataclass(frozen=True)
class Named:
    """What a report shows for a check: its fixed name, nothing from its configuration."""

    name: str

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    @property
    def labels(self) -> dict[str, str]:
        return {"check": self.name}


class Known:
    """A result already at hand, for the library's view to format."""

    def __init__(self, result: HealthCheckResult):
        self.result = result

    async def get_result(self, executor=None) -> HealthCheckResult:
        return self.result


ADDRESS = re.compile(r"(?:[a-z]+://)?[\w.\-\[\]:]*[\w\]]:\d{2,5}(?:/\d+)?", re.IGNORECASE)


def _masked(error: HealthCheckException | None) -> HealthCheckException | None:
    if error is None:
        return None
    return type(error)(ADDRESS.sub("<address>", str(error.message)), timestamp=error.timestamp)


_results: dict[str, tuple[float, list[HealthCheckResult]]] = {}
_lock = threading.Lock()
clock = time.monotonic  # what the kept results' age is read from (a test may hold it still)


class CachedHealthView(HealthCheckView):
    """The library's view, on results kept ``HEALTH_CACHE_SECONDS`` and reported by name."""

    full = False

    async def get(self, request, *args, **kwargs):
        self.known = await self.fresh_results()
        return await super().get(request, *args, **kwargs)

    def get_checks(self):
        return (Known(result) for result in self.known)

    async def fresh_results(self) -> list[HealthCheckResult]:
        key = "full" if self.full else "basic"
        hit = _results.get(key)
        if hit is not None and clock() - hit[0] < settings.HEALTH_CACHE_SECONDS:
            return hit[1]
        named = checks(full=self.full)
        first = [(name, check) for name, check in named if name not in AFTER_REDIS]
        done = await self.run_checks(first)
        if self.full:
            later = [(name, check) for name, check in named if name in AFTER_REDIS]
            if any(r.error for (name, _c), r in zip(first, done, strict=True) if name == "redis"):
                # The heartbeat is kept in that Redis (the cache): without it, no worker's word.
                done += [_skipped(name) for name, _check in later]
            else:
                done += await self.run_checks(later)
            first += later
        results = [
            HealthCheckResult(check=Named(name), error=_masked(r.error), time_taken=r.time_taken)
            for (name, _check), r in zip(first, done, strict=True)
        ]
        with _lock:
            _results[key] = (clock(), results)
        return results

    async def run_checks(self, named: list[tuple[str, object]]) -> list[HealthCheckResult]:
        self.checks = [check for _name, check in named]
        return list(
            await asyncio.gather(
                *(check.get_result(None) for check in HealthCheckView.get_checks(self))
            )
        )


# Checks that need Redis (the worker's heartbeat is kept there): not run while it is down.
AFTER_REDIS = {"celery"}


def _skipped(name: str) -> HealthCheckResult:
    error = ServiceUnavailable("not checked: Redis (the cache and the broker) is unavailable")
    return HealthCheckResult(check=Named(name), error=error, time_taken=0.0)


class MonitorHealthView(CachedHealthView):
    """``/health/full/``: only for a request with the monitor's token."""

    full = True

    async def dispatch(self, request, *args, **kwargs):
        if not monitor_allowed(request):
            raise Http404
        return await super().dispatch(request, *args, **kwargs)


def monitor_allowed(request) -> bool:
    """Whether ``request`` carries ``Authorization: Bearer <MONITOR_TOKEN>`` (never without one)."""
    token = settings.MONITOR_TOKEN
    sent = request.headers.get("Authorization", "")
    scheme, _, value = sent.partition(" ")
    return bool(token) and scheme.lower() == "bearer" and hmac.compare_digest(value, token)


def forget_results() -> None:
    """Drop the kept results (tests; a process's results otherwise expire by themselves)."""
    with _lock:
        _results.clear()
