"""F9 on the site: every player is shown the commitment while the game runs (and never the seed or
salt); after the end the page reveals them and shows the server's verification, which a tampered
seed fails."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def page(user, game) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("game", args=[game.public_id])).content.decode()


def play_to_the_end(game: Game) -> Game:
    rng = random.Random(2)
    users = {s.index: s.user for s in game.seats.filter(kind=Seat.Kind.HUMAN)}
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        state = game.current_state()
        services.action_submit(
            game=game,
            user=users[state.controller()],
            action=rng.choice(engine.legal_actions(state)),
            expected_ply=game.ply,
        )


def test_every_seat_sees_the_commitment_and_nobody_the_seed(duel, alice, bob, carol):
    state = duel.current_state()
    for viewer in (alice, bob, carol, None):
        html = page(viewer, duel)
        assert state.commitment in html
        assert duel.seed not in html and duel.salt not in html


def test_a_finished_game_reveals_and_verifies_its_shuffle(duel, alice):
    game = play_to_the_end(duel)
    html = page(alice, game)
    assert "Verify the shuffle" in html
    assert "✔ Checked" in html
    assert game.seed in html and game.salt in html


def test_a_tampered_seed_fails_the_check_on_the_page(duel, alice):
    game = play_to_the_end(duel)
    Game.objects.filter(pk=game.pk).update(seed="0" * 64)
    html = page(alice, game)
    assert "✘ Not verified" in html
