"""Websocket consumers: they forward nudges and hold no game state (STYLE.md habit 9).

Keepalive: the live client (static/js/live.js) sends ``{"type": "ping"}`` every 25 s on each
socket and the consumer answers ``{"type": "pong"}``. Proxies cut a silent connection (nginx's
``proxy_read_timeout`` is 60 s by default), and the client, hearing no pong, knows a socket is
dead before the next nudge is lost on it. Connections and disconnections are logged at INFO: a
reconnect is routine, not an application error.
"""

from __future__ import annotations

import logging

import redis.exceptions
from asgiref.sync import async_to_sync
from channels.generic.websocket import JsonWebsocketConsumer
from django.http import Http404

from games import metrics
from games.live import nudges, presence
from games.selectors.access import game_for_viewer

logger = logging.getLogger(__name__)

# What a pooled Redis connection that died with its server (a restart, a failover, a dropped
# link) raises on its next use; redis-py drops that connection from the pool, so one retry runs on
# a fresh one. Other channel layers (in memory) never raise these.
REDIS_DROPPED = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


class KeepaliveConsumer(JsonWebsocketConsumer):
    """Answers the client's pings; subclasses handle their other messages in ``receive_message``."""

    group = None
    socket = "other"  # the label of the open-websockets gauge (games.metrics)

    def receive_json(self, content, **kwargs):
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            try:
                self.send_json({"type": "pong"})
            except Exception:  # noqa: BLE001
                # The page went away between its ping and this pong (daphne: "Attempt to send on
                # a closed protocol"). Raising here would end the consumer before its disconnect
                # runs, and a closed page would go on counting as at the board (presence).
                logger.info("websocket closed before its pong: %s", self.group)
        else:
            self.receive_message(kind, content)

    def receive_message(self, kind, content) -> None:
        pass  # clients only listen; moves go through HTTP (one write path)

    def join(self, group: str) -> None:
        self.group = group
        try:
            async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        except REDIS_DROPPED:
            # The handshake's first Redis call after a Redis drop meets a dead pooled
            # connection and would answer 500; the retry finds Redis back (or fails for real).
            logger.warning("channel layer: Redis connection dropped, joining %s again", group)
            async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        self.accept()
        metrics.websocket_opened(self.socket)
        logger.info("websocket open: %s", group)

    def disconnect(self, code):
        if self.group:
            metrics.websocket_closed(self.socket)
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)
            logger.info("websocket closed: %s (code %s)", self.group, code)


class GameConsumer(KeepaliveConsumer):
    """``/ws/games/<id>/``: seated players and, for public games, spectators."""

    socket = "game"

    def connect(self):
        public_id = self.scope["url_route"]["kwargs"]["public_id"]
        try:
            game = game_for_viewer(public_id, self.scope.get("user")).game
        except Http404:
            self.close(code=4404)
            return
        self.join(nudges.game_group(game.public_id))
        # The ply the game is at as the socket opens: a page that missed a move while it had no
        # socket (rendered just before it, restored from a cache, a reconnect) catches up from
        # this, and a page that is current fetches nothing.
        self.send_json({"type": "game.changed", "ply": game.ply})

    def game_changed(self, event):
        self.send_json({"type": "game.changed", "ply": event["ply"]})

    def game_reset(self, event):
        self.send_json({"type": "game.reset", "ply": event["ply"]})

    def game_seats(self, event):
        self.send_json({"type": "game.seats"})

    def chat_posted(self, event):
        self.send_json({"type": "chat.posted"})

    def analysis_progress(self, event):
        counts = {k: event[k] for k in ("done", "total", "finished")}
        second = bool(event.get("second"))
        self.send_json({"type": "analysis.progress", **counts, "second": second})


class UserConsumer(KeepaliveConsumer):
    """``/ws/me/``: a signed-in user's own channel (turn notices) and presence: each ping says
    whether its page is visible and how long ago it had input (games.live.presence)."""

    socket = "user"

    def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            self.close(code=4401)
            return
        self.user_id = user.pk
        self.join(nudges.user_group(user.pk))

    def disconnect(self, code):
        if self.group:
            presence.page_closed(self.user_id, self.channel_name)
        super().disconnect(code)

    def receive_json(self, content, **kwargs):
        # The page's report first, then the pong (KeepaliveConsumer): a report is never lost to a
        # page that closed meanwhile.
        if isinstance(content, dict) and content.get("type") == "ping":
            active = content.get("active_ms_ago")
            if isinstance(active, bool) or not isinstance(active, (int, float)):
                active = None
            presence.page_report(
                self.user_id,
                self.channel_name,
                visible=content.get("visible") is True,
                active_ms_ago=active,
            )
        super().receive_json(content, **kwargs)

    def turn_notice(self, event):
        self.send_json({"type": "your.turn", "game": event["game"], "title": event["title"]})

    def seek_changed(self, event):
        message = {"type": "seek.changed", "game": event["game"], "title": event["title"]}
        self.send_json(message)


class TournamentConsumer(KeepaliveConsumer):
    """``/ws/tournaments/<id>/``: anyone on a tournament's page; told when its standings or
    rounds change (tournaments are public)."""

    socket = "tournament"

    def connect(self):
        self.join(nudges.tournament_group(int(self.scope["url_route"]["kwargs"]["tournament_id"])))

    def tournament_changed(self, event):
        self.send_json({"type": "tournament.changed"})


class LobbyConsumer(KeepaliveConsumer):
    """``/ws/lobby/``: anyone on the lobby; told when the tables looking for players change."""

    socket = "lobby"

    def connect(self):
        self.join(nudges.LOBBY_GROUP)

    def lobby_changed(self, event):
        self.send_json({"type": "lobby.changed"})
