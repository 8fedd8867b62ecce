"""On a 360x740 phone a decision is made without scrolling the page. The
board (full width, under a one-line header) and the decision (a sheet fixed at the bottom: the
cards, the colours of a Wild, the pieces of a Recycle or a Warp, or the tray of pieces with
Rotate, Flip and Place, scrolling sideways) share the screen; tapping a piece keeps the board in
view; a first tap on a card opens it whole and Play plays it; the instructions speak of taps;
targets are 44 px.

The test plays a whole 2-player Shuffle game against the computer with taps only, from the setup
round to the result, with a deck that holds every kind of card (it plays the kinds it has not
played yet first), and after every tap checks that the document has not scrolled and that the
board is not under the sheet. It ends by checking that every card kind was played and every step
a card opens (Draw 2's keep, Wild's declare, Recycle, Warp, Double Play's second piece) was
decided on the phone."""

from __future__ import annotations

import json
import re

import pytest

from games import engine, services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import session_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

W, H = 360, 740
TARGET = 44  # px, the smallest touch target
# 14 cards a colour (R1.4) with every kind, the kinds that open a decision more than once.
EVERY_KIND = {"skip": 1, "reverse": 1, "draw2": 2, "edge": 1, "double": 2, "recycle": 2,
              "wild": 3, "warp": 2}  # fmt: skip
# What the page offers when it is the player's decision, or the result at the end.
DECIDING = (
    "#game :is(.controls button.card, .controls .colour-button, .controls .step-recycle,"
    " .controls .step-warp, .tray-piece:not([aria-disabled])), #game #result"
)
STEPS_OF_CARDS = {"keep", "declare", "recycle", "warp", "place_second"}
# Every swap of the game's panel: when, at which ply, and whether it brought a decision.
WATCH_SWAPS = """
window.swaps = [];
document.addEventListener("htmx:afterSwap", (e) => {
  const game = document.getElementById("game");
  if (!game || e.target.id !== "game") return;
  window.swaps.push({t: Math.round(performance.now()), ply: +game.dataset.ply,
                     deciding: Boolean(game.querySelector(".controls"))});
});
"""


def versus_computer(alice) -> Game:
    assert set(EVERY_KIND) == set(engine.CARD_KINDS) and sum(EVERY_KIND.values()) == 14
    return services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        deck_recipe=EVERY_KIND,
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


def speaks_of_taps(page, selector: str = ".board-status") -> None:
    said = page.locator(selector).inner_text()
    assert not any(w in said for w in ("Click", "click", "Enter")), said


def tap_square(page, square: str) -> None:
    """A tap on one square of the board, where a finger would put it."""
    found = on_screen(page, f'.board-svg .sq[data-sq="{square}"]')
    page.touchscreen.tap(found["x"] + found["width"] / 2, found["y"] + found["height"] / 2)


def legal(page) -> dict:
    return json.loads(page.locator("#legal").text_content())


def pick_card(page, played: set[str]):
    """The card to tap: a kind not played yet that would be carried out, else one that would be
    carried out, else the first."""
    cards = page.locator("#game .controls button.card")
    options = []
    for i in range(cards.count()):
        card = cards.nth(i)
        kind = re.search(r"\bcard-(\w+)\b", card.get_attribute("class")).group(1)
        warned = "card-warn" in card.get_attribute("class")
        options.append((kind in played, warned, i, kind))
    _, _, i, kind = min(options)
    return cards.nth(i), kind


def place_from_tray(page, shots, screenshots, rotate: bool) -> None:
    text = page.locator("#game .controls .step").inner_text()
    assert "Tap" in text and "right click" not in text and "Enter" not in text, text
    on_screen(page, "#game .tray")
    big_enough(page, "#game .tray-piece")
    big_enough(page, "#game .tray-tools button")
    # The last piece that fits: the tray scrolls sideways to it, the page does not.
    page.locator(".tray-piece:not([aria-disabled])").last.tap()
    not_scrolled_and_board_clear(page)
    assert page.locator(".board-svg").get_attribute("data-fits") == "yes"
    if rotate:  # turned four times: back as it was, every word on the way speaks of taps
        for _ in range(4):
            page.locator(".tray-tools button", has_text="Rotate").tap()
            speaks_of_taps(page)
        not_scrolled_and_board_clear(page)
    if "picked" not in shots:
        page.screenshot(path=str(screenshots / "phone-picked-360.png"))
        shots.add("picked")
    place = page.locator(".tray-tools button.primary")
    on_screen(page, ".tray-tools button.primary")
    place.tap()  # puts it down (confirm moves)
    not_scrolled_and_board_clear(page)
    place.tap()  # and places it


