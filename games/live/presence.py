"""Who has a page of the site open: each open page's socket marks its user online (and again with
every ping, every 25 s); a turn email waits for a player who is away."""

from __future__ import annotations

import time

from django.core.cache import cache

ONLINE_SECONDS = 90  # a page's socket says it is alive every 25-30 s


def mark_online(user_id: int) -> None:
    cache.set(f"online:{user_id}", time.time(), ONLINE_SECONDS)


def mark_offline(user_id: int) -> None:
    cache.delete(f"online:{user_id}")


def is_online(user_id: int) -> bool:
    """Whether the user has a page of the site open (no turn email then)."""
    seen = cache.get(f"online:{user_id}")
    return seen is not None and time.time() - seen < ONLINE_SECONDS
