"""A NUL byte in a URL, a query string or a form field is a 400, never a 500 (PostgreSQL
cannot compare a string holding one; config.middleware.RefuseNulMiddleware refuses it first)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

URLS = [
    "/games/%00/",
    "/games/%00/panel/",
    "/games/%00/act/",
    "/games/%00/replay/",
    "/games/%00/replay/?ply=%00",
    "/games/%00/record.json",
    "/games/%00/game.blksgf",
    "/games/%00/chat/",
    "/games/%00/join/",
    "/games/%00/leave/",
    "/games/%00/invite/%00/",
    "/players/%00/",
    "/players/%00/block/",
    "/report/?user=%00",
    "/report/?message=%00",
    "/unsubscribe/%00/",
    "/leaderboard/?mode=%00",
    "/replay/upload/?ply=%00",
]


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("signed_in", [True, False])
def test_a_nul_byte_anywhere_is_a_400(alice, url, method, signed_in):
    client = Client(raise_request_exception=False)
    if signed_in:
        client.force_login(alice)
    response = getattr(client, method)(url)
    assert response.status_code == 400


def test_a_nul_byte_in_a_form_field_is_a_400_and_posts_nothing(client, duel, alice):
    from games.models import ChatMessage

    client.force_login(alice)
    response = client.post(f"/games/{duel.public_id}/chat/", {"text": "hi\x00there"})
    assert response.status_code == 400
    assert not ChatMessage.objects.exists()


def test_ordinary_requests_pass(client, duel):
    assert client.get(f"/games/{duel.public_id}/").status_code == 200
    assert client.get("/?x=%01").status_code == 200
