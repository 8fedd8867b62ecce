"""A player's devices and chat webhook as the Notifications page shows them: how many devices
have notices on, and a channel whose last notice the address refused (games.jobs.push records
it), so that the player learns of it instead of waiting for notices that never come."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from games.models import DeviceNotice, NoticeTest, PushSubscription, TurnNotice


@dataclass(frozen=True)
class Refusal:
    channel: str  # DeviceNotice.Channel
    when: datetime
    detail: str  # a reason of config.outbound, or the HTTP status the address answered


def device_count(user) -> int:
    return PushSubscription.objects.filter(user=user).count()


@dataclass(frozen=True)
class Device:
    """One device as the page lists it: never its endpoint or keys (capabilities), only the
    host of its push service."""

    id: int
    label: str
    push_service: str
    added: datetime
    enabled: bool
    last_test: NoticeTest | None


def devices(user) -> list[Device]:
    """The player's devices, oldest first, each with its latest test notice."""
    rows = list(PushSubscription.objects.filter(user=user).order_by("pk"))
    latest: dict[int, NoticeTest] = {}
    for test in NoticeTest.objects.filter(device__in=rows).order_by("created_at", "pk"):
        latest[test.device_id] = test
    return [
        Device(
            id=d.pk,
            label=d.label,
            push_service=urlsplit(d.endpoint).hostname or "",
            added=d.created_at,
            enabled=d.enabled,
            last_test=latest.get(d.pk),
        )
        for d in rows
    ]


def last_test(user, channel: str) -> NoticeTest | None:
    """The player's latest test notice on ``channel``."""
    return NoticeTest.objects.filter(user=user, channel=channel).order_by("-created_at").first()


def test_notice(user, test_id: int) -> NoticeTest | None:
    """The player's test notice ``test_id`` (None for another player's)."""
    return NoticeTest.objects.filter(user=user, pk=test_id).first()


def refusals(user) -> list[Refusal]:
    """Each channel whose latest notice was refused (one sent since clears it, and so does a
    test notice that went through since)."""
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
        if last is None or last[0] != TurnNotice.Status.REFUSED:
            continue
        since = NoticeTest.objects.filter(
            user=user, channel=channel, status=NoticeTest.Status.SENT, finished_at__gt=last[1]
        )
        if not since.exists():
            found.append(Refusal(channel=channel, when=last[1], detail=last[2]))
    return found
