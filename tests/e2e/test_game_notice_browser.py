""" "Your game is ready." is said once: the notice above the board goes when
the game moves on, instead of staying for the whole game on a page that is never reloaded."""

from __future__ import annotations

import re

import pytest

from games import engine, services
from games.models import Game
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)


def first_move(public_id: str, user) -> None:
    game = Game.objects.get(public_id=public_id)
    action = engine.legal_actions(game.current_state())[0]
    services.action_submit(game=game, user=user, action=action, expected_ply=game.ply)


def test_the_game_is_ready_notice_goes_once_the_game_moves_on(site, browser, alice):
    context, page = page_for(browser, site, alice, f"{site.url}/games/new/")
    page.check("input[name=mode][value=shuffle]")
    page.check("input[name=players][value='2']")
    page.select_option("select[name=seat0_kind]", "human")
    page.select_option("select[name=seat1_kind]", "ai")
    page.select_option("select[name=seat1_level]", "beginner")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/$"))
    public_id = page.url.rstrip("/").rsplit("/", 1)[1]
    notice = page.locator(".messages .message", has_text="Your game is ready.")
    assert notice.is_visible()
    page.wait_for_timeout(500)  # the sockets are open
    site.call(first_move, public_id, alice)  # as her board would post it
    page.wait_for_function("() => +document.querySelector('#game').dataset.ply >= 1")
    notice.wait_for(state="detached", timeout=5000)
    assert page.locator(".messages").count() == 0
    context.close()
