"""The lobby's "Games in play" offers a player their own game to open, not to
watch; everyone else may watch it."""

from __future__ import annotations

import re

import pytest

from tests.support.pages import client_for

pytestmark = pytest.mark.django_db


def button_for(content: str, game) -> str:
    found = re.search(
        rf'<a class="button secondary" href="/games/{game.public_id}/">([^<]+)</a>', content
    )
    assert found, "the game is not listed in play"
    return found.group(1)


def test_a_player_opens_their_own_game_and_a_visitor_watches_it(duel, alice, carol):
    assert button_for(client_for(alice).get("/").content.decode(), duel) == "Open"
    assert button_for(client_for(carol).get("/").content.decode(), duel) == "Watch"
    assert button_for(client_for(None).get("/").content.decode(), duel) == "Watch"
