"""The live client (static/js/live.js) in Chromium: a page never sits on a decision that is no
longer current, the waiting room fills in by itself, and chat lines arrive through the socket.

The whole-game test plays a 2-player Shuffle game against a Beginner seat from one page that
never reloads: each of the player's decisions is posted through htmx from the page, as its
buttons do, while the computer answers a moment later from a "worker" (tests/e2e/conftest.py),
so that its nudges race the page's own requests. The page notes when it shows each ply; the
server notes when each ply was committed; every ply must be on screen (or overtaken by a newer
one) within 2 seconds of its commit.
"""

from __future__ import annotations

import asyncio
import functools
import random
import time

import pytest

from games import engine, services
from games.live import nudges
from games.models import Game, Seat
from games.services import SeatSpec
from tests.e2e import conftest as e2e
from tests.support.browser import page_for, session_of  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

STALE_LIMIT = 2.0  # seconds a page may show a ply that is no longer the game's
WAIT = 20_000  # ms

# Records, in the page, when each ply appeared on it (epoch ms), whatever swapped it in.
WATCH_PLY = """() => {
  window.__shown = [[+document.querySelector('#game').dataset.ply, Date.now()]];
  new MutationObserver(() => {
    const g = document.querySelector('#game');
    if (!g) return;
    const ply = +g.dataset.ply, last = window.__shown[window.__shown.length - 1];
    if (last[0] !== ply) window.__shown.push([ply, Date.now()]);
  }).observe(document.body, {subtree: true, childList: true, attributes: true,
                             attributeFilter: ['data-ply']});
}"""

# Posts one decision the way the page's own buttons do (htmx, swapping #game), without waiting
# for it: the test goes on reading the database while the answer and the nudges race.
POST = """([url, action, ply]) => {
  const headers = JSON.parse(document.body.getAttribute('hx-headers') || '{}');
  htmx.ajax('POST', url, {target: '#game', swap: 'outerHTML', headers: headers,
                          values: {action: JSON.stringify(action), ply: String(ply)}});
  return true;
}"""


def slow_move_answers(site, monkeypatch, seconds: float = 0.4) -> None:
    """The answer to a move's POST reaches the page a while after the move committed (a slow
    network, a busy server): meanwhile the computer answers, its nudges arrive and the page
    refreshes past it, and then the POST's own, older, page comes in."""
    app = site.daphne.app

    async def delayed(scope, receive, send):
        if scope["type"] != "http" or not scope["path"].endswith("/act/"):
            await app(scope, receive, send)
            return

        async def late(message):
            if message["type"] == "http.response.start":
                await asyncio.sleep(seconds)
            await send(message)

        await app(scope, receive, late)

    monkeypatch.setattr(site.daphne, "app", delayed)


def versus_beginner(alice) -> Game:
    return services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )


def snapshot(game_id: int):
    """(ply, whether the human seat decides, legal actions, over) as the database has it."""
    game = Game.objects.get(pk=game_id)
    state = game.current_state()
    if state.over:
        return game.ply, False, [], True
    mine = state.controller() == 0
    return game.ply, mine, engine.legal_actions(state) if mine else [], False


@pytest.mark.timeout(300)
def test_a_whole_game_against_the_computer_never_shows_a_stale_decision(
    site, browser, alice, monkeypatch, screenshots
):
    monkeypatch.setattr(e2e, "AI_DELAY", 0.05)  # the computer answers fast: the nudges race
    committed: dict[int, float] = {}
    nudge = nudges.game_changed

    watched = None

    def noted(public_id, ply):
        if public_id == watched or watched is None:  # not the rematch's
            committed.setdefault(ply, time.time())
        nudge(public_id, ply)

    monkeypatch.setattr(nudges, "game_changed", noted)
    slow_move_answers(site, monkeypatch)
    game = site.call(versus_beginner, alice)
    watched = game.public_id
    url = f"{site.url}/games/{game.public_id}/"
    act = f"/games/{game.public_id}/act/"
    context, page = page_for(browser, site, alice, url)
    page.wait_for_selector("#game[data-live]")
    page.evaluate(WATCH_PLY)
    watching_since = time.time()  # what was committed before came with the page's own load
    rng = random.Random(5)
    decisions = 0
    while True:
        ply, mine, legal, over = site.call(snapshot, game.pk)
        if over:
            break
        if not mine:
            time.sleep(0.03)
            continue
        # The page must be on this decision, by itself, promptly.
        page.wait_for_function(
            "ply => +document.querySelector('#game').dataset.ply === ply",
            arg=ply,
            timeout=STALE_LIMIT * 1000 + 1000,
        )
        page.evaluate(POST, [act, rng.choice(legal), ply])
        decisions += 1
    final, *_ = site.call(snapshot, game.pk)
    page.wait_for_function(
        "ply => +document.querySelector('#game').dataset.ply === ply", arg=final, timeout=WAIT
    )
    # The end reached the page by itself too: the result banner and the status, no reload.
    assert page.locator("#result h2").is_visible()
    assert "Finished" in page.locator("#turn").inner_text()
    assert page.get_by_role("button", name="Rematch").is_visible()
    page.screenshot(path=str(screenshots / "live-whole-game-end.png"))
    shown = page.evaluate("() => window.__shown")
    page.get_by_role("button", name="Rematch").click()  # one click: the same seats, a new game
    page.wait_for_url(lambda url: game.public_id not in url)
    page.wait_for_selector("#game .board-svg")
    rematch = site.call(lambda: Game.objects.get(rematch_of_id=game.pk))
    assert rematch.public_id in page.url and rematch.mode == game.mode
    context.close()

    assert decisions > 30
    assert set(range(1, final + 1)) <= set(committed)  # every ply was committed and nudged
    for ply, at in committed.items():
        if at < watching_since:
            continue
        caught_up = next((t / 1000 for p, t in shown if p >= ply), None)
        assert caught_up is not None, f"ply {ply} never reached the page"
        assert caught_up - at <= STALE_LIMIT, (
            f"ply {ply} reached the page {caught_up - at:.2f} s late"
        )


def test_the_waiting_room_and_the_chat_are_live(site, browser, alice, bob, screenshots):
    game = site.call(
        functools.partial(
            services.game_create,
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        )
    )
    url = f"{site.url}/games/{game.public_id}/"
    alice_context, alice_page = page_for(browser, site, alice, url)
    bob_context, bob_page = page_for(browser, site, bob, url, viewport=(360, 740))
    try:
        alice_page.wait_for_selector("#game[data-live]")
        assert "Waiting for" in alice_page.locator("#game").inner_text()

        started = time.monotonic()
        bob_page.locator("#game form[action$='/join/'] button").first.click()
        # Alice's page, untouched, shows the started game: the seat taken and the board.
        alice_page.wait_for_selector("#game .board-svg, #game [data-board-root]", timeout=5000)
        assert time.monotonic() - started < 5
        alice_page.screenshot(path=str(screenshots / "live-waiting-room-started.png"))

        bob_page.wait_for_selector("#chat-text", timeout=WAIT)
        bob_page.fill("#chat-text", "good luck, alice")
        started = time.monotonic()
        bob_page.press("#chat-text", "Enter")
        alice_page.wait_for_selector("#chat-log :text('good luck, alice')", timeout=5000)
        assert time.monotonic() - started < 5  # no 15 s poll: the nudge brought it
        alice_page.screenshot(path=str(screenshots / "live-chat.png"))
    finally:
        alice_context.close()
        bob_context.close()
