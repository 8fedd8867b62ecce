"""Queuing Web Push and webhook notices after a commit (games.jobs.push sends them): only for
players who have a subscribed device or a webhook, so that a move queues nothing more for the
others."""

from __future__ import annotations

from django.db import transaction

from games import jobs
from games.models import NoticeSettings, PushSubscription


def devices_told(*, game_id: int, ply: int, user_ids: list[int], kind: str) -> None:
    """After commit: a "turn", "invite" or "over" notice to each player's devices and webhook."""
    user_ids = [u for u in user_ids if u is not None]
    if not user_ids:
        return
    pushed = set(
        PushSubscription.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True)
    )
    hooked = set(
        NoticeSettings.objects.filter(user_id__in=user_ids)
        .exclude(webhook_url="")
        .values_list("user_id", flat=True)
    )
    for user_id in user_ids:
        for task, wanted in (("send_push", pushed), ("send_webhook", hooked)):
            if user_id in wanted:
                transaction.on_commit(
                    lambda t=task, u=user_id: jobs.queue(t, game_id, ply, u, kind), robust=True
                )