def test_a_whole_shuffle_game_on_a_phone_never_scrolls_to_the_board_a_card_or_a_piece(
    site, browser, alice, screenshots
):
    game = site.call(versus_computer, alice)
    context = browser.new_context(
        viewport={"width": W, "height": H}, has_touch=True, is_mobile=True
    )
    context.add_cookies([{"name": "sessionid", "value": session_of(site, alice), "url": site.url}])
    context.add_init_script(WATCH_SWAPS)
    page = context.new_page()
    page.goto(f"{site.url}/games/{game.public_id}/")
    shots: set[str] = set()
    played: set[str] = set()
    steps: set[str] = set()
    placements = 0
    for _ in range(400):
        page.wait_for_selector(DECIDING, timeout=30_000)
        page.wait_for_timeout(100)  # the sheet is sized once the panel is in
        if page.locator("#game #result").count():
            break
        ply = page.evaluate("() => +document.querySelector('#game').dataset.ply")
        not_scrolled_and_board_clear(page)
        step = re.search(
            r"\bstep-(\w+)\b", page.locator("#game .controls .step").first.get_attribute("class")
        ).group(1)
        if step == "place":  # the template's one form for setup, place and place_second
            step = legal(page)["step"]
        steps.add(step)
        if step not in shots:
            page.screenshot(path=str(screenshots / f"phone-{step}-360.png"))
            shots.add(step)
        if step in ("card", "keep"):
            on_screen(page, "#game .controls button.card")
            big_enough(page, "#game .controls button.card")
            card, kind = pick_card(page, played)
            card.tap()  # opens it whole: nothing is played yet
            not_scrolled_and_board_clear(page)
            on_screen(page, "#game .controls button.card[aria-pressed=true] .effect")
            on_screen(page, "#game .card-tools button.primary")
            big_enough(page, "#game .card-tools button.primary")
            assert page.evaluate("() => +document.querySelector('#game').dataset.ply") == ply
            page.locator("#game .card-tools button.primary").tap()  # plays it
            played.add(kind)
        elif step == "declare":
            buttons = page.locator("#game .controls .colour-button")
            big_enough(page, "#game .controls .colour-button")
            counts = [
                int(re.search(r"\d+", buttons.nth(i).locator(".outlook").inner_text()).group())
                for i in range(buttons.count())
            ]
            best = buttons.nth(counts.index(max(counts)))
            on_screen(
                page, f"#game .controls .colour-button.{best.get_attribute('class').split()[-1]}"
            )
            best.tap()
        elif step == "recycle":
            speaks_of_taps(page)  # before the first tap too
            mine = next(iter(legal(page)["pieces"]))
            tap_square(page, mine.split(",")[0])  # lifts it
            not_scrolled_and_board_clear(page)
            speaks_of_taps(page)
            go = page.locator(".tray-tools button.primary")
            on_screen(page, ".tray-tools button.primary")
            big_enough(page, ".tray-tools button.primary")
            go.tap()
        elif step == "warp":
            speaks_of_taps(page, "#game .tray-note")  # before the first tap too
            moves = legal(page)["moves"]
            source = next(src for src, to in moves.items() if to)
            tap_square(page, source.split(",")[0])  # lifts it: the tray holds that piece
            not_scrolled_and_board_clear(page)
            speaks_of_taps(page)
            assert page.locator(".board-svg").get_attribute("data-fits") == "yes"
            move = page.locator(".tray-tools button.primary")
            on_screen(page, ".tray-tools button.primary")
            move.tap()  # puts it down
            not_scrolled_and_board_clear(page)
            move.tap()  # and moves it
        else:  # setup, place, place_second: the tray
            place_from_tray(page, shots, screenshots, rotate=placements < 3)
            placements += 1
        page.wait_for_function(
            "ply => +document.querySelector('#game').dataset.ply > ply", arg=ply, timeout=30_000
        )
        assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    else:
        pytest.fail("the game did not end within 400 decisions")
    # No decision was drawn again after it appeared (the same position swapped in afresh, where a
    # finger could miss): every swap of the game brought a newer position.
    swaps = page.evaluate("() => window.swaps")
    assert len(swaps) > placements, swaps  # the watch saw the game move
    again = [(a, b) for a, b in zip(swaps, swaps[1:], strict=False) if b["ply"] <= a["ply"]]
    assert not again, again
    page.screenshot(path=str(screenshots / "phone-result-360.png"))
    not_scrolled = page.evaluate("() => document.scrollingElement.scrollTop")
    assert not_scrolled == 0
    context.close()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert played == set(engine.CARD_KINDS), played
    assert steps >= STEPS_OF_CARDS | {"setup", "card", "place"}, steps
