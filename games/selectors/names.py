"""How a game is named in words: its page's title, the notices' and the emails' subject."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.models import Game, Seat


def game_name(game: Game, seats: Iterable[Seat] | None = None) -> str:
    """A game as its page names it, by its players and mode: "alice vs bob · Shuffle" (the
    random id stays in the URL). A player with two seats is named once; a seat nobody has
    taken yet by its kind, the computer by its level. ``seats`` (with their users, as
    ``access.Viewed.seats``) spares the query where the caller has them."""
    if seats is None:
        seats = game.seats.select_related("user")
    names: list[str] = []
    for seat in sorted(seats, key=lambda s: s.index):
        if seat.kind == Seat.Kind.AI:
            name = _("Computer (%(level)s)") % {"level": seat.get_ai_level_display()}
        elif seat.user is not None:
            name = str(seat.user)
        else:
            name = seat.get_kind_display()
        if name not in names:
            names.append(name)
    players = names[0] if names else ""
    for name in names[1:]:
        players = _("%(first)s vs %(second)s") % {"first": players, "second": name}
    mode = (
        pgettext("mode", "Shuffle")
        if game.mode == Game.Mode.SHUFFLE
        else pgettext("mode", "Classic")
    )
    return _("%(players)s · %(mode)s") % {"players": players, "mode": mode}


def profile_path(user) -> str:
    """The address of a player's profile, or "" where there is none to show (a closed or
    deleted account: the profile page answers 404). The same for every reader, so that the
    game's panel, cached for all its readers alike (games/views/game.py), may carry it."""
    if user is None or not user.is_active or user.deleted_at is not None:
        return ""
    return reverse("profile", args=[user.username])


def seat_profile(seat: Seat) -> str:
    """A seat's player's profile address; "" for a computer seat and a seat nobody holds."""
    if seat.kind in (Seat.Kind.AI, Seat.Kind.OPEN, Seat.Kind.LINK):
        return ""
    return profile_path(seat.user)
