"""A nudge through the Redis channel layer leaves from the process's nudge loop without the
request waiting for it (issue #25), reaches a listener on the real Redis, and one that cannot be
sent (Redis away) is logged, never raised into the request."""

from __future__ import annotations

import asyncio
import logging
import os
import time

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers, get_channel_layer

from games.live import nudges


@pytest.fixture
def redis_layer(settings, require_redis):
    from config.settings import redis_channel_layer

    def use(url: str):
        settings.CHANNEL_LAYERS = {"default": redis_channel_layer(url)}
        channel_layers.backends.clear()
        return get_channel_layer()

    yield use
    channel_layers.backends.clear()


def test_a_nudge_reaches_a_listener_on_redis(redis_layer):
    layer = redis_layer(os.environ["REDIS_URL"])
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(nudges.game_group("nudgetest"), channel)

    nudges.game_changed("nudgetest", 7)

    message = async_to_sync(layer.receive)(channel)
    assert message == {"type": "game.changed", "ply": 7}


def test_a_nudge_redis_cannot_take_is_logged_and_does_not_hold_the_request(redis_layer, caplog):
    redis_layer("redis://127.0.0.1:1/0")  # nothing listens on port 1
    caplog.set_level(logging.ERROR, logger="games.live.nudges")
    started = time.perf_counter()
    nudges.game_changed("nudgetest", 8)  # no exception
    assert time.perf_counter() - started < 0.2
    for _ in range(100):
        if any("not sent" in r.getMessage() for r in caplog.records):
            break
        time.sleep(0.05)
    assert any("nudge to game-nudgetest not sent" in r.getMessage() for r in caplog.records)


def test_a_burst_larger_than_the_redis_pool_loses_no_nudge(settings, require_redis, caplog):
    # 250 nudges at once from one process: redis-py's asyncio pool refuses a 101st connection,
    # so without the loop's gate (nudges.MAX_IN_FLIGHT) the excess was logged and lost.
    from config.settings import redis_channel_layer

    config = redis_channel_layer(os.environ["REDIS_URL"])
    config["CONFIG"]["capacity"] = 1000  # the listener's channel holds the whole burst
    settings.CHANNEL_LAYERS = {"default": config}
    channel_layers.backends.clear()
    try:
        layer = get_channel_layer()
        channel = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(nudges.game_group("bursttest"), channel)
        caplog.set_level(logging.ERROR, logger="games.live.nudges")

        for ply in range(250):
            nudges.game_changed("bursttest", ply)

        async def receive_all():  # what arrives within 10 s (a lost nudge never does)
            plies = []
            try:
                async with asyncio.timeout(10):
                    while len(plies) < 250:
                        plies.append((await layer.receive(channel))["ply"])
            except TimeoutError:
                pass
            return plies

        plies = async_to_sync(receive_all)()
        assert sorted(plies) == list(range(250))
        assert not [r for r in caplog.records if "not sent" in r.getMessage()]
    finally:
        channel_layers.backends.clear()
