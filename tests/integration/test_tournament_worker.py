"""Tournaments on real services: a 24-player Swiss of four-player tables and a round robin of
two-player games, played to the end on PostgreSQL, each round started by a Celery worker
process (the task a game's end queues through Redis) when the last game of the previous round
has ended. The players' moves are random legal moves sent through the write path as a page
sends them (the computer's search is not what is tested here, and in a worker it would take
minutes). CI-size: two Swiss rounds, and a round robin of six players (five rounds)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine, services
from games.models import Game, Tournament
from games.selectors import tournaments as reads
from games.services import tournaments
from tests.integration.helpers import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def play_round(tournament, rng) -> bool:
    """Every game of the tournament in play, to its end, by random legal moves of its
    players; True once the tournament is over."""
    tournament.refresh_from_db()
    if tournament.status != Tournament.Status.RUNNING:
        return True
    for game in Game.objects.filter(
        tournament_table__tournament=tournament, status=Game.Status.ACTIVE
    ):
        while game.status == Game.Status.ACTIVE:
            state = game.current_state()
            seat = game.seats.get(index=state.controller())
            action = rng.choice(engine.legal_actions(state))
            services.action_submit(game=game, user=seat.user, action=action, expected_ply=game.ply)
            game.refresh_from_db()
    return False


def run_to_the_end(tournament, worker, rng, *, timeout: float) -> None:
    wait_for(
        lambda: play_round(tournament, rng),
        what=f"the end of {tournament}",
        timeout=timeout,
        every=0.2,
        log=worker.log,
    )


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
    make_user, broker, workers
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
    rng = random.Random(5)
    run_to_the_end(swiss, worker, rng, timeout=150)
    run_to_the_end(robin, worker, rng, timeout=150)

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
