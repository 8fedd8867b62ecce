"""Read queries for the accounts pages."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, Q

from games.models import Game, Seat


@dataclass(frozen=True)
class PlayerStats:
    played: int
    won: int
    # The mean of the player's final scores (basic: squares left, lower is better; advanced:
    # points, higher is better), None before the first finished game.
    average_score: float | None


def player_stats(user) -> PlayerStats:
    """Games played and won, and the average score, over the user's finished games.

    A seat the computer took over still counts for its player. Aborted games count for nothing.
    Places and scores were written once when each game finished (games.ratings.record_results,
    from the engine's final position: R8), so a profile view re-scores nothing.
    """
    totals = Seat.objects.filter(
        user=user,
        kind=Seat.Kind.HUMAN,
        game__status=Game.Status.FINISHED,
        final_place__isnull=False,
    ).aggregate(
        played=Count("pk"),
        # a shared first place is a win for each of its players
        won=Count("pk", filter=Q(final_place=1)),
        average=Avg("final_score"),
    )
    average = totals["average"]
    return PlayerStats(
        played=totals["played"],
        won=totals["won"],
        average_score=round(average, 1) if average is not None else None,
    )
