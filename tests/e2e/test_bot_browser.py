"""A person in Chromium plays against a bot account driven by the GTP bridge
(``python -m games.bots gtp``, its own process, with the stand-in GTP engine of
tests/api/test_bridge.py): each of her moves is posted from her page the way its buttons post
(htmx, the page's CSRF header), reaches the bridge through the API's stream, and the bridge's
answer comes back to the same page through the websocket nudge, without a reload. Her page names
the bot's seat "robo (bot)".

The bridge's streams are endless requests served beside the page's, which only PostgreSQL allows
here (the in-memory SQLite database serves one request at a time).
"""

from __future__ import annotations

import time

import pytest

from api import tokens
from api.bots import bot_account_make
from games import services
from games.models import Action, Game, Seat
from games.services import SeatSpec
from tests.support.bridge import human_move, start_bridge
from tests.support.browser import page_for
from tests.support.needs import missing

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = 3  # the person's moves, each answered by the bot
WAIT = 20_000  # ms

# Posts one decision the way the page's own buttons do (htmx, swapping #game).
POST = """([url, action, ply]) => {
  const headers = JSON.parse(document.body.getAttribute('hx-headers') || '{}');
  htmx.ajax('POST', url, {target: '#game', swap: 'outerHTML', headers: headers,
                          values: {action: JSON.stringify(action), ply: String(ply)}});
  return true;
}"""
SHOWS_PLY = "ply => +document.querySelector('#game').dataset.ply === ply"


def challenge_the_bot(alice) -> Game:
    return services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        rated=False,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="robo")],
    )


def state_of(game_id: int) -> tuple[str, int, int | None]:
    game = Game.objects.get(pk=game_id)
    return game.status, game.ply, game.to_move_seat


@pytest.mark.timeout(120)
def test_a_person_in_the_browser_plays_the_bridge(site, browser, alice, make_user, screenshots):
    from django.db import connection

    if connection.vendor != "postgresql":
        missing("the bridge's streams are served beside the page's requests: PostgreSQL")
    robo = site.call(make_user, "robo")
    site.call(lambda: bot_account_make(user=robo, confirm="robo"))
    secret = site.call(lambda: tokens.token_issue(user=robo, name="b", scopes=["bot"]).secret)
    bridge = start_bridge(site.url, secret, seed=3)
    try:
        game = site.call(challenge_the_bot, alice)
        deadline = time.monotonic() + 30
        while site.call(state_of, game.pk)[0] != Game.Status.ACTIVE:
            assert bridge.poll() is None and time.monotonic() < deadline, "not accepted"
            time.sleep(0.05)
        url = f"{site.url}/games/{game.public_id}/"
        act = f"/games/{game.public_id}/act/"
        context, page = page_for(browser, site, alice, url)
        page.wait_for_selector("#game[data-live]")
        page.evaluate("() => { window.__sameDocument = true; }")  # gone if the page reloads
        assert "robo (bot)" in page.locator("#game").inner_text()
        for _ in range(MOVES):
            _status, ply, seat = site.call(state_of, game.pk)
            assert seat == 0  # the person's turn: the bot has answered
            page.wait_for_function(SHOWS_PLY, arg=ply, timeout=WAIT)
            action = site.call(lambda: human_move(Game.objects.get(pk=game.pk)))
            page.evaluate(POST, [act, action, ply])
            # Her move, then the bot's answer, on the page by themselves.
            page.wait_for_function(SHOWS_PLY, arg=ply + 2, timeout=WAIT)
        page.screenshot(path=str(screenshots / "bot-bridge-game-1280.png"))
        assert page.evaluate("() => window.__sameDocument === true")
        log = page.locator(".move-log").inner_text()
        assert "robo (bot)" in log
        context.close()
        context, page = page_for(browser, site, alice, url, viewport=(360, 740))
        page.wait_for_selector("#game[data-live]")
        page.locator(".colour-row").first.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / "bot-bridge-game-360.png"))
        assert "robo (bot)" in page.locator("#game").inner_text()
        context.close()
    finally:
        bridge.kill()
        out = bridge.communicate()[0]
        print(out)
    keys = site.call(
        lambda: list(Action.objects.filter(game=game, seat=1).values_list("key", flat=True))
    )
    assert len(keys) == MOVES and all(key.endswith("-gtp") for key in keys)  # the engine's
