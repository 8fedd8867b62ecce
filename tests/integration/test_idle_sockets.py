"""Websockets on the Redis channel layer stay open for hours (issue: close 1011 after a few idle
seconds). redis-py 8's default 5 s socket timeout cut channels_redis's 5 s blocking reads, and
every idle consumer crashed; config.settings gives the layer's connections a longer one. This
test holds a game socket silent for 35 s, as production's layer is configured, then nudges it:
on the old configuration (hosts=[REDIS_URL]) the consumer is dead by then."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.live import nudges
from games.live.routing import websocket_urlpatterns

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

IDLE_SECONDS = 35  # seven of channels_redis's 5 s blocking reads; the old timeout cut the first


@pytest.mark.timeout(120)
async def test_a_silent_socket_still_hears_a_nudge_after_35_seconds(
    duel, alice, redis_channel_layer
):
    page = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{duel.public_id}/")
    page.scope["user"] = alice
    connected, _ = await page.connect()
    assert connected
    opening = await page.receive_json_from(timeout=5)  # the game's ply as the socket opens
    assert opening["type"] == "game.changed"
    try:
        await asyncio.sleep(IDLE_SECONDS)
        # A crashed consumer re-raises its exception here (the old "Timeout reading from ...").
        assert await page.receive_nothing(timeout=0.1)
        await sync_to_async(nudges.game_changed)(duel.public_id, 7)
        assert await page.receive_json_from(timeout=5) == {"type": "game.changed", "ply": 7}
        await page.send_json_to({"type": "ping"})
        assert await page.receive_json_from(timeout=5) == {"type": "pong"}
    finally:
        await page.disconnect()
