"""The game table in Chromium at 1280x900 and 360x740: what a player needs to decide is on
screen without scrolling (desktop) or right under the board (phone), the move log says what
happened since their last turn, and a placement is sent only when confirmed.

Screenshots are kept under out/screenshots (artefacts to look at, not compared pixel by pixel).
"""

from __future__ import annotations

import functools

import pytest

from games import engine, services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import page_for
from tests.support.tables import four_humans, play_until_alice_has_been_skipped_and_reversed

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP, PHONE = (1280, 900), (360, 740)


def against_three_computers(alice) -> Game:
    return services.game_create(
        creator=alice,
        mode="shuffle",
        players=4,
        seats=[SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.AI, level="casual")] * 3,
    )


def inside(page, selector: str, width: int, height: int) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (selector, box)
    return box


def no_sideways_scroll(page, width: int) -> None:
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width


def test_against_three_computers_board_tray_and_decision_fit_the_screen(
    site, browser, alice, screenshots
):
    game = site.call(against_three_computers, alice)
    url = f"{site.url}/games/{game.public_id}/"

    context, page = page_for(browser, site, alice, url, viewport=DESKTOP)
    page.wait_for_selector(".tray-piece")
    page.screenshot(path=str(screenshots / "table-setup-1280.png"))
    for selector in (".board-svg", ".tray-box", ".tray-tools", "#game .controls", "#turn"):
        inside(page, selector, *DESKTOP)
    no_sideways_scroll(page, DESKTOP[0])
    # Computers are told apart by colour; every colour has its panel.
    panels = page.locator(".colour-row").all_inner_texts()
    assert len(panels) == 4
    assert any("Computer - Red (Casual)" in text for text in panels)
    context.close()

    context, page = page_for(browser, site, alice, url, viewport=PHONE)
    page.wait_for_selector(".tray-piece")
    page.screenshot(path=str(screenshots / "table-setup-360.png"), full_page=True)
    no_sideways_scroll(page, PHONE[0])
    board = page.locator(".board-svg").bounding_box()
    controls = page.locator("#game .controls").bounding_box()
    tray = page.locator(".tray-box").bounding_box()
    assert board["width"] <= PHONE[0]
    assert controls["y"] < 1.3 * PHONE[1] and controls["y"] > board["y"]  # right under the board
    assert tray["y"] < 1.3 * PHONE[1] + 200  # the tray follows the decision at once
    context.close()


def test_the_card_step_and_the_move_log_since_your_last_turn(
    site, browser, alice, bob, carol, dave, screenshots
):
    def position():
        game = four_humans(alice, bob, carol, dave)
        play_until_alice_has_been_skipped_and_reversed(game, {0: alice, 1: bob, 2: carol, 3: dave})
        return game

    game = site.call(position)
    url = f"{site.url}/games/{game.public_id}/"
    for width, height in (DESKTOP, PHONE):
        context, page = page_for(browser, site, alice, url, viewport=(width, height))
        page.wait_for_selector("#game .step-card button.card")
        page.screenshot(path=str(screenshots / f"table-cards-{width}.png"), full_page=True)
        no_sideways_scroll(page, width)
        cards = page.locator("#game .step-card button.card").first.bounding_box()
        if width == DESKTOP[0]:
            inside(page, ".board-svg", width, height)
            inside(page, "#game .step-card button.card", width, height)
        else:
            assert cards["y"] < 1.3 * height
        new = page.locator(".log-turn.new").all_inner_texts()
        since = " ".join(new)
        assert "played Skip" in since and "played Reverse" in since
        assert page.locator(".move-log .since").inner_text().endswith("since yours")
        context.close()


