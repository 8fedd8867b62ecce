"""Web Push and chat-webhook notices: "your turn", "invitation", "game over", "an opponent
resigned", "your take back was answered": every kind of games.notices with a device line.

``tasks.send_push`` / ``tasks.send_webhook`` call ``deliver``, which decides whether the notice is
still due and wanted, claims it (a DeviceNotice row per player, game, number, kind and channel,
taken with a conditional update, as the turn emails' TurnNotice) and sends it. A duplicate delivery
or a retry after it went out finds the claim taken; a failed send releases the claim and raises, so
the task retries with backoff. Nothing here runs in a request: a slow or dead push service never
holds a move up, and the tasks run on a queue of their own (NOTICES_QUEUE), so that it never
holds up the computer's turns either. A player's devices are sent to at once, within
DEVICES_DEADLINE in all. Every request goes through config/outbound.py: the address resolved
once and checked to be on the public internet, the connection made to it, no redirect followed;
an address refused there is recorded as refused (the Notifications page says so).

Policy: a notice goes to a player's devices (and webhook) per their boxes on the Notifications
page (``NoticeSettings``; all of them when they have none), never while a page of the site is
open for them (the page shows it), and it replaces the email of the same news
(``replaces_email``, asked by games.jobs.emails) when the player has a subscribed device.

What a notice says: its kind's device line (games.notices) with the game's name, and a link.
Never a hand, a pile or the seed (R9): the payload is built from the game's public settings only.

VAPID (RFC 8292) keys: ``settings.VAPID_PRIVATE_KEY`` (base64url), the public key derived from
it; ``manage.py vapid_key`` prints a new one.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor, wait
from datetime import timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config import outbound
from games import notices
from games.live import presence
from games.models import DeviceNotice, Game, NoticeTest, PushSubscription, TurnNotice
from games.selectors.names import game_name
from games.selectors.vapid import new_private_key, private_key, public_key  # noqa: F401

log = logging.getLogger(__name__)
TIMEOUT = 10  # seconds a push service or a chat app may take
# Seconds for all of a player's devices at once (each gets TIMEOUT): a task never waits longer
# for push services, however many devices (games.services.devices.MAX_DEVICES at most).
DEVICES_DEADLINE = TIMEOUT + 5
TTL = 24 * 3600  # a push service keeps an undelivered notice a day
CLAIM_LEASE = timedelta(minutes=10)  # a claim older than this belongs to a worker that died


class Failed(Exception):
    """The push service or the webhook refused for now (5xx, 429, the network): retry.
    ``detail``: the HTTP status it answered, "timeout" or "network" (what a test notice's row
    records; the message may hold the address, which is a capability)."""

    def __init__(self, message: str, detail: str = "network"):
        super().__init__(message)
        self.detail = detail


def _network(exc: requests.RequestException) -> Failed:
    return Failed(str(exc), "timeout" if isinstance(exc, requests.Timeout) else "network")


# -- who gets what -------------------------------------------------------------------------------


def replaces_email(user, kind: str) -> bool:
    """Whether a push notice goes out instead of the email of this news: the player has a
    subscribed device switched on and has ticked the kind's box (games.notices: a reminder's
    box is the turn's, whose notice came at the turn's start)."""
    notice = notices.notice(kind)
    if notice.choice is None or not private_key():
        return False
    return (
        notices.chosen(notices.boxes(user), notice)
        and PushSubscription.objects.filter(user=user, enabled=True).exists()
    )


def message(game: Game, user, kind: str, facts: dict) -> dict:
    """The notice: a title, the kind's line and the game's address, in the player's language.
    Only the game's public settings (R9)."""
    with translation.override(user.email_language()):
        # The game as its page names it: "alice vs bob · Shuffle".
        text = notices.notice(kind).device_text(facts, game_name(game))
    url = settings.SITE_URL + reverse("game", args=[game.public_id])
    return {"title": "Blokus Shuffle", "body": text, "url": url, "tag": f"game-{game.public_id}"}


# -- delivery ------------------------------------------------------------------------------------


