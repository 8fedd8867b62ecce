"""A game in a real browser (Chromium, through Playwright; tests/e2e/conftest.py runs the site).

Erin signs up and verifies her email through the link, creates a two-player game against the
computer and plays six turns of it: with the mouse, with the keyboard alone, one by touch, among
them a Wild and a Double Play. Her page never reloads: the computer's moves arrive through the
websocket nudge. Bob watches the public game from another browser: he sees the same board and
none of Erin's cards.

Every choice is made through the page: the test reads what the page offers (its buttons and the
legal placements it embeds for the board) and clicks or types like a player.
"""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.core import mail

from games import engine
from games.engine.cards import CARD_NAMES
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-enough-password-7"
# The board's SVG geometry (static/js/board.js): viewBox size, margins, square size.
VIEW_W, VIEW_H, LEFT, TOP, SQUARE = 211, 210, 9, 1, 10
LIGHT_CARDS = {"skip", "reverse", "edge", "double", "wild"}
CARD_PREFERENCE = ["wild", "double", "skip", "reverse", "edge", "recycle", "draw2", "warp"]
TURNS = 6
# How each of Erin's turns is played: the keyboard alone every other turn.
WAYS = ["mouse", "keyboard", "mouse", "keyboard", "touch", "keyboard"]
WAIT = 30_000  # ms
# The arrow key that moves the focus towards the node along its row, when the focus is in it.
ALONG_THE_ROW = """node => {
  const row = node.closest('.tray, .card-list, .colour-list');
  const at = document.activeElement;
  if (!row || !row.contains(at)) return null;
  const items = [...row.querySelectorAll('button')];
  return items.indexOf(node) > items.indexOf(at) ? 'ArrowRight' : 'ArrowLeft';
}"""


def seed_dealing_wild_and_double() -> int:
    """The first seed whose blue deck deals Wild and Double Play first (blue draws two at its
    setup placement, R3.2) and then light cards only: a short, repeatable game."""
    for seed in range(1, 1_000_000):
        deck = engine.new_game(mode="shuffle", players=2, seed=seed).piles[0]
        if set(deck[:2]) == {"wild", "double"} and set(deck[2:7]) <= LIGHT_CARDS:
            return seed
    raise AssertionError("no such seed")


# -- the board's geometry, as the page draws it ---------------------------------------------


def cells(text: str) -> list[tuple[int, int]]:
    return [(ord(sq[0]) - ord("a"), int(sq[1:]) - 1) for sq in text.split(",")]


def shape(text: str) -> list[tuple[int, int]]:
    cs = cells(text)
    mx, my = min(x for x, _ in cs), min(y for _, y in cs)
    return sorted((x - mx, y - my) for x, y in cs)


def handle(text: str) -> tuple[int, int]:
    """The square under the pointer when the ghost covers ``text``: the middle of its box."""
    cs = cells(text)
    mx, my = min(x for x, _ in cs), min(y for _, y in cs)
    w, h = max(x for x, _ in cs) - mx + 1, max(y for _, y in cs) - my + 1
    return mx + (w - 1) // 2, my + (h - 1) // 2


