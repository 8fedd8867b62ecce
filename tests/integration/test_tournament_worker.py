"""Tournaments on real services: a 24-player Swiss of four-player tables and a round robin of
two-player games, every game played to its end by the computer in a Celery worker process
(each player's seat handed to it through the moderation service), each round started by the
worker when the last game of the previous one ends, on PostgreSQL and Redis. CI-size: two
Swiss rounds, and a round robin of six players (five rounds)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Seat, Tournament
from games.selectors import tournaments as reads
from games.services import tournaments
from tests.integration.helpers import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def run_to_the_end(tournament, staff, worker, *, timeout: float) -> None:
    """Hand every new game's seats to the computer (Beginner) until the tournament is over;
    the worker plays the games and starts the rounds."""

    def step():
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return True
        for seat in Seat.objects.filter(
            game__tournament_table__tournament=tournament,
            game__status=Game.Status.ACTIVE,
            kind=Seat.Kind.HUMAN,
            ai_takeover=False,
        ).select_related("game"):
            services.seat_hand_to_ai(
                seat=seat, staff=staff, reason="the test's computer players", level="beginner"
            )
        return False

    wait_for(step, what="the tournament's end", timeout=timeout, every=0.5, log=worker.log)


def open_tournament(creator, players, **settings):
    tournament = tournaments.tournament_create(
        creator=creator,
        name=settings.pop("name"),
        mode="classic",
        move_seconds=3600,
        min_players=len(players),
        max_players=len(players),
        starts_at=timezone.now() + timedelta(minutes=5),
        **settings,
    )
    for player in players[1:]:
        tournaments.tournament_register(tournament=tournament, user=player)
    return tournament


def test_a_swiss_of_four_player_tables_and_a_round_robin_run_by_themselves(
    make_user, dave, broker, workers
):
    swiss_players = [make_user(f"s{i:02d}") for i in range(24)]
    robin_players = [make_user(f"r{i:02d}") for i in range(6)]
    swiss = open_tournament(
        swiss_players[0], swiss_players, name="Swiss 24", format="swiss", size=4, rounds=2
    )
    robin = open_tournament(
        robin_players[0], robin_players, name="Robin 6", format="round_robin", size=2
    )
    broker.connect()
    worker = workers.start()
    # The beat's sweep, as if the start time had come.
    later = timezone.now() + timedelta(minutes=6)
    assert tournaments.tournament_start(swiss.pk, now=later) == "started"
    assert tournaments.tournament_start(robin.pk, now=later) == "started"
    run_to_the_end(swiss, dave, worker, timeout=600)
    run_to_the_end(robin, dave, worker, timeout=600)

    swiss.refresh_from_db()
    robin.refresh_from_db()
    assert swiss.status == robin.status == Tournament.Status.FINISHED
    assert (swiss.round, robin.round, robin.rounds) == (2, 5, 5)
    for tournament, players, per_round in ((swiss, 24, 6), (robin, 6, 3)):
        games = Game.objects.filter(tournament_table__tournament=tournament)
        assert games.count() == per_round * tournament.rounds
        assert all(g.status == Game.Status.FINISHED for g in games)
        names, rows = reads.standings(tournament)
        assert len(rows) == players
        assert all(r.games == tournament.rounds for r in rows)
    # Swiss: six tables of four a round, every player once a round; points 6 a table.
    _names, rows = reads.standings(swiss)
    assert sum(r.points for r in rows) == pytest.approx(6 * 6 * 2)
    # Round robin of two: every pair met once, one point a game.
    met = reads.history(robin).met
    assert len(met) == 15 and set(met.values()) == {1}
    _names, rows = reads.standings(robin)
    assert sum(r.points for r in rows) == pytest.approx(15)
    assert worker.ran("games.tasks.tournament_advance") >= swiss.rounds + robin.rounds
