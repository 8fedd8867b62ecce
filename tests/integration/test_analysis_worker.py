"""The post-game analysis on real services: a Celery worker on Redis and PostgreSQL
runs it on the analysis queue; a worker killed mid-analysis leaves the decisions it stored, and
the restarted worker finishes from there, judging none of them again."""

from __future__ import annotations

import pytest

from games.models import DecisionAnalysis, Game, GameAnalysis
from tests.integration.helpers import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

ANALYSE = "games.tasks.analyse_game"
VISIBILITY = 1  # seconds: how soon the restarted worker's broker hands out an unacknowledged task
WORKER_ENV = {
    "ANALYSIS_SIMS": "24",
    "ANALYSIS_CHUNK_SECONDS": "3",
    "ANALYSIS_LEASE_SECONDS": "3",
    "AI_SEARCH_THREADS": "1",
}


@pytest.fixture
def finished(alice, bob):
    from games import services
    from games.models import Seat
    from games.services import SeatSpec
    from tests.support.records import play

    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    game = play(game, seed=3)
    assert game.status == Game.Status.FINISHED
    return game


@pytest.fixture
def analysis_queue(broker):
    """The analysis task routed to this test's queue (the worker reads that one only)."""
    from config.celery import app

    saved = app.conf.task_routes
    app.conf.task_routes = {ANALYSE: {"queue": broker.queue}}
    app.__dict__.pop("amqp", None)  # its router is built from the routes once, then cached
    yield broker.queue
    app.conf.task_routes = saved
    # The router built meanwhile knew only this test's route: a later test (the notices'
    # queue) read it and found the push tasks on the default queue.
    app.__dict__.pop("amqp", None)


def rows(game) -> dict[int, tuple]:
    return {
        ply: (pk, created)
        for ply, pk, created in DecisionAnalysis.objects.filter(analysis__game=game).values_list(
            "ply", "pk", "created_at"
        )
    }


def test_a_worker_killed_mid_analysis_is_resumed_and_judges_no_decision_twice(
    finished, alice, broker, analysis_queue, workers
):
    from games.services.analysis import analysis_request

    broker.connect()
    row = analysis_request(game=finished, user=alice)  # committed: the task is queued
    assert broker.queued() == [(ANALYSE, [row.pk])]
    env = {**WORKER_ENV, "CELERY_ANALYSIS_QUEUE": analysis_queue}

    first = workers.start(**env)
    wait_for(lambda: len(rows(finished)) >= 6, what="some decisions judged", log=first.log)
    first.kill()
    stored = rows(finished)
    total = finished.actions.count()
    assert 6 <= len(stored) < total
    assert GameAnalysis.objects.get(pk=row.pk).status == GameAnalysis.Status.RUNNING

    second = workers.start(CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY), **env)

    def done():
        return GameAnalysis.objects.filter(pk=row.pk, status=GameAnalysis.Status.DONE).exists()

    wait_for(done, what="the analysis to finish", timeout=180, log=second.log)
    after = rows(finished)
    assert sorted(after) == list(range(1, total + 1))
    # The decisions stored before the kill are the same rows: judged once, never again.
    assert {ply: after[ply] for ply in stored} == stored
    assert GameAnalysis.objects.get(pk=row.pk).done == total
    # A decision judged a second time would be refused by the unique row and logged.
    assert "already judged" not in first.log() + second.log()
