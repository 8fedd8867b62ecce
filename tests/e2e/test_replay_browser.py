"""The replay in Chromium: square cells at 1280x900 and 360x740 (large on a desktop, the phone's
whole width), the keys step by action and by turn, the last move is highlighted, the current turn
of the list is in view, and the focus stays on the control used."""

from __future__ import annotations

import pytest

from tests.support.browser import page_for
from tests.support.tables import (
    four_humans,
    play_until_alice_has_been_skipped_and_reversed,
)

pytestmark = pytest.mark.django_db(transaction=True)

PLY = "() => Number(document.getElementById('replay-position').dataset.ply)"


def ply_of(page) -> int:
    return page.evaluate(PLY)


def wait_for_ply(page, ply: int) -> None:
    page.wait_for_function(f"n => ({PLY})() === n", arg=ply, timeout=10_000)


def press(page, key: str, ply: int) -> None:
    page.keyboard.press(key)
    wait_for_ply(page, ply)


def in_view(page, selector: str) -> bool:
    """Whether the element lies wholly inside the turn list's visible box."""
    return page.evaluate(
        """sel => {
          const list = document.querySelector('.turn-list').getBoundingClientRect();
          const el = document.querySelector(sel).getBoundingClientRect();
          return el.top >= list.top - 1 && el.bottom <= list.bottom + 1;
        }""",
        selector,
    )


@pytest.fixture
def game(site, alice, bob, carol, dave):
    def position():
        game = four_humans(alice, bob, carol, dave)
        play_until_alice_has_been_skipped_and_reversed(game, {0: alice, 1: bob, 2: carol, 3: dave})
        game.refresh_from_db()
        return game

    return site.call(position)


def test_the_replay_board_is_square_and_large(site, browser, alice, game, screenshots):
    url = f"{site.url}/games/{game.public_id}/replay/"
    for width, height in ((1280, 900), (360, 740)):
        context, page = page_for(browser, site, alice, url, viewport=(width, height))
        errors = []
        page.on("console", lambda m, errors=errors: m.type == "error" and errors.append(m.text))
        page.reload()
        cells = page.locator(".rb-sq")
        assert cells.count() == 400
        for i in (0, 19, 210, 399):  # corners and the middle: every cell square
            box = cells.nth(i).bounding_box()
            assert abs(box["width"] - box["height"]) < 1.0, box
        cell = cells.first.bounding_box()
        board = page.locator(".rboard").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= width + 0.5
        if width == 1280:
            assert cell["width"] >= 30  # large on a desktop (it was 17 x 52 px)
            assert board["y"] + board["height"] <= height  # and wholly in view, unscrolled
            turns = page.locator(".turn-list").bounding_box()
            assert turns["x"] > board["x"] + board["width"]  # the list beside the board
        else:
            assert board["width"] >= width - 1  # the phone's whole width
            assert cell["width"] >= 16
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
        for step in page.locator(".replay-controls .step").all():  # all six in the window
            box = step.bounding_box()
            assert box["x"] + box["width"] <= width and box["height"] >= 36
            assert step.locator("svg").bounding_box()["width"] >= 12  # drawn, not a glyph box
        # The last move: its squares ringed, and they are those of the caption.
        last = page.locator(".rb-sq.last")
        assert last.count() >= 1
        assert "inset" in last.first.evaluate("e => getComputedStyle(e).boxShadow")
        assert page.locator(".rb-sq:not(.last)").first.evaluate(
            "e => getComputedStyle(e).boxShadow"
        ) in ("none", "")
        assert in_view(page, ".turn-row.current")  # the current turn scrolled into view
        assert errors == []  # nothing refused by the CSP, no script error
        page.screenshot(path=str(screenshots / f"replay-{width}.png"), full_page=True)
        context.close()


def test_the_keys_step_by_action_and_by_turn(site, browser, alice, game, screenshots):
    url = f"{site.url}/games/{game.public_id}/replay/"
    context, page = page_for(browser, site, alice, url, viewport=(1280, 900))
    total = ply_of(page)
    turns = page.evaluate(
        """() => [...document.querySelectorAll('.turn-row')].map(
             r => [Number(r.dataset.first), Number(r.dataset.last)])"""
    )
    ends = [last for _first, last in turns]
    assert ends[-1] == total and len(turns) < total

    press(page, "Home", 0)
    assert page.locator(".turn-row.current").count() == 0
    press(page, "ArrowRight", 1)
    # Three quick presses go three actions: keys wait for the step in flight.
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    wait_for_ply(page, 4)
    press(page, "ArrowLeft", 3)
    press(page, "ArrowDown", next(e for e in ends if e > 3))  # the end of this turn
    here = ply_of(page)
    press(page, "PageDown", next(e for e in ends if e > here))
    here = ply_of(page)
    press(page, "Shift+ArrowRight", next(e for e in ends if e > here))
    here = ply_of(page)
    press(page, "ArrowUp", max(e for e in ends if e < here))
    here = ply_of(page)
    press(page, "PageUp", max(e for e in ends if e < here))
    here = ply_of(page)
    press(page, "Shift+ArrowLeft", max([0] + [e for e in ends if e < here]))
    # One turn current, one action current: the position shown; the board marks a move.
    here = ply_of(page)
    assert page.locator(".turn-row.current").count() == (1 if here else 0)
    if here:
        assert (
            page.locator(".turn-actions a.current").get_attribute("href").endswith(f"?ply={here}")
        )
        assert page.locator(".rb-sq.last").count() >= 1

    press(page, "End", total)
    assert page.url.endswith(f"?ply={total}")  # each step is a link of its own
    assert in_view(page, ".turn-row.current")
    press(page, "ArrowRight", total)  # nothing beyond the end; nothing breaks
    page.wait_for_timeout(200)
    assert ply_of(page) == total

    # The focus stays on the control used (keyboard users keep their place).
    page.locator('.replay-controls a[rel="prev"]').focus()
    page.keyboard.press("Enter")
    wait_for_ply(page, total - 1)
    page.wait_for_function("() => document.activeElement.getAttribute('rel') === 'prev'")
    # A click in the list goes to that action; Back returns.
    page.locator(".turn-actions a").nth(4).click()
    wait_for_ply(page, 5)
    page.go_back()
    wait_for_ply(page, total - 1)
    page.screenshot(path=str(screenshots / "replay-keys.png"))
    context.close()
