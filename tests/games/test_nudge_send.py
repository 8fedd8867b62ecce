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


def test_past_the_waiting_line_a_nudge_is_dropped_and_logged_never_lost_silently(
    settings, require_redis, caplog, monkeypatch
):
    # A Redis that answers slowly (each send held 50 ms) and a short waiting line: the burst
    # fills the gate and the line, and what cannot wait is dropped with a warning. Every nudge
    # is either received or named in a warning.
    from config.settings import redis_channel_layer

    config = redis_channel_layer(os.environ["REDIS_URL"])
    config["CONFIG"]["capacity"] = 1000
    settings.CHANNEL_LAYERS = {"default": config}
    channel_layers.backends.clear()
    monkeypatch.setattr(nudges, "MAX_WAITING", 10)
    try:
        layer = get_channel_layer()
        channel = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(nudges.game_group("slowtest"), channel)
        send = layer.group_send

        async def slow_send(group, message):
            await asyncio.sleep(0.05)
            await send(group, message)

        monkeypatch.setattr(layer, "group_send", slow_send)
        caplog.set_level(logging.WARNING, logger="games.live.nudges")

        for ply in range(250):
            nudges.game_changed("slowtest", ply)

        async def receive_all():
            plies = []
            try:
                async with asyncio.timeout(3):
                    while len(plies) < 250:
                        plies.append((await layer.receive(channel))["ply"])
            except TimeoutError:
                pass
            return plies

        plies = async_to_sync(receive_all)()
        dropped = [r for r in caplog.records if "nudge to game-slowtest dropped" in r.getMessage()]
        assert len(plies) >= nudges.MAX_IN_FLIGHT
        assert dropped, "the burst should have overflowed the waiting line"
        assert len(plies) + len(dropped) == 250
        assert len(set(plies)) == len(plies)
    finally:
        channel_layers.backends.clear()
