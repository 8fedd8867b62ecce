"""Operations: /health/ for a load balancer (database, cache, Redis when set) and /health/full/
for a monitor (also a Celery worker's heartbeat and beat's last run), on django-health-check."""

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
