"""The tray and the cards for a newcomer, on a 360x740 phone and at 1280x900.

The tray puts the pieces that can be placed first, the largest first; on the phone it says that
it scrolls, and the chosen piece stays in view while it is turned and put down. Arrow keys move
within the tray and the cards (one stop of the Tab key each), so that the first five-square
piece is a few keys from the start of the turn. A card's whole effect can be read on the phone
before it is played, and playing it stays one deliberate tap. A reload in the middle of a turn
keeps the piece in hand and its spot; the phone's sheet says which colour is playing; while
another player moves, the tray says whose pieces it shows.

Positions are reached through the services (alice plays blue and red against bob), and the
turn starts on alice's page as in a live game: bob's move arrives through the websocket nudge.
"""

from __future__ import annotations

import pytest

from games import engine, services
from games.engine.pieces import PIECE_SIZE
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import EAR, session_of, wait_game_socket
from tests.support.pages import save_state
from tests.support.tables import SKIPS_AND_REVERSES

pytestmark = pytest.mark.django_db(transaction=True)

PHONE, DESKTOP = (360, 740), (1280, 900)
WAIT = 30_000  # ms


def duel(alice, bob, mode: str, recipe: dict | None = None) -> Game:
    """alice (blue and red) against bob (yellow and green), started; a Shuffle deck of Skips and
    Reverses only (no card opens a step of its own) unless ``recipe`` says otherwise."""
    if mode == "shuffle" and recipe is None:
        recipe = SKIPS_AND_REVERSES
    game = services.game_create(
        creator=alice,
        mode=mode,
        players=2,
        deck_recipe=recipe,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    return game


def play_until(game: Game, users: dict, done) -> Game:
    """Each seat plays its first legal action (for a placement, of its largest piece) until
    ``done(state)``."""
    for _ in range(200):
        game.refresh_from_db()
        state = game.current_state()
        if done(state):
            return game
        legal = engine.legal_actions(state)
        places = [a for a in legal if "place" in a]
        action = max(places, key=lambda a: len(a["place"].split(","))) if places else legal[0]
        seat = state.controller()
        services.action_submit(game=game, user=users[seat], action=action, expected_ply=game.ply)
    pytest.fail("no such position within 200 actions")


def open_page(browser, site, user, game, size, touch=False):
    options = {"viewport": {"width": size[0], "height": size[1]}}
    if touch:
        options.update(has_touch=True, is_mobile=True)
    context = browser.new_context(**options)
    context.add_cookies([{"name": "sessionid", "value": session_of(site, user), "url": site.url}])
    page = context.new_page()
    page.add_init_script(EAR)
    page.goto(f"{site.url}/games/{game.public_id}/")
    page.wait_for_selector("#game .game-layout.enhanced")
    return context, page


def handle(text: str) -> str:
    """The square under the finger when the ghost covers ``text``: the middle of its box
    (static/js/board.js's handle)."""
    cells = [("abcdefghijklmnopqrst".index(sq[0]), int(sq[1:]) - 1) for sq in text.split(",")]
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    x = min(xs) + (max(xs) - min(xs)) // 2
    y = min(ys) + (max(ys) - min(ys)) // 2
    return f"{'abcdefghijklmnopqrst'[x]}{y + 1}"


def tap_square(page, square: str) -> None:
    """A tap on the middle of ``square`` (static/js/board.js's viewBox: 211 x 210 units, squares
    of 10 after a margin of 9 on the left and 1 on top)."""
    box = page.locator(".board-svg").bounding_box()
    x, y = "abcdefghijklmnopqrst".index(square[0]), int(square[1:]) - 1
    page.touchscreen.tap(
        box["x"] + (9 + (x + 0.5) * 10) * box["width"] / 211,
        box["y"] + (1 + (19 - y + 0.5) * 10) * box["height"] / 210,
    )


def tray(page) -> list[dict]:
    return page.locator("#game .tray-piece").evaluate_all(
        "els => els.map(e => ({piece: e.dataset.piece, off: e.hasAttribute('aria-disabled')}))"
    )


def in_view(page, selector: str, size) -> bool:
    """Whether ``selector`` is whole on the screen and inside the tray's visible part."""
    return page.evaluate(
        """([selector, w, h]) => {
          const node = document.querySelector(selector);
          if (!node) return false;
          const box = node.getBoundingClientRect();
          const row = node.closest('.tray').getBoundingClientRect();
          return box.left >= Math.max(0, row.left) - 0.5
            && box.right <= Math.min(w, row.right) + 0.5 && box.top >= 0 && box.bottom <= h + 0.5;
        }""",
        [selector, *size],
    )


def in_screen(page, selector: str, size) -> bool:
    box = page.locator(selector).first.bounding_box()
    return (
        box is not None
        and box["x"] >= -0.5
        and box["y"] >= -0.5
        and box["x"] + box["width"] <= size[0] + 0.5
        and box["y"] + box["height"] <= size[1] + 0.5
    )


def the_pieces_that_fit_come_first_the_largest_first(page) -> None:
    pieces = tray(page)
    assert pieces and not pieces[0]["off"] and PIECE_SIZE[pieces[0]["piece"]] == 5, pieces
    offs = [p["off"] for p in pieces]
    assert offs == sorted(offs), pieces  # those that can be placed, then the others
    sizes = [PIECE_SIZE[p["piece"]] for p in pieces if not p["off"]]
    assert sizes == sorted(sizes, reverse=True), pieces


PRESSED = "#game .tray-piece[aria-pressed=true]"


def test_the_phone_tray_shows_the_largest_pieces_first_says_it_scrolls_and_keeps_the_pick(
    site, browser, alice, bob, screenshots
):
    game = site.call(lambda: duel(alice, bob, "classic"))
    context, page = open_page(browser, site, alice, game, PHONE, touch=True)
    page.wait_for_selector(".tray-piece:not([aria-disabled])")
    the_pieces_that_fit_come_first_the_largest_first(page)
    # It says that it scrolls: an arrow at its end, with how many pieces lie beyond.
    hint = page.locator("#game .tray-more.next")
    assert hint.is_visible() and "+" in hint.inner_text(), hint.inner_text()
    page.screenshot(path=str(screenshots / "tray-start-360.png"))
    hint.tap()
    page.wait_for_function("() => document.querySelector('#game .tray').scrollLeft > 0")
    assert page.locator("#game .tray-more.prev").is_visible()
    # The last piece: the tray keeps its place after the pick, and the piece stays in view
    # while it is turned and put down.
    page.evaluate(
        "() => { const t = document.querySelector('#game .tray'); t.scrollLeft = t.scrollWidth; }"
    )
    page.wait_for_timeout(200)
    last = page.locator(".tray-piece:not([aria-disabled])").last
    name = last.get_attribute("data-piece")
    last.tap()
    assert page.locator(PRESSED).get_attribute("data-piece") == name
    assert page.evaluate("() => document.querySelector('#game .tray').scrollLeft") > 0
    assert in_view(page, PRESSED, PHONE)
    page.locator(".tray-tools button", has_text="Rotate").tap()
    assert in_view(page, PRESSED, PHONE)
    tap_square(page, handle(page.locator(".board-svg").get_attribute("data-ghost")))
    assert "Tap again" in page.locator(".board-status").inner_text()
    assert in_view(page, PRESSED, PHONE)
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    page.screenshot(path=str(screenshots / "tray-picked-360.png"))
    context.close()


def test_the_desktop_tray_shows_every_piece_the_largest_first(
    site, browser, alice, bob, screenshots
):
    game = site.call(lambda: duel(alice, bob, "classic"))
    context, page = open_page(browser, site, alice, game, DESKTOP)
    page.wait_for_selector(".tray-piece:not([aria-disabled])")
    the_pieces_that_fit_come_first_the_largest_first(page)
    assert page.locator("#game .tray-more:visible").count() == 0  # it wraps: nothing to scroll
    page.locator(".tray-piece:not([aria-disabled])").last.click()
    assert in_view(page, PRESSED, DESKTOP)
    page.screenshot(path=str(screenshots / "tray-picked-1280.png"))
    context.close()


def two_kinds_in_blues_hand(game: Game) -> Game:
    """Blue's hand holds a Skip and a Reverse (a card from its pile swapped in if need be): two
    buttons to move between."""
    state = game.current_state()
    hand, pile = state.hands[0], state.piles[0]
    if len(set(hand)) < 2:
        other = next(i for i, kind in enumerate(pile) if kind != hand[0])
        hand[1], pile[other] = pile[other], hand[1]
    return save_state(game, state)


FOCUSED = """() => {
  const e = document.activeElement;
  return e ? {piece: e.dataset.piece || null, card: e.matches('button.card'),
              tray: Boolean(e.closest('.tray')), cards: Boolean(e.closest('.card-list'))} : {};
}"""


def test_from_the_turn_start_the_first_five_square_piece_is_a_few_keys_away(
    site, browser, alice, bob, screenshots
):
    users = {0: alice, 1: bob}
    game = site.call(lambda: duel(alice, bob, "shuffle"))
    game = site.call(
        lambda: play_until(game, users, lambda s: s.step == "card" and s.controller() == 1)
    )
    game = site.call(two_kinds_in_blues_hand, game)
    context, page = open_page(browser, site, alice, game, DESKTOP)
    wait_game_socket(page, game)
    # Bob moves: alice's turn starts on her open page, as in a live game.
    site.call(lambda: play_until(game, users, lambda s: s.controller() == 0))
    page.wait_for_selector("#game .controls button.card", timeout=WAIT)
    page.wait_for_function("() => document.activeElement.matches('button.card')", timeout=WAIT)
    # The cards are one stop of the Tab key; the arrow keys move along them.
    assert page.locator("#game .controls button.card").count() >= 2
    page.keyboard.press("Tab")
    assert not page.evaluate(FOCUSED)["cards"]  # one Tab leaves the row
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED)["card"]
    page.keyboard.press("ArrowRight")
    second = page.locator("#game .controls .card-list > li").nth(1).locator("button.card")
    assert second.evaluate("b => b === document.activeElement")
    page.keyboard.press("ArrowLeft")

    keys = 1
    page.keyboard.press("Enter")  # the card
    page.wait_for_function("() => document.activeElement.matches('.tray-piece')", timeout=WAIT)
    while PIECE_SIZE[page.evaluate(FOCUSED)["piece"]] != 5 and keys < 4:
        page.keyboard.press("ArrowRight")
        keys += 1
    page.keyboard.press("Enter")  # picks it up: the focus goes to the board
    keys += 1
    chosen = page.locator(PRESSED).get_attribute("data-piece")
    assert PIECE_SIZE[chosen] == 5 and keys <= 4, (chosen, keys)
    # Back in the tray, the arrows move along it and one Tab leaves it.
    page.locator(PRESSED).focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED)["tray"] and page.evaluate(FOCUSED)["piece"] != chosen
    page.keyboard.press("Tab")
    assert not page.evaluate(FOCUSED)["tray"]
    page.screenshot(path=str(screenshots / "tray-keys-1280.png"))
    context.close()


