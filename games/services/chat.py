"""The write path of chat and reports (STYLE.md habit 4): ``chat_post`` and ``report_create``.

Staff moderation (hiding a message, resolving a report, ...) lives in ``games.services`` with
the other moderation services; these two are what players do. Both are keyword-only and atomic;
who may *see* a game is the views' business (``selectors.access.game_for_viewer``), who may
*write* is checked here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy, ngettext

from accounts.names import visible_text
from games.live import nudges
from games.models import ChatMessage, Game, Report
from games.services import GameError, NotAllowed, seat_for

User = get_user_model()


class RateLimited(GameError):
    status = 429

    def __init__(self, message: str, *, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class ChatLimit:
    count: int
    seconds: int
    words: str  # "10 seconds": for the refusal message (lazy: in the poster's language)


# A burst of a few lines is conversation; more is flooding. Both windows apply.
CHAT_LIMITS = (
    ChatLimit(count=5, seconds=10, words=gettext_lazy("10 seconds")),
    ChatLimit(count=30, seconds=600, words=gettext_lazy("10 minutes")),
)

REPORT_REASON_MAX = 500

# The refusals of clean_text, one whole sentence per kind of text (``what``).
EMPTY = {
    "message": gettext_lazy("the message is empty: write something first"),
    "reason": gettext_lazy("the reason is empty: write something first"),
}


def _too_long(what: str, max_length: int, length: int) -> str:
    if what == "reason":
        text = ngettext(
            "the reason is too long: at most %(max)d character (this one has %(n)d)",
            "the reason is too long: at most %(max)d characters (this one has %(n)d)",
            max_length,
        )
    else:
        text = ngettext(
            "the message is too long: at most %(max)d character (this one has %(n)d)",
            "the message is too long: at most %(max)d characters (this one has %(n)d)",
            max_length,
        )
    return text % {"max": max_length, "n": length}


def _now() -> float:  # the rate limit's clock (tests move it)
    return time.time()


def clean_text(text: str, *, what: str, max_length: int) -> str:
    """Plain text on one line, stripped, 1..max_length characters, or GameError naming the rule.

    Control characters (newlines, tabs, escapes) become spaces and format characters (U+202E and
    the rest of Unicode category Cf) are dropped (accounts.names.visible_text): chat lines are
    single lines, and nothing invisible should reach other players' screens. Escaping for HTML
    happens on output (template autoescape), never here.
    """
    text = visible_text(text)
    if not text:
        raise GameError(str(EMPTY[what]))
    if len(text) > max_length:
        raise GameError(_too_long(what, max_length, len(text)))
    return text


def _rate_limit(user) -> None:
    """Count this post against the user's windows, or raise RateLimited.

    Fixed windows with ``cache.add`` + ``cache.incr``: both are atomic in Redis and memcached, so
    concurrent posts cannot both slip under the limit (a read-then-write count could). The price
    of fixed windows is that a burst straddling a window's edge may reach twice the count; that is
    still far from flooding. The short window is counted first, so posts it refuses do not eat
    into the long window's allowance.
    """
    now = _now()
    for limit in CHAT_LIMITS:
        window = int(now // limit.seconds)
        key = f"chat-rate:{user.pk}:{limit.seconds}:{window}"
        cache.add(key, 0, timeout=limit.seconds + 5)
        try:
            count = cache.incr(key)
        except ValueError:  # the key expired between add and incr: this is the first post
            cache.set(key, 1, timeout=limit.seconds + 5)
            count = 1
        if count > limit.count:
            retry_after = max(1, int((window + 1) * limit.seconds - now) + 1)
            raise RateLimited(
                gettext(
                    "slow down: at most %(count)d messages in %(window)s "
                    "(try again in %(seconds)d s)"
                )
                % {"count": limit.count, "window": limit.words, "seconds": retry_after},
                retry_after=retry_after,
            )


def chat_room(game: Game, user, seated: bool) -> tuple[str | None, str]:
    """Where ``user`` may write in ``game``'s chat: (room, "") or (None, why not). The one
    definition of "who may chat", read by ``chat_post`` and by the chat panel's form."""
    if user is None or not user.is_authenticated or not user.is_active:
        return None, gettext("log in to write in the chat")
    if game.status == Game.Status.ABORTED:
        return None, gettext("this game was aborted: its chat is closed")
    if seated:
        return ChatMessage.Room.PLAYERS, ""
    if game.visibility != Game.Visibility.PUBLIC:
        return None, gettext("only the players of this game can write in its chat")
    return ChatMessage.Room.SPECTATORS, ""


def chat_post(*, game: Game, user, text: str) -> ChatMessage:
    """Post a line to the game's chat: a seated player to the players' room, anyone else signed
    in (a public game's spectator) to the spectators' room, which the players see only once the
    game is over."""
    seated = user is not None and user.is_authenticated and seat_for(game, user) is not None
    room, refusal = chat_room(game, user, seated)
    if room is None:
        raise NotAllowed(refusal)
    text = clean_text(text, what="message", max_length=ChatMessage.MAX_LENGTH)
    _rate_limit(user)  # after the checks: a refused or empty message costs nothing
    with transaction.atomic():
        line = ChatMessage.objects.create(game=game, user=user, text=text, room=room)
        public_id = game.public_id
        # Every page on the game fetches the lines its viewer may read (not pushed: rooms,
        # blocks and moderation differ per viewer).
        transaction.on_commit(lambda: nudges.chat_posted(public_id), robust=True)
        return line


def report_create(
    *,
    reporter,
    reason: str,
    message: ChatMessage | None = None,
    reported_user=None,
    game: Game | None = None,
) -> tuple[Report, bool]:
    """Put a chat message or a player in the moderators' queue. Returns (report, created).

    The target is either ``message`` (its author and game are recorded with it) or
    ``reported_user`` (optionally in ``game``). A reporter's open report on the same target is
    returned instead of a second one: the queue counts problems, not clicks.
    """
    if (message is None) == (reported_user is None):
        raise GameError(gettext("report either a chat message or a player"))
    if message is not None:
        reported_user, game = message.user, message.game
    if reported_user.pk == reporter.pk:
        raise GameError(gettext("you can't report yourself"))
    reason = clean_text(reason, what="reason", max_length=REPORT_REASON_MAX)
    with transaction.atomic():
        # Locking the reporter's row serializes their reports, so a double click cannot slip
        # two identical reports past the duplicate check below.
        User.objects.select_for_update().filter(pk=reporter.pk).first()
        open_reports = Report.objects.filter(reporter=reporter, status=Report.Status.OPEN)
        if message is not None:
            same = open_reports.filter(message=message)
        else:  # a player is one target whichever game the report names
            same = open_reports.filter(reported_user=reported_user, message__isnull=True)
        existing = same.first()
        if existing is not None:
            return existing, False
        report = Report.objects.create(
            reporter=reporter,
            reported_user=reported_user,
            game=game,
            message=message,
            reason=reason,
        )
    return report, True
