"""Websocket nudges (STYLE.md habit 9). A nudge says *that* something changed,
never *what*: each page re-fetches its own partials through the views, which apply engine.view.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise, lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.selectors.names import game_name


def game_group(public_id: str) -> str:
    return f"game-{public_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


LOBBY_GROUP = "lobby"  # every open lobby page: the tables looking for players changed


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()
# Nudges in flight at once, per process: the rest wait their turn on the loop. redis-py's asyncio
# pool (the channel layer's) holds at most 100 connections and refuses the 101st at once
# ("Too many connections"): a burst of nudges larger than that (a Redis stall with moves still
# coming in) lost the excess. Waiting costs them a few milliseconds; a refused one was lost.
MAX_IN_FLIGHT = 50
# Nudges that may wait for the gate; past that (a long Redis stall) a nudge is dropped and logged
# rather than held: its page resyncs on its own, and a backlog would only grow meanwhile.
MAX_WAITING = 2000
_gate: asyncio.Semaphore | None = None
_waiting = 0  # nudges waiting for the gate (read and written on the loop's thread only)


def _nudge_loop() -> tuple[asyncio.AbstractEventLoop, asyncio.Semaphore]:
    """One event loop per process, in a thread, for sending nudges through Redis, with the gate
    that keeps at most MAX_IN_FLIGHT of them in flight.

    async_to_sync would make a new loop for every nudge, and the Redis channel layer a new
    connection with it (~10-20 ms a move, bench/LOAD_RESULTS.md); this loop keeps them.
    """
    global _loop, _gate
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            _gate = asyncio.Semaphore(MAX_IN_FLIGHT)  # bound to the loop at its first wait
            threading.Thread(target=_loop.run_forever, name="nudges", daemon=True).start()
        return _loop, _gate


def _forget_loop() -> None:
    global _loop
    _loop = None  # a forked child has the loop but not its thread: it starts its own


os.register_at_fork(after_in_child=_forget_loop)

SEND_TIMEOUT = 2.0  # seconds a nudge may take before it is given up (it runs after a commit)

log = logging.getLogger(__name__)


async def _send_twice(layer, group: str, message: dict, gate: asyncio.Semaphore) -> None:
    """Tried twice: after a Redis blip the first attempt may fail on a dead pooled connection,
    which channels_redis then replaces. A nudge that still fails is logged: the move it tells of
    is committed whatever happens here, and the pages' keepalive and resync make it up. At most
    MAX_IN_FLIGHT are sent at once (``gate``); the time a nudge waits for its turn does not
    count against its SEND_TIMEOUT; past MAX_WAITING waiting, it is dropped and logged."""
    global _waiting
    if gate.locked() and _waiting >= MAX_WAITING:
        log.warning("nudge to %s dropped: %d nudges already wait for Redis", group, _waiting)
        return
    _waiting += 1
    try:
        await gate.acquire()
    finally:
        _waiting -= 1
    try:
        for attempt in (1, 2):
            try:
                await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT)
                return
            except Exception:
                if attempt == 2:
                    log.exception("nudge to %s not sent", group)
    finally:
        gate.release()


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if type(layer).__module__.startswith("channels_redis"):
        # Handed to the nudge loop and not waited for: the answer to a move does not
        # wait for Redis, and the nudge leaves within a millisecond all the same.
        loop, gate = _nudge_loop()
        asyncio.run_coroutine_threadsafe(_send_twice(layer, group, message, gate), loop)
    else:  # the in-memory layer lives on its consumers' loop: stay on the caller's side
        async_to_sync(layer.group_send)(group, message)


def _send_all(messages: list[tuple[str, dict]]) -> None:
    """``_send`` for many groups at once: one hand-over to the nudge loop for all of them (a
    sweep of "Play now" may tell thousands of players that their table changed)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    if type(layer).__module__.startswith("channels_redis"):
        loop, gate = _nudge_loop()

        async def send_each():
            # A slice at a time: the batch never fills the gate's waiting room (MAX_WAITING),
            # where the nudges of moves would then be dropped.
            for start in range(0, len(messages), MAX_IN_FLIGHT):
                part = messages[start : start + MAX_IN_FLIGHT]
                await asyncio.gather(*(_send_twice(layer, g, m, gate) for g, m in part))

        asyncio.run_coroutine_threadsafe(send_each(), loop)
    else:
        for group, message in messages:
            async_to_sync(layer.group_send)(group, message)


def game_changed(public_id: str, ply: int) -> None:
    """Everyone watching the game: fetch your view again (ply lets a client spot a gap)."""
    _send(game_group(public_id), {"type": "game.changed", "ply": ply})


