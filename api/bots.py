"""Bot accounts: an account becomes a bot (irreversibly) on its Settings page, confirmed by
typing its username. A bot plays through the API only (a ``bot`` token); games refuses its
session on the pages that play (games.views), keeps it out of rated Play now tables with humans
(games.services.seeks) and out of tournaments that do not allow bots
(games.services.tournaments), reading ``user.api_bot`` by name (games.models.BOT_RELATION).

Only an account without games may become one: a bot's results and rating are a program's from
its first game, never mixed with a person's."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from api.models import BotAccount
from games.models import Entry, Seat, Seek


class BotError(Exception):
    """Becoming a bot refused, with the reason."""


def bot_account_make(*, user, confirm: str) -> BotAccount:
    """Make ``user`` a bot account; ``confirm`` must be its username, typed again."""
    if confirm.strip() != user.username:
        raise BotError(_("type your username exactly to confirm"))
    with transaction.atomic():
        # The user's row locked: no game is joined between the check and the change.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if BotAccount.objects.filter(user=user).exists():
            raise BotError(_("this account is a bot account already"))
        if (
            Seat.objects.filter(user=user).exists()
            or Seek.objects.filter(user=user).exists()
            or Entry.objects.filter(user=user).exists()
        ):
            raise BotError(
                _(
                    "only an account that has never played (no games, no Play now request, no "
                    "tournament) can become a bot account: make a new account for your bot"
                )
            )
        return BotAccount.objects.create(user=user)
