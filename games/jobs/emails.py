"""Turn emails: whose turn it is and a link, never what is hidden (R9).

``tasks.send_turn_email`` calls ``deliver``, which decides whether an email is due and wanted,
claims it (a TurnNotice row per seat, turn and kind, taken with a conditional update) and sends
it. A duplicate delivery of the task, or a retry after the mail went out, finds the claim taken
and sends nothing; a failed send releases the claim so that the retry may try again.

Kinds: "turn" (it became your turn; queued a grace period after the turn began, sent only if the
player was not at the board meanwhile: ``at_the_board``), "reminder" (your turn has waited
``reminder_hours``), "timeout" (the computer played your overdue turn), "takeover" (after three
timeouts in a row the computer plays a seat for the rest of the game: told to everyone seated),
"invite" (a seat in a game not started yet awaits your answer: ``tasks.send_invite_email`` calls
``invite``).
"""

from __future__ import annotations

import zoneinfo
from datetime import timedelta
from email.headerregistry import BaseHeader, UnstructuredHeader

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext, ngettext, pgettext

from accounts.models import User
from accounts.tokens import unsubscribe_token, unsubscribe_user_id  # noqa: F401  (re-exported)
from games import selectors
from games.jobs import push
from games.live import presence
from games.models import Game, Seat, TurnNotice
from games.selectors import clock
from games.selectors.turns import TIMEOUTS_BEFORE_TAKEOVER, turn_start_ply

Kind = TurnNotice.Kind

# A claim older than this belongs to a worker that died while sending (a send gives up after
# EMAIL_TIMEOUT seconds): the notice may be claimed again.
CLAIM_LEASE = timedelta(minutes=10)

# -- the one-click unsubscribe link: accounts.tokens (the account owns its preferences) -----


def absolute(path: str) -> str:
    return settings.SITE_URL + path


# -- who gets what --------------------------------------------------------------------------


def wants(user, kind: str) -> bool:
    """The user's own preference, an active account and a verified primary address."""
    if not user.is_active or not user.email:
        return False
    if kind == Kind.TURN:
        wanted = user.email_turns == User.EmailTurns.EVERY
    elif kind == Kind.REMINDER:
        wanted = user.email_turns in (User.EmailTurns.EVERY, User.EmailTurns.REMINDERS)
    else:  # invitations, timeouts, takeovers: news about a game, silenced only by "never"
        wanted = user.email_turns != User.EmailTurns.NEVER
    return (
        wanted
        and EmailAddress.objects.filter(
            user=user, email__iexact=user.email, primary=True, verified=True
        ).exists()
    )


def still_due(game: Game, seat: Seat, ply: int, kind: str) -> bool:
    """A turn or reminder email is about a turn that is still waiting for this seat."""
    if kind == Kind.INVITE:  # still invited to a game that has not started
        return game.status == Game.Status.OPEN and seat.kind == Seat.Kind.INVITED
    if kind not in (Kind.TURN, Kind.REMINDER):
        return True  # timeouts and takeovers report something that happened
    if game.status != Game.Status.ACTIVE or seat.is_ai or game.to_move_seat != seat.index:
        return False
    if kind == Kind.REMINDER and not clock.reminder_due(game, seat, timezone.now()):
        return False
    return turn_start_ply(game.pk, seat.index) == ply


def at_the_board(game: Game, user, kind: str) -> bool:
    """Whether the player sees this news on a page instead (games.live.presence): for a turn,
    if they were at the board at any moment since it began (the email is sent a grace period
    later, ``TURN_EMAIL_GRACE_SECONDS``); for a reminder, a timeout or a takeover, if they are
    now. Never for an invitation, nor for a player who asked for emails even then."""
    if kind == Kind.INVITE or user.email_when_open:
        return False
    if kind == Kind.TURN and game.turn_started_at is not None:
        return presence.is_attentive(user.pk, since=game.turn_started_at.timestamp())
    return presence.is_attentive(user.pk)


