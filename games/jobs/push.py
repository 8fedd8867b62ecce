"""Web Push and chat-webhook notices: "your turn", "invitation", "game over", "an opponent
resigned", "your take back was answered": every kind of games.notices with a device line.

``tasks.send_push`` / ``tasks.send_webhook`` call ``deliver``, which decides whether the notice is
still due and wanted, claims it (a DeviceNotice row per player, game, number, kind and channel,
taken with a conditional update, as the turn emails' TurnNotice) and sends it. A duplicate delivery
or a retry after it went out finds the claim taken; a failed send releases the claim and raises, so
the task retries with backoff. Nothing here runs in a request: a slow or dead push service never
holds a move up.

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

import ipaddress
import json
import logging
import socket
from datetime import timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation

from games import notices
from games.live import presence
from games.models import DeviceNotice, Game, PushSubscription, TurnNotice
from games.selectors.names import game_name
from games.selectors.vapid import new_private_key, private_key, public_key  # noqa: F401

log = logging.getLogger(__name__)
TIMEOUT = 10  # seconds a push service or a chat app may take
TTL = 24 * 3600  # a push service keeps an undelivered notice a day
CLAIM_LEASE = timedelta(minutes=10)  # a claim older than this belongs to a worker that died


class Failed(Exception):
    """The push service or the webhook refused for now (5xx, 429, the network): retry."""


# -- who gets what -------------------------------------------------------------------------------


def replaces_email(user, kind: str) -> bool:
    """Whether a push notice goes out instead of the email of this news: the player has a
    subscribed device and has ticked the kind's box (games.notices: a reminder's box is the
    turn's, whose notice came at the turn's start)."""
    notice = notices.notice(kind)
    if notice.choice is None or not private_key():
        return False
    return (
        notices.chosen(notices.boxes(user), notice)
        and PushSubscription.objects.filter(user=user).exists()
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
    wanted = notices.boxes(user)
    if not notices.chosen(wanted, notice):
        return "declined"
    if presence.is_attentive(user_id):
        return "online"  # the player is at the board (a visible page, recent input): it shows it
    facts = notice.facts(game, seats, ply)
    if facts is None:
        return "gone"  # the event it tells of is no more
    if channel == DeviceNotice.Channel.PUSH:
        devices = list(PushSubscription.objects.filter(user=user))
        if not devices or not private_key():
            return "no device"
    elif not wanted.webhook_url:
        return "no webhook"
    notice, _ = DeviceNotice.objects.get_or_create(
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
            sent = sum(_push(device, body) for device in devices)
            outcome = "sent" if sent else "no device"
        else:
            outcome = _webhook(wanted.webhook_url, body)
    except BaseException:
        DeviceNotice.objects.filter(pk=notice.pk, status=TurnNotice.Status.SENDING).update(
            status=TurnNotice.Status.PENDING
        )
        raise
    DeviceNotice.objects.filter(pk=notice.pk).update(
        status=TurnNotice.Status.SENT, sent_at=timezone.now()
    )
    return outcome


def outside(url: str) -> bool:
    """Whether ``url``'s host is on the public internet: a player's webhook or push endpoint must
    not make the worker call the site's own network (SSRF). Local addresses are allowed only with
    settings.WEBHOOK_ALLOW_HTTP (tests, `make run`)."""
    if settings.WEBHOOK_ALLOW_HTTP:
        return True
    host = urlsplit(url).hostname or ""
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except (OSError, UnicodeError):
        return False
    return bool(addresses) and all(ipaddress.ip_address(a).is_global for a in addresses)


def _push(device: PushSubscription, body: dict) -> bool:
    """Encrypt ``body`` for the device (RFC 8291, aes128gcm) and hand it to its push service
    with a VAPID signature. A device its service no longer knows (404, 410) is forgotten."""
    from pywebpush import WebPushException, webpush

    if not outside(device.endpoint):
        log.warning("push endpoint of device %s is not on the public internet", device.pk)
        return False
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
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in (404, 410):
            device.delete()
            return False
        if status is not None and 400 <= status < 500 and status != 429:
            log.warning("push service refused a notice (%s): %s", status, exc)
            return False
        raise Failed(str(exc)) from None
    except requests.RequestException as exc:
        raise Failed(str(exc)) from None
    return True


def _webhook(url: str, body: dict) -> str:
    """POST a Discord- and Slack-compatible message: Discord reads ``content``, Slack ``text``."""
    text = f"{body['body']} {body['url']}"
    payload = {"content": text, "text": text, "username": "Blokus Shuffle"}
    if not outside(url):
        log.warning("webhook %s is not on the public internet", urlsplit(url).hostname)
        return "refused"
    try:
        response = requests.post(url, json=payload, timeout=TIMEOUT, allow_redirects=False)
    except requests.RequestException as exc:
        raise Failed(str(exc)) from None
    if response.status_code >= 500 or response.status_code == 429:
        raise Failed(f"webhook answered {response.status_code}")
    if response.status_code >= 400:
        log.warning("webhook refused a notice (%s)", response.status_code)
        return "refused"
    return "sent"
