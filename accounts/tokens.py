"""The one-click unsubscribe link of every email (RFC 8058): a signed token naming the user.

The salt keeps its old value so that the links in emails already sent keep working."""

from __future__ import annotations

from django.core import signing

UNSUBSCRIBE_SALT = "games.emails.unsubscribe"
UNSUBSCRIBE_PURPOSE = "turn-emails"


def unsubscribe_token(user) -> str:
    """A signed, non-expiring token naming the user and what the link switches off."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object(
        {"user": user.pk, "purpose": UNSUBSCRIBE_PURPOSE}
    )


def unsubscribe_user_id(token: str) -> int | None:
    """The user id in a genuine token, or None for a tampered or foreign one."""
    try:
        data = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    except (signing.BadSignature, ValueError):
        return None
    if not isinstance(data, dict) or data.get("purpose") != UNSUBSCRIBE_PURPOSE:
        return None
    user_id = data.get("user")
    return user_id if isinstance(user_id, int) else None