# A deck of Edge to Edge only (R6.5), whose effect is long: on the phone it shows only its start.
LONG_EFFECTS = {kind: 0 for kind in engine.CARD_KINDS} | {"edge": 14}
CLAMPED = "e => e.scrollHeight > e.clientHeight + 1"


def test_a_card_is_read_whole_before_it_is_played_and_one_deliberate_tap_plays_it(
    site, browser, alice, bob, screenshots
):
    users = {0: alice, 1: bob}
    game = site.call(lambda: duel(alice, bob, "shuffle", LONG_EFFECTS))
    game = site.call(
        lambda: play_until(game, users, lambda s: s.step == "card" and s.controller() == 0)
    )
    # At the desktop every card is whole on the screen, and one click plays it.
    context, page = open_page(browser, site, alice, game, DESKTOP)
    page.wait_for_selector("#game .controls button.card")
    effects = page.locator("#game .controls button.card .effect")
    assert not any(effects.nth(i).evaluate(CLAMPED) for i in range(effects.count()))
    page.screenshot(path=str(screenshots / "cards-1280.png"))
    page.locator("#game .controls button.card").first.click()
    page.wait_for_function(f"() => +document.querySelector('#game').dataset.ply > {game.ply}")
    context.close()
    # On the phone a card shows the start of its effect: a first tap opens it whole.
    game = site.call(lambda: duel(alice, bob, "shuffle", LONG_EFFECTS))
    game = site.call(
        lambda: play_until(game, users, lambda s: s.step == "card" and s.controller() == 0)
    )
    context, page = open_page(browser, site, alice, game, PHONE, touch=True)
    page.wait_for_selector("#game .controls button.card")
    page.wait_for_timeout(200)  # the sheet is sized
    # The sheet says which colour is playing (it covers the turn's line).
    colour = page.locator("#game .controls .controls-colour")
    assert colour.is_visible() and "Blue" in colour.inner_text()
    assert in_screen(page, "#game .controls .controls-colour", PHONE)
    page.screenshot(path=str(screenshots / "cards-closed-360.png"))
    effects = page.locator("#game .controls button.card .effect")
    cut = [i for i in range(effects.count()) if effects.nth(i).evaluate(CLAMPED)]
    assert cut, "every effect is whole already: nothing to check"
    card = page.locator("#game .controls button.card").nth(cut[0])
    card.tap()  # opens it: nothing is played
    page.wait_for_timeout(500)
    assert site.call(lambda: Game.objects.get(pk=game.pk).ply) == game.ply
    effect = card.locator(".effect")
    assert not effect.evaluate(CLAMPED) and not card.locator(".outlook").evaluate(CLAMPED)
    assert in_screen(page, "#game .controls button.card[aria-pressed=true] .effect", PHONE)
    assert in_screen(page, "#game .controls button.card[aria-pressed=true] .outlook", PHONE)
    play = page.locator("#game .card-tools button.primary")
    assert in_screen(page, "#game .card-tools button.primary", PHONE)
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    page.screenshot(path=str(screenshots / "cards-open-360.png"))
    play.tap()  # one deliberate tap plays it
    page.wait_for_function(f"() => +document.querySelector('#game').dataset.ply > {game.ply}")
    context.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_reload_in_the_middle_of_the_turn_keeps_the_piece_in_hand_and_its_spot(
    site, browser, alice, bob, screenshots, size
):
    game = site.call(lambda: duel(alice, bob, "classic"))
    phone = size == PHONE
    context, page = open_page(browser, site, alice, game, size, touch=phone)
    page.wait_for_selector(".tray-piece:not([aria-disabled])")
    piece = page.locator(".tray-piece:not([aria-disabled])").nth(1)
    name = piece.get_attribute("data-piece")
    board = page.locator(".board-svg")
    if phone:  # picked, turned, put down on its spot
        piece.tap()
        page.locator(".tray-tools button", has_text="Rotate").tap()
        page.locator(".tray-tools button", has_text="Rotate").tap()
        ghost = board.get_attribute("data-ghost")
        tap_square(page, handle(ghost))
        assert "Tap again" in page.locator(".board-status").inner_text()
    else:  # picked, turned, moved along to another spot, by the keyboard
        piece.focus()
        page.keyboard.press("Enter")
        page.keyboard.press("r")
        page.keyboard.press("n")
        page.keyboard.press("n")
    ghost = board.get_attribute("data-ghost")
    assert board.get_attribute("data-fits") == "yes"

    page.reload()
    page.wait_for_selector(".tray-piece:not([aria-disabled])")
    assert page.locator(PRESSED).get_attribute("data-piece") == name
    assert board.get_attribute("data-ghost") == ghost
    page.screenshot(path=str(screenshots / f"reloaded-{size[0]}.png"))
    if phone:  # still put down: Confirm places it
        confirm = page.locator(".tray-tools button.primary")
        assert confirm.inner_text() == "Confirm"
        confirm.tap()
        page.wait_for_function("() => +document.querySelector('#game').dataset.ply >= 1")
        assert site.call(lambda: Game.objects.get(pk=game.pk).actions.first().payload) == {
            "place": ghost
        }
    context.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_while_another_player_moves_the_tray_says_whose_pieces_it_shows(
    site, browser, alice, bob, screenshots, size
):
    users = {0: alice, 1: bob}
    game = site.call(lambda: duel(alice, bob, "classic"))
    game = site.call(lambda: play_until(game, users, lambda s: s.controller() == 1))
    context, page = open_page(browser, site, alice, game, size)
    caption = page.locator("#game .tray-caption")
    caption.scroll_into_view_if_needed()
    assert caption.is_visible() and caption.inner_text().strip() == "Y Yellow's pieces (bob)"
    above, tray = caption.bounding_box(), page.locator("#game .tray").bounding_box()
    assert 0 <= tray["y"] - (above["y"] + above["height"]) < 20  # right above the pieces
    page.screenshot(path=str(screenshots / f"tray-caption-{size[0]}.png"))
    context.close()