class Player:
    """One browser page of the game, driven like a player would."""

    def __init__(self, page):
        self.page = page
        self.turns = 0
        self.played: list[str] = []
        self.snapshot = None  # a path: the next mouse placement is photographed before the click

    # -- reading the page -------------------------------------------------------------------

    def json(self, node_id: str):
        node = self.page.locator(f"#game #{node_id}")
        return json.loads(node.text_content()) if node.count() else None

    def ply(self) -> int:
        return int(self.page.locator("#game").get_attribute("data-ply"))

    def step(self) -> str:
        classes = self.page.locator("#game .controls .step").get_attribute("class")
        return classes.split("step-")[1].split()[0]

    def ghost(self) -> str:
        return self.page.locator(".board-svg").get_attribute("data-ghost") or ""

    def wait_for_decision(self, after_ply: int) -> None:
        self.page.wait_for_function(
            """ply => { const g = document.querySelector('#game');
                return g && +g.dataset.ply > ply && !g.classList.contains('htmx-settling')
                    && g.querySelector('[data-board-root][data-ready]')
                    && g.querySelector('.controls'); }""",
            arg=after_ply,
            timeout=WAIT,
        )

    def wait_for_answer(self, before_ply: int) -> None:
        self.page.wait_for_function(
            "ply => +document.querySelector('#game').dataset.ply > ply", arg=before_ply
        )

    # -- keyboard ---------------------------------------------------------------------------

    def tab_to(self, locator, limit: int = 120) -> None:
        """Press Tab (or Shift+Tab) until ``locator`` has the focus; within a row of choices (the
        tray, the cards, the colours: one stop of the Tab key each) the arrow keys move."""
        for _ in range(limit):
            if locator.evaluate("node => node === document.activeElement"):
                return
            along = locator.evaluate(ALONG_THE_ROW)
            if along:
                self.page.keyboard.press(along)
                continue
            before = locator.evaluate(
                "node => !!(node.compareDocumentPosition(document.activeElement)"
                " & Node.DOCUMENT_POSITION_FOLLOWING)"
            )
            self.page.keyboard.press("Shift+Tab" if before else "Tab")
        raise AssertionError("could not reach the control with the keyboard")

    # -- one decision, by mouse, keyboard or touch -----------------------------------------

    def decide(self, how: str) -> None:
        step = self.step()
        before = self.ply()
        if step == "card":
            self.play_card(how)
        elif step == "declare":
            self.declare(how)
        elif step in ("keep", "recycle"):
            self.press(self.page.locator(f"#game .step-{step} button").first, how)
        elif step == "warp":
            self.warp(how)
        else:
            intro = self.page.locator("#game .step-place p").first.text_content()
            second = "place a second piece" in intro  # Double Play's second placement
            first = "a second piece follows" in self.effects() and not second
            self.place(how)
            if not first:
                self.turns += 1
        self.wait_for_answer(before)

    def effects(self) -> str:
        """The card effects in force, as the turn line lists them."""
        node = self.page.locator("#game .effects")
        return node.text_content() if node.count() else ""

    def press(self, button, how: str) -> None:
        if how == "keyboard":
            self.tab_to(button)
            self.page.keyboard.press("Enter")
        elif how == "touch":
            button.tap()
        else:
            button.click()

    def play_card(self, how: str) -> None:
        buttons = self.page.locator("#game .step-card button.card")
        offered = {json.loads(b.get_attribute("value"))["card"]: b for b in buttons.all()}
        # Each card says what it would lead to, and warns when it would do nothing.
        for kind, button in offered.items():
            outlook = button.locator(".outlook").text_content()
            assert re.search(r"placement|cards?|moves?|piece", outlook), (kind, outlook)
        wanted = [k for k in CARD_PREFERENCE if k in offered]
        if "wild" in self.played:
            wanted = [k for k in wanted if k != "wild"] or wanted
        if "double" in self.played:
            wanted = [k for k in wanted if k != "double"] or wanted
        kind = wanted[0]
        self.played.append(kind)
        self.press(offered[kind], how)

    def declare(self, how: str) -> None:
        counts = {}
        for colour in engine.COLOURS:
            text = self.page.locator(f"#declare-{colour}").text_content()
            counts[colour] = int(text.split()[0])
        best = max(engine.COLOURS, key=lambda c: counts[c])
        self.press(self.page.get_by_role("button", name=f"Declare {best}"), how)

    def choose_placement(self, legal: dict) -> tuple[str, str]:
        """The first spot of the largest piece that fits (the page's own list of legal ones)."""
        placements = legal["placements"]
        piece = max(placements, key=lambda p: (len(placements[p][0].split(",")), p))
        return piece, placements[piece][0]

    def place(self, how: str) -> None:
        legal = self.json("legal")
        piece, target = self.choose_placement(legal)
        self.put(self.page.locator(f".tray-piece[data-piece='{piece}']"), target, how)

    def warp(self, how: str) -> None:
        legal = self.json("legal")
        source = sorted(legal["moves"])[0]
        if how == "keyboard":  # the list of pieces under the step works from the keyboard
            self.press(self.page.locator("#game .step-warp a.pick").first, how)
            self.page.wait_for_function(
                "() => JSON.parse(document.querySelector('#legal').textContent).source"
            )
            legal = self.json("legal")
            source = legal["source"]
        else:
            self.point(cells(source)[0], how)
        target = legal["moves"][source][0]
        self.put(self.page.locator(".tray-piece").first, target, how)

    def put(self, tray_piece, target: str, how: str) -> None:
        """Pick the piece up, turn it to the target's shape, bring it there and place it."""
        board = self.page.locator(".board-svg")
        if how == "keyboard":
            self.tab_to(tray_piece)
            self.page.keyboard.press("Enter")  # selects it and moves the focus to the board
            assert board.evaluate("node => node === document.activeElement")
        else:
            self.press(tray_piece, how)
        for turn in range(8):  # R turns a quarter, F flips: eight orientations at most
            if shape(self.ghost()) == shape(target):
                break
            key = "f" if turn == 3 else "r"
            if how == "keyboard":
                self.page.keyboard.press(key)
            else:
                name = "Flip (F)" if key == "f" else "Rotate (R)"
                self.press(self.page.get_by_role("button", name=name), how)
        assert shape(self.ghost()) == shape(target)
        fits = 'node => node.dataset.fits === "yes"'
        if how == "keyboard":
            x, y = handle(self.ghost())
            tx, ty = handle(target)
            for _ in range(abs(tx - x)):
                self.page.keyboard.press("ArrowRight" if tx > x else "ArrowLeft")
            for _ in range(abs(ty - y)):
                self.page.keyboard.press("ArrowUp" if ty > y else "ArrowDown")
            assert self.ghost() == target and board.evaluate(fits)
            assert "fits" in self.page.locator(".board-status").text_content()
            self.page.keyboard.press("Enter")  # puts it down ("confirm moves" is on by default)
            assert "Enter again" in self.page.locator(".board-status").text_content()
            assert self.page.get_by_role("button", name="Undo").is_visible()
            self.page.keyboard.press("Enter")
        elif how == "touch":  # a first tap puts the ghost there, a second one places it
            board.scroll_into_view_if_needed()
            self.point(handle(target), how)
            assert self.ghost() == target and board.evaluate(fits)
            assert "Tap again" in self.page.locator(".board-status").text_content()
            self.point(handle(target), how)
        else:
            board.scroll_into_view_if_needed()
            self.page.mouse.move(*self.square_point(handle(target)))
            assert self.ghost() == target and board.evaluate(fits)
            if self.snapshot:
                self.page.screenshot(path=self.snapshot, full_page=True)
                self.snapshot = None
            self.point(handle(target), how)  # puts it down: nothing is sent yet
            assert "Confirm to place" in self.page.locator(".board-status").text_content()
            self.page.mouse.move(*self.square_point((0, 0)))  # the ghost stays put
            assert self.ghost() == target
            self.page.get_by_role("button", name="Confirm").click()

    def square_point(self, square: tuple[int, int]) -> tuple[float, float]:
        box = self.page.locator(".board-svg").bounding_box()
        x, y = square
        ux = LEFT + (x + 0.5) * SQUARE
        uy = TOP + (19 - y + 0.5) * SQUARE
        return box["x"] + ux * box["width"] / VIEW_W, box["y"] + uy * box["height"] / VIEW_H

    def point(self, square, how: str) -> None:
        """Click (or tap) the board on a square."""
        if how == "touch":
            self.page.touchscreen.tap(*self.square_point(square))
        else:
            self.page.mouse.click(*self.square_point(square))


