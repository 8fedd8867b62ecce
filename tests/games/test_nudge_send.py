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


@pytest.fixture
def roomy_layer(settings, require_redis):
    """The production channel layer on the real Redis, its channels holding a whole burst."""
    from config.settings import redis_channel_layer

    config = redis_channel_layer(os.environ["REDIS_URL"])
    config["CONFIG"]["capacity"] = 1000
    settings.CHANNEL_LAYERS = {"default": config}
    channel_layers.backends.clear()
    yield get_channel_layer()
    channel_layers.backends.clear()


def listening(layer, game: str) -> str:
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(nudges.game_group(game), channel)
    return channel


def received(layer, channel: str, count: int, seconds: float) -> list[int]:
    """The plies of the nudges that reach ``channel`` within ``seconds`` (at most ``count``):
    a lost nudge never does."""

    async def receive_all():
        plies = []
        try:
            async with asyncio.timeout(seconds):
                while len(plies) < count:
                    plies.append((await layer.receive(channel))["ply"])
        except TimeoutError:
            pass
        return plies

    return async_to_sync(receive_all)()


def test_a_burst_larger_than_the_redis_pool_loses_no_nudge(roomy_layer, caplog):
    # 250 nudges at once from one process: redis-py's asyncio pool refuses a 101st connection,
    # so without the loop's gate (nudges.MAX_IN_FLIGHT) the excess was logged and lost.
    channel = listening(roomy_layer, "bursttest")
    caplog.set_level(logging.ERROR, logger="games.live.nudges")

    for ply in range(250):
        nudges.game_changed("bursttest", ply)

    assert sorted(received(roomy_layer, channel, 250, 10)) == list(range(250))
    assert not [r for r in caplog.records if "not sent" in r.getMessage()]


def test_past_the_waiting_line_a_nudge_is_dropped_and_logged_never_lost_silently(
    roomy_layer, caplog, monkeypatch
):
    # A Redis that answers slowly (each send held 50 ms) and a short waiting line: the burst
    # fills the gate and the line, and what cannot wait is dropped with a warning. Every nudge
    # is either received or named in a warning.
    monkeypatch.setattr(nudges, "MAX_WAITING", 10)
    channel = listening(roomy_layer, "slowtest")
    send = roomy_layer.group_send

    async def slow_send(group, message):
        await asyncio.sleep(0.05)
        await send(group, message)

    monkeypatch.setattr(roomy_layer, "group_send", slow_send)
    caplog.set_level(logging.WARNING, logger="games.live.nudges")

    for ply in range(250):
        nudges.game_changed("slowtest", ply)

    plies = received(roomy_layer, channel, 250, 3)
    dropped = [r for r in caplog.records if "nudge to game-slowtest dropped" in r.getMessage()]
    assert len(plies) >= nudges.MAX_IN_FLIGHT
    assert dropped, "the burst should have overflowed the waiting line"
    assert len(plies) + len(dropped) == 250
    assert len(set(plies)) == len(plies)
