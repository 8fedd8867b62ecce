"""F9 on the site: every player is shown the commitment while the game runs (and never the seed or
salt); after the end the page reveals them and shows the server's verification, which a tampered
seed fails."""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from games import engine, services, translations
from games.models import Game, Seat
from games.selectors import table

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


def _in(code: str, text) -> str:
    with translation.override(code):
        return escape(str(text))


@pytest.mark.parametrize("code", [c for c, _name in settings.LANGUAGES if c != "en"])
def test_the_shuffle_check_s_sentence_is_in_the_reader_s_language(duel, alice, code):
    game = play_to_the_end(duel)
    client = Client()
    client.force_login(alice)
    url = reverse("game", args=[game.public_id]) + f"?lang={code}"
    html = client.get(url).content.decode()
    english = "the seed and salt match the commitment"
    assert english not in html
    assert _in(code, translations.VERDICTS["ok"]) in html
    Game.objects.filter(pk=game.pk).update(seed="0" * 64)  # a tampered seed: the refusal too
    cache.clear()  # the panel of this ply was kept; a seed never changes outside this test
    html = client.get(url).content.decode()
    verdict = table.shuffle_verdict(Game.objects.get(pk=game.pk))
    assert not verdict["ok"] and verdict["reason"] not in html
    with translation.override(code):
        assert escape(translations.verdict_reason(verdict)) in html
