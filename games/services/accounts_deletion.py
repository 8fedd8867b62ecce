"""Deleting an account once its grace period is over (accounts.closing asks for it; the
periodic task ``games.tasks.sweep_accounts`` runs ``account_delete``), and the moderators'
hold and approval (games.admin).

What deletion does, in one transaction that holds the user's row:

1. **Running games**: resigned (R11.1, through ``games.services.resign``: with two players the
   other wins at once, with three or four the others play on, R11.2) or handed to the computer
   (at the Casual level, as a moderator would), as the player chose. A resignation the rules
   do not allow yet (a three- or four-player game's setup round, R11.1) hands the seat to the
   computer instead. Seats in games not started are given up (``game_leave``: the creator's
   game is cancelled, an invitation declined).
2. **What is personal goes**: the email addresses, the names (the account becomes
   ``deleted-N``, shown as "deleted player N"), the password, sessions, push devices, the chat
   webhook and every setting, blocks, vacations, data exports and their files, the notices'
   bookkeeping. There are no personal API tokens on this site. Chat lines and reports the player
   wrote read "(deleted)"; the staff's logs (ModerationLog, the admin's history) name them as
   "deleted player N".
3. **What other players played stays**: the games, their actions, seats, results and ratings
   (both players' ratings and the history of changes), so that every record still replays and
   every finished Shuffle game still verifies (``engine.verify``).

A sign-in during the grace period cancels the deletion (accounts.adapter); a moderator's hold
pauses it; a staff account's deletion waits for another staff member's approval.
"""

from __future__ import annotations

import contextlib
import re

from allauth.account.models import EmailAddress
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.backends.cached_db import SessionStore
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.exports import path_of
from accounts.models import AccountDeletion, Block, DataExport, User, Vacation, deleted_username
from games.models import (
    ChatMessage,
    DeviceNotice,
    DigestNotice,
    Entry,
    Game,
    ModerationLog,
    NoticeSettings,
    PushSubscription,
    Report,
    Seat,
    Tournament,
    TurnNotice,
)
from games.services import games as game_services
from games.services.actions import after_change, locked
from games.services.errors import Conflict, GameError, NotAllowed
from games.services.moderation import _log  # every moderation action's one log
from games.services.resign import game_resign
from games.services.seeks import seek_cancel
from games.services.tournaments import tournament_withdraw

DELETED_TEXT = "(deleted)"
COMPUTER_LEVEL = Seat.Level.CASUAL


def due(deletion: AccountDeletion, now) -> bool:
    """Whether the deletion may run now: pending, past its grace period, not held, and for a
    staff account approved by another staff member."""
    return (
        deletion.status == AccountDeletion.Status.PENDING
        and deletion.due_at <= now
        and deletion.held_at is None
        and not deletion.needs_approval
    )


def due_deletions(now=None) -> list[int]:
    """The ids of the deletions the periodic task runs now."""
    now = now or timezone.now()
    rows = AccountDeletion.objects.filter(
        status=AccountDeletion.Status.PENDING, due_at__lte=now, held_at__isnull=True
    ).select_related("user")
    return [d.pk for d in rows if due(d, now)]


def account_delete(*, deletion_id: int, now=None) -> str:
    """Run one deletion (see the module's docstring); a no-op unless it is due now. Safe to run
    twice: the second run finds it done. Returns what happened."""
    now = now or timezone.now()
    row = AccountDeletion.objects.filter(pk=deletion_id).first()
    if row is None:
        return "gone"
    with transaction.atomic():
        # The user's row first (a sign-in's reopening takes the same lock: accounts.closing).
        user = User.objects.select_for_update().get(pk=row.user_id)
        deletion = AccountDeletion.objects.select_for_update().select_related("user").get(pk=row.pk)
        if not due(deletion, now):
            return "not due"
        leave_games(user, deletion.running_games)
        erase(user, now)
        deletion.status = AccountDeletion.Status.DONE
        deletion.finished_at = now
        deletion.save(update_fields=["status", "finished_at"])
    return "deleted"


