"""Every kind of notice the site sends, one entry each (STYLE.md habit 22).

A notice tells a player about one event of one game: it became your turn, an invitation, the
game ended, an opponent resigned. Its entry says everything the channels need to know about it:

- who is told (``recipients``), and the seat they hold when it is delivered (``seat``);
- whether it is still news when its task runs (``due``): a turn email is not, once the turn has
  been played; ``facts`` reads the event back (who resigned, whether a take back was accepted),
  and a notice whose event is gone is not sent;
- its email: which ``User.email_turns`` settings let it go (``email``; none: no email), when the
  page has shown it instead (``seen``), and its words, the templates ``emails/<kind>.txt``,
  ``.html`` and ``_subject.txt``;
- its device and webhook line (``device``; none: no push and no webhook notice);
- the player's box for it on the Notifications page (``choice``, a ``NoticeSettings`` field).

The channels read the entry and nothing else about the kind: games.jobs.emails (email),
games.jobs.push (Web Push and chat webhooks), games.services.notify (queuing them after a
commit) and the Notifications page (games.views.devices). A new kind is an entry here, its words
(templates and catalogs), its box (a field and its migration) and the one call that tells of it
(``notify.told``) where the event happens. tests/games/test_notices.py checks that every kind has
its words in every language.

A kind's name is stored in TurnNotice.kind and DeviceNotice.kind: it is never renamed. The
``number`` of a notice (the ``ply`` of its rows) names its event: the ply at which the turn
began, the ply of the resignation, the take back request's id.

Nothing a notice says is secret (R9): the game's name, who sits where, whose turn, links.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from django.conf import settings
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Action, Game, NoticeSettings, Seat, Seek, TakeBack, TournamentTable
from games.selectors import clock, seating
from games.selectors.turns import turn_start_ply

EmailTurns = User.EmailTurns

INVITE_NUMBER = 0  # an invitation is about the game before its first action

# Which ``User.email_turns`` settings let an email go. "Your turn" only to those who want every
# turn; reminders to them and to those who want only reminders; news about a game (the computer
# played for you, an opponent resigned) to everyone but "never". The digest's readers get news
# as it happens and their turns once a day (games.jobs.digests).
EVERY_TURN = frozenset({EmailTurns.EVERY})
REMINDERS = frozenset({EmailTurns.EVERY, EmailTurns.REMINDERS})
NEWS = frozenset({EmailTurns.EVERY, EmailTurns.REMINDERS, EmailTurns.DIGEST})


class Seen(Enum):
    """When the page has told the player already, so that the email stays unsent
    (games.live.presence; a player may ask for emails even then: ``User.email_when_open``)."""

    NEVER = "never"  # the email goes even to a player on the site
    NOW = "now"  # the player is at the board now
    # At the board at any moment since the turn began: the email waits a grace period
    # (TURN_EMAIL_GRACE_SECONDS, games.services.notify) to give them the time to come.
    SINCE_TURN = "since the turn began"


@dataclass(frozen=True)
class Notice:
    kind: str
    # Who is told: (game, its seats with their users, the seat the event is about) -> seats.
    recipients: Callable[[Game, list[Seat], int | None], list[Seat]]
    # Still news when its task runs: (game, the recipient's seat, number) -> bool.
    due: Callable[[Game, Seat, int], bool]
    seat: str = Seat.Kind.HUMAN  # what the recipient's seat is when it is delivered
    # What the channels say about the event beyond the game's name, read back from it:
    # (game, seats, number) -> {"who": a player's name, ...}, or None when the event is gone.
    facts: Callable[[Game, list[Seat], int], dict | None] = lambda game, seats, number: {}
    # The player the news comes from (who invites, who resigned), read back from the event:
    # (game, seats, number) -> a User or None. A recipient who has blocked them is not told,
    # by any channel, even when the block came after the notice was queued (``silenced``).
    author: Callable[[Game, list[Seat], int], User | None] = lambda game, seats, number: None
    email: frozenset = frozenset()  # the email_turns settings that let its email go
    seen: Seen = Seen.NOW
    # The device and webhook line, by ``facts["variant"]`` ("" for a kind with one line): it
    # gets %(game)s (the game as its page names it) and %(name)s (``facts["who"]``).
    device: dict[str, Promise] | None = None
    # Its box on the Notifications page (a NoticeSettings field; several kinds may share one).
    choice: str | None = None
    # Whether unticking the box stops its email too. The first kinds' boxes were only ever
    # about devices (their email follows the turn emails setting alone); a kind added since has
    # one box for its news wherever it goes.
    choice_stops_email: bool = False

    @property
    def templates(self) -> tuple[str, str, str]:
        """Its email's subject, text and HTML templates."""
        return (
            f"emails/{self.kind}_subject.txt",
            f"emails/{self.kind}.txt",
            f"emails/{self.kind}.html",
        )

    def device_text(self, facts: dict, game_name: str) -> str:
        """The device and webhook line in the active language."""
        line = self.device[facts.get("variant", "")]
        return str(line) % {"game": game_name, "name": facts.get("who", "")}


