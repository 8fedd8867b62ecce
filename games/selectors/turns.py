"""Facts about turns that the write path, the deadline scan and the emails share."""

from __future__ import annotations

from games.models import Action

TIMEOUTS_BEFORE_TAKEOVER = 3  # timeouts in a row after which the computer keeps the seat


def turn_start_ply(game_id: int, seat_index: int) -> int:
    """The ply at which ``seat_index``'s current turn began: the last action of another seat.

    The move clock (``Game.turn_started_at``) restarts exactly there, when another seat hands
    over control; a seat that plays several decisions in a row (card, colour, placement, or a
    second colour after a Skip) is still on the same turn. 0 before the first action.
    """
    last = (
        Action.objects.filter(game_id=game_id, out_of_turn=False)
        .exclude(seat=seat_index)
        .order_by("-ply")
        .values_list("ply", flat=True)
        .first()
    )
    return last or 0


def last_mover(game_id: int) -> int | None:
    """The seat of the game's latest action still standing (not taken back); None before the
    first. A refused stale move says whether the player's own other tab moved, or another."""
    return (
        Action.objects.filter(game_id=game_id, taken_back=False)
        .order_by("-ply")
        .values_list("seat", flat=True)
        .first()
    )
