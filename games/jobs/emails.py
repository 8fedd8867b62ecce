"""Notice emails: whose turn it is, news about a game, and a link; never what is hidden (R9).

``tasks.send_turn_email`` calls ``deliver``, which decides whether an email is due and wanted,
claims it (a TurnNotice row per seat, number and kind, taken with a conditional update) and sends
it. A duplicate delivery of the task, or a retry after the mail went out, finds the claim taken
and sends nothing; a failed send releases the claim so that the retry may try again.

What each kind is, who wants it, when it is still due and when the page has shown it instead:
its entry in games.notices. "invite" comes by ``tasks.send_invite_email`` (``invite``).
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
from games import notices
from games.jobs import push
from games.live import presence
from games.models import Entry, Game, Seat, Tournament, TurnNotice
from games.notices import Notice, Seen
from games.selectors import clock
from games.selectors.names import game_name
from games.selectors.turns import TIMEOUTS_BEFORE_TAKEOVER

Kind = TurnNotice.Kind

# A claim older than this belongs to a worker that died while sending (a send gives up after
# EMAIL_TIMEOUT seconds): the notice may be claimed again.
CLAIM_LEASE = timedelta(minutes=10)

# -- the one-click unsubscribe link: accounts.tokens (the account owns its preferences) -----


def absolute(path: str) -> str:
    return settings.SITE_URL + path


# -- who gets what --------------------------------------------------------------------------


def reachable(user) -> bool:
    """An active account with a verified primary address."""
    return (
        user.is_active
        and bool(user.email)
        and EmailAddress.objects.filter(
            user=user, email__iexact=user.email, primary=True, verified=True
        ).exists()
    )


def wants(user, kind: str) -> bool:
    """The user's own preferences (their turn emails setting, and for kinds whose box stops the
    email, that box) and a reachable address."""
    notice = notices.notice(kind)
    if user.email_turns not in notice.email:
        return False
    if notice.choice_stops_email and not notices.chosen(notices.boxes(user), notice):
        return False
    return reachable(user)


def still_due(game: Game, seat: Seat, ply: int, kind: str) -> bool:
    """The news is still news (games.notices: a turn still waits for this seat, an invitation
    is still open, ...)."""
    return notices.notice(kind).due(game, seat, ply)


def at_the_board(game: Game, user, kind: str) -> bool:
    """Whether the player sees this news on a page instead (games.live.presence), as the kind's
    entry says (``Notice.seen``): for a turn, if they were at the board at any moment since it
    began (the email is sent a grace period later, ``TURN_EMAIL_GRACE_SECONDS``); for other
    news, if they are now. Never for an invitation, nor for a player who asked for emails even
    then."""
    seen = notices.notice(kind).seen
    if seen == Seen.NEVER or user.email_when_open:
        return False
    if seen == Seen.SINCE_TURN and game.turn_started_at is not None:
        return presence.is_attentive(user.pk, since=game.turn_started_at.timestamp())
    return presence.is_attentive(user.pk)


def deliver(*, game_id: int, ply: int, user_id: int, kind: str, about: int | None = None) -> str:
    """Send one notice at most once; returns what happened (for logs and tests). ``ply`` is
    the notice's number (games.notices)."""
    notice = notices.notice(kind)
    if not notice.email:
        raise ValueError(f"notice kind {kind!r} has no email")
    game = Game.objects.filter(pk=game_id).first()
    seat = (
        game.seats.select_related("user").filter(user_id=user_id, kind=notice.seat).first()
        if game is not None
        else None
    )
    if seat is None:
        return "gone"
    user = seat.user
    if not still_due(game, seat, ply, kind):
        return "played"
    seats = list(game.seats.select_related("user"))
    if notices.silenced(notice, game, seats, ply, user_id):
        return "silenced"  # the player has blocked the one the news comes from
    if push.replaces_email(user, kind):
        return "pushed"  # the player's devices are told instead (games.jobs.push)
    if not wants(user, kind):
        return "declined"
    if at_the_board(game, user, kind):
        # The page shows it (the board, a toast). A reminder is looked for again by the next
        # scan, so it goes out once the player has left without moving.
        return "online"
    facts = notice.facts(game, seats, ply)
    if facts is None:
        return "gone"  # the event it tells of is no more (a take back still unanswered, ...)
    notice_row, _ = TurnNotice.objects.get_or_create(
        seat=seat, ply=ply, kind=kind, defaults={"game": game, "user": user}
    )
    now = timezone.now()
    claimed = (
        TurnNotice.objects.filter(pk=notice_row.pk)
        .filter(
            Q(status=TurnNotice.Status.PENDING)
            | Q(status=TurnNotice.Status.SENDING, claimed_at__lt=now - CLAIM_LEASE)
        )
        .update(status=TurnNotice.Status.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    )
    if claimed != 1:  # sent already, or being sent by another delivery of the task
        return "duplicate"
    try:
        message = turn_message(
            game=game, seat=seat, kind=kind, about=about, facts=facts, seats=seats
        )
        message.send()
    except BaseException:
        # Release the claim: the task's retry (or a later delivery) may send it.
        TurnNotice.objects.filter(pk=notice_row.pk, status=TurnNotice.Status.SENDING).update(
            status=TurnNotice.Status.PENDING
        )
        raise
    TurnNotice.objects.filter(pk=notice_row.pk).update(
        status=TurnNotice.Status.SENT, sent_at=timezone.now()
    )
    return "sent"


INVITE_PLY = notices.INVITE_NUMBER


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
    it rewrites the URL as RFC 2047 encoded words (CPython gh-85725). Those are not allowed
    in List-Unsubscribe, and Gmail then ignores the header: no unsubscribe button. Django passes
    a str subclass through to the message unchanged, and the email package folds a header
    object with its own ``fold``.
    """

    def fold(self, *, policy):
        return super().fold(policy=policy.clone(max_line_length=998))

    def __reduce__(self):  # copies and pickles keep the class (BaseHeader's rebuild would not)
        return (type(self), (self.name, str(self)))


def turn_message(
    *,
    game: Game,
    seat: Seat,
    kind: str,
    about: int | None = None,
    facts: dict | None = None,
    seats: list[Seat] | None = None,
):
    """The email for one notice: subject, text and HTML parts (the kind's templates,
    ``Notice.templates``), unsubscribe headers, in the recipient's language
    (``User.email_language``), whoever's request or task builds it. ``facts``: what the kind's
    entry read back about its event (``Notice.facts``), given to the templates as they are;
    ``seats``: the game's seats with their players, where the caller has read them.

    Only public facts: the game's settings, who sits where, whose turn, the deadline, links.
    """
    notice = notices.notice(kind)
    with translation.override(seat.user.email_language()):
        if seats is None:
            seats = list(game.seats.select_related("user"))
        return _turn_message(game, seat, seats, notice, about=about, facts=facts or {})


def _turn_message(
    game: Game, seat: Seat, seats: list[Seat], notice: Notice, *, about: int | None, facts: dict
):
    user = seat.user
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
        **facts,
    }
    subject_template, text_template, html_template = notice.templates
    # The subject names the game as its page does ("alice vs bob · Shuffle"), so that a player
    # with several games sees which one; the text says the mode and who else plays.
    subject = render_to_string(subject_template, {**context, "title": game_name(game, seats)})
    subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + " ".join(subject.split())
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(text_template, context),
        to=[user.email],
        headers={
            # RFC 2369 and RFC 8058: mail clients offer an unsubscribe button that POSTs here.
            "List-Unsubscribe": OneLineHeader("List-Unsubscribe", f"<{unsubscribe_url}>"),
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",  # RFC 3834: no out-of-office replies, please
        },
    )
    message.attach_alternative(render_to_string(html_template, context), "text/html")
    return message


def tournament_reminder(*, tournament_id: int, user_id: int) -> str:
    """ "Your tournament starts within the hour" to one registered player, in their language,
    unless their preferences say "never" (or the tournament or their entry is gone)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    entry = (
        Entry.objects.filter(tournament_id=tournament_id, user_id=user_id, withdrawn_at=None)
        .select_related("user")
        .first()
    )
    if tournament is None or entry is None:
        return "gone"
    if tournament.status != Tournament.Status.REGISTRATION:
        return "started"
    user = entry.user
    if user.email_turns == User.EmailTurns.NEVER or not reachable(user):
        return "declined"
    unsubscribe_url = absolute(reverse("unsubscribe", args=[unsubscribe_token(user)]))
    with translation.override(user.email_language()):
        try:
            zone = zoneinfo.ZoneInfo(user.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            zone = zoneinfo.ZoneInfo("UTC")
        context = {
            "name": str(user),
            "tournament": tournament.name,
            "when": dateformat.format(
                timezone.localtime(tournament.starts_at, zone), pgettext(*DEADLINE_FORMAT)
            ),
            "url": absolute(reverse("tournament", args=[tournament.pk])),
            "unsubscribe_url": unsubscribe_url,
            "settings_url": absolute(reverse("settings")),
        }
        subject = render_to_string("emails/tournament_reminder_subject.txt", context)
        message = EmailMultiAlternatives(
            subject=settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + " ".join(subject.split()),
            body=render_to_string("emails/tournament_reminder.txt", context),
            to=[user.email],
            headers={
                "List-Unsubscribe": OneLineHeader("List-Unsubscribe", f"<{unsubscribe_url}>"),
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                "Auto-Submitted": "auto-generated",
            },
        )
    message.send()
    return "sent"
