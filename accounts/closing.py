"""Closing an account, asking for its deletion, and the sign-in that undoes both.

- **Closing** (``account_close``) makes the account inactive, with ``closed_at`` set: its profile
  answers 404, it leaves the leaderboard, and no notice goes out (every channel reads
  ``is_active``: the emails, the digest, Web Push and webhooks). Its sessions end with it (an
  inactive user's session is anonymous). Signing in again reopens it (``reopen``, from
  accounts.adapter): the password still works, since closing is the owner's own choice. A staff
  member's deactivation (games.services.moderation) leaves ``closed_at`` empty, and that
  account stays shut.
- **Deletion** (``deletion_request``) closes the account the same way and waits
  ``DELETION_GRACE_DAYS``; a sign-in meanwhile cancels it. The deletion itself needs the games
  (resigning, records), so it lives in games.services.accounts_deletion, run by a periodic task.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import AccountDeletion, User


class ClosingError(ValueError):
    """A request refused, with the reason to show."""


def account_close(*, user: User) -> None:
    """Close the account (hidden, no notices) until its owner signs in again."""
    User.objects.filter(pk=user.pk).update(is_active=False, closed_at=timezone.now())


def deletion_request(*, user: User, password: str, running_games: str) -> AccountDeletion:
    """Ask for the account's deletion, confirmed by the password; the account is closed at once
    and deleted after the grace period unless its owner signs in meanwhile. Refused, changing
    nothing, for a wrong password, an unknown choice for the running games, an account already
    deleted or a deletion already asked for."""
    if running_games not in AccountDeletion.RunningGames.values:
        raise ClosingError(_("choose what happens to your running games"))
    if not password or not user.check_password(password):
        raise ClosingError(_("the password is not right"))
    if user.deleted_at is not None:
        raise ClosingError(_("this account is deleted already"))
    now = timezone.now()
    try:
        with transaction.atomic():
            deletion = AccountDeletion.objects.create(
                user=user,
                running_games=running_games,
                requested_at=now,
                due_at=now + timedelta(days=settings.DELETION_GRACE_DAYS),
            )
            account_close(user=user)
    except IntegrityError:  # deletion_one_pending
        raise ClosingError(_("your account's deletion is already under way")) from None
    return deletion


def reopen(*, user: User) -> bool:
    """At a sign-in with the right password: a closed account opens again and a pending
    deletion is cancelled. Returns whether anything was undone. An account deactivated by staff
    (no ``closed_at``) or deleted stays as it is."""
    if user.closed_at is None or user.deleted_at is not None:
        return False
    with transaction.atomic():
        # The user's row first, as the deletion locks it: a deletion running now finishes, and
        # then there is nothing left to reopen.
        row = User.objects.select_for_update().filter(pk=user.pk).first()
        if row is None or row.closed_at is None or row.deleted_at is not None:
            return False
        AccountDeletion.objects.filter(user=user, status=AccountDeletion.Status.PENDING).update(
            status=AccountDeletion.Status.CANCELLED, finished_at=timezone.now()
        )
        User.objects.filter(pk=user.pk).update(is_active=True, closed_at=None)
    user.is_active, user.closed_at = True, None
    return True


def pending_deletion(user: User) -> AccountDeletion | None:
    return AccountDeletion.objects.filter(user=user, status=AccountDeletion.Status.PENDING).first()
