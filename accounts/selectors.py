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


RECENT_GAMES = 10


def recent_results(user, limit: int = RECENT_GAMES) -> list[dict]:
    """The player's last finished games, newest first: when, mode, the others at the table,
    their place and score (written once at the end, never re-scored here)."""
    seats = (
        Seat.objects.filter(user=user, game__status=Game.Status.FINISHED, final_place__isnull=False)
        .select_related("game")
        .prefetch_related("game__seats__user")
        .order_by("-game__finished_at", "-game__pk")[:limit]
    )
    out = []
    for seat in seats:
        game = seat.game
        others = [s.label for s in game.seats.all() if s.pk != seat.pk]
        out.append(
            {
                "game": game,
                "when": game.finished_at or game.started_at,
                "others": others,
                "place": seat.final_place,
                "score": seat.final_score,
                "won": seat.final_place == 1,
            }
        )
    return out
