"""Personal access tokens: made, looked up, counted and revoked (the app's own write path).

A secret is ``blk_`` and 43 characters of ``secrets.token_urlsafe(32)``; the database keeps its
sha256 and its first PREFIX_LENGTH characters. A request's token is looked up by that prefix and
its hash compared with ``hmac.compare_digest``, so the time an answer takes tells nothing about
how much of a guessed secret was right. Every request reads the token and its user again: a
revoked token or a deactivated player is refused at once, with no session or cache in between.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from api.models import AccessToken

SECRET_START = "blk_"
PREFIX_LENGTH = 12  # "blk_" and 8 characters of the secret: shown, never enough to use
MAX_TOKENS = 20  # live tokens per player
NAME_LENGTH = 100
# Requests a token may make per minute (a fixed window in the cache, as the chat's limit):
# a program polling once a second stays well inside; the streams count once per connection.
RATE_PER_MINUTE = 120
# last_used_at is written at most this often per token: not a write on every request.
TOUCH_SECONDS = 60


class TokenError(Exception):
    """A token request refused; ``status`` is the HTTP answer."""

    status = 400


class RateLimited(TokenError):
    status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Issued:
    token: AccessToken
    secret: str  # shown once, never stored


def hashed(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def clean_scopes(scopes) -> list[str]:
    """The scopes asked for, in the registry's order; unknown ones refused by name."""
    asked = [str(s).strip() for s in scopes if str(s).strip()]
    unknown = sorted(set(asked) - set(AccessToken.Scope.values))
    if unknown:
        raise TokenError(
            _("unknown scope %(scope)s (one of %(scopes)s)")
            % {"scope": ", ".join(unknown), "scopes": ", ".join(AccessToken.Scope.values)}
        )
    if not asked:
        raise TokenError(_("choose at least one scope"))
    return [s for s in AccessToken.Scope.values if s in asked]


def token_issue(*, user, name: str, scopes) -> Issued:
    """A new token for ``user``; its secret is in the answer and nowhere else."""
    name = " ".join(str(name).split())[:NAME_LENGTH]
    if not name:
        raise TokenError(_("give the token a name (what will use it)"))
    chosen = clean_scopes(scopes)
    if "bot" in chosen and not is_bot(user):
        raise TokenError(_("only a bot account can have a token with the bot scope"))
    with transaction.atomic():
        live = AccessToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True)
        if len(live) >= MAX_TOKENS:
            raise TokenError(
                _("you have %(count)d tokens: revoke one you no longer use first")
                % {"count": MAX_TOKENS}
            )
        secret = SECRET_START + secrets.token_urlsafe(32)
        token = AccessToken.objects.create(
            user=user,
            name=name,
            scopes=" ".join(chosen),
            prefix=secret[:PREFIX_LENGTH],
            hashed=hashed(secret),
        )
    return Issued(token, secret)


def token_revoke(*, user, token_id: int) -> AccessToken | None:
    """Revoke one of ``user``'s tokens (None: no such token of theirs). Revoking twice keeps
    the first time."""
    token = AccessToken.objects.filter(user=user, pk=token_id).first()
    if token is not None and token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def authenticate(secret: str) -> AccessToken | None:
    """The live token ``secret`` names, with its user, or None: unknown, malformed, revoked, or
    its player deactivated."""
    if not secret.startswith(SECRET_START) or not 20 <= len(secret) <= 80:
        return None
    digest = hashed(secret)
    found = None
    candidates = AccessToken.objects.filter(prefix=secret[:PREFIX_LENGTH]).select_related("user")
    for token in candidates:
        if hmac.compare_digest(token.hashed, digest):
            found = token
    if found is None or found.revoked_at is not None or not found.user.is_active:
        return None
    now = timezone.now()
    if found.last_used_at is None or (now - found.last_used_at).total_seconds() > TOUCH_SECONDS:
        AccessToken.objects.filter(pk=found.pk).update(last_used_at=now)
        found.last_used_at = now
    return found


def _now() -> float:  # the rate limit's clock (tests move it)
    return time.time()


def count_request(token: AccessToken) -> None:
    """Count one request against the token's minute, or raise RateLimited with the seconds
    until the next minute. ``add`` then ``incr`` are atomic in Redis: concurrent requests
    cannot both slip under the limit."""
    now = _now()
    window = int(now // 60)
    key = f"api-rate:{token.hashed[:24]}:{window}"  # by the secret: a row id may come back
    cache.add(key, 0, timeout=65)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr, or the cache is away: a first request
        cache.set(key, 1, timeout=65)
        count = 1
    if count > RATE_PER_MINUTE:
        retry_after = max(1, int((window + 1) * 60 - now) + 1)
        raise RateLimited(
            _("too many requests: at most %(count)d a minute per token (try again in %(s)d s)")
            % {"count": RATE_PER_MINUTE, "s": retry_after},
            retry_after,
        )


def is_bot(user) -> bool:
    """Whether ``user`` is a bot account (api.bots); False until bot accounts exist."""
    return bool(getattr(user, "api_bot", None))