# -- who is told -------------------------------------------------------------------------------


def _the_seat(game, seats, about):
    return [s for s in seats if s.index == about and s.user_id is not None]


def _everyone_seated(game, seats, about):
    """The player the news is about first, then every other player seated."""
    humans = [s for s in seats if s.kind == Seat.Kind.HUMAN and s.user_id is not None]
    return sorted(humans, key=lambda s: s.index != about)


def _players(game, seats, about):
    return [s for s in seats if s.kind == Seat.Kind.HUMAN and s.user_id is not None]


def _invited(game, seats, about):
    """The invited players, less those who blocked the creator: they hear nothing of it."""
    invited = [s for s in seats if s.kind == Seat.Kind.INVITED and s.user_id is not None]
    silenced = seating.silenced(game.created_by, [s.user_id for s in invited])
    return [s for s in invited if s.user_id not in silenced]


def _the_others_still_playing(game, seats, about):
    """The other players who have not resigned, less those who blocked the one who resigned
    (no word from a player one has blocked)."""
    playing = set(game.current_state().playing_seats())
    others = [s for s in _players(game, seats, about) if s.index != about and s.index in playing]
    resigner = next((s.user for s in seats if s.index == about and s.user_id), None)
    silenced = seating.silenced(resigner, [s.user_id for s in others]) if resigner else set()
    return [s for s in others if s.user_id not in silenced]


# -- still news? -------------------------------------------------------------------------------


def _happened(game, seat, number) -> bool:
    return True  # it reports something that happened


def _turn_waits(game, seat, number) -> bool:
    """The turn that began at ``number`` still waits for this seat's player."""
    return (
        game.status == Game.Status.ACTIVE
        and not seat.is_ai
        and game.to_move_seat == seat.index
        and turn_start_ply(game.pk, seat.index) == number
    )


def _reminder_due(game, seat, number) -> bool:
    return _turn_waits(game, seat, number) and clock.reminder_due(game, seat, timezone.now())


def _still_invited(game, seat, number) -> bool:
    return game.status == Game.Status.OPEN and seat.kind == Seat.Kind.INVITED


def _over(game, seat, number) -> bool:
    return game.status == Game.Status.FINISHED


def _not_away(game, seat, number) -> bool:
    """News that can wait for a player on vacation: the game's page tells them when they are
    back (their clocks stand still meanwhile, and nothing asks them to act)."""
    return not seat.user.on_vacation()


def _waited_long(game, seat, number) -> bool:
    """A game "Play now" formed, for a player who waited long enough to have left the page
    (``MATCH_NOTICE_AFTER_SECONDS``): the page told the others as it happened."""
    if game.status == Game.Status.ABORTED or game.started_at is None:
        return False
    asked = (
        Seek.objects.filter(table__game=game, user_id=seat.user_id)
        .values_list("created_at", flat=True)
        .first()
    )
    if asked is None:
        return False
    return (game.started_at - asked).total_seconds() >= settings.MATCH_NOTICE_AFTER_SECONDS


def _round_not_over(game, seat, number) -> bool:
    return game.status == Game.Status.ACTIVE


# -- what happened -----------------------------------------------------------------------------


def _name(seat: Seat) -> str:
    return str(seat.user) if seat.user_id else seat.label


def _who_resigned(game, seats, number) -> dict | None:
    """The resignation recorded at ply ``number``."""
    action = Action.objects.filter(game=game, ply=number, taken_back=False).first()
    if action is None or "resign" not in action.payload:
        return None
    seat = next((s for s in seats if s.index == action.seat), None)
    if seat is None:
        return None
    return {"who": _name(seat), "over": game.status == Game.Status.FINISHED}


def _tournament_round(game, seats, number) -> dict | None:
    """The tournament and round the game belongs to."""
    row = TournamentTable.objects.filter(game=game).values_list("tournament__name", "round").first()
    if row is None:
        return None
    name, round_number = row
    return {"who": name, "tournament": name, "round": round_number}


def _takeback_answer(game, seats, number) -> dict | None:
    """The answer to take back request ``number``: accepted by everyone, or declined by one
    player (a request that lapsed because the game moved on was not answered: no notice)."""
    request = TakeBack.objects.filter(pk=number, game=game).first()
    if request is None or request.status == TakeBack.Status.PENDING:
        return None
    if request.status == TakeBack.Status.ACCEPTED:
        return {"variant": "accepted", "accepted": True, "who": ""}
    said_no = [int(index) for index, yes in request.answers.items() if not yes]
    seat = next((s for s in seats if s.index in said_no), None)
    if seat is None:
        return None
    return {"variant": "declined", "accepted": False, "who": _name(seat)}


def _inviter(game, seats, number):
    return game.created_by


def _resigner(game, seats, number):
    action = Action.objects.filter(game=game, ply=number, taken_back=False).first()
    seat = next((s for s in seats if action is not None and s.index == action.seat), None)
    return seat.user if seat is not None and seat.user_id else None


