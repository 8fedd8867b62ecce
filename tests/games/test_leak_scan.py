"""Leak scan (R9): random games with AI seats; every page and partial that each seat, a spectator
and an anonymous visitor can reach, at many positions, must not depend on what that viewer may not
know. The check: change every hidden part (other hands, every draw pile's order, another seat's
Draw 2 cards, the seed) in the stored game and fetch again: the pages must not change at all.
The seed itself, a 63-bit number, must never appear.
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.engine import State
from games.models import Game, Seat
from games.services import SeatSpec
from tests.engine.helpers import disguise

pytestmark = pytest.mark.django_db

# Per-render values that differ between two fetches anyway.
VOLATILE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'), "CSRF"),
    (re.compile(r'"X-CSRFToken": "[^"]+"'), "CSRF"),
    (re.compile(r'name="key" value="[^"]+"'), "KEY"),
    (re.compile(r"this turn began [^<.]+"), "AGO"),
]


def normalized(response) -> str:
    text = response.content.decode()
    for pattern, placeholder in VOLATILE:
        text = pattern.sub(placeholder, text)
    return text


def urls(game: Game, state: State) -> list[str]:
    page = reverse("game", args=[game.public_id])
    panel = reverse("game_panel", args=[game.public_id])
    out = [
        page,
        panel,
        reverse("game_chat", args=[game.public_id]),
        reverse("home"),
    ]
    # The selection partials the deciding player can reach: a piece, then an orientation.
    pieces = sorted({engine.State.from_json(game.state).to_json()["supply"]["blue"][0]})
    out += [f"{panel}?piece={p}" for p in pieces] + [f"{panel}?piece={pieces[0]}&o=0"]
    return out


def fetch_all(clients: dict, game: Game) -> dict:
    state = game.current_state()
    return {
        (who, url): normalized(client.get(url))
        for who, client in clients.items()
        for url in urls(game, state)
    }


def play_until(game: Game, alice, rng: random.Random, plies: int) -> None:
    """Alice's decisions are random; the computer seats answer through the real AI task."""
    from games.jobs.tasks import ai_play

    for _ in range(plies):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        state = game.current_state()
        seat = game.seats.get(index=state.controller())
        if seat.is_ai:
            ai_play(game.pk, game.ply)
        else:
            action = rng.choice(engine.legal_actions(state))
            services.action_submit(game=game, user=alice, action=action, expected_ply=game.ply)


@pytest.mark.parametrize("players", [2, 4])
def test_no_page_depends_on_what_its_viewer_may_not_know(alice, carol, players):
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=players,
        seats=[SeatSpec(Seat.Kind.HUMAN)]
        + [SeatSpec(Seat.Kind.AI, level="beginner")] * (players - 1),
    )
    clients = {"alice": Client(), "carol": Client(), "anonymous": Client()}
    clients["alice"].force_login(alice)
    clients["carol"].force_login(carol)
    seats = {"alice": 0, "carol": None, "anonymous": None}
    rng = random.Random(players)
    checked = 0
    for _ in range(6):
        play_until(game, alice, rng, rng.randint(3, 12))
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = game.current_state()
        before = fetch_all(clients, game)
        for text in before.values():
            assert str(game.seed) not in text
        for who, client in clients.items():
            alt = disguise(state, seats[who], rng)
            Game.objects.filter(pk=game.pk).update(state=alt.to_json(), seed=alt.seed)
            game.refresh_from_db()
            for url in urls(game, state):
                assert normalized(client.get(url)) == before[(who, url)], (who, url)
                checked += 1
            Game.objects.filter(pk=game.pk).update(state=state.to_json(), seed=state.seed)
        # The record of a game in play: the player's own view only; never decks or the seed.
        record = clients["alice"].get(reverse("game_record", args=[game.public_id]))
        assert b'"decks"' not in record.content and str(game.seed).encode() not in record.content
        for who in ("carol", "anonymous"):
            assert clients[who].get(reverse("game_record", args=[game.public_id])).status_code in (
                302,
                403,
            )
        replay = clients["carol"].get(reverse("game_replay", args=[game.public_id]))
        assert replay.status_code == 200 and str(game.seed).encode() not in replay.content
    assert checked >= 10
