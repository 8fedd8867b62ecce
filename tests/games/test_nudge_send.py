"""A nudge through the Redis channel layer leaves from the process's nudge loop without the
request waiting for it, reaches a listener on the real Redis, and one that cannot be sent (Redis
away) is logged, never raised into the request.

No test here reads a stopwatch: each waits for what the code itself does (a log record written,
a message received, a coroutine run on the nudge loop), under HANG_GUARD, which only a hung test
ever reaches."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers, get_channel_layer

from games.live import nudges

# Seconds: a slow machine takes a fraction of it, a broken nudge loop all of it; under
# pytest-timeout's 60 s, so that a test fails with its own message.
HANG_GUARD = 30.0


class Records(logging.Handler):
    """The records of games.live.nudges that contain ``words``, as they are written (on the nudge
    loop's thread), and a way to wait for them."""

    def __init__(self, words: str):
        super().__init__(logging.DEBUG)
        self.words = words
        self.found: list[logging.LogRecord] = []
        self.changed = threading.Condition()

    def emit(self, record: logging.LogRecord) -> None:
        if self.words in record.getMessage():
            with self.changed:
                self.found.append(record)
                self.changed.notify_all()

    def __len__(self) -> int:
        return len(self.found)

    def wait_for(self, count: int) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: len(self.found) >= count, HANG_GUARD)


@pytest.fixture(autouse=True)
def patient_sends(monkeypatch):
    """A send is not given up for slowness here (SEND_TIMEOUT, 2 s in production): on a
    machine busy with other work, 50 sends in flight at once took longer, and the nudges given
    up failed a test about something else. A test of giving up sets its own."""
    monkeypatch.setattr(nudges, "SEND_TIMEOUT", HANG_GUARD)


@pytest.fixture
def records():
    """``records(words)``: a Records watching games.live.nudges from now to the test's end."""
    logger = logging.getLogger("games.live.nudges")
    watching: list[Records] = []

    def watch(words: str) -> Records:
        watching.append(Records(words))
        logger.addHandler(watching[-1])
        return watching[-1]

    level = logger.level
    logger.setLevel(logging.DEBUG)
    yield watch
    logger.setLevel(level)
    for handler in watching:
        logger.removeHandler(handler)


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
    channel = listening(layer, "nudgetest")

    nudges.game_changed("nudgetest", 7)

    assert received(layer, channel, lambda plies: len(plies) == 1) == [7]


def test_a_nudge_redis_cannot_take_is_logged_and_does_not_hold_the_request(
    redis_layer, records, monkeypatch
):
    layer = redis_layer("redis://127.0.0.1:1/0")  # nothing listens on port 1
    not_sent = records("nudge to game-nudgetest not sent")
    # The send does not begin before game_changed has returned: a request that waited for its
    # nudge would only return once both attempts had been given up (SEND_TIMEOUT each), with
    # the failure already logged. Ten seconds each: such a request fails the test in twenty.
    monkeypatch.setattr(nudges, "SEND_TIMEOUT", 10.0)
    returned = threading.Event()
    send = layer.group_send

    async def send_once_the_request_is_back(group, message):
        await asyncio.to_thread(returned.wait, HANG_GUARD)
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", send_once_the_request_is_back)
    try:
        nudges.game_changed("nudgetest", 8)  # no exception
        assert len(not_sent) == 0, "the request waited for its nudge to be given up"
    finally:
        returned.set()
    assert not_sent.wait_for(1), f"no 'not sent' logged within {HANG_GUARD} s"


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


