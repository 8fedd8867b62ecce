"""A game page shown again is current at once, in Chromium, whichever way it comes back: Back from
the lobby, a page restored from the back/forward cache, a tab that slept, a socket that opens
after a move it never heard of.

No stopwatch: each test first waits for the page's socket to have its opening answer (the page
listens and knows the game's ply), then silences the nudges, so that the way under test is the
only one left by which the page can catch up. A wait is for a state of the page, under a
generous hang guard that a slow machine does not come near."""

from __future__ import annotations

import pytest

from games import engine, services
from games.live import nudges
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def duel(site, alice, bob):
    """The 2-player Shuffle game of tests/conftest.py, made where nudges may be sent."""

    def make():
        game = services.game_create(
            creator=alice,
            mode="shuffle",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        )
        services.game_join(game=game, user=bob)
        game.refresh_from_db()
        return game

    return site.call(make)


HANG_GUARD = 20_000  # ms

# The test's ear, run in each document of the page before the page's own scripts: every message
# a socket of the page receives (noted before the page's own handler runs), with the socket's
# path; the ply the document was served with; and whether it was restored from the
# back/forward cache.
EAR = """
window.heard = [];
document.addEventListener("DOMContentLoaded", () => {
  const game = document.getElementById("game");
  window.served = game ? Number(game.dataset.ply) : null;
});
window.addEventListener("pageshow", (event) => { if (event.persisted) window.restored = true; });
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      window.heard.push({ path: new URL(this.url).pathname, message: JSON.parse(event.data) });
    });
  }
};
"""


def open_game(browser, site, user, game):
    """The game's page for ``user``, once its game socket is open and has had the server's
    answer to its opening: moves from now on reach the page only through nudges."""
    context, page = page_for(browser, site, user, "about:blank")
    page.add_init_script(EAR)
    page.goto(f"{site.url}/games/{game.public_id}/")
    page.wait_for_function(
        "path => window.heard.some(h => h.path === path && h.message.type === 'game.changed')",
        arg=f"/ws/games/{game.public_id}/",
        timeout=HANG_GUARD,
    )
    return context, page


def play_one(game_id: int) -> int:
    """Whoever is to move plays their first legal action; the game's new ply."""
    game = Game.objects.get(pk=game_id)
    state = game.current_state()
    user = game.seats.get(index=state.controller()).user
    action = engine.legal_actions(state)[0]
    return services.action_submit(game=game, user=user, action=action, expected_ply=game.ply).ply


def shows(page, ply: int) -> None:
    page.wait_for_function(
        "ply => +document.querySelector('#game').dataset.ply === ply",
        arg=ply,
        timeout=HANG_GUARD,
    )


def shown(page) -> int:
    return page.evaluate("() => +document.querySelector('#game').dataset.ply")


def quietly(monkeypatch):
    """Moves made from now on send no nudge (the page cannot hear them: asleep, cached)."""
    monkeypatch.setattr(nudges, "game_changed", lambda public_id, ply: None)


def test_back_from_the_lobby_shows_the_position_now(site, browser, duel, alice):
    context, page = open_game(browser, site, alice, duel)
    for _ in range(3):
        ply = site.call(play_one, duel.pk)
    shows(page, ply)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Lobby").click()
    page.wait_for_url(f"{site.url}/")
    for _ in range(2):
        ply = site.call(play_one, duel.pk)
    page.go_back()
    page.wait_for_function(
        "() => window.served !== undefined || window.restored", timeout=HANG_GUARD
    )
    if not page.evaluate("() => window.restored"):
        # Loaded again (Chromium keeps no page with an open socket in its back/forward cache):
        # from the server, not from the browser's cache with the position of the first load.
        assert page.evaluate("() => window.served") == ply
    shows(page, ply)
    context.close()


@pytest.mark.parametrize(
    "event",
    [
        "window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))",
        "document.dispatchEvent(new Event('visibilitychange'))",
    ],
    ids=["restored-from-bfcache", "tab-shown-again"],
)
def test_a_page_shown_again_catches_up_at_once(site, browser, duel, alice, monkeypatch, event):
    context, page = open_game(browser, site, alice, duel)
    quietly(monkeypatch)
    ply = site.call(play_one, duel.pk)
    # Its socket open and the nudge silenced, nothing but the event can tell the page.
    assert shown(page) == ply - 1
    page.evaluate(f"() => {{ {event}; }}")
    shows(page, ply)
    context.close()


def test_a_move_made_before_the_socket_opened_is_shown(site, browser, duel, alice, monkeypatch):
    def connect_after_a_move(ws):
        quietly(monkeypatch)
        site.call(play_one, duel.pk)
        ws.connect_to_server()

    context, page = page_for(browser, site, alice, "about:blank")
    page.add_init_script(EAR)
    page.route_web_socket(f"**/ws/games/{duel.public_id}/", connect_after_a_move)
    page.goto(f"{site.url}/games/{duel.public_id}/")
    assert page.evaluate("() => window.served") == 0  # the move came after the page was served
    shows(page, 1)
    context.close()


def test_a_move_from_an_outdated_position_says_the_game_moved_on(
    site, browser, duel, alice, monkeypatch, screenshots
):
    """The page missed a move (no nudge reached it): placing a piece from it is not dropped in
    silence, the player reads that the game moved on and sees the position now."""
    context, page = open_game(browser, site, alice, duel)
    quietly(monkeypatch)
    ply = site.call(play_one, duel.pk)  # alice's own setup, from another tab say
    page.locator(".tray-piece[data-piece='1']").click()
    page.locator(".tray-tools button.primary").click()  # puts it down
    page.locator(".tray-tools button.primary").click()  # sends it
    message = page.locator("#game .game-message.error")
    message.wait_for(timeout=HANG_GUARD)
    # A sentence a player understands, not the plies: their own move from another tab.
    said = message.inner_text()
    assert "You moved meanwhile in another tab or window: here is the game now." in said, said
    shows(page, ply)
    page.screenshot(path=str(screenshots / "stale-move-refused-1280.png"))
    context.close()