def game_reset(public_id: str, ply: int) -> None:
    """A take back moved the game back to ``ply``: show that position even though it is older
    than the one on the page (games.services.takeback)."""
    _send(game_group(public_id), {"type": "game.reset", "ply": ply})


def seats_changed(public_id: str) -> None:
    """The waiting room: a seat was taken or given up (or the game started): refetch."""
    _send(game_group(public_id), {"type": "game.seats"})


def lobby_changed() -> None:
    """Every lobby page: the list of tables looking for players changed (refetch it)."""
    _send(LOBBY_GROUP, {"type": "lobby.changed"})


def seeks_changed(user_ids: list[int]) -> None:
    """Players waiting through "Play now": their tables changed (each page refetches its own)."""
    message = {"type": "seek.changed", "game": "", "title": ""}
    _send_all([(user_group(user_id), message) for user_id in user_ids])


def seek_changed(user_id: int, public_id: str = "", title: str | Promise = "") -> None:
    """A player waiting through "Play now": their table changed (refetch it), or (``public_id``)
    it became that game: the waiting page opens it, any other page shows ``title``."""
    if isinstance(title, Promise):
        with translation.override(_language_of(user_id)):
            title = str(title)
    message = {"type": "seek.changed", "game": public_id, "title": title}
    _send(user_group(user_id), message)


def tournament_changed(tournament_id: int) -> None:
    """Every page of the tournament: a registration, a result or a round (refetch)."""
    _send(tournament_group(tournament_id), {"type": "tournament.changed"})


def chat_posted(public_id: str) -> None:
    """A chat line was posted: each page fetches the lines its viewer may read."""
    _send(game_group(public_id), {"type": "chat.posted"})


def analysis_progress(
    public_id: str, done: int, total: int, *, finished: bool, second: bool = False
) -> None:
    """The game's analysis judged ``done`` of ``total`` decisions; ``second``: every
    decision is judged and the biggest drops are being judged again (how many is not known in
    advance); ``finished``: it is complete (pages fetch it). Counts only: the analysis itself is
    fetched through the views."""
    message = {
        "type": "analysis.progress",
        "done": done,
        "total": total,
        "finished": finished,
        "second": second,
    }
    _send(game_group(public_id), message)


def your_turn(
    user_id: int, public_id: str, title: str | Promise, language: str | None = None
) -> None:
    """A signed-in player on any page: it is your turn in this game (or news about an invitation).

    ``title`` is shown as it is on whatever page the player has open, so it is put into words in
    *their* language (``User.email_language``), not the language of whoever's move or click
    sent it: pass a lazy text (the ``*_title`` helpers below, or ``format_lazy`` over a
    ``gettext_lazy`` msgid), which is rendered here. A plain ``str`` goes out unchanged.
    ``language`` (``User.email_language``), where the caller has the user, spares a query."""
    if isinstance(title, Promise):
        with translation.override(language or _language_of(user_id)):
            title = str(title)
    _send(user_group(user_id), {"type": "turn.notice", "game": public_id, "title": title})


def _language_of(user_id: int) -> str:
    user = User.objects.filter(pk=user_id).only("language").first()
    return user.email_language() if user is not None else settings.LANGUAGE_CODE


# The notices' titles, lazy: ``your_turn`` renders them in the recipient's language. The game is
# named as its page names it (``selectors.names.game_name``: "alice vs bob · Shuffle"), in that
# language too; ``seats`` (with their users), where the caller has them, spare a query.
def turn_title(game, seats=None) -> Promise:
    name = lazy(lambda: game_name(game, seats), str)()
    return format_lazy(gettext_lazy("Your turn: {game}"), game=name)


def matched_title(game, seats=None) -> Promise:
    name = lazy(lambda: game_name(game, seats), str)()
    return format_lazy(gettext_lazy("Your game has started: {game}"), game=name)


def round_title(tournament: str, number: int, game, seats=None) -> Promise:
    name = lazy(lambda: game_name(game, seats), str)()
    return format_lazy(
        gettext_lazy("{tournament}, round {round}: your game has started ({game})"),
        tournament=tournament,
        round=number,
        game=name,
    )


def invited_title(inviter) -> Promise:
    return format_lazy(gettext_lazy("{name} invites you to a game"), name=inviter)


def accepted_title(player) -> Promise:
    return format_lazy(gettext_lazy("{name} accepted your invitation"), name=player)


def declined_title(player) -> Promise:
    return format_lazy(
        gettext_lazy("{name} declined your invitation: their seat is now for the invite link"),
        name=player,
    )


def takeback_title(player) -> Promise:
    return format_lazy(gettext_lazy("{name} asks to take back their last move"), name=player)
