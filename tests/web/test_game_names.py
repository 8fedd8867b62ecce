"""A game is named by its players and mode on its page; the random id stays
in the URL only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Seat
from games.services import SeatSpec

pytestmark = pytest.mark.django_db


def page(client, user, game, language="en") -> str:
    client.force_login(user)
    url = reverse("game", args=[game.public_id])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.mark.parametrize(
    "language, name",
    [
        ("en", "alice vs bob · Shuffle"),
        ("sv", "alice mot bob · Shuffle"),
        ("ja", "alice 対 bob · シャッフル"),
    ],
)
def test_a_game_is_named_by_its_players_and_mode(client, duel, alice, language, name):
    html = page(client, alice, duel, language)
    assert f"<h1>{name}</h1>" in html
    assert f"<title>{name} · Blokus Shuffle</title>" in html
    assert f"Game {duel.public_id}" not in html


def test_a_game_against_the_computer_and_a_waiting_room(client, alice):
    computer = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="expert")],
    )
    assert "<h1>alice vs Computer (Expert) · Classic</h1>" in page(client, alice, computer)
    waiting = services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    html = page(client, alice, waiting)
    assert "<h1>alice vs " in html and " · Shuffle</h1>" in html
