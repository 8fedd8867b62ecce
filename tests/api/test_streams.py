"""The event streams (``/api/v1/stream/...``) through the site's real ASGI application on the
in-memory channel layer: a move reaches a reading client within a second, a reconnect resumes
from the ply it saw, the player's own stream tells of a challenge, a game started, their turn
and a game over, and a revoked token ends a stream."""

from __future__ import annotations

import time

import pytest
from channels.db import database_sync_to_async

from api import tokens
from games import engine, services
from games.models import Seat
from games.services import SeatSpec
from tests.support.api import Stream

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def issue(user, scopes=("read", "play")) -> str:
    return tokens.token_issue(user=user, name="test", scopes=list(scopes)).secret


def duel_of(alice, bob):
    from tests.support.tables import alice_against_bob

    return alice_against_bob(alice, bob, mode="shuffle")


def play_first(game, user) -> int:
    game.refresh_from_db()
    action = engine.legal_actions(game.current_state())[0]
    return services.action_submit(game=game, user=user, action=action, expected_ply=game.ply).ply


async def test_a_move_reaches_the_game_stream_within_a_second(alice, bob):
    game = await database_sync_to_async(duel_of)(alice, bob)
    secret = await database_sync_to_async(issue)(bob)
    stream = Stream(f"/api/v1/stream/games/{game.public_id}", secret)
    try:
        assert await stream.open() == 200
        assert stream.headers["content-type"] == "application/x-ndjson"
        first = await stream.next()
        assert first["type"] == "game" and first["ply"] == 0 and first["seat"] == 1
        started = time.monotonic()
        await database_sync_to_async(play_first)(game, alice)
        action = await stream.next(timeout=1)
        assert action["type"] == "action" and action["ply"] == 1 and action["seat"] == 0
        position = await stream.next(timeout=1)
        assert position["type"] == "game" and position["ply"] == 1
        assert time.monotonic() - started < 1
        # From bob's seat: his own hand, never alice's (R9).
        assert position["view"]["seat"] == 1
    finally:
        await stream.close()


async def test_a_reconnect_catches_up_from_the_ply_it_saw(alice, bob):
    game = await database_sync_to_async(duel_of)(alice, bob)
    for user in (alice, bob, alice):
        await database_sync_to_async(play_first)(game, user)
    secret = await database_sync_to_async(issue)(bob)
    stream = Stream(f"/api/v1/stream/games/{game.public_id}", secret, "since_ply=1")
    try:
        assert await stream.open() == 200
        lines = [await stream.next() for _ in range(3)]
        assert [(x["type"], x.get("ply")) for x in lines] == [
            ("action", 2),
            ("action", 3),
            ("game", 3),
        ]
    finally:
        await stream.close()


async def test_my_stream_tells_of_a_challenge_a_start_my_turn_and_the_end(alice, bob):
    secret = await database_sync_to_async(issue)(bob)
    stream = Stream("/api/v1/stream/me", secret)
    try:
        assert await stream.open() == 200
        hello = await stream.next()
        assert hello == {"type": "hello", "your_turn": [], "challenges": []}
        game = await database_sync_to_async(services.game_create)(
            creator=alice,
            mode="shuffle",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        )
        challenge = await stream.next(timeout=1)
        assert challenge["type"] == "challenge" and challenge["game"] == game.public_id
        assert challenge["from"] == "alice"
        await database_sync_to_async(services.invitation_accept)(game=game, user=bob)
        started = await stream.next(timeout=1)
        assert started == {**started, "type": "game_started", "game": game.public_id}
        await database_sync_to_async(play_first)(game, alice)  # blue's setup: yellow (bob) next
        turn = await stream.next(timeout=1)
        assert turn == {"type": "your_turn", "game": game.public_id, "ply": 1}
        await database_sync_to_async(services.game_resign)(game=game, user=alice)
        over = await stream.next(timeout=1)
        assert over["type"] == "game_over" and over["game"] == game.public_id
        assert over["my_place"] == 1
    finally:
        await stream.close()


async def test_a_revoked_token_ends_the_stream(alice, bob):
    game = await database_sync_to_async(duel_of)(alice, bob)
    issued = await database_sync_to_async(tokens.token_issue)(user=bob, name="t", scopes=["read"])
    stream = Stream(f"/api/v1/stream/games/{game.public_id}", issued.secret)
    try:
        assert await stream.open() == 200
        assert (await stream.next())["type"] == "game"
        await database_sync_to_async(tokens.token_revoke)(user=bob, token_id=issued.token.pk)
        await database_sync_to_async(play_first)(game, alice)
        assert (await stream.next(timeout=1))["type"] == "closed"
    finally:
        await stream.close()


async def test_a_game_the_reader_may_not_see_is_a_404_before_any_stream(alice, bob, carol):
    game = await database_sync_to_async(services.game_create)(
        creator=alice,
        mode="shuffle",
        players=2,
        visibility="private",
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    secret = await database_sync_to_async(issue)(carol)
    stream = Stream(f"/api/v1/stream/games/{game.public_id}", secret)
    assert await stream.open() == 404
    assert (await stream.body())["code"] == "not_found"
