"""Read queries for the accounts pages."""

from __future__ import annotations

from dataclasses import dataclass

from games import engine
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
    Scores come from the engine's final position, so they follow the rules (R8) exactly.
    """
    seats = Seat.objects.filter(
        user=user, kind=Seat.Kind.HUMAN, game__status=Game.Status.FINISHED
    ).select_related("game")
    played = won = 0
    total = 0
    for seat in seats:
        if not seat.game.state:
            continue
        final = engine.score(engine.State.from_json(seat.game.state))
        mine = next((p for p in final["players"] if p["seat"] == seat.index), None)
        if mine is None:
            continue
        played += 1
        won += mine["place"] == 1  # a shared first place is a win for each of its players
        total += mine["score"]
    return PlayerStats(
        played=played, won=won, average_score=round(total / played, 1) if played else None
    )
