"""A complete 2-player shuffle game through the website, from sign-up to the final score."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import engine
from games.models import Action, Game, Seat
from tests.support.lobby import new_game_data

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-password-7"


def signed_up(username: str) -> Client:
    """A browser that signs up, opens the verification link from its email and is logged in."""
    client = Client(enforce_csrf_checks=False)
    sent = len(mail.outbox)
    response = client.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert SESSION_KEY not in client.session  # mandatory verification: not logged in yet
    message = mail.outbox[sent]
    link = re.search(r"http://testserver(/accounts/confirm-email/\S+/)", message.body).group(1)
    assert client.get(link).status_code == 200
    assert client.post(link).status_code == 302
    assert SESSION_KEY in client.session
    return client


def test_two_people_sign_up_play_a_whole_shuffle_game_and_find_it_in_their_history():
    erin, finn = signed_up("erin"), signed_up("finn")

    response = erin.post(
        reverse("game_new"),
        new_game_data(
            seat0_kind=Seat.Kind.HUMAN, seat1_kind=Seat.Kind.INVITED, seat1_username="finn"
        ),
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert response["Location"] == reverse("game", args=[game.public_id])
    assert game.status == Game.Status.OPEN
    assert finn.post(reverse("game_join", args=[game.public_id])).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE

    players = {0: erin, 1: finn}
    rng = random.Random(7)
    page = reverse("game", args=[game.public_id])
    while game.status == Game.Status.ACTIVE:
        mover = players[game.to_move_seat]
        # The mover's page offers the move: its form carries the ply and an idempotency key.
        html = mover.get(page).content.decode()
        ply = int(re.search(r'name="ply" value="(\d+)"', html).group(1))
        key = re.search(r'name="key" value="([^"]+)"', html).group(1)
        assert ply == game.ply
        action = rng.choice(engine.legal_actions(game.current_state()))
        response = mover.post(
            reverse("game_act", args=[game.public_id]),
            {"action": json.dumps(action), "ply": ply, "key": key},
        )
        assert response.status_code == 302, response.content[:300]
        game.refresh_from_db()
        assert game.ply == ply + 1
        assert game.ply < 600

    assert game.status == Game.Status.FINISHED
    assert Action.objects.filter(game=game).count() == game.ply
    final = engine.score(game.current_state())
    assert final["over"]
    for client in (erin, finn):
        html = client.get(page).content.decode()
        assert "Final scores" in html
        history = client.get(reverse("my_games")).content.decode()
        assert game.public_id in history
        record = client.get(reverse("game_record", args=[game.public_id]))
        document = json.loads(record.content)
        assert "decks" in document  # after the end, nothing is secret (R9.4)
        assert engine.replay(document).to_json()["board"] == game.state["board"]
    # The public profiles count the game, and the win goes to the better score (R8.3).
    winners = {p["seat"] for p in final["players"] if p["place"] == 1}
    for seat, name in ((0, "erin"), (1, "finn")):
        profile = erin.get(reverse("profile", args=[name])).content.decode()
        assert "<dt>Games played</dt><dd>1</dd>" in profile
        won = 1 if seat in winners else 0
        assert f"<dt>Games won</dt><dd>{won}</dd>" in profile
