"""Health checks (django-health-check): ``/health/`` for a load balancer, ``/health/full/`` for a
monitor.

``/health/``: the database and the cache (Redis in production) answer. A web process is worth
traffic when these do, whatever the workers are doing.
``/health/full/``: also a Celery worker answers a ping (its heartbeat), and beat's every-minute
deadline scan ran recently: the scan task writes when it ran (``mark_scan``), so a stale mark with
a worker answering means beat is down (and a computer turn whose task was lost, a reminder, a
timeout would wait for ever).

Each answers 200 when every check passes and 500 otherwise; ``?format=json`` for machines.
"""

from __future__ import annotations

import dataclasses
import datetime
import time

from django.core.cache import cache
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable

SCAN_MARK = "health:deadline-scan"
SCAN_STALE_SECONDS = 180  # three missed runs of the every-minute scan


def mark_scan() -> None:
    cache.set(SCAN_MARK, time.time(), None)


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


def checks(*, full: bool) -> list:
    """The checks of one endpoint (config/urls.py)."""
    from django.conf import settings

    basic = ["health_check.checks.Database", "health_check.checks.Cache"]
    if settings.REDIS_URL:  # the channel layer and the broker live there too
        basic.append(
            (
                "health_check.contrib.redis.Redis",
                {"client_factory": lambda: _redis(settings.REDIS_URL)},
            )
        )
    if not full:
        return basic
    return [*basic, "health_check.contrib.celery.Ping", BeatRan]


def _redis(url: str):
    from redis.asyncio import Redis

    return Redis.from_url(url)
