"""Who may see a game: the game page's rule (``game_for_viewer``), the same rule for every list
that names games (``visible_to``), and the handles the write paths start from.

A private game is visible to its seated and invited players, to staff, and to whoever holds its
invite link; to anyone else it does not exist (404, not 403: no probing for ids).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import FilteredRelation, Q
from django.http import Http404
from django.utils.translation import gettext as _

from games.models import Game, Seat
from games.selectors import hot


@dataclass(frozen=True)
class Viewed:
    """A game as one reader may see it: the game, the reader's own seat (None for a spectator or
    a visitor) and every seat of the table in seat order, each with its player (``seat.user``,
    ``seat.game`` set: reading them costs no query)."""

    game: Game
    seat: Seat | None
    seats: tuple[Seat, ...]


def game_for_viewer(public_id: str, user, *, token: str = "") -> Viewed:
    """The game, the viewer's seat and the table's seats, or 404 (see the module's rule).

    One query: the game joined with its seats and their users (``hot.game_with_seats``); the
    viewer's seat, the invitation check and the names at the table all come from it."""
    found = hot.game_with_seats(public_id)
    if found is None:
        raise Http404(_("no such game"))
    game, seats = found
    seat = None
    if user is not None and user.is_authenticated:
        mine = [s for s in seats if s.user_id == user.pk]
        seat = next((s for s in mine if s.kind == Seat.Kind.HUMAN), None)
        invited = any(s.kind == Seat.Kind.INVITED for s in mine)
        if seat is None and not invited and not user.is_staff:
            _require_public(game, token)
    else:
        _require_public(game, token)
    return Viewed(game, seat, tuple(seats))


def _require_public(game: Game, token: str) -> None:
    if game.visibility != Game.Visibility.PUBLIC and token != game.invite_token:
        raise Http404(_("no such game"))


def game_to_move(public_id: str) -> Game:
    """The game a move is sent to, as a handle with its public id only: no query here, the write
    path locks the row by that id and reads it (``services.actions.locked``; no such game: its
    NotFound, a 404). Who may move is the write path's check, not a read."""
    return Game(public_id=public_id)


def game_by_public_id(public_id: str) -> Game | None:
    """The game, visible or not: for answering an invitation, which checks the seat itself
    (services.invitation_accept/decline) and says the same for a missing game."""
    return Game.objects.filter(public_id=public_id).select_related("created_by").first()


# The seats that let their user see a private game (game_for_viewer's rule): a player's own
# seat (the computer playing it or not) and an invitation not yet answered.
SEEING_KINDS = (Seat.Kind.HUMAN, Seat.Kind.INVITED)


def visible_to(rows, viewer, *, via: str = ""):
    """``rows`` (games, or rows with a game at ``via``: seats, rating changes) narrowed by
    game_for_viewer's rule, for every list that names a game: a public game, or a private one
    where ``viewer`` is seated or invited; staff see every game. (The invite link is not part of
    it: a list has no token.)

    The viewer's seat is a left join, one index probe (game and user) per row read, so that a
    page read through an index stops after a page. (An EXISTS in the OR let PostgreSQL hash
    every seat of the viewer first: 150 ms for a viewer with 100,000 games.)"""
    if viewer is not None and viewer.is_authenticated and viewer.is_staff:
        return rows
    prefix = f"{via}__" if via else ""
    public = Q(**{f"{prefix}visibility": Game.Visibility.PUBLIC})
    if viewer is None or not viewer.is_authenticated:
        return rows.filter(public)
    seats = f"{prefix}seats"
    reader = FilteredRelation(
        seats, condition=Q(**{f"{seats}__user": viewer, f"{seats}__kind__in": SEEING_KINDS})
    )
    return rows.annotate(reader_seat=reader).filter(public | Q(reader_seat__isnull=False))
