"""A player's devices (Web Push subscriptions) and notice settings (games.jobs.push reads them):
the write path for the Settings page's "Notifications"."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from games import notices
from games.models import NoticeSettings, PushSubscription
from games.services.errors import GameError

B64U = re.compile(r"^[A-Za-z0-9_-]+=*$")


def device_subscribe(*, user, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Remember a browser's push subscription for ``user`` (the same endpoint again: updated,
    and moved to ``user`` if another account had it on a shared device)."""
    parts = urlsplit(endpoint or "")
    secure = parts.scheme == "https" or (parts.scheme == "http" and settings.WEBHOOK_ALLOW_HTTP)
    if not secure or not parts.netloc or len(endpoint) > 1000:
        raise GameError(_("the push subscription's endpoint must be an https address"))
    if not (B64U.match(p256dh or "") and B64U.match(auth or "")) or len(p256dh) > 200:
        raise GameError(_("the push subscription's keys are missing or malformed"))
    with transaction.atomic():
        device, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
        )
    return device


def device_unsubscribe(*, user, endpoint: str) -> int:
    """Forget one of ``user``'s devices; returns how many were forgotten (0 or 1)."""
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def webhook_refusal(url: str) -> str:
    """Why a webhook URL is refused ("" when it is fine): https only (http where settings allow
    it, tests and `make run`)."""
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme == "https" or (parts.scheme == "http" and settings.WEBHOOK_ALLOW_HTTP):
        return "" if parts.netloc else _("the webhook URL has no host")
    return _("the webhook URL must start with https://")


def notice_settings_save(*, user, boxes: dict[str, bool], webhook_url: str):
    """Save which notices ``user`` wants (``boxes``: a box of games.notices' ``choices`` ->
    ticked; a box left out keeps its value) and their webhook."""
    refusal = webhook_refusal(webhook_url)
    if refusal:
        raise GameError(refusal)
    unknown = set(boxes) - set(notices.choices())
    if unknown:
        raise ValueError(f"no such notice settings: {sorted(unknown)}")
    row, _created = NoticeSettings.objects.update_or_create(
        user=user, defaults={**{k: bool(v) for k, v in boxes.items()}, "webhook_url": webhook_url}
    )
    return row
