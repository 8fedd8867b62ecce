"""Site-wide: the favicon answers, flash messages carry their level."""

from __future__ import annotations

from django.test import Client

from games import services
from games.models import Seat
from games.services import SeatSpec
from tests.support.pages import client_for


def test_the_favicon_is_served(db):
    response = Client().get("/favicon.ico", follow=True)
    assert response.status_code == 200
    assert b"<svg" in b"".join(
        response.streaming_content if response.streaming else [response.content]
    )
    page = Client().get("/").content.decode()
    assert 'rel="icon"' in page and "favicon" in page


def test_a_flash_message_is_styled_by_its_level(alice):
    client = client_for(alice)
    response = client.post("/games/nope/rematch/", follow=True)
    assert response.status_code == 404
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    page = client.post(f"/games/{game.public_id}/rematch/", follow=True).content.decode()
    assert '<li class="message error">' in page and "No rematch" in page
