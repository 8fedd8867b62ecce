"""A player's profile in numbers: games played and won, the average score, the last results.
Places and scores were written once when each game finished (services.ratings.record_results,
from the engine's final position: R8), so a profile re-scores nothing and reads no game's state.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db.models import Count, Q, Sum
from django.utils import timezone

from games.models import Game, Seat
from games.selectors.access import visible_to
from games.selectors.lists import listed_seats, prefetch_seats


@dataclass(frozen=True)
class PlayerStats:
    played: int
    won: int
    # The mean of the player's final scores (basic: squares left, lower is better; advanced:
    # points, higher is better), None before the first finished game.
    average_score: float | None


# A finished game's transaction commits within this long of its finished_at: the counts of
# player_stats look this far back past their last count (and skip the games counted then).
STATS_MARGIN = timedelta(minutes=2)


def player_stats(user) -> PlayerStats:
    """Games played and won, and the average score, over the user's finished games.

    A seat the computer took over still counts for its player. Aborted games count for nothing.
    Places and scores were written once when each game finished (services.ratings.record_results,
    from the engine's final position: R8), so a profile view re-scores nothing.

    The sums are kept in the cache with the time they were counted to: a view counts only the
    player's games finished since (through game_finished_idx), so that a profile costs the same
    after 10 games or 100,000; a missing entry (a first view, an emptied cache)
    counts everything once, from seat_results_idx alone. A game finished just before the last
    count might have committed after it: the count looks STATS_MARGIN further back and skips
    the games it counted then.
    """
    key = f"player-stats:{user.pk}:{user.date_joined.timestamp():.6f}"
    known = cache.get(key)
    cut = timezone.now() - STATS_MARGIN
    # A seat has a place once its game has finished (record_results, in the transaction that
    # finishes it; a finished game is never aborted).
    settled = Seat.objects.filter(user=user, kind=Seat.Kind.HUMAN, final_place__isnull=False)
    finished = Game.objects.filter(status=Game.Status.FINISHED)  # game_finished_idx
    if known is None:
        # The first count: the sums of the games finished before the cut from seat_results_idx
        # alone, then the games finished since, one by one as later counts read them.
        since = cut
        recent_ids = finished.filter(finished_at__gt=cut).values("pk")
        totals = settled.exclude(game_id__in=recent_ids).aggregate(
            played=Count("pk"),
            # a shared first place is a win for each of its players
            won=Count("pk", filter=Q(final_place=1)),
            scored=Count("final_score"),
            total=Sum("final_score"),
        )
        sums = {name: value or 0 for name, value in totals.items()}
        counted = {}
    else:
        since = known["cut"]
        sums = {name: known[name] for name in ("played", "won", "scored", "total")}
        counted = known["recent"]
    recent = {game_id: when for game_id, when in counted.items() if when > cut}
    window = settled.filter(game__in=finished.filter(finished_at__gt=since))
    for game_id, when, place, score in window.values_list(
        "game_id", "game__finished_at", "final_place", "final_score"
    ):
        if game_id in counted:
            continue
        sums["played"] += 1
        sums["won"] += place == 1
        if score is not None:
            sums["scored"] += 1
            sums["total"] += score
        if when > cut:
            recent[game_id] = when  # the next count skips it
    cache.set(key, {**sums, "cut": cut, "recent": recent}, timeout=None)
    average = sums["total"] / sums["scored"] if sums["scored"] else None
    return PlayerStats(
        played=sums["played"],
        won=sums["won"],
        average_score=round(average, 1) if average is not None else None,
    )


RECENT_GAMES = 10


@dataclass(frozen=True)
class RecentRow:
    """One finished game of the player's as their profile lists it."""

    public_id: str
    when: datetime
    mode_name: str
    players: int
    others: tuple[str, ...]  # the other seats' labels
    place: int
    score: int | None
    won: bool


def recent_results(user, viewer, limit: int = RECENT_GAMES) -> tuple[RecentRow, ...]:
    """The player's last finished games that ``viewer`` may see (visible_to), newest first:
    when, mode, the others at the table, their place and score (written once at the end, never
    re-scored here). Read backwards through seat_history_idx, a page's worth whatever the
    history; no game's state. Two queries: the seats with their games, the games' seats."""
    seats = list(
        listed_seats(
            visible_to(
                Seat.objects.filter(
                    user=user, game__status=Game.Status.FINISHED, final_place__isnull=False
                ),
                viewer,
                via="game",
            ).order_by("-game_id")
        )[:limit]
    )
    prefetch_seats([seat.game for seat in seats])
    return tuple(
        RecentRow(
            public_id=seat.game.public_id,
            when=seat.game.finished_at or seat.game.started_at,
            mode_name=str(seat.game.get_mode_display()),
            players=seat.game.players,
            others=tuple(str(s.label) for s in seat.game.seats.all() if s.pk != seat.pk),
            place=seat.final_place,
            score=seat.final_score,
            won=seat.final_place == 1,
        )
        for seat in seats
    )
