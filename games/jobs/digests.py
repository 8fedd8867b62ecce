"""The daily digest: one email a day listing every game where it is the player's turn.

A player who chose "one email a day" (``User.EmailTurns.DIGEST``) gets no email per turn and no
reminders; at ``digest_hour`` in their own time zone the deadline scan (games.jobs.deadlines.scan,
every minute) finds them due, and ``tasks.send_digest`` sends one email for that local date at
most once (a ``DigestNotice`` row claimed by conditional update, as turn emails are). A day
with no game waiting sends nothing. Timeout and takeover notices still come as they happen (news
about a game, silenced only by "never"). The one-click unsubscribe link switches it off like any
turn email.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from games.jobs import emails
from games.models import DigestNotice, Game, Seat

CLAIM_LEASE = emails.CLAIM_LEASE


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def digests_due(now: datetime) -> list[tuple[int, str]]:
    """(user id, local date as ISO text) of every digest due now: players who chose the digest
    and whose local hour is their ``digest_hour``, not yet sent for that date. One query per
    time zone in use among them (local time is per zone, not per row)."""
    users = User.objects.filter(is_active=True, email_turns=User.EmailTurns.DIGEST)
    due = []
    for zone in users.order_by().values_list("time_zone", flat=True).distinct():
        local = timezone.localtime(now, _zone(zone))
        done = DigestNotice.objects.filter(day=local.date()).exclude(
            status=DigestNotice.Status.PENDING
        )
        ids = (
            users.filter(time_zone=zone, digest_hour=local.hour)
            .exclude(pk__in=done.values("user_id"))
            .values_list("pk", flat=True)
        )
        due.extend((pk, local.date().isoformat()) for pk in ids)
    return due


def waiting_games(user) -> list[Game]:
    """Active games where the player (not the computer for them) decides now, oldest turn first."""
    return list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            seats__user=user,
            seats__kind=Seat.Kind.HUMAN,
            seats__ai_takeover=False,
            seats__index=F("to_move_seat"),
        ).order_by("turn_started_at")
    )


def deliver(*, user_id: int, day: str) -> str:
    """Send the digest for ``day`` (the player's local date) at most once; returns what happened."""
    user = User.objects.filter(pk=user_id).first()
    if user is None or user.email_turns != User.EmailTurns.DIGEST:
        return "declined"
    if not emails.reachable(user):
        return "declined"
    notice, _ = DigestNotice.objects.get_or_create(user=user, day=date.fromisoformat(day))
    now = timezone.now()
    claimed = (
        DigestNotice.objects.filter(pk=notice.pk)
        .filter(
            Q(status=DigestNotice.Status.PENDING)
            | Q(status=DigestNotice.Status.SENDING, claimed_at__lt=now - CLAIM_LEASE)
        )
        .update(status=DigestNotice.Status.SENDING, claimed_at=now)
    )
    if claimed != 1:
        return "duplicate"
    games = waiting_games(user)
    if not games:
        DigestNotice.objects.filter(pk=notice.pk).update(status=DigestNotice.Status.EMPTY)
        return "empty"
    try:
        message(user, games).send()
    except BaseException:
        DigestNotice.objects.filter(pk=notice.pk, status=DigestNotice.Status.SENDING).update(
            status=DigestNotice.Status.PENDING
        )
        raise
    DigestNotice.objects.filter(pk=notice.pk).update(
        status=DigestNotice.Status.SENT, sent_at=timezone.now()
    )
    return "sent"


def message(user, games: list[Game]) -> EmailMultiAlternatives:
    """The digest email: only public facts (each game's title, opponents and deadline), in the
    player's language (``User.email_language``)."""
    with translation.override(user.email_language()):
        return _message(user, games)


def _message(user, games: list[Game]) -> EmailMultiAlternatives:
    unsubscribe_url = emails.absolute(reverse("unsubscribe", args=[emails.unsubscribe_token(user)]))
    rows = []
    for game in games:
        seats = list(game.seats.select_related("user"))
        rows.append(
            {
                "title": emails.game_title(game),
                "url": emails.absolute(reverse("game", args=[game.public_id])),
                "players": [s.label for s in seats if s.user_id != user.pk],
                "deadline": emails.local_deadline(game, user) if game.turn_started_at else "",
            }
        )
    context = {
        "name": str(user),
        "games": rows,
        "game_url": emails.absolute(reverse("my_games")),
        "unsubscribe_url": unsubscribe_url,
        "settings_url": emails.absolute(reverse("settings")),
    }
    subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + " ".join(
        render_to_string("emails/digest_subject.txt", context).split()
    )
    mail = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("emails/digest.txt", context),
        to=[user.email],
        headers={
            "List-Unsubscribe": emails.OneLineHeader("List-Unsubscribe", f"<{unsubscribe_url}>"),
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    mail.attach_alternative(render_to_string("emails/digest.html", context), "text/html")
    return mail
