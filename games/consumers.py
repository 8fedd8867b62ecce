"""Websocket consumers: they forward nudges and hold no game state (STYLE.md habit 9)."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.generic.websocket import JsonWebsocketConsumer
from django.http import Http404

from games import notifications
from games.selectors import game_for_viewer


class GameConsumer(JsonWebsocketConsumer):
    """``/ws/games/<id>/``: seated players and, for public games, spectators."""

    group = None

    def connect(self):
        public_id = self.scope["url_route"]["kwargs"]["public_id"]
        try:
            game, _seat = game_for_viewer(public_id, self.scope.get("user"))
        except Http404:
            self.close(code=4404)
            return
        self.group = notifications.game_group(game.public_id)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()

    def disconnect(self, code):
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive_json(self, content, **kwargs):
        pass  # clients only listen; moves go through HTTP (one write path)

    def game_changed(self, event):
        self.send_json({"type": "game.changed", "ply": event["ply"]})


class UserConsumer(JsonWebsocketConsumer):
    """``/ws/me/``: a signed-in user's own channel (turn notices) and presence."""

    group = None

    def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            self.close(code=4401)
            return
        self.user_id = user.pk
        self.group = notifications.user_group(user.pk)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        notifications.mark_online(user.pk)

    def disconnect(self, code):
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)
            notifications.mark_offline(self.user_id)

    def receive_json(self, content, **kwargs):
        if content.get("type") == "alive":
            notifications.mark_online(self.user_id)

    def turn_notice(self, event):
        self.send_json({"type": "your.turn", "game": event["game"], "title": event["title"]})
