"""Issue #26 item 3: on a 360x740 phone a decision is made without scrolling the page. The
board (full width, under a one-line header) and the decision (a sheet fixed at the bottom: the
cards, or the tray of pieces with Rotate, Flip and Place, scrolling sideways) share the screen;
tapping a piece keeps the board in view; the instructions speak of taps; targets are 44 px.

The test plays a 2-player Shuffle game against the computer with taps only, and after every tap
checks that the document has not scrolled and that the board is not under the sheet."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import session_of
from tests.support.tables import SKIPS_AND_REVERSES

pytestmark = pytest.mark.django_db(transaction=True)

W, H = 360, 740
DECIDING = "#game :is(.controls button.card, .tray-piece:not([aria-disabled]))"
TARGET = 44  # px, the smallest touch target


def versus_computer(alice) -> Game:
    return services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        deck_recipe=SKIPS_AND_REVERSES,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def on_screen(page, selector: str) -> dict:
    found = box(page, selector)
    assert found["y"] >= 0 and found["y"] + found["height"] <= H + 0.5, (selector, found)
    assert found["x"] >= 0 and found["x"] + found["width"] <= W + 0.5, (selector, found)
    return found


def big_enough(page, selector: str) -> None:
    for found in page.locator(selector).evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).filter(r => r.width)"
        ".map(r => [r.width, r.height])"
    ):
        assert min(found) >= TARGET - 0.5, (selector, found)


def not_scrolled_and_board_clear(page) -> None:
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= W
    board = on_screen(page, ".board-svg")
    decision = box(page, "#game .controls")
    assert board["y"] + board["height"] <= decision["y"] + 0.5, (board, decision)


def test_a_shuffle_game_on_a_phone_never_scrolls_to_the_board_a_card_or_a_piece(
    site, browser, alice, screenshots
):
    game = site.call(versus_computer, alice)
    context = browser.new_context(
        viewport={"width": W, "height": H}, has_touch=True, is_mobile=True
    )
    context.add_cookies([{"name": "sessionid", "value": session_of(site, alice), "url": site.url}])
    page = context.new_page()
    page.goto(f"{site.url}/games/{game.public_id}/")
    shots = {"cards": False, "tray": False, "picked": False}
    cards = placements = 0
    while cards < 4 or placements < 6:
        page.wait_for_selector(DECIDING, timeout=20_000)
        page.wait_for_timeout(100)  # the sheet is sized once the panel is in
        ply = page.evaluate("() => +document.querySelector('#game').dataset.ply")
        not_scrolled_and_board_clear(page)
        if page.locator("#game .controls button.card").count():
            if not shots["cards"]:
                page.screenshot(path=str(screenshots / "phone-cards-360.png"))
                shots["cards"] = True
            on_screen(page, "#game .controls button.card")
            big_enough(page, "#game .controls button.card")
            page.locator("#game .controls button.card").first.tap()
            cards += 1
        else:
            text = page.locator("#game .controls .step").inner_text()
            assert "Tap" in text and "right click" not in text and "Enter" not in text
            if not shots["tray"]:
                legend = page.locator(".board-legend").inner_text().strip()
                assert not legend.endswith("·"), legend  # nothing after it at the first move
                page.screenshot(path=str(screenshots / "phone-tray-360.png"))
                shots["tray"] = True
            on_screen(page, "#game .tray")
            big_enough(page, "#game .tray-piece")
            big_enough(page, "#game .tray-tools button")
            # The last piece that fits: the tray scrolls sideways to it, the page does not.
            page.locator(".tray-piece:not([aria-disabled])").last.tap()
            not_scrolled_and_board_clear(page)
            assert page.locator(".board-svg").get_attribute("data-fits") == "yes"
            # Turned four times: back as it was, and every word on the way speaks of taps.
            for _ in range(4):
                page.locator(".tray-tools button", has_text="Rotate").tap()
                said = page.locator(".board-status").inner_text()
                assert not any(w in said for w in ("Click", "click", "Enter")), said
            not_scrolled_and_board_clear(page)
            if not shots["picked"]:
                page.screenshot(path=str(screenshots / "phone-picked-360.png"))
                shots["picked"] = True
            place = page.locator(".tray-tools button.primary")
            on_screen(page, ".tray-tools button.primary")
            place.tap()  # puts it down (confirm moves)
            not_scrolled_and_board_clear(page)
            place.tap()  # and places it
            placements += 1
        page.wait_for_function(
            "ply => +document.querySelector('#game').dataset.ply > ply", arg=ply, timeout=20_000
        )
        assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    context.close()
