"""The leak scan of tests/games/test_leak_scan.py, on the API and its streams (R9): at many
positions of random Shuffle games, every answer a player's or a spectator's token can get must
not change when everything that reader may not know is changed in the stored game (other hands,
every draw pile's order, the seed); and the seed itself never appears."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from api import tokens
from games import engine, services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.engine.helpers import disguise
from tests.support.api import Stream, bearer


def new_game(alice, players: int) -> Game:
    return services.game_create(
        creator=alice,
        mode="shuffle",
        players=players,
        seats=[SeatSpec(Seat.Kind.HUMAN)]
        + [SeatSpec(Seat.Kind.AI, level="beginner")] * (players - 1),
    )


def play_until(game: Game, alice, rng: random.Random, plies: int) -> None:
    """Alice's decisions are random; the computer seats answer through the real AI task."""
    from games.jobs.tasks import ai_play

    for _ in range(plies):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        state = game.current_state()
        if game.seats.get(index=state.controller()).is_ai:
            ai_play(game.pk, game.ply)
        else:
            action = rng.choice(engine.legal_actions(state))
            services.action_submit(game=game, user=alice, action=action, expected_ply=game.ply)


def urls(game: Game) -> list[str]:
    base = f"/api/v1/games/{game.public_id}"
    return [base, f"{base}/legal", f"{base}/actions", f"{base}/chat", "/api/v1/games"]


def fetch(secret: str, game: Game) -> dict[str, bytes]:
    client = Client()
    return {url: client.get(url, **bearer(secret)).content for url in urls(game)}


def swapped(game: Game, state, seat, rng):
    alt = disguise(state, seat, rng)
    Game.objects.filter(pk=game.pk).update(state=alt.to_json(), seed=alt.seed)


def restored(game: Game, state):
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), seed=state.seed)


@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 4])
def test_no_api_answer_depends_on_what_its_reader_may_not_know(alice, carol, players):
    game = new_game(alice, players)
    readers = {
        "alice": (tokens.token_issue(user=alice, name="t", scopes=["read"]).secret, 0),
        "carol": (tokens.token_issue(user=carol, name="t", scopes=["read"]).secret, None),
    }
    rng = random.Random(players)
    checked = 0
    for _ in range(6):
        play_until(game, alice, rng, rng.randint(3, 12))
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = game.current_state()
        for who, (secret, seat) in readers.items():
            before = fetch(secret, game)
            for url, body in before.items():
                assert str(game.seed).encode() not in body, (who, url)
                assert body.startswith(b"{"), (who, url)
            swapped(game, state, seat, rng)
            after = fetch(secret, game)
            restored(game, state)
            for url in before:
                assert after[url] == before[url], (who, url)
                checked += 1
    assert checked >= 20


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_stream_line_depends_on_what_its_reader_may_not_know(alice, carol):
    game = await database_sync_to_async(new_game)(alice, 2)
    rng = random.Random(7)
    await database_sync_to_async(play_until)(game, alice, rng, 9)
    await database_sync_to_async(game.refresh_from_db)()
    state = await database_sync_to_async(game.current_state)()
    assert game.status == Game.Status.ACTIVE
    for user, seat in ((alice, 0), (carol, None)):
        issued = await database_sync_to_async(tokens.token_issue)(
            user=user, name="t", scopes=["read"]
        )

        async def lines(secret=issued.secret) -> list[dict]:
            stream = Stream(f"/api/v1/stream/games/{game.public_id}", secret, "since_ply=0")
            try:
                assert await stream.open() == 200
                out = []
                while not out or out[-1]["type"] != "game":
                    out.append(await stream.next())
                return out
            finally:
                await stream.close()

        before = await lines()
        assert str(game.seed) not in repr(before)
        assert before[-1]["view"]["seat"] == seat and before[-1]["ply"] == game.ply
        await database_sync_to_async(swapped)(game, state, seat, rng)
        after = await lines()
        await database_sync_to_async(restored)(game, state)
        assert after == before