def sign_up(page, site, username: str, email: str) -> None:
    page.goto(f"{site.url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", email)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/$"))
    message = next(m for m in reversed(mail.outbox) if m.to == [email])
    link = re.search(r"http://\S+/accounts/confirm-email/\S+/", message.body).group(0)
    page.goto(link)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    # logged in: the header names the player (inside the closed Menu on a phone)
    assert page.locator(f"header a[href='/players/{username}/']").count()


def log_in(page, site, username: str, password: str) -> None:
    page.goto(f"{site.url}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator(f"header a[href='/players/{username}/']").count()


def create_game_against_the_computer(page, site) -> str:
    page.goto(f"{site.url}/games/new/")
    page.check("input[name=mode][value=shuffle]")
    page.check("input[name=players][value='2']")
    page.select_option("select[name=seat0_kind]", "human")
    page.select_option("select[name=seat1_kind]", "ai")
    page.select_option("select[name=seat1_level]", "beginner")
    page.check("input[name=visibility][value=public]")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/$"))
    return page.url.rstrip("/").rsplit("/", 1)[1]


def test_a_game_against_the_computer_with_mouse_and_keyboard(site, browser, make_user, screenshots):
    desk = browser.new_context(viewport={"width": 1280, "height": 900}, has_touch=True)
    page = desk.new_page()
    desk.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    errors: list[str] = []  # script errors and console errors (a refused request, a CSP block)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))

    sign_up(page, site, "erin", "erin@example.com")
    public_id = create_game_against_the_computer(page, site)
    seed = seed_dealing_wild_and_double()
    with site.locked():  # before the first move: the same game, dealt from a chosen seed
        game = Game.objects.get(public_id=public_id)
        assert game.status == Game.Status.ACTIVE and game.ply == 0
        state = engine.new_game(mode="shuffle", players=2, seed=seed)
        Game.objects.filter(pk=game.pk, ply=0).update(seed=seed, state=state.to_json())
    response = page.reload()
    if getattr(settings, "CONTENT_SECURITY_POLICY", None):
        assert "script-src 'self'" in response.headers["content-security-policy"]
    page.evaluate("window.sameDocument = true")  # gone if the page ever reloads

    bob = make_user("bob")
    bob.emailaddress_set.create(email=bob.email, verified=True, primary=True)
    phone = browser.new_context(viewport={"width": 360, "height": 780}, has_touch=True)
    watcher = phone.new_page()
    log_in(watcher, site, "bob", "bob-password-1")
    watcher.goto(f"{site.url}/games/{public_id}/")
    watcher.evaluate("window.sameDocument = true")

    erin = Player(page)
    erin.wait_for_decision(-1)
    decisions = 0
    while erin.turns < TURNS or not {"wild", "double"} <= set(erin.played):
        assert decisions < 40, "the game does not move on"
        how = WAYS[erin.turns % len(WAYS)]
        if erin.turns == 2:
            erin.snapshot = screenshots / "game-1280.png"
        ply = erin.ply()
        erin.decide(how)
        decisions += 1
        if erin.page.locator("#game .controls").count() == 0:
            # The computer's turn: it plays a moment later, and the page hears of it only
            # through the websocket (no reload, no 60 s poll within the wait).
            erin.wait_for_decision(erin.ply())
            assert page.evaluate("window.sameDocument") is True
            # ... and the focus is on what to do next: a card, a colour, a piece of the tray.
            focused = page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
            assert page.evaluate(
                "() => !!document.activeElement.closest('#game .controls, #game .tray')"
            ), focused
        else:
            erin.wait_for_decision(ply)

    # The page reads the right things out: after the moves, on it, every colour a letter too.
    assert page.locator(".board-svg .letter").count() > 0
    assert page.locator(".board-svg .last").count() > 0
    assert page.locator(".board-svg .anchor").count() > 0
    assert page.locator("#game .order-list li").count() >= 4
    assert page.locator("#game .standings td").count() > 0
    assert {"wild", "double"} <= set(erin.played)

    # The page at 360 px.
    page.set_viewport_size({"width": 360, "height": 780})
    assert page.locator(".board-svg").bounding_box()["width"] <= 360
    page.screenshot(path=screenshots / "game-360.png", full_page=True)

    # Bob, watching: the same board (it followed every move without a reload), no cards of Erin.
    watcher.wait_for_function(
        "ply => +document.querySelector('#game').dataset.ply === ply", arg=erin.ply(), timeout=WAIT
    )
    assert watcher.evaluate("window.sameDocument") is True
    seen = json.loads(watcher.locator("#board-data").text_content())
    assert seen["board"] == erin.json("board-data")["board"]
    content = watcher.content()
    assert watcher.locator("#legal").count() == 0 and watcher.locator("#hand").count() == 0
    assert watcher.locator("#game .controls").count() == 0
    with site.locked():
        game = Game.objects.get(public_id=public_id)
        hand = game.state["hands"]["blue"]
        discarded = {k for pile in game.state["discards"].values() for k in pile}
    assert hand, "Erin holds cards"
    for kind in set(hand) - discarded:  # a card never played is nowhere on Bob's page
        assert CARD_NAMES[kind] not in content, kind
    watcher.screenshot(path=screenshots / "watching-360.png", full_page=True)

    assert errors == []
    phone.close()
    desk.close()


# -- page weight ----------------------------------------------------------------------------

PAGE_BUDGET = 150 * 1024  # bytes transferred by a first load of the game page, everything in
JS_BUDGET = 60 * 1024


def duel_in_the_middle(alice, bob, rng) -> Game:
    """A game of alice (blue and red) against bob, played with random legal moves through the
    write path until, some twenty moves in, alice has a piece to place."""
    from games import services
    from games.models import Seat
    from games.services import SeatSpec

    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username=bob.username)],
    )
    services.game_join(game=game, user=bob)
    while True:
        game.refresh_from_db()
        state = game.current_state()
        if game.ply >= 20 and state.controller() == 0 and state.step == "place":
            return game
        user = game.seats.get(index=state.controller()).user
        action = rng.choice(engine.legal_actions(state))
        services.action_submit(game=game, user=user, action=action, expected_ply=game.ply)


