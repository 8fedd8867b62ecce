"""A player's devices (Web Push subscriptions) and notice settings (games.jobs.push reads them):
the write path for the Settings page's "Notifications"."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from config import outbound
from games import jobs, notices
from games.models import DeviceNotice, NoticeSettings, NoticeTest, PushSubscription
from games.selectors import vapid
from games.services.errors import Conflict, GameError, NotFound, TooMany

B64U = re.compile(r"^[A-Za-z0-9_-]+=*$")
# A player's devices with notices on: each notice goes to all of them at once
# (games.jobs.push), so an account with hundreds would hold a worker with hundreds of requests.
MAX_DEVICES = 10


def address_refusal(url: str, what: str) -> str:
    """Why a player's webhook or push endpoint may not be called ("" when it may): the same check
    the worker makes before it sends (config/outbound.py), said when the address is saved
    rather than found at the first notice. ``what``: "webhook" or "push"."""
    reason = outbound.refusal(url)
    if reason == outbound.PRIVATE:
        if what == "webhook":
            return _("the webhook URL must be an address on the public internet")
        return _("the push subscription's endpoint must be an address on the public internet")
    if reason == outbound.UNKNOWN:
        if what == "webhook":
            return _("the webhook URL's host name does not resolve to any address")
        return _("the push subscription's endpoint's host name does not resolve to any address")
    return ""


def device_subscribe(
    *, user, endpoint: str, p256dh: str, auth: str, label: str = ""
) -> PushSubscription:
    """Remember a browser's push subscription for ``user`` (the same endpoint again: its keys
    updated). A device belongs to the account that turned it on: another account sending the
    same endpoint (which it could only know by reading it off that browser) is refused until
    the first turns it off, so that nobody takes over or deletes another player's device."""
    parts = urlsplit(endpoint or "")
    secure = parts.scheme == "https" or (parts.scheme == "http" and settings.WEBHOOK_ALLOW_HTTP)
    if not secure or not parts.netloc or len(endpoint) > 1000:
        raise GameError(_("the push subscription's endpoint must be an https address"))
    fields = PushSubscription._meta
    too_long = len(p256dh or "") > fields.get_field("p256dh").max_length or (
        len(auth or "") > fields.get_field("auth").max_length
    )
    if not (B64U.match(p256dh or "") and B64U.match(auth or "")) or too_long:
        raise GameError(_("the push subscription's keys are missing or malformed"))
    if refusal := address_refusal(endpoint, "push"):
        raise GameError(refusal)
    with transaction.atomic():
        # The player's row serialises two subscriptions of theirs (the count below).
        User.objects.select_for_update().filter(pk=user.pk).first()
        device = PushSubscription.objects.filter(endpoint=endpoint).first()
        if device is not None and device.user_id != user.pk:
            raise Conflict(_another_account())
        if device is None and PushSubscription.objects.filter(user=user).count() >= MAX_DEVICES:
            raise TooMany(
                _(
                    "notifications are on for %(n)d devices of yours already: turn them off on "
                    "one of them first"
                )
                % {"n": MAX_DEVICES}
            )
        try:
            with transaction.atomic():
                device, _created = PushSubscription.objects.update_or_create(
                    endpoint=endpoint,
                    user=user,
                    defaults={"p256dh": p256dh, "auth": auth, "label": label[:80]},
                )
        except IntegrityError:  # another account took the endpoint meanwhile
            raise Conflict(_another_account()) from None
    return device


def _another_account() -> str:
    return _("this device has notifications on for another account: turn them off there first")


def device_unsubscribe(*, user, endpoint: str) -> int:
    """Forget one of ``user``'s devices; returns how many were forgotten (0 or 1)."""
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def webhook_refusal(url: str) -> str:
    """Why a webhook URL is refused ("" when it is fine): https only (http where settings allow
    it, tests and `make run`), on the public internet (``address_refusal``)."""
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme == "https" or (parts.scheme == "http" and settings.WEBHOOK_ALLOW_HTTP):
        if not parts.netloc:
            return _("the webhook URL has no host")
        return address_refusal(url, "webhook")
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


# -- one device on or off, and test notices ----------------------------------------------------

# A player's test notices a minute, all channels together: enough to try a fix and try again,
# not enough to make the site a way to flood a chat channel or a push service.
TEST_NOTICES_PER_MINUTE = 3

# The browsers and systems a device's label names, first match wins (the User-Agent's words).
BROWSERS = [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox")]
BROWSERS += [("CriOS", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari")]
SYSTEMS = [("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows")]
SYSTEMS += [("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux")]


def device_label(user_agent: str) -> str:
    """A short name for the device a browser runs on ("Firefox on Android"; "" when the
    User-Agent names neither), so that a player tells their devices apart."""
    browser = next((name for word, name in BROWSERS if word in user_agent), "")
    system = next((name for word, name in SYSTEMS if word in user_agent), "")
    return " on ".join(part for part in (browser, system) if part)


def _own_device(user, device_id) -> PushSubscription:
    """``user``'s device ``device_id``; NotFound for any other (another player's devices are
    none of theirs: the same answer as for one that does not exist)."""
    device = PushSubscription.objects.filter(user=user, pk=device_id).first()
    if device is None:
        raise NotFound(_("there is no such device of yours"))
    return device


def device_switch(*, user, device_id: int, enabled: bool) -> PushSubscription:
    """Switch one of ``user``'s devices on or off: a device switched off is told nothing
    (games.jobs.push) and no longer stands in for the email."""
    device = _own_device(user, device_id)
    PushSubscription.objects.filter(pk=device.pk).update(enabled=bool(enabled))
    device.enabled = bool(enabled)
    return device


def notice_test(*, user, channel: str, device_id: int | None = None) -> NoticeTest:
    """Send ``user`` a test notice on ``channel``: to their device ``device_id`` (Web Push) or
    to their chat webhook. Queued on commit on the notices' queue and sent the way real notices
    are (games.jobs.push), its outcome recorded on the NoticeTest row. At most
    TEST_NOTICES_PER_MINUTE a minute; a refusal records nothing."""
    if channel not in DeviceNotice.Channel.values:
        raise GameError(_("there is no such way to be notified"))
    device = None
    if channel == DeviceNotice.Channel.PUSH:
        device = _own_device(user, device_id)
        if not vapid.private_key():
            raise Conflict(_("Notifications to devices are not set up on this site."))
        if not device.enabled:
            raise Conflict(_("this device is switched off: switch it on to test it"))
    else:
        boxes = NoticeSettings.objects.filter(user=user).first()
        if boxes is None or not boxes.webhook_url:
            raise Conflict(_("save a chat webhook URL first, then test it"))
    with transaction.atomic():
        # The player's row serialises two tests of theirs (the count below).
        User.objects.select_for_update().filter(pk=user.pk).first()
        since = timezone.now() - timedelta(minutes=1)
        if NoticeTest.objects.filter(user=user, created_at__gte=since).count() >= (
            TEST_NOTICES_PER_MINUTE
        ):
            raise TooMany(
                _("you may send %(n)d test notices a minute: wait a moment and try again")
                % {"n": TEST_NOTICES_PER_MINUTE}
            )
        test = NoticeTest.objects.create(user=user, channel=channel, device=device)
        transaction.on_commit(lambda: jobs.queue("send_test_notice", test.pk), robust=True)
    return test
