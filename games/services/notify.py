"""Queuing Web Push and webhook notices after a commit (games.jobs.push sends them): only for
players who have a subscribed device or a webhook, so that a move queues nothing more for the
others."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef

from accounts.models import User
from games import jobs
from games.models import NoticeSettings, PushSubscription


def devices_told(*, game_id: int, ply: int, user_ids: list[int], kind: str, seats=()) -> None:
    """After commit: a "turn", "invite" or "over" notice to each player's devices and webhook.
    ``seats``: the game's seats read with their players' ``pushes`` and ``hooks`` flags
    (``selectors.hot.locked_with_seats``, under a move's lock): no query then."""
    user_ids = [u for u in user_ids if u is not None]
    if not user_ids:
        return
    flagged = [s for s in seats if hasattr(s, "pushes")]
    if flagged:
        flags = [(s.user_id, s.pushes, s.hooks) for s in flagged if s.user_id in user_ids]
    else:
        # One query for both (it runs inside every move's transaction).
        flags = User.objects.filter(pk__in=user_ids).values_list(
            "pk",
            Exists(PushSubscription.objects.filter(user=OuterRef("pk"))),
            Exists(NoticeSettings.objects.filter(user=OuterRef("pk")).exclude(webhook_url="")),
        )
    pushed, hooked = set(), set()
    for user_id, push, hook in flags:
        if push:
            pushed.add(user_id)
        if hook:
            hooked.add(user_id)
    for user_id in user_ids:
        for task, wanted in (("send_push", pushed), ("send_webhook", hooked)):
            if user_id in wanted:
                transaction.on_commit(
                    lambda t=task, u=user_id: jobs.queue(t, game_id, ply, u, kind), robust=True
                )
