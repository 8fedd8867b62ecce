"""/metrics/ for the monitor: Prometheus's text format behind the monitor's token,
with request latency per view, moves committed, the computer's wait from queue to move, the
Celery queue's length, open websockets and emails sent (games.metrics)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from celery.signals import task_success
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from prometheus_client import REGISTRY

from games import engine, services
from games.jobs.tasks import send_invite_email
from games.live.routing import websocket_urlpatterns
from games.models import Seat
from games.services import SeatSpec

TOKEN = "monitor-token-for-tests-0123456789"
MONITOR = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}


@pytest.fixture(autouse=True)
def monitor(settings):
    settings.MONITOR_TOKEN = TOKEN


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scrape(client) -> str:
    response = client.get("/metrics/", **MONITOR)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, {"HTTP_AUTHORIZATION": "Bearer wrong"}])
def test_metrics_are_a_404_without_the_monitors_token(client, headers):
    assert client.get("/metrics/", **headers).status_code == 404


@pytest.mark.django_db
def test_request_latency_is_counted_per_view(client):
    before = sample("blokus_http_request_duration_seconds_count", view="home", method="GET")
    client.get(reverse("home"))
    after = sample("blokus_http_request_duration_seconds_count", view="home", method="GET")
    assert after == before + 1
    assert 'blokus_http_request_duration_seconds_bucket{le="0.005",method="GET",view="home"}' in (
        scrape(client)
    )


@pytest.mark.django_db
def test_moves_and_the_computers_wait_are_counted_once_committed(alice, on_commit):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )
    players = sample("blokus_moves_committed_total", by="player")
    computers = sample("blokus_moves_committed_total", by="computer")
    waits = sample("blokus_computer_wait_seconds_count")

    with on_commit():  # alice's move commits, then the computer's task runs (eagerly)
        action = engine.legal_actions(game.current_state())[0]
        services.action_submit(game=game, user=alice, action=action, expected_ply=0)

    assert sample("blokus_moves_committed_total", by="player") == players + 1
    assert sample("blokus_moves_committed_total", by="computer") >= computers + 1
    assert sample("blokus_computer_wait_seconds_count") >= waits + 1


@pytest.mark.django_db
def test_a_rolled_back_move_is_not_counted(alice, bob, duel):
    players = sample("blokus_moves_committed_total", by="player")
    action = engine.legal_actions(duel.current_state())[0]
    services.action_submit(game=duel, user=alice, action=action, expected_ply=0)
    # the test's transaction never commits: nothing was committed, nothing counted
    assert sample("blokus_moves_committed_total", by="player") == players


def test_emails_sent_are_counted_from_the_email_tasks():
    before = sample("blokus_emails_sent_total", task="send_invite_email")
    task_success.send(sender=send_invite_email, result="sent")
    task_success.send(sender=send_invite_email, result="declined")  # preference "never"
    assert sample("blokus_emails_sent_total", task="send_invite_email") == before + 1


@pytest.mark.django_db
def test_the_celery_queue_length_is_read_from_the_broker(client, settings, require_redis):
    import redis

    queue = "sec-metrics-test-queue"
    settings.CELERY_BROKER_URL = require_redis
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    broker = redis.Redis.from_url(require_redis)
    try:
        broker.delete(queue)
        broker.lpush(queue, "a", "b")
        assert f'blokus_celery_queue_length{{queue="{queue}"}} 2.0' in scrape(client)
    finally:
        broker.delete(queue)
        broker.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_open_websockets_are_counted(duel, alice):
    before = sample("blokus_websockets_open", socket="game")
    communicator = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/games/{duel.public_id}/"
    )
    communicator.scope["user"] = alice
    connected, _ = await communicator.connect()
    assert connected
    assert await sync_to_async(sample)("blokus_websockets_open", socket="game") == before + 1
    await communicator.disconnect()
    assert sample("blokus_websockets_open", socket="game") == before
