"""Issue #26 item 1 in Chromium: a game page shown again is current within a second, whichever
way it comes back: Back from the lobby, a page restored from the back/forward cache, a tab that
slept, a socket that opens after a move it never heard of."""

from __future__ import annotations

import time

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


CURRENT_WITHIN = 1000  # ms


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
        timeout=CURRENT_WITHIN,
    )


def quietly(monkeypatch):
    """Moves made from now on send no nudge (the page cannot hear them: asleep, cached)."""
    monkeypatch.setattr(nudges, "game_changed", lambda public_id, ply: None)


def test_back_from_the_lobby_shows_the_position_now(site, browser, duel, alice):
    url = f"{site.url}/games/{duel.public_id}/"
    context, page = page_for(browser, site, alice, url)
    page.wait_for_selector("#game[data-live] .board-svg")
    for _ in range(3):
        ply = site.call(play_one, duel.pk)
    shows(page, ply)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Lobby").click()
    page.wait_for_url(f"{site.url}/")
    for _ in range(2):
        ply = site.call(play_one, duel.pk)
    page.go_back()
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
    url = f"{site.url}/games/{duel.public_id}/"
    context, page = page_for(browser, site, alice, url)
    page.wait_for_selector("#game[data-live] .board-svg")
    time.sleep(0.3)  # the socket is open
    quietly(monkeypatch)
    ply = site.call(play_one, duel.pk)
    time.sleep(0.3)
    assert page.evaluate("() => +document.querySelector('#game').dataset.ply") == ply - 1
    page.evaluate(f"() => {{ {event}; }}")
    shows(page, ply)
    context.close()


def test_a_move_made_before_the_socket_opened_is_shown(site, browser, duel, alice, monkeypatch):
    def connect_after_a_move(ws):
        quietly(monkeypatch)
        site.call(play_one, duel.pk)
        ws.connect_to_server()

    context, page = page_for(browser, site, alice, "about:blank")
    page.route_web_socket(f"**/ws/games/{duel.public_id}/", connect_after_a_move)
    page.goto(f"{site.url}/games/{duel.public_id}/")
    page.wait_for_selector("#game[data-live]")
    shows(page, 1)
    context.close()


def test_a_move_from_an_outdated_position_says_the_game_moved_on(
    site, browser, duel, alice, monkeypatch, screenshots
):
    """The page missed a move (no nudge reached it): placing a piece from it is not dropped in
    silence, the player reads that the game moved on and sees the position now."""
    url = f"{site.url}/games/{duel.public_id}/"
    context, page = page_for(browser, site, alice, url)
    page.wait_for_selector(".tray-piece")
    time.sleep(0.3)
    quietly(monkeypatch)
    ply = site.call(play_one, duel.pk)  # alice's own setup, from another tab say
    page.locator(".tray-piece[data-piece='1']").click()
    page.locator(".tray-tools button.primary").click()  # puts it down
    page.locator(".tray-tools button.primary").click()  # sends it
    message = page.locator("#game .game-message.error")
    message.wait_for(timeout=5000)
    assert "the game has moved on (you saw move 0, it is at 1)" in message.inner_text()
    shows(page, ply)
    page.screenshot(path=str(screenshots / "stale-move-refused-1280.png"))
    context.close()