def deliver(*, game_id: int, ply: int, user_id: int, kind: str, channel: str) -> str:
    """Send one notice at most once on one channel; returns what happened (logs and tests).
    ``ply`` is the notice's number (games.notices)."""
    notice = notices.notice(kind)
    if not notice.device or channel not in DeviceNotice.Channel.values:
        raise ValueError(f"unknown notice {kind!r} on {channel!r}")
    game = Game.objects.filter(pk=game_id).select_related("created_by").first()
    seats = list(game.seats.select_related("user")) if game is not None else []
    if not any(s.user_id == user_id for s in seats):
        return "gone"
    seat = next((s for s in seats if s.user_id == user_id and s.kind == notice.seat), None)
    user = next(s.user for s in seats if s.user_id == user_id)
    if seat is None or not user.is_active or not notice.due(game, seat, ply):
        return "played"
    if notices.silenced(notice, game, seats, ply, user_id):
        return "silenced"  # the player has blocked the one the news comes from
    wanted = notices.boxes(user)
    if not notices.chosen(wanted, notice):
        return "declined"
    if presence.is_attentive(user_id):
        return "online"  # the player is at the board (a visible page, recent input): it shows it
    facts = notice.facts(game, seats, ply)
    if facts is None:
        return "gone"  # the event it tells of is no more
    if channel == DeviceNotice.Channel.PUSH:
        # A device its player switched off on the Notifications page is told nothing.
        devices = list(PushSubscription.objects.filter(user=user, enabled=True))
        if not devices or not private_key():
            return "no device"
    elif not wanted.webhook_url:
        return "no webhook"
    notice, _created = DeviceNotice.objects.get_or_create(
        user=user, game=game, ply=ply, kind=kind, channel=channel
    )
    now = timezone.now()
    claimed = (
        DeviceNotice.objects.filter(pk=notice.pk)
        .filter(
            Q(status=TurnNotice.Status.PENDING)
            | Q(
                status=TurnNotice.Status.SENDING,
                claimed_at__lt=now - CLAIM_LEASE,
            )
        )
        .update(status=TurnNotice.Status.SENDING, claimed_at=now)
    )
    if claimed != 1:
        return "duplicate"
    body = message(game, user, kind, facts)
    try:
        if channel == DeviceNotice.Channel.PUSH:
            outcome = _push_all(devices, body)
        else:
            outcome = _webhook(wanted.webhook_url, body)
    except BaseException:
        DeviceNotice.objects.filter(pk=notice.pk, status=TurnNotice.Status.SENDING).update(
            status=TurnNotice.Status.PENDING
        )
        raise
    refused = outcome.startswith("refused")
    DeviceNotice.objects.filter(pk=notice.pk).update(
        status=TurnNotice.Status.REFUSED if refused else TurnNotice.Status.SENT,
        detail=outcome.partition(":")[2] if refused else "",
        sent_at=timezone.now(),
    )
    return outcome


def deliver_test(test_id: int) -> str:
    """Send a test notice the player asked for on the Notifications page
    (games.services.devices.notice_test) the way a real notice goes: to the one device over
    Web Push, or to the chat webhook, through config/outbound.py. Claimed like a notice (a
    second delivery sends nothing); never retried (the player is waiting for its outcome and
    may send another): the outcome, or why it failed, is recorded on the row for the page."""
    test = NoticeTest.objects.filter(pk=test_id).select_related("user", "device").first()
    if test is None:
        return "gone"
    claimed = NoticeTest.objects.filter(pk=test.pk, status=NoticeTest.Status.PENDING).update(
        status=NoticeTest.Status.SENDING
    )
    if claimed != 1:
        return "duplicate"
    user = test.user
    with translation.override(user.email_language()):
        text = str(_("A test notice from Blokus Shuffle: notices reach you here."))
    url = settings.SITE_URL + reverse("notices")
    body = {"title": "Blokus Shuffle", "body": text, "url": url, "tag": "test"}
    try:
        outcome = _test_outcome(test, user, body)
    except Failed as exc:
        outcome = f"failed:{exc.detail}"
    except BaseException:
        NoticeTest.objects.filter(pk=test.pk).update(status=NoticeTest.Status.PENDING)
        raise
    status, _sep, detail = outcome.partition(":")
    NoticeTest.objects.filter(pk=test.pk).update(
        status=status, detail=detail[:40], finished_at=timezone.now()
    )
    return outcome


