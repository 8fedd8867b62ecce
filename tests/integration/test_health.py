"""/health/full/ on real services: a Celery worker process answers the ping over Redis, beat's
scan has run, PostgreSQL and Redis answer: 200. With the worker killed: 500, naming the worker."""

from __future__ import annotations

import json

import pytest

from games import health
from tests.integration.helpers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def monitor_token(settings):
    settings.MONITOR_TOKEN = "a-monitor-token"
    settings.HEALTH_CACHE_SECONDS = 0  # each poll checks afresh


def full(client) -> tuple[int, dict]:
    response = client.get("/health/full/?format=json", HTTP_AUTHORIZATION="Bearer a-monitor-token")
    return response.status_code, json.loads(response.content)


def test_the_full_check_sees_a_live_worker_and_then_its_death(client, broker, workers):
    broker.connect()
    worker = workers.start()
    health.mark_scan()  # as the every-minute scan does

    wait_for(lambda: full(client)[0] == 200, what="a healthy /health/full/", log=worker.log)
    status, body = full(client)
    assert status == 200 and set(body.values()) == {"OK"}
    assert "redis" in body

    worker.kill()
    status, body = full(client)
    assert status == 500
    assert "workers unavailable" in body["celery"]
