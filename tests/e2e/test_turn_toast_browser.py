"""A game is named by its players and mode, never by its random id, in the
"Your turn" notice that reaches a player on another page of the site too (the id stays in the
link)."""

from __future__ import annotations

import pytest

from games import engine, services
from games.models import Game
from tests.support.browser import page_for
from tests.support.tables import alice_against_bob

pytestmark = pytest.mark.django_db(transaction=True)


def first_move(public_id: str, user) -> None:
    game = Game.objects.get(public_id=public_id)
    action = engine.legal_actions(game.current_state())[0]
    services.action_submit(game=game, user=user, action=action, expected_ply=game.ply)


def test_the_your_turn_notice_names_the_game_by_its_players(site, browser, alice, bob):
    game = site.call(alice_against_bob, alice, bob)
    context, page = page_for(browser, site, bob, f"{site.url}/")  # bob is in the lobby
    page.wait_for_timeout(500)  # the user socket is open
    site.call(first_move, game.public_id, alice)
    toast = page.locator("a.toast")
    toast.wait_for(timeout=5000)
    assert toast.inner_text() == "Your turn: alice vs bob · Classic"
    assert toast.get_attribute("href") == f"/games/{game.public_id}/"
    context.close()
