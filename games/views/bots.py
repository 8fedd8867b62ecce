"""A bot account plays through the API only: the pages that play refuse its session (a move,
a new game, Play now, taking a seat), each with the same words."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import services
from games.models import is_bot


def bot_refusal() -> str:
    return _("a bot account plays through the API only, not from the site's pages")


def refuse_bot(user) -> None:
    """Raise NotAllowed (403) for a bot account's session."""
    if is_bot(user):
        raise services.NotAllowed(bot_refusal())