def _test_outcome(test: NoticeTest, user, body: dict) -> str:
    if test.channel == DeviceNotice.Channel.PUSH:
        device = test.device
        if device is None or not device.enabled or not private_key():
            return "refused:off"
        outcome = _push(device, body)
        if outcome == "gone":
            device.delete()
        return outcome
    url = notices.boxes(user).webhook_url
    if not url:
        return "refused:no webhook"
    return _webhook(url, body)


def outside(url: str) -> bool:
    """Whether ``url``'s host is on the public internet: a player's webhook or push endpoint must
    not make the worker call the site's own network (SSRF; config/outbound.py). Local addresses
    are allowed only with settings.WEBHOOK_ALLOW_HTTP (tests, `make run`)."""
    return not outbound.refusal(url)


def _push_all(devices: list[PushSubscription], body: dict) -> str:
    """Send ``body`` to every device at once, within DEVICES_DEADLINE in all: a slow push
    service holds the others up no longer than its own request. "sent" when one device at least
    took it (a retry would send it again to those that did); Failed, to retry, when none took
    it and one failed for now; else "refused:<reason>" or "no device" (every device is gone)."""
    pool = ThreadPoolExecutor(max_workers=len(devices), thread_name_prefix="push")
    try:
        futures = {pool.submit(_push, device, body): device for device in devices}
        done, _late = wait(futures, timeout=DEVICES_DEADLINE)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    outcomes, failed = [], []
    for future, device in futures.items():
        error = future.exception() if future in done else Failed("no answer in time", "timeout")
        if error is not None:
            if not isinstance(error, Failed):
                raise error
            failed.append(error)
            continue
        outcome = future.result()
        if outcome == "gone":
            device.delete()  # here, not in the thread: no database connection per thread
        outcomes.append(outcome)
    if "sent" in outcomes:
        return "sent"
    if failed:
        raise failed[0]
    refusals = [o for o in outcomes if o.startswith("refused")]
    return refusals[0] if refusals else "no device"


def _push(device: PushSubscription, body: dict) -> str:
    """Encrypt ``body`` for the device (RFC 8291, aes128gcm) and hand it to its push service
    with a VAPID signature, on the address checked once (config/outbound.py: no redirect, no
    second lookup). "sent", "gone" (a device its service no longer knows: 404, 410) or
    "refused:<reason>"; Failed to retry. Runs in a thread of ``_push_all``: no database."""
    from pywebpush import WebPushException, webpush

    try:
        webpush(
            subscription_info={
                "endpoint": device.endpoint,
                "keys": {"p256dh": device.p256dh, "auth": device.auth},
            },
            data=json.dumps(body),
            vapid_private_key=private_key(),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=TTL,
            timeout=TIMEOUT,
            content_encoding="aes128gcm",
            requests_session=outbound.PinnedSession(),
        )
    except outbound.Refused as exc:
        log.warning("push endpoint of device %s refused: %s", device.pk, exc.reason)
        return f"refused:{exc.reason}"
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in (404, 410):
            return "gone"
        if status is not None and 400 <= status < 500 and status != 429:
            log.warning("push service refused a notice (%s): %s", status, exc)
            return f"refused:{status}"
        raise Failed(str(exc), str(status) if status else "network") from None
    except requests.RequestException as exc:
        raise _network(exc) from None
    return "sent"


def _webhook(url: str, body: dict) -> str:
    """POST a Discord- and Slack-compatible message: Discord reads ``content``, Slack ``text``.
    On the address checked once, following no redirect (config/outbound.py)."""
    text = f"{body['body']} {body['url']}"
    payload = {"content": text, "text": text, "username": "Blokus Shuffle"}
    try:
        response = outbound.post(url, json=payload, timeout=TIMEOUT)
    except outbound.Refused as exc:
        log.warning("webhook %s refused: %s", urlsplit(url).hostname, exc.reason)
        return f"refused:{exc.reason}"
    except requests.RequestException as exc:
        raise _network(exc) from None
    if response.status_code >= 500 or response.status_code == 429:
        raise Failed(f"webhook answered {response.status_code}", str(response.status_code))
    if response.status_code >= 400:
        log.warning("webhook refused a notice (%s)", response.status_code)
        return f"refused:{response.status_code}"
    return "sent"