def first_load(browser, site, url: str, session: str | None) -> dict:
    """What a browser with an empty cache downloads for ``url``, from its network log."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if session:
        context.add_cookies([{"name": "sessionid", "value": session, "url": site.url}])
    page = context.new_page()
    loads: list[dict] = []

    def finished(request):
        sizes = request.sizes()
        loads.append(
            {
                "url": request.url.removeprefix(site.url),
                "type": request.resource_type,
                "bytes": sizes["responseHeadersSize"] + sizes["responseBodySize"],
            }
        )

    page.on("requestfinished", finished)
    page.goto(url, wait_until="networkidle")
    page.wait_for_selector("#chat .chat, #chat form, #chat p")
    page.wait_for_load_state("networkidle")
    context.close()
    by_type: dict[str, int] = {}
    for load in loads:
        by_type[load["type"]] = by_type.get(load["type"], 0) + load["bytes"]
    return {"total": sum(by_type.values()), "by_type": by_type, "requests": loads}


def test_the_game_page_is_light(site, browser, alice, bob, carol):
    import random

    from django.test import Client

    duel = site.call(duel_in_the_middle, alice, bob, random.Random(7))
    sessions = {}
    with site.locked():
        for user in (alice, carol):
            client = Client()
            client.force_login(user)
            sessions[user.username] = client.cookies[settings.SESSION_COOKIE_NAME].value
    url = f"{site.url}/games/{duel.public_id}/"

    weights = {
        "player to move (alice)": first_load(browser, site, url, sessions["alice"]),
        "spectator (carol)": first_load(browser, site, url, sessions["carol"]),
    }

    report = screenshots_dir().parent / "page-weight.json"
    report.write_text(json.dumps(weights, indent=2))
    for who, weight in weights.items():
        js = weight["by_type"].get("script", 0)
        print(f"{who}: {weight['total']} bytes in all, {js} of JavaScript, {weight['by_type']}")
        assert weight["total"] <= PAGE_BUDGET, (who, weight)
        assert js <= JS_BUDGET, (who, weight)
    assert any("board" in load["url"] for load in weights["spectator (carol)"]["requests"])


def screenshots_dir():
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
