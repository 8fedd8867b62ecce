"""Events without polling: ``/api/v1/stream/me`` and ``/api/v1/stream/games/<id>``, newline-
delimited JSON served by the ASGI server (daphne), one line per event.

A stream listens to the channel layer's groups the pages already use (``games.live.nudges``:
``user-<id>`` and ``game-<public id>``). A nudge says only *that* something changed (STYLE.md
habit 9), so on each one the stream reads again through the selectors, from the reader's seat,
and writes what is new: the same reads as the JSON endpoints (api.reads), so a stream shows
nothing the reader's page would not. A line ``{"type": "keepalive"}`` goes out after
KEEPALIVE_SECONDS of silence (proxies cut a silent connection), and each keepalive reads again
too, so a nudge lost in a Redis blip costs at most that long.

The token is checked when the stream opens and again before every line: a revoked token or a
deactivated player ends the stream with a last line ``{"type": "closed", ...}``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import contextmanager

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.handlers.asgi import ASGIRequest
from django.db import OperationalError, connection, transaction
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _

from api import reads
from api.auth import ApiError
from api.models import AccessToken
from games.live.nudges import game_group, user_group
from games.selectors.access import game_for_viewer

KEEPALIVE_SECONDS = 20.0
CONTENT_TYPE = "application/x-ndjson"


@contextmanager
def one_snapshot():
    """On PostgreSQL, a transaction whose statements all see the same committed state
    (REPEATABLE READ: its default, READ COMMITTED, gives each statement its own). SQLite (the
    embedded default and the tests' shared in-memory database) reads statement by statement as
    before: a read transaction there holds table locks that make a writer in another thread
    fail at once instead of waiting. Inside a caller's transaction the caller's isolation
    stands."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


async def read(function, *args):
    """``function(*args)`` on a database thread (channels' ``database_sync_to_async``: old
    connections closed around it, as a consumer's reads are). SQLite's shared in-memory
    database (the tests') answers a read that meets a write's table lock with an error
    instead of waiting for it: the read is tried again, a few times, after a moment."""
    for attempt in range(READ_TRIES):
        try:
            return await database_sync_to_async(function)(*args)
        except OperationalError as exc:
            if "locked" not in str(exc) or attempt == READ_TRIES - 1:
                raise
            await asyncio.sleep(0.02 * (attempt + 1))
    raise AssertionError("unreachable")


READ_TRIES = 8


def line(event: dict) -> bytes:
    return (json.dumps(event, separators=(",", ":"), default=str) + "\n").encode()


class Listener:
    """One channel of the channel layer, in the groups it is told to join."""

    def __init__(self):
        self.layer = get_channel_layer()
        self.channel = ""
        self.groups: set[str] = set()

    async def join(self, groups: set[str]) -> None:
        """Be in exactly ``groups`` from now on."""
        if not self.channel:
            self.channel = await self.layer.new_channel("api-stream.")
        for group in groups - self.groups:
            await self.layer.group_add(group, self.channel)
        for group in self.groups - groups:
            await self.layer.group_discard(group, self.channel)
        self.groups = set(groups)

    async def next(self, timeout: float) -> dict | None:
        """The next nudge, or None after ``timeout`` seconds of silence."""
        try:
            return await asyncio.wait_for(self.layer.receive(self.channel), timeout)
        except TimeoutError:
            return None

    async def close(self) -> None:
        for group in self.groups:
            await self.layer.group_discard(group, self.channel)
        self.groups = set()


def _still_live(token_id: int) -> bool:
    return AccessToken.objects.filter(
        pk=token_id, revoked_at__isnull=True, user__is_active=True
    ).exists()


def _closed() -> dict:
    return {"type": "closed", "detail": _("the token was revoked or its account closed")}


def streaming(request, events: AsyncIterator[bytes]) -> StreamingHttpResponse:
    if not isinstance(request, ASGIRequest):
        # A WSGI server would read an endless stream to its end before answering.
        raise ApiError(
            501,
            _(
                "the streams are served by the site's ASGI server (daphne): send /api/v1/stream/ "
                "there"
            ),
            "needs_asgi",
        )
    response = StreamingHttpResponse(events, content_type=CONTENT_TYPE)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on as it comes
    return response


# -- my events ---------------------------------------------------------------------------------


def me_snapshot(user) -> dict:
    """The facts of My games the stream compares between two reads (the first page of
    selectors.lists.my_games, as the JSON endpoint reads it), all read from one snapshot of the
    database: the list reads the history and the current games in two statements, and a game
    that ends between them would be in neither, read as "gone" instead of "over"."""
    with one_snapshot():
        page = reads.my_games_out(user)
    current = {row["id"]: row for key in ("your_turn", "waiting", "open") for row in page[key]}
    return {
        "your_turn": {row["id"]: row["ply"] for row in page["your_turn"]},
        "playing": {row["id"] for key in ("your_turn", "waiting") for row in page[key]},
        "current": current,
        "finished": {row["id"]: row for row in page["finished"]},
    }


def me_events(before: dict | None, now: dict) -> list[dict]:
    """What changed for the player between two snapshots: a challenge to them, a game started,
    their turn, a game over (or a challenge gone: declined, cancelled)."""
    if before is None:
        return [
            {
                "type": "hello",
                "your_turn": [{"game": g, "ply": p} for g, p in now["your_turn"].items()],
                "challenges": [g for g, row in now["current"].items() if row["invited"]],
            }
        ]
    out = []
    for game, row in now["current"].items():
        if row["invited"] and game not in before["current"]:
            out.append({"type": "challenge", "game": game, "from": row["creator"], **_about(row)})
    for game in now["playing"] - before["playing"]:
        out.append({"type": "game_started", "game": game, **_about(now["current"][game])})
    for game, ply in now["your_turn"].items():
        if before["your_turn"].get(game) != ply:
            out.append({"type": "your_turn", "game": game, "ply": ply})
    for game in set(before["current"]) - set(now["current"]):
        over = now["finished"].get(game)
        if over is not None and over["finished"]:
            out.append(
                {
                    "type": "game_over",
                    "game": game,
                    "my_place": over["my_place"],
                    "winners": over["winners"],
                }
            )
        else:
            out.append({"type": "game_gone", "game": game})  # cancelled, declined, left
    return out


def _about(row: dict) -> dict:
    return {"mode_name": row["mode_name"], "players": row["players"], "seats": row["seats"]}


async def me_stream(token: AccessToken) -> AsyncIterator[bytes]:
    user = token.user
    listener = Listener()
    snapshot = None
    try:
        await listener.join({user_group(user.pk)})
        while True:
            if not await read(_still_live, token.pk):
                yield line(_closed())
                return
            now = await read(me_snapshot, user)
            await listener.join({user_group(user.pk)} | {game_group(g) for g in now["current"]})
            for event in me_events(snapshot, now):
                yield line(event)
            snapshot = now
            # Every nudge and every silence reads again; a keepalive line only after silence.
            if await listener.next(KEEPALIVE_SECONDS) is None:
                yield line({"type": "keepalive"})
    finally:
        await listener.close()


# -- a game's events ---------------------------------------------------------------------------


def game_reads(public_id: str, user, after: int) -> tuple[dict, list[dict]]:
    """The game from the reader's seat and its actions after ply ``after``, from one snapshot
    (a move committed between the two reads would otherwise be sent twice)."""
    with one_snapshot():
        viewed = game_for_viewer(public_id, user)
        return reads.game_out(viewed, user), reads.actions_after(viewed.game, after)


def chat_after(public_id: str, user, last: int) -> list[dict]:
    viewed = game_for_viewer(public_id, user)
    return [row for row in reads.chat_out(viewed, user) if row["id"] > last]


async def game_stream(
    token: AccessToken, public_id: str, since_ply: int | None
) -> AsyncIterator[bytes]:
    """The game's actions as they happen (``action`` lines: ply, seat, public events, as the
    move log shows them), each batch followed by the game from the reader's seat (a ``game``
    line, as ``GET /games/<id>`` answers); ``since_ply``: first the actions after that ply.
    A take back sends ``reset`` (the ply the game went back to) before the older position;
    a chat line the reader may read, ``chat``."""
    user = token.user
    listener = Listener()
    try:
        await listener.join({game_group(public_id)})  # before the first read: no move missed
        seen = since_ply  # the last ply the client has (None: nothing yet)
        chat_seen = await read(_last_chat_id, public_id, user)
        nudge: dict | None = {"type": "open"}
        while True:
            if not await read(_still_live, token.pk):
                yield line(_closed())
                return
            kind = nudge["type"] if nudge is not None else None
            if kind == "chat.posted":
                rows = await read(chat_after, public_id, user, chat_seen)
                for row in rows:
                    yield line({"type": "chat", **row})
                    chat_seen = max(chat_seen, row["id"])
            elif kind in (None, "open", "game.changed", "game.reset", "game.seats"):
                if kind == "game.reset":
                    yield line({"type": "reset", "ply": nudge["ply"]})
                    seen = min(seen, nudge["ply"]) if seen is not None else None
                after = seen if seen is not None else NO_ACTIONS
                game, actions = await read(game_reads, public_id, user, after)
                for action in actions:
                    yield line({"type": "action", **action})
                if kind is not None or game["ply"] != seen:
                    yield line({"type": "game", **game})
                else:
                    yield line({"type": "keepalive"})  # silence, and nothing new on a re-read
                seen = game["ply"]
            nudge = await listener.next(KEEPALIVE_SECONDS)
    finally:
        await listener.close()


NO_ACTIONS = 1 << 30  # "after" a ply no game reaches: the first read without since_ply


def _last_chat_id(public_id: str, user) -> int:
    return max((row["id"] for row in chat_after(public_id, user, -1)), default=0)
