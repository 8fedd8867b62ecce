"""Who is at the board: a turn email waits for a player who is away.

A page of the site that is open is not enough: players leave a tab open and walk away. A player
is *attentive* while one of their pages is visible (the Page Visibility API) and has had input
(a key, a click, a touch, the page loaded or brought to the front) in the last
``ATTENTION_SECONDS``. Each page's user socket (static/js/live.js) reports this with every ping,
every 25 s, at once when it opens, when the page is hidden or shown, and on the first input after
a quiet spell: ``{"type": "ping", "visible": true, "active_ms_ago": 1200}``.

This module keeps, per user and per socket, the moment until which that page counts as attentive
("attentive until"): a visible page with input ``a`` ms ago until ``now - a + ATTENTION_SECONDS``
(it stays so only if the page keeps reporting input), a hidden or closed page no later than the
moment it was hidden or closed. The user is the sum of their pages, on every tab and device:
closing one of two tabs leaves the other one counting.

The map of one user's sockets is read, changed and written back as one cache entry: two pages
reporting in the same instant may lose one report, which the next ping (25 s) writes again.
"""

from __future__ import annotations

import time

from django.core.cache import cache

ATTENTION_SECONDS = 180  # "input in the last few minutes"
# An entry is kept this long after its page stopped counting, so that a turn email sent a grace
# period after the turn began can still ask whether the player was at the board since then.
KEEP_SECONDS = 3600


def _key(user_id: int) -> str:
    return f"attention:{user_id}"


def _read(user_id: int) -> dict[str, float]:
    pages = cache.get(_key(user_id))
    return pages if isinstance(pages, dict) else {}


def _write(user_id: int, pages: dict[str, float], now: float) -> None:
    pages = {socket: until for socket, until in pages.items() if until > now - KEEP_SECONDS}
    cache.set(_key(user_id), pages, KEEP_SECONDS + ATTENTION_SECONDS)


def page_report(
    user_id: int,
    socket: str,
    *,
    visible: bool,
    active_ms_ago: float | None,
    now: float | None = None,
) -> float:
    """One page's report; returns the moment until which it counts as attentive."""
    now = time.time() if now is None else now
    pages = _read(user_id)
    before = pages.get(socket, 0.0)
    if visible and active_ms_ago is not None and active_ms_ago >= 0:
        until = now - active_ms_ago / 1000 + ATTENTION_SECONDS
    else:  # hidden, or a page that does not say: it counts no longer, however it counted before
        until = min(before, now)
    pages[socket] = until
    _write(user_id, pages, now)
    return until


def page_closed(user_id: int, socket: str, *, now: float | None = None) -> None:
    """The page's socket closed (the tab closed, the page left): it counts no longer."""
    now = time.time() if now is None else now
    pages = _read(user_id)
    if socket in pages:
        pages[socket] = min(pages[socket], now)
        _write(user_id, pages, now)


def attentive_until(user_id: int) -> float:
    """The latest moment until which one of the user's pages counted as attentive (0: never)."""
    return max(_read(user_id).values(), default=0.0)


def is_attentive(user_id: int, *, since: float | None = None) -> bool:
    """Whether the user is at the board now or, with ``since`` (a timestamp), was at any moment
    since then: a turn they have seen on the board needs no email."""
    moment = time.time() if since is None else since
    return attentive_until(user_id) >= moment


def forget(user_id: int) -> None:
    cache.delete(_key(user_id))
