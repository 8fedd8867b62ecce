"""The game panel's reads for one request, and the key of its cached render.

The panel (the ``#game`` section of the game page) is rendered once per key and served from the
cache (games/views/game.py). Its key is the digest of everything the panel reads that a request
has in hand before rendering: the game's row, every seat's row and the name and vacation of its
player, the presenters' plain facts (``table.TableFacts``) and the names at the table, the
reader's language, the invite token and the selection. The rest of what a render reads follows
from those: the reader's snapshot and the move log from the game's state and ply, the take back
controls from the facts' take back rows. A new field of the game or of a seat is part of the key
by construction; tests/games/test_panel_cache.py changes each input in turn and watches the key
change.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.utils import translation

from games.models import known_bot
from games.selectors.access import Viewed
from games.selectors.table import TableFacts, seat_labels, seat_profiles, table_facts


@dataclass(frozen=True)
class PanelReads:
    """What the panel's render takes from the database for one request (``facts``, ``labels``)
    and the key of that render in the cache."""

    facts: TableFacts
    labels: dict[int, str]
    profiles: dict[int, str]
    key: str


def panel_reads(viewed: Viewed, user, token: str, selection: tuple[str, ...]) -> PanelReads:
    """The panel's reads for ``user`` (``token``: the invite link's; ``selection``: the
    wizard's piece, orientation and source as the request asks for them)."""
    game = viewed.game
    labels = seat_labels(viewed.seats)
    profiles = seat_profiles(viewed.seats)  # the names' links: the same for every reader
    facts = table_facts(viewed, user, token)
    read = [
        _row(game),
        [[_row(seat), _player(seat.user)] for seat in viewed.seats],
        repr(facts),
        sorted(labels.items()),
        sorted(profiles.items()),
        translation.get_language(),
        token,
        list(selection),
    ]
    digest = hashlib.blake2b(json.dumps(read, default=str).encode(), digest_size=16).hexdigest()
    return PanelReads(
        facts=facts,
        labels=labels,
        profiles=profiles,
        key=f"panel:{game.public_id}:{game.ply}:{digest}",
    )


def _row(obj) -> list:
    """Every column of a model instance's row."""
    return [getattr(obj, field.attname) for field in type(obj)._meta.concrete_fields]


def _player(user) -> list | None:
    """What the panel reads of a seat's player: their name (the labels, the game's name), their
    profile's address (the names' links), the end of their vacation (the labels, the clock)
    and whether they are a bot account (the labels: read with the seats, games.selectors.hot)."""
    if user is None:
        return None
    return [user.pk, str(user), user.username, user.is_active, user.vacation_until, known_bot(user)]
