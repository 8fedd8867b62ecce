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


def results(response) -> dict:
    return json.loads(response.content)


def test_the_load_balancer_check_passes_with_database_and_cache(client):
    response = client.get("/health/?format=json")
    assert response.status_code == 200
    body = results(response)
    assert any(k.startswith("Database") for k in body) and any(k.startswith("Cache") for k in body)
    assert set(body.values()) == {"OK"}
    assert response["Cache-Control"].startswith("max-age=0")


def test_the_full_check_fails_without_a_worker_or_beat_and_says_why(client):
    cache.delete(health.SCAN_MARK)
    response = client.get("/health/full/?format=json")
    assert response.status_code == 500
    body = results(response)
    assert "workers unavailable" in next(v for k, v in body.items() if k.startswith("Ping"))
    assert "has not run" in body["BeatRan()"]


def test_beat_counts_as_alive_for_three_minutes_after_its_scan(client):
    scan_deadlines.delay().get()  # the every-minute task marks its run
    assert results(client.get("/health/full/?format=json"))["BeatRan()"] == "OK"
    cache.set(health.SCAN_MARK, time.time() - health.SCAN_STALE_SECONDS - 5, None)
    assert "last ran" in results(client.get("/health/full/?format=json"))["BeatRan()"]
