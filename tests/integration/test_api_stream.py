"""The API's game stream on real services: PostgreSQL and the Redis channel layer as in
production. A move committed through the API reaches a client reading the stream through the
site's ASGI application within a second, and a client that reconnects with ``since_ply``
catches up."""

from __future__ import annotations

import json
import time

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from api import tokens
from games import engine
from tests.support.api import Stream, bearer
from tests.support.tables import alice_against_bob

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def move_through_the_api(game, secret: str) -> dict:
    game.refresh_from_db()
    action = engine.legal_actions(game.current_state())[0]
    answer = Client().post(
        f"/api/v1/games/{game.public_id}/actions",
        json.dumps({"action": action, "ply": game.ply, "key": f"k{game.ply}"}),
        content_type="application/json",
        **bearer(secret),
    )
    assert answer.status_code == 200, answer.content
    return answer.json()


async def test_a_move_reaches_the_stream_within_a_second_over_redis(
    require_postgres, redis_channel_layer, alice, bob
):
    game = await database_sync_to_async(alice_against_bob)(alice, bob, mode="shuffle")
    mover = await database_sync_to_async(tokens.token_issue)(user=alice, name="a", scopes=["play"])
    reader = await database_sync_to_async(tokens.token_issue)(user=bob, name="b", scopes=["read"])
    stream = Stream(f"/api/v1/stream/games/{game.public_id}", reader.secret)
    try:
        assert await stream.open() == 200
        assert (await stream.next(timeout=5))["type"] == "game"
        # Alice moves through the API, bob through the service as his page does.
        for ply, move in ((1, "api"), (2, "page"), (3, "api")):
            started = time.monotonic()
            if move == "api":
                await database_sync_to_async(move_through_the_api)(game, mover.secret)
            else:
                await database_sync_to_async(_bob_moves)(game, bob)
            action = await stream.next(timeout=1)
            assert (action["type"], action["ply"]) == ("action", ply)
            position = await stream.next(timeout=1)
            assert (position["type"], position["ply"]) == ("game", ply)
            assert time.monotonic() - started < 1
    finally:
        await stream.close()
    again = Stream(f"/api/v1/stream/games/{game.public_id}", reader.secret, "since_ply=1")
    try:
        assert await again.open() == 200
        lines = [await again.next(timeout=5) for _ in range(3)]
        assert [(x["type"], x["ply"]) for x in lines] == [("action", 2), ("action", 3), ("game", 3)]
    finally:
        await again.close()


def _bob_moves(game, bob) -> None:
    from games import services

    game.refresh_from_db()
    action = engine.legal_actions(game.current_state())[0]
    services.action_submit(game=game, user=bob, action=action, expected_ply=game.ply)
