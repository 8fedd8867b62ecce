"""Shared test helpers (moved from tests/e2e/test_live_page.py)."""

from __future__ import annotations

from django.conf import settings
from django.test import Client


def session_of(site, user) -> str:
    with site.locked():
        client = Client()
        client.force_login(user)
        return client.cookies[settings.SESSION_COOKIE_NAME].value


def page_for(browser, site, user, url: str, *, viewport=(1280, 900)):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.add_cookies([{"name": "sessionid", "value": session_of(site, user), "url": site.url}])
    page = context.new_page()
    page.goto(url)
    return context, page


# Run in each document of a page before its own scripts: every message a socket of the page
# receives is noted with the socket's path (``window.heard``).
EAR = """
window.heard = [];
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      window.heard.push({ path: new URL(this.url).pathname, message: JSON.parse(event.data) });
    });
  }
};
"""


def wait_game_socket(page, game, timeout: float = 60_000) -> None:
    """Until the game page's socket is open and has had the server's answer to its opening
    (a ``game.changed``): moves from then on reach the page through nudges. The page must
    have been opened after ``page.add_init_script(EAR)``."""
    page.wait_for_function(
        "path => window.heard.some(h => h.path === path && h.message.type === 'game.changed')",
        arg=f"/ws/games/{game.public_id}/",
        timeout=timeout,
    )