def test_a_placement_is_sent_only_when_confirmed_and_undo_takes_it_back(
    site, browser, alice, screenshots
):
    game = site.call(
        functools.partial(
            services.game_create,
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
        )
    )
    url = f"{site.url}/games/{game.public_id}/"
    context, page = page_for(browser, site, alice, url, viewport=DESKTOP)
    page.wait_for_selector(".tray-piece")
    page.locator(".tray-piece[data-piece='1']").click()  # the ghost starts where it fits
    board = page.locator(".board-svg")
    box = board.bounding_box()
    ghost = board.get_attribute("data-ghost")
    assert ghost in {"a1", "t1", "a20", "t20"}  # a free corner (R3.1)

    def centre(square: str) -> tuple[float, float]:
        x, y = "abcdefghijklmnopqrst".index(square[0]), int(square[1:]) - 1
        view_w, view_h, left, top, size = 211, 210, 9, 1, 10  # static/js/board.js's viewBox
        return (
            box["x"] + (left + (x + 0.5) * size) * box["width"] / view_w,
            box["y"] + (top + (19 - y + 0.5) * size) * box["height"] / view_h,
        )

    page.mouse.click(*centre(ghost))  # a click puts it down: nothing is sent
    assert "Confirm to place" in page.locator(".board-status").inner_text()
    page.mouse.move(*centre("j10"))
    assert board.get_attribute("data-ghost") == ghost  # pinned
    page.screenshot(path=str(screenshots / "table-confirm-1280.png"))
    page.get_by_role("button", name="Undo").click()
    page.mouse.move(*centre("j10"))
    assert board.get_attribute("data-ghost") == "j10"  # in hand again, following the mouse
    assert site.call(lambda: Game.objects.get(pk=game.pk).ply) == 0

    page.mouse.click(*centre(ghost))
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_function("() => +document.querySelector('#game').dataset.ply >= 1")
    state = site.call(lambda: (Game.objects.get(pk=game.pk)).current_state())
    assert engine.view(state, 0)["board"]  # the move is in
    assert site.call(lambda: Game.objects.get(pk=game.pk).actions.first().payload) == {
        "place": ghost
    }
    context.close()


def test_confirm_and_undo_by_keyboard_and_by_touch(site, browser, alice, screenshots):
    def new():
        return services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
        )

    # The keyboard: Enter puts the piece down, Escape takes it back, Enter twice sends it.
    game = site.call(new)
    context, page = page_for(browser, site, alice, f"{site.url}/games/{game.public_id}/")
    page.wait_for_selector(".tray-piece")
    page.locator(".tray-piece[data-piece='1']").focus()
    page.keyboard.press("Enter")  # picks the piece up; the focus goes to the board
    status = page.locator(".board-status")
    page.keyboard.press("Enter")
    assert "Enter again" in status.inner_text()
    page.keyboard.press("Escape")
    assert "Undone" in status.inner_text()
    assert site.call(lambda: Game.objects.get(pk=game.pk).ply) == 0
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_function("() => +document.querySelector('#game').dataset.ply >= 1")
    context.close()

    # Touch: a tap puts it down, Undo takes it back, two taps on one square send it.
    game = site.call(new)
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    from tests.support.browser import session_of

    context.add_cookies([{"name": "sessionid", "value": session_of(site, alice), "url": site.url}])
    page = context.new_page()
    page.goto(f"{site.url}/games/{game.public_id}/")
    page.wait_for_selector(".tray-piece")
    page.locator(".tray-piece[data-piece='1']").tap()
    board = page.locator(".board-svg")
    board.scroll_into_view_if_needed()
    box = board.bounding_box()
    corner = (box["x"] + (9 + 5) * box["width"] / 211, box["y"] + (1 + 195) * box["height"] / 210)
    page.touchscreen.tap(*corner)  # a1's centre
    assert "Tap again" in page.locator(".board-status").inner_text()
    page.get_by_role("button", name="Undo").tap()
    assert site.call(lambda: Game.objects.get(pk=game.pk).ply) == 0
    board.scroll_into_view_if_needed()  # tapping Undo may have scrolled the page
    box = board.bounding_box()
    corner = (box["x"] + (9 + 5) * box["width"] / 211, box["y"] + (1 + 195) * box["height"] / 210)
    page.touchscreen.tap(*corner)
    page.touchscreen.tap(*corner)
    page.wait_for_function("() => +document.querySelector('#game').dataset.ply >= 1")
    assert site.call(lambda: Game.objects.get(pk=game.pk).actions.first().payload) == {
        "place": "a1"
    }
    context.close()
