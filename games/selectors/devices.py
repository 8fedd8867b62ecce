"""A player's devices and chat webhook as the Notifications page shows them: how many devices
have notices on, and a channel whose last notice the address refused (games.jobs.push records
it), so that the player learns of it instead of waiting for notices that never come."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.models import DeviceNotice, PushSubscription, TurnNotice


@dataclass(frozen=True)
class Refusal:
    channel: str  # DeviceNotice.Channel
    when: datetime
    detail: str  # a reason of config.outbound, or the HTTP status the address answered


def device_count(user) -> int:
    return PushSubscription.objects.filter(user=user).count()


def refusals(user) -> list[Refusal]:
    """Each channel whose latest notice was refused (one sent since clears it)."""
    found = []
    for channel in DeviceNotice.Channel.values:
        last = (
            DeviceNotice.objects.filter(
                user=user,
                channel=channel,
                status__in=[TurnNotice.Status.SENT, TurnNotice.Status.REFUSED],
                sent_at__isnull=False,
            )
            .order_by("-sent_at", "-pk")
            .values_list("status", "sent_at", "detail")
            .first()
        )
        if last is not None and last[0] == TurnNotice.Status.REFUSED:
            found.append(Refusal(channel=channel, when=last[1], detail=last[2]))
    return found
