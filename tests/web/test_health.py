"""Operations: /health/ for a load balancer (database, cache, Redis when set) and /health/full/
for a monitor (also a Celery worker's heartbeat and beat's last run), on django-health-check.

The worker's side is a heartbeat it writes (games.health.start_heartbeat), not a ping the
request waits on: under CPU load the ping's answer came after its second and the monitor saw a
worker down while it served turns."""

from __future__ import annotations

import json
import time

import pytest
from django.core.cache import cache

from games import health
from games.jobs.tasks import scan_deadlines

pytestmark = pytest.mark.django_db

MONITOR = {"HTTP_AUTHORIZATION": "Bearer a-monitor-token"}


@pytest.fixture(autouse=True)
def monitor_token(settings):
    settings.MONITOR_TOKEN = "a-monitor-token"
    health.forget_results()  # each test checks afresh (results are kept a few seconds)
    yield
    health.forget_results()


def results(response) -> dict:
    return json.loads(response.content)


def test_the_load_balancer_check_passes_with_the_database(client):
    response = client.get("/health/?format=json")
    assert response.status_code == 200
    body = results(response)
    assert set(body) == {"database"}  # not the cache: pages work without Redis (config.cache)
    assert set(body.values()) == {"OK"}
    assert response["Cache-Control"].startswith("max-age=0")


def test_the_full_check_fails_without_a_worker_or_beat_and_says_why(client):
    cache.delete(health.SCAN_MARK)
    cache.delete(health.WORKER_MARK)
    response = client.get("/health/full/?format=json", **MONITOR)
    assert response.status_code == 500
    body = results(response)
    assert "workers unavailable" in body["celery"]
    assert "has not run" in body["beat"]


def test_beat_counts_as_alive_for_three_minutes_after_its_scan(client):
    scan_deadlines.delay().get()  # the every-minute task marks its run
    assert results(client.get("/health/full/?format=json", **MONITOR))["beat"] == "OK"
    cache.set(health.SCAN_MARK, time.time() - health.SCAN_STALE_SECONDS - 5, None)
    health.forget_results()
    assert "last ran" in results(client.get("/health/full/?format=json", **MONITOR))["beat"]


def test_a_busy_worker_is_up_while_its_heartbeat_is_fresh(client, monkeypatch):
    """Every core busy with the computer's searches: a ping's answer would come too late (here it
    never comes). The worker's heartbeat thread marked it alive a moment ago: it is up."""
    from health_check.contrib.celery import Ping
    from health_check.exceptions import ServiceUnavailable

    def late(self):
        raise ServiceUnavailable("workers unavailable")  # no pong within the second

    monkeypatch.setattr(Ping, "run", late)
    health.mark_worker()  # what the heartbeat thread writes every few seconds
    scan_deadlines.delay().get()
    response = client.get("/health/full/?format=json", **MONITOR)
    assert results(response)["celery"] == "OK"
    assert response.status_code == 200


def test_a_worker_whose_heartbeat_stopped_is_down(client, settings):
    stale = time.time() - settings.HEALTH_WORKER_STALE_SECONDS - 5
    cache.set(health.WORKER_MARK, stale, None)
    body = results(client.get("/health/full/?format=json", **MONITOR))
    assert "workers unavailable" in body["celery"] and "last heartbeat" in body["celery"]


def test_a_ready_worker_starts_its_heartbeat(monkeypatch):
    """Celery's worker_ready (in the worker's main process) starts a daemon thread that marks
    the worker alive, at once and then every HEALTH_WORKER_BEAT_SECONDS."""
    from celery.signals import worker_ready

    started = []

    class Thread:
        def __init__(self, target, name, daemon):
            started.append((target, name, daemon))

        def start(self):
            pass

    monkeypatch.setattr(health.threading, "Thread", Thread)
    worker_ready.send(sender=None)
    assert started == [(health._beat, "health-heartbeat", True)]