# -- the games -------------------------------------------------------------------------------


def leave_games(user: User, running_games: str) -> None:
    """Stop waiting for a game ("Play now"), withdraw from every tournament not over (no
    more pairing; results stand), resign or hand over every running game, give up every seat
    in a game not started."""
    with contextlib.suppress(GameError):  # not waiting (any more)
        seek_cancel(user=user)
    for entry in Entry.objects.filter(
        user=user,
        withdrawn_at__isnull=True,
        tournament__status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING],
    ).select_related("tournament"):
        with contextlib.suppress(GameError):
            tournament_withdraw(tournament=entry.tournament, user=user)
    active = Game.objects.filter(
        status=Game.Status.ACTIVE, seats__user=user, seats__kind=Seat.Kind.HUMAN
    ).distinct()
    for game in active.order_by("pk"):
        seat = game.seats.get(user=user)
        if seat.is_ai or seat.index not in game.current_state().playing_seats():
            continue  # the computer plays it already, or they have resigned
        if running_games == AccountDeletion.RunningGames.RESIGN:
            try:
                game_resign(game=game, user=user)
                continue
            except GameError:
                pass  # R11.1: not in the setup round of three or four: the computer plays on
        hand_to_computer(game=game, seat=seat)
    waiting = Game.objects.filter(status=Game.Status.OPEN, seats__user=user).distinct()
    for game in waiting.order_by("pk"):
        with contextlib.suppress(GameError):  # started or cancelled meanwhile
            game_services.game_leave(game=game, user=user)


def hand_to_computer(*, game: Game, seat: Seat) -> None:
    """The computer plays ``seat`` for the rest of the game (as after three timeouts)."""
    with transaction.atomic():
        game = locked(game)
        seat = game.seats.get(pk=seat.pk)
        if game.status != Game.Status.ACTIVE or seat.is_ai:
            return
        seat.ai_takeover, seat.ai_level = True, COMPUTER_LEVEL
        seat.save(update_fields=["ai_takeover", "ai_level"])
        after_change(game, game.current_state())


# -- what is personal ------------------------------------------------------------------------


def _rename_in(queryset, field: str, names: set[str], new: str) -> None:
    """Replace the player's names (whole words, any case) in ``field`` of the rows that
    mention one."""
    names = {n for n in names if n}
    if not names:
        return
    longest_first = sorted(names, key=len, reverse=True)
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(re.escape(n) for n in longest_first) + r")(?!\w)", re.IGNORECASE
    )
    query = Q()
    for name in names:
        query |= Q(**{f"{field}__icontains": name})
    for pk, text in queryset.filter(query).values_list("pk", field):
        renamed = pattern.sub(new, text)
        if renamed != text:
            queryset.filter(pk=pk).update(**{field: renamed})


def _end_sessions(user: User) -> None:
    """Every session signed in as the player, from the database and the cache."""
    key = str(user.pk)
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get("_auth_user_id") == key:
            SessionStore(session_key=session.session_key).delete()


