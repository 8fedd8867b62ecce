"""Shared test helpers: finished games written as rows (the history lists read rows, not play)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.models import Game, Rating, RatingChange, Seat

START = datetime(2026, 1, 1, tzinfo=UTC)


def finished_games(players, count, *, visibility="public", mode="classic", rated=False):
    """``count`` finished 2-player games between ``players`` (rows written directly: the lists
    read the rows, not the play), the first player winning every other one; rated games get
    a rating change per player, as the write path leaves them."""
    games = Game.objects.bulk_create(
        Game(
            created_by=players[0],
            mode=mode,
            players=2,
            status=Game.Status.FINISHED,
            visibility=visibility,
            ply=40,
            started_at=START + timedelta(hours=i),
            finished_at=START + timedelta(hours=i, minutes=30),
        )
        for i in range(count)
    )
    seats, changes = [], []
    for i, game in enumerate(games):
        places = (1, 2) if i % 2 == 0 else (2, 1)
        for index, (user, place) in enumerate(zip(players, places, strict=True)):
            seats.append(
                Seat(
                    game=game,
                    index=index,
                    kind=Seat.Kind.HUMAN,
                    user=user,
                    final_place=place,
                    final_score=place * 3,
                )
            )
            if rated:
                before = 1000 + 10 * i
                changes.append(
                    RatingChange(game=game, user=user, mode=mode, before=before, after=before + 10)
                )
    Seat.objects.bulk_create(seats)
    RatingChange.objects.bulk_create(changes)
    return games


def rated(*users, mode="classic"):
    for user in users:
        Rating.objects.create(user=user, mode=mode, mu=30, sigma=5, ordinal=15, games=6)
