"""Web Push on the production layout: a move commits, a Celery worker process sends
the "your turn" notice to a stub push service, encrypted for the device; a player whose page is
open (their presence in Redis, as the websocket marks it) gets none."""

from __future__ import annotations

import time

import pytest
from django.core.cache.backends.redis import RedisCache

from games import services
from games.models import PushSubscription, Seat
from games.selectors import vapid
from games.services import SeatSpec
from tests.integration.helpers import wait_for
from tests.support import push_stub

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_worker_pushes_your_turn_to_the_device_and_nothing_to_an_open_page(
    alice, bob, broker, workers, redis_url, settings
):
    key = vapid.new_private_key()
    settings.VAPID_PRIVATE_KEY = key
    vapid.private_key.cache_clear()
    vapid.public_key.cache_clear()
    stub = push_stub.start()
    try:
        game = services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            rated=False,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        )
        services.game_join(game=game, user=bob)
        devices = {}
        for user in (alice, bob):
            devices[user.username] = push_stub.Device(f"{stub.url}/push/{user.username}")
            d = devices[user.username]
            PushSubscription.objects.create(
                user=user, endpoint=d.endpoint, p256dh=d.p256dh, auth=d.auth
            )
        # alice is at the board: her page's socket reports it in the shared cache (Redis), as
        # games.live.presence.page_report writes it (socket -> attentive until).
        RedisCache(redis_url, {}).set(f"attention:{alice.pk}", {"tab": time.time() + 600}, 600)

        broker.connect()
        worker = workers.start(VAPID_PRIVATE_KEY=key, WEBHOOK_ALLOW_HTTP="true")
        game.refresh_from_db()
        services.action_submit(game=game, user=alice, action={"place": "a1"}, expected_ply=0)
        (received,) = wait_for(lambda: stub.on("/push/bob"), what="bob's push", log=worker.log)
        notice = devices["bob"].read(received)
        assert notice["body"].startswith("Your turn: alice vs bob · Classic")
        assert notice["url"].endswith(f"/games/{game.public_id}/")
        assert received.headers["authorization"].startswith("vapid t=")

        game.refresh_from_db()
        services.action_submit(game=game, user=bob, action={"place": "t1"}, expected_ply=1)
        worker.wait_ran("games.tasks.send_push", 2)  # alice's ran, and sent nothing
        assert stub.on("/push/alice") == []
        assert len(stub.on("/push/")) == 1
    finally:
        stub.close()
        vapid.private_key.cache_clear()
        vapid.public_key.cache_clear()
