"""The replay in Chromium: square cells at 1280x900 and 360x740, the arrow keys step by action
and by turn, the last move is highlighted."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_live_page import page_for
from tests.games.test_game_table import (
    four_humans,
    play_until_alice_has_been_skipped_and_reversed,
)

pytestmark = pytest.mark.django_db(transaction=True)


def ply_of(page) -> int:
    text = page.locator(".replay-ply").inner_text()
    return int(re.search(r"action (\d+) of", text).group(1))


def test_the_replay_board_is_square_and_the_keys_step(
    site, browser, alice, bob, carol, dave, screenshots
):
    def position():
        game = four_humans(alice, bob, carol, dave)
        play_until_alice_has_been_skipped_and_reversed(game, {0: alice, 1: bob, 2: carol, 3: dave})
        return game

    game = site.call(position)
    url = f"{site.url}/games/{game.public_id}/replay/"
    for width, height in ((1280, 900), (360, 740)):
        context, page = page_for(browser, site, alice, url, viewport=(width, height))
        cell = page.locator(".rb-sq").first.bounding_box()
        assert abs(cell["width"] - cell["height"]) < 1.0, cell  # square
        board = page.locator(".rboard").bounding_box()
        assert board["x"] + board["width"] <= width
        if width == 1280:
            assert cell["width"] >= 24  # large on a desktop (it was 17 x 52 px)
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
        assert page.locator(".rb-sq.last").count() >= 1  # the last move, highlighted
        page.screenshot(path=str(screenshots / f"replay-{width}.png"), full_page=True)
        context.close()

    context, page = page_for(browser, site, alice, url, viewport=(1280, 900))
    total = ply_of(page)
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => /action 0 of/.test(document.querySelector('.replay-ply').textContent)"
    )
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => /action 1 of/.test(document.querySelector('.replay-ply').textContent)"
    )
    page.keyboard.press("ArrowDown")  # the end of the current turn, then of the next
    page.wait_for_function(
        "() => !/action 1 of/.test(document.querySelector('.replay-ply').textContent)"
    )
    after_turn = ply_of(page)
    assert after_turn >= 1
    page.keyboard.press("ArrowDown")
    page.wait_for_function(
        f"() => !/action {after_turn} of/.test(document.querySelector('.replay-ply').textContent)"
    )
    assert ply_of(page) > after_turn
    assert page.locator(".turn-list .current").count() == 1
    page.keyboard.press("ArrowUp")
    page.wait_for_function(
        f"() => /action {after_turn} of/.test(document.querySelector('.replay-ply').textContent)"
    )
    page.keyboard.press("End")
    page.wait_for_function(
        f"() => /action {total} of/.test(document.querySelector('.replay-ply').textContent)"
    )
    assert page.url.endswith(f"?ply={total}")  # each step is a link of its own
    context.close()
