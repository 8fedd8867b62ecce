"""/health/full/ on real services: a Celery worker process marks itself alive in Redis (its
heartbeat), beat's scan has run, PostgreSQL and Redis answer: 200. While the worker is busy
with the computer's turn (a solo pool answers no ping then): still 200. With the worker killed:
500 once its heartbeat is stale, naming the worker."""

from __future__ import annotations

import json

import pytest

from config.settings import redis_cache
from games import health
from tests.integration.helpers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

BEAT = {"HEALTH_WORKER_BEAT_SECONDS": "1"}


@pytest.fixture(autouse=True)
def monitor_token(settings, redis_url):
    settings.MONITOR_TOKEN = "a-monitor-token"
    settings.HEALTH_CACHE_SECONDS = 0  # each poll checks afresh
    settings.HEALTH_WORKER_STALE_SECONDS = 4
    # The cache the worker writes its heartbeat to: this test's Redis, as in production.
    settings.CACHES = {"default": redis_cache(redis_url)}
    from django.core.cache import cache

    cache.delete(health.WORKER_MARK)


def full(client) -> tuple[int, dict]:
    response = client.get("/health/full/?format=json", HTTP_AUTHORIZATION="Bearer a-monitor-token")
    return response.status_code, json.loads(response.content)


def test_the_full_check_sees_a_live_worker_and_then_its_death(client, broker, workers):
    broker.connect()
    worker = workers.start(**BEAT)
    health.mark_scan()  # as the every-minute scan does

    wait_for(lambda: full(client)[0] == 200, what="a healthy /health/full/", log=worker.log)
    status, body = full(client)
    assert status == 200 and set(body.values()) == {"OK"}
    assert "redis" in body

    worker.kill()
    wait_for(lambda: full(client)[0] == 500, what="the dead worker reported", log=worker.log)
    assert "workers unavailable" in full(client)[1]["celery"]


def test_a_worker_busy_with_the_computers_turn_is_still_up(client, alice, broker, workers):
    """The solo pool runs Master's turn (about 10 s of search on every thread) in the worker's
    main thread: a ping waits until it is over. The heartbeat comes from a thread of its own."""
    from games import services
    from games.models import Action, Seat
    from games.services import SeatSpec
    from tests.integration.helpers import human_move

    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        rated=False,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="master")],
    )
    broker.connect()
    worker = workers.start(**BEAT)
    health.mark_scan()
    wait_for(lambda: full(client)[0] == 200, what="a healthy /health/full/", log=worker.log)

    human_move(game, alice)  # the computer's turn is queued
    wait_for(lambda: broker.taken(), what="the worker to take the turn", log=worker.log)
    statuses = []
    while not Action.objects.filter(game=game, by_ai=True).exists():
        health.mark_scan()
        statuses.append(full(client))
        assert worker.alive(), worker.log()
    assert len(statuses) > 3, "the turn was over before the check could be asked"
    assert [body["celery"] for _status, body in statuses if body["celery"] != "OK"] == []
