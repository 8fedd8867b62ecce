"""A position on the screen is never drawn again under the player's fingers (the page's
resync; seen by bench/web/shuffle_wait.py and a browser test as a placement started afresh): a
move's own answer (204, "game-moved") and its nudge over the socket both name the new ply, and
whichever comes second must not fetch and swap in the same position again, dropping the piece in
hand."""

from __future__ import annotations

import pytest

from tests.support.browser import page_for
from tests.support.tables import alice_against_bob

pytestmark = pytest.mark.django_db(transaction=True)

COUNT_SWAPS = """() => {
  window.swaps = 0;
  document.addEventListener("htmx:afterSwap", (e) => {
    if (e.target.id === "game") window.swaps++;
  });
}"""


def test_a_second_word_of_the_same_move_does_not_redraw_the_board(site, browser, alice, bob):
    game = site.call(alice_against_bob, alice, bob)
    context, page = page_for(browser, site, alice, f"{site.url}/games/{game.public_id}/")
    page.wait_for_selector(".tray-piece:not([aria-disabled])")
    page.wait_for_timeout(500)  # the socket is open and has said the game's ply
    page.evaluate(COUNT_SWAPS)
    page.locator(".tray-piece:not([aria-disabled])").first.click()  # a piece in hand
    ply = page.evaluate("() => +document.querySelector('#game').dataset.ply")
    # The move's answer arriving after its nudge brought the position: nothing to fetch.
    page.evaluate(
        "ply => document.dispatchEvent(new CustomEvent('game-moved', {detail: {ply}}))", ply
    )
    page.wait_for_timeout(1000)
    assert page.evaluate("() => window.swaps") == 0
    assert page.locator(".tray-piece[aria-pressed=true]").count() == 1  # still in hand
    context.close()