def deliver(*, game_id: int, ply: int, user_id: int, kind: str, about: int | None = None) -> str:
    """Send one notice at most once; returns what happened (for logs and tests)."""
    if kind not in Kind.values:
        raise ValueError(f"unknown notice kind {kind!r}")
    game = Game.objects.filter(pk=game_id).first()
    seat_kind = Seat.Kind.INVITED if kind == Kind.INVITE else Seat.Kind.HUMAN
    seat = (
        game.seats.select_related("user").filter(user_id=user_id, kind=seat_kind).first()
        if game is not None
        else None
    )
    if seat is None:
        return "gone"
    user = seat.user
    if not still_due(game, seat, ply, kind):
        return "played"
    if kind in (Kind.TURN, Kind.REMINDER, Kind.INVITE) and push.replaces_email(user, kind):
        return "pushed"  # the player's devices are told instead (games.jobs.push)
    if not wants(user, kind):
        return "declined"
    if at_the_board(game, user, kind):
        # The page shows it (the board, a toast). A reminder is looked for again by the next
        # scan, so it goes out once the player has left without moving.
        return "online"
    notice, _ = TurnNotice.objects.get_or_create(
        seat=seat, ply=ply, kind=kind, defaults={"game": game, "user": user}
    )
    now = timezone.now()
    claimed = (
        TurnNotice.objects.filter(pk=notice.pk)
        .filter(
            Q(status=TurnNotice.Status.PENDING)
            | Q(status=TurnNotice.Status.SENDING, claimed_at__lt=now - CLAIM_LEASE)
        )
        .update(status=TurnNotice.Status.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    )
    if claimed != 1:  # sent already, or being sent by another delivery of the task
        return "duplicate"
    try:
        turn_message(game=game, seat=seat, kind=kind, about=about).send()
    except BaseException:
        # Release the claim: the task's retry (or a later delivery) may send it.
        TurnNotice.objects.filter(pk=notice.pk, status=TurnNotice.Status.SENDING).update(
            status=TurnNotice.Status.PENDING
        )
        raise
    TurnNotice.objects.filter(pk=notice.pk).update(
        status=TurnNotice.Status.SENT, sent_at=timezone.now()
    )
    return "sent"


INVITE_PLY = 0  # an invitation is about the game before its first action


def invite(*, game_id: int, user_id: int) -> str:
    """The invitation email: sent even if the player is on the site (the lobby notice may go
    unseen), unless their preferences say "never"; not once they have accepted or declined."""
    return deliver(game_id=game_id, ply=INVITE_PLY, user_id=user_id, kind=Kind.INVITE)


# -- the message ----------------------------------------------------------------------------


# The deadline as a date to read, in the order and words of the language active when the email is
# built (each language's translation of this format: "tisdag 3 juni 2025, 16:00" in Swedish).
DEADLINE_FORMAT = ("date format: weekday, day, month, year, time", "l j F Y, H:i")


def local_deadline(game: Game, user) -> str:
    """The move deadline in the user's zone, in the active language: "Tuesday 3 June 2025, 16:00
    (Europe/Paris)" in English."""
    try:
        zone = zoneinfo.ZoneInfo(user.time_zone)
        name = user.time_zone
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone, name = zoneinfo.ZoneInfo("UTC"), "UTC"
    deadline = clock.deadline(game, user.pk)
    when = dateformat.format(timezone.localtime(deadline, zone), pgettext(*DEADLINE_FORMAT))
    return gettext("%(when)s (%(zone)s)") % {"when": when, "zone": name}


def game_title(game: Game) -> str:
    """A game as an email names it, in the active language: "Classic (4 players)"."""
    return ngettext("%(mode)s (%(n)d player)", "%(mode)s (%(n)d players)", game.players) % {
        "mode": game.get_mode_display(),
        "n": game.players,
    }


class OneLineHeader(UnstructuredHeader, BaseHeader):
    """A header written on one line (up to RFC 5322's 998 characters), never folded.

    The email package folds a header past 78 characters, and a URL has no space to fold at, so
    it rewrites the URL as RFC 2047 encoded words (CPython issue #85725). Those are not allowed
    in List-Unsubscribe, and Gmail then ignores the header: no unsubscribe button. Django passes
    a str subclass through to the message unchanged, and the email package folds a header
    object with its own ``fold``.
    """

    def fold(self, *, policy):
        return super().fold(policy=policy.clone(max_line_length=998))

    def __reduce__(self):  # copies and pickles keep the class (BaseHeader's rebuild would not)
        return (type(self), (self.name, str(self)))


def turn_message(*, game: Game, seat: Seat, kind: str, about: int | None = None):
    """The email for one notice: subject, text and HTML parts, unsubscribe headers, in the
    recipient's language (``User.email_language``), whoever's request or task builds it.

    Only public facts: the game's settings, who sits where, whose turn, the deadline, links.
    """
    with translation.override(seat.user.email_language()):
        return _turn_message(game=game, seat=seat, kind=kind, about=about)


def _turn_message(*, game: Game, seat: Seat, kind: str, about: int | None):
    user = seat.user
    seats = list(game.seats.select_related("user"))
    about_seat = next((s for s in seats if s.index == about), seat)
    unsubscribe_url = absolute(reverse("unsubscribe", args=[unsubscribe_token(user)]))
    context = {
        "name": str(user),
        "title": game_title(game),
        "game_url": absolute(reverse("game", args=[game.public_id])),
        "players": [s.label for s in seats if s.pk != seat.pk],
        "move_time": game.get_move_seconds_display(),
        "deadline": (
            local_deadline(game, user)
            if game.status == Game.Status.ACTIVE and game.turn_started_at
            else ""
        ),
        "timeouts": seat.timeouts_in_row,
        "timeouts_limit": TIMEOUTS_BEFORE_TAKEOVER,
        "is_you": about_seat.pk == seat.pk,
        "about_name": str(about_seat.user) if about_seat.user else about_seat.label,
        "inviter": str(game.created_by),
        "rated": game.rated,
        "unsubscribe_url": unsubscribe_url,
        "settings_url": absolute(reverse("settings")),
    }
    # The subject names the game as its page does ("alice vs bob · Shuffle"), so that a player
    # with several games sees which one; the text says the mode and who else plays.
    subject = render_to_string(
        f"emails/{kind}_subject.txt", {**context, "title": selectors.game_name(game, seats)}
    )
    subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + " ".join(subject.split())
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"emails/{kind}.txt", context),
        to=[user.email],
        headers={
            # RFC 2369 and RFC 8058: mail clients offer an unsubscribe button that POSTs here.
            "List-Unsubscribe": OneLineHeader("List-Unsubscribe", f"<{unsubscribe_url}>"),
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",  # RFC 3834: no out-of-office replies, please
        },
    )
    message.attach_alternative(render_to_string(f"emails/{kind}.html", context), "text/html")
    return message