def silenced(notice: Notice, game: Game, seats: list[Seat], number: int, user_id: int) -> bool:
    """Whether the player ``user_id`` has blocked the one the news comes from: blocks are
    silent (the sender is not told), and the blocker hears nothing of them. Asked when a notice
    is queued (its ``recipients``) and again by each channel when it is delivered, since a block
    may come between the two (a task retried while a push service was down, say)."""
    author = notice.author(game, seats, number)
    return author is not None and user_id in seating.silenced(author, [user_id])


# -- the registry ------------------------------------------------------------------------------

NOTICES: dict[str, Notice] = {
    notice.kind: notice
    for notice in [
        # It became your turn: an email a grace period later (TURN_EMAIL_GRACE_SECONDS), if the
        # player was not at the board meanwhile; a device at once.
        Notice(
            kind="turn",
            recipients=_the_seat,
            due=_turn_waits,
            email=EVERY_TURN,
            seen=Seen.SINCE_TURN,
            device={"": _("Your turn: %(game)s")},
            choice="turn",
        ),
        # Your turn has waited ``reminder_hours`` (the deadline scan finds it).
        Notice(
            kind="reminder",
            recipients=_the_seat,
            due=_reminder_due,
            email=REMINDERS,
            choice="turn",  # a device that is told of turns stands in for the reminder email
        ),
        # The computer played your overdue turn.
        Notice(kind="timeout", recipients=_the_seat, due=_happened, email=NEWS),
        # After three timeouts in a row the computer plays a seat for the rest of the game.
        Notice(kind="takeover", recipients=_everyone_seated, due=_happened, email=NEWS),
        # A seat in a game not started yet awaits your answer: emailed even to a player on the
        # site (the lobby's notice may go unseen).
        Notice(
            kind="invite",
            recipients=_invited,
            due=_still_invited,
            seat=Seat.Kind.INVITED,
            facts=lambda game, seats, number: {"who": str(game.created_by)},
            author=_inviter,
            email=NEWS,
            seen=Seen.NEVER,
            device={"": _("%(name)s invites you to a game: %(game)s")},
            choice="invite",
        ),
        # The game ended: devices only.
        Notice(
            kind="over",
            recipients=_players,
            due=_over,
            device={"": _("Game over: %(game)s")},
            choice="over",
        ),
        # An opponent resigned (games.services.resign): the other players still in the game.
        Notice(
            kind="resigned",
            recipients=_the_others_still_playing,
            due=_not_away,
            facts=_who_resigned,
            author=_resigner,
            email=NEWS,
            device={"": _("%(name)s resigned: %(game)s")},
            choice="resigned",
            choice_stops_email=True,
        ),
        # The other players answered your take back request (games.services.takeback).
        Notice(
            kind="takeback",
            recipients=_the_seat,
            due=_not_away,
            facts=_takeback_answer,
            email=NEWS,
            device={
                "accepted": _("Your take back was accepted: %(game)s"),
                "declined": _("%(name)s declined your take back: %(game)s"),
            },
            choice="takeback",
            choice_stops_email=True,
        ),
        # A game of a round of your tournament has started (games.services.tournaments).
        Notice(
            kind="round",
            recipients=_players,
            due=_round_not_over,
            facts=_tournament_round,
            email=NEWS,
            seen=Seen.NOW,
            device={"": _("%(name)s: your game has started: %(game)s")},
            choice="round",
            choice_stops_email=True,
        ),
        # A game "Play now" formed for you has started (games.services.seeks), after a wait
        # long enough that you may have left the page.
        Notice(
            kind="matched",
            recipients=_players,
            due=_waited_long,
            email=NEWS,
            device={"": _("Your game has started: %(game)s")},
            choice="matched",
            choice_stops_email=True,
        ),
    ]
}


def notice(kind: str) -> Notice:
    """The entry of ``kind``; a ValueError for a kind the site does not know."""
    try:
        return NOTICES[kind]
    except KeyError:
        raise ValueError(f"unknown notice kind {kind!r}") from None


def emailed() -> list[str]:
    """The kinds that may come by email."""
    return [kind for kind, n in NOTICES.items() if n.email]


def on_devices() -> list[str]:
    """The kinds that may come to a device and a chat webhook."""
    return [kind for kind, n in NOTICES.items() if n.device]


def choices() -> list[str]:
    """The boxes of the Notifications page (NoticeSettings fields), in the registry's order."""
    return list(dict.fromkeys(n.choice for n in NOTICES.values() if n.choice))


def boxes(user) -> NoticeSettings:
    """The player's boxes: a player who never saved the page has them all ticked."""
    return NoticeSettings.objects.filter(user=user).first() or NoticeSettings(user=user)


def chosen(boxes: NoticeSettings, notice: Notice) -> bool:
    """Whether the player's box for ``notice`` is ticked (a kind without a box: yes)."""
    return notice.choice is None or bool(getattr(boxes, notice.choice))