def received(layer, channel: str, done: Callable[[list[int]], bool]) -> list[int]:
    """The plies of the nudges that reach ``channel``, received until ``done(plies)`` says every
    nudge is accounted for; a test fails if that has not happened within HANG_GUARD."""

    async def receive_until_done():
        plies: list[int] = []

        async def listen():
            while not done(plies):
                plies.append((await layer.receive(channel))["ply"])

        listener = asyncio.create_task(listen())
        try:
            async with asyncio.timeout(HANG_GUARD):
                # Looked at again every 50 ms too: ``done`` may also count log records.
                while not done(plies):
                    await asyncio.wait({listener}, timeout=0.05)
                    if listener.done():
                        listener.result()  # raises what stopped it, if anything did
        except TimeoutError:
            pytest.fail(f"after {HANG_GUARD} s, {len(plies)} nudges received: {sorted(plies)}")
        finally:
            listener.cancel()
        return plies

    return async_to_sync(receive_until_done)()


def test_a_burst_larger_than_the_redis_pool_loses_no_nudge(roomy_layer, records):
    # 250 nudges at once from one process: redis-py's asyncio pool refuses a 101st connection,
    # so without the loop's gate (nudges.MAX_IN_FLIGHT) the excess was logged and lost.
    channel = listening(roomy_layer, "bursttest")
    not_sent = records("nudge to game-bursttest not sent")

    for ply in range(250):
        nudges.game_changed("bursttest", ply)

    # Each nudge is either received or logged as lost: wait until all 250 are one or the other.
    plies = received(roomy_layer, channel, lambda plies: len(plies) + len(not_sent) >= 250)
    assert len(not_sent) == 0, f"{len(not_sent)} of the 250 nudges lost"
    assert sorted(plies) == list(range(250))


def test_past_the_waiting_line_a_nudge_is_dropped_and_logged_never_lost_silently(
    roomy_layer, records, monkeypatch
):
    # Redis stalls (every send held) until the whole burst of 250 has reached the nudge loop,
    # with a short waiting line: MAX_IN_FLIGHT nudges are in flight, MAX_WAITING wait for the
    # gate, and each of the others is dropped with a warning. Once Redis answers, every nudge
    # that waited is received: each one is either received or named in a warning.
    monkeypatch.setattr(nudges, "MAX_WAITING", 10)
    channel = listening(roomy_layer, "slowtest")
    dropped = records("nudge to game-slowtest dropped")
    redis_answers = asyncio.Event()  # used on the nudge loop only
    send = roomy_layer.group_send

    async def stalled_send(group, message):
        await redis_answers.wait()
        await send(group, message)

    monkeypatch.setattr(roomy_layer, "group_send", stalled_send)

    for ply in range(250):
        nudges.game_changed("slowtest", ply)

    async def answer():
        redis_answers.set()

    # The loop starts coroutines in the order they were handed to it: this one starts once every
    # nudge of the burst has started, and so has been put in flight, made to wait or dropped.
    loop, _gate = nudges._nudge_loop()
    asyncio.run_coroutine_threadsafe(answer(), loop).result(HANG_GUARD)

    kept = nudges.MAX_IN_FLIGHT + nudges.MAX_WAITING
    assert len(dropped) == 250 - kept
    plies = received(roomy_layer, channel, lambda plies: len(plies) >= kept)
    assert sorted(plies) == list(range(kept))  # the first ones in, each once


def test_a_batch_of_nudges_larger_than_the_waiting_line_loses_none(
    roomy_layer, records, monkeypatch
):
    # A sweep of "Play now" tells thousands of players at once (nudges.seeks_changed): sent a
    # slice at a time, the batch never fills the gate's waiting line, where it was dropped.
    monkeypatch.setattr(nudges, "MAX_WAITING", 10)
    channel = async_to_sync(roomy_layer.new_channel)()
    users = list(range(900_001, 900_301))
    for user_id in users:
        async_to_sync(roomy_layer.group_add)(nudges.user_group(user_id), channel)
    dropped = records("dropped")

    nudges.seeks_changed(users)

    async def receive_all():
        got = []
        async with asyncio.timeout(HANG_GUARD):
            while len(got) + len(dropped) < len(users):
                got.append(await roomy_layer.receive(channel))
        return got

    got = async_to_sync(receive_all)()
    assert len(dropped) == 0
    assert len(got) == len(users) and {m["type"] for m in got} == {"seek.changed"}
