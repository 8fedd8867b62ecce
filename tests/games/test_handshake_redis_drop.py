"""The first websocket handshake after a Redis drop is accepted. The channel layer's pooled
connection died with the server (here: killed server-side, as a Redis restart does); the
handshake's ``group_add`` meets it, and the consumer retries once on a fresh connection instead
of answering 500. Real Redis: the dead pooled socket is what redis-py raises on."""

from __future__ import annotations

import pytest
from channels.layers import channel_layers
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.live.routing import websocket_urlpatterns

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CLIENT_NAME = "blokus-test-g9"


@pytest.fixture
def redis_layer(settings, require_redis):
    from config.settings import redis_channel_layer

    layer = redis_channel_layer(require_redis)
    layer["CONFIG"]["hosts"][0]["client_name"] = CLIENT_NAME  # to find (and kill) its sockets
    settings.CHANNEL_LAYERS = {"default": layer}
    channel_layers.backends.clear()
    yield require_redis
    channel_layers.backends.clear()


def drop_layer_connections(url: str) -> int:
    """Close this test's channel-layer connections from the server's side, as a restart does."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        ids = [c["id"] for c in client.client_list() if c.get("name") == CLIENT_NAME]
        for client_id in ids:
            client.client_kill_filter(_id=client_id)
        return len(ids)
    finally:
        client.close()


async def handshake(path: str, user) -> bool:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    communicator.scope["user"] = user
    try:
        connected, _ = await communicator.connect(timeout=5)
    finally:
        await communicator.disconnect()
    return connected


async def test_the_first_handshake_after_a_redis_drop_is_accepted(duel, alice, redis_layer):
    from asgiref.sync import sync_to_async

    path = f"/ws/games/{duel.public_id}/"
    assert await handshake(path, alice)  # the pool now holds a connection
    assert await sync_to_async(drop_layer_connections)(redis_layer) >= 1

    assert await handshake(path, alice)