def erase(user: User, now) -> None:
    """Remove what is personal about ``user`` (under the lock of their row)."""
    old_names = {user.username, user.display_name, user.email}
    new_name = deleted_username(user.pk)
    shown = f"deleted player {user.pk}"
    # The staff's logs: a hidden chat line's log quotes it; the rest name the player.
    hidden = list(ChatMessage.objects.filter(user=user, hidden=True).values_list("pk", flat=True))
    for pk in hidden:
        ModerationLog.objects.filter(target__startswith=f"#{pk} by ").update(
            target=f"#{pk} by {shown}: {DELETED_TEXT}"
        )
    _rename_in(ModerationLog.objects.all(), "target", old_names, shown)
    _rename_in(Report.objects.filter(reported_user=user), "reason", old_names, shown)
    _rename_in(LogEntry.objects.all(), "object_repr", old_names, shown)
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(User), object_id=str(user.pk)
    ).update(object_repr=shown)
    # What they wrote.
    ChatMessage.objects.filter(user=user).update(text=DELETED_TEXT)
    Report.objects.filter(reporter=user).update(reason=DELETED_TEXT)
    # Devices, webhook, settings, blocks, vacations, exports, notices' bookkeeping, addresses.
    PushSubscription.objects.filter(user=user).delete()
    NoticeSettings.objects.filter(user=user).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    Vacation.objects.filter(user=user).delete()
    zips = [path_of(e) for e in DataExport.objects.filter(user=user).exclude(file_name="")]
    DataExport.objects.filter(user=user).delete()
    # The files once the rows are gone for good (a rolled-back deletion keeps both).
    transaction.on_commit(lambda: [z.unlink(missing_ok=True) for z in zips], robust=True)
    for model in (TurnNotice, DeviceNotice, DigestNotice):
        model.objects.filter(user=user).delete()
    EmailAddress.objects.filter(user=user).delete()
    _end_sessions(user)
    # The row itself: kept (games, ratings and logs point at it), with nothing personal.
    defaults = {f.name: f.get_default() for f in User._meta.concrete_fields}
    user.username = new_name
    user.email = user.first_name = user.last_name = user.display_name = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = user.vacation_until = user.closed_at = None
    for field in ("language", "time_zone", "confirm_moves", "email_when_open"):
        setattr(user, field, defaults[field])
    for field in ("reminder_hours", "digest_hour"):
        setattr(user, field, defaults[field])
    user.email_turns = User.EmailTurns.NEVER
    user.date_joined = now
    user.deleted_at = now
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


# -- the moderators' side --------------------------------------------------------------------


def deletion_hold(*, deletion: AccountDeletion, staff, reason: str) -> None:
    """Pause a pending deletion (a moderation case needs the account as it is); logged."""
    with transaction.atomic():
        deletion = AccountDeletion.objects.select_for_update().get(pk=deletion.pk)
        if deletion.status != AccountDeletion.Status.PENDING:
            raise Conflict(_("this deletion is not pending"))
        if deletion.held_at is not None:
            raise Conflict(_("this deletion is held already"))
        _log(staff, "hold account deletion", str(deletion.user), reason)
        deletion.held_at, deletion.held_by, deletion.hold_reason = timezone.now(), staff, reason
        deletion.save(update_fields=["held_at", "held_by", "hold_reason"])


def deletion_release(*, deletion: AccountDeletion, staff, reason: str) -> None:
    """Lift a hold: the deletion runs at the next sweep if its grace period is over; logged."""
    with transaction.atomic():
        deletion = AccountDeletion.objects.select_for_update().get(pk=deletion.pk)
        if deletion.held_at is None:
            raise Conflict(_("this deletion is not held"))
        _log(staff, "release account deletion", str(deletion.user), reason)
        deletion.held_at, deletion.held_by = None, None
        deletion.save(update_fields=["held_at", "held_by"])


def deletion_approve(*, deletion: AccountDeletion, staff, reason: str) -> None:
    """A staff account's deletion needs another staff member: ``staff`` approves it; logged.
    Refused for the account's own owner, for someone not staff, and when not needed."""
    if not staff.is_staff or not staff.is_active:
        raise NotAllowed(_("only a staff member can approve a deletion"))
    with transaction.atomic():
        deletion = (
            AccountDeletion.objects.select_for_update().select_related("user").get(pk=deletion.pk)
        )
        if deletion.user_id == staff.pk:
            raise NotAllowed(_("another staff member must approve your own account's deletion"))
        if deletion.status != AccountDeletion.Status.PENDING:
            raise Conflict(_("this deletion is not pending"))
        if not deletion.needs_approval:
            raise Conflict(_("this deletion needs no approval"))
        _log(staff, "approve account deletion", str(deletion.user), reason)
        deletion.approved_by = staff
        deletion.save(update_fields=["approved_by"])
