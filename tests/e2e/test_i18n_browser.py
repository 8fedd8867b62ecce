"""The board script (static/js/board.js) in the player's language, in Chromium: its buttons,
legend and status lines come from the page's #board-text (games/presenters/board.py), in Swedish
for a player whose setting is Swedish, and a placement still goes through."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_board_speaks_swedish_and_places_a_piece(site, browser, alice):
    def swedish_game():
        alice.language = "sv"
        alice.save(update_fields=["language"])
        return services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
        )

    game = site.call(swedish_game)
    context, page = page_for(browser, site, alice, f"{site.url}/games/{game.public_id}/")
    page.wait_for_selector(".tray-piece")

    tools = page.locator(".tray-tools").inner_text()
    assert "Vrid (R)" in tools and "Vänd (F)" in tools and "Lägg" in tools
    assert "Rotate" not in tools
    assert page.locator(".tray").get_attribute("aria-label") == "Blås bitar"
    assert page.locator(".tray-piece[data-piece='1']").get_attribute("aria-label") == "1: 4 platser"
    assert "där Blå kan ansluta" in page.locator(".board-legend").inner_text()
    assert page.locator(".board-svg").get_attribute("aria-label").startswith("Spelplan.")

    page.locator(".tray-piece[data-piece='1']").focus()
    page.keyboard.press("Enter")  # picked by key: the board takes the focus
    status = page.locator(".board-status")
    page.keyboard.press("Enter")  # put down (confirm moves is on by default)
    assert "Enter igen eller Bekräfta lägger den" in status.inner_text()
    assert page.locator(".tray-tools button.primary").inner_text() == "Bekräfta"
    page.keyboard.press("Enter")
    page.wait_for_function("() => +document.querySelector('#game').dataset.ply >= 1")
    assert site.call(lambda: Game.objects.get(pk=game.pk).ply) >= 1
    assert "Drag" in page.locator("#turn").inner_text()  # the swapped-in panel: still Swedish
    context.close()
