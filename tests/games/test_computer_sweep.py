"""A computer turn whose task was lost (a worker killed mid-turn) is played within a minute:
the beat's sweep (every 15 s) queues it again once it has been pending for 45 s, and never
touches a human's turn or a computer turn still within its time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine, services
from games.jobs import deadlines
from games.jobs.tasks import sweep_computer_turns
from games.models import Action, Game, Seat
from games.services import SeatSpec

pytestmark = pytest.mark.django_db


@pytest.fixture
def lost_turn(alice):
    """alice moved; the computer's task was lost (never run: no commit hook fires here)."""
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )
    action = engine.legal_actions(game.current_state())[0]
    services.action_submit(game=game, user=alice, action=action, expected_ply=0)
    game.refresh_from_db()
    assert game.current_state().controller() == 1 and game.ply == 1
    return game


def pending_for(game: Game, seconds: float) -> None:
    at = timezone.now() - timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(turn_started_at=at, started_at=at)
    Action.objects.filter(game=game).update(created_at=at)


def test_a_lost_computer_turn_is_played_by_the_sweep(lost_turn, on_commit):
    pending_for(lost_turn, 50)

    with on_commit():
        assert sweep_computer_turns.delay().get() == 1
    lost_turn.refresh_from_db()
    assert lost_turn.ply >= 2  # the computer played
    assert Action.objects.filter(game=lost_turn, by_ai=True).exists()


def test_a_computer_turn_within_its_time_is_left_alone(lost_turn):
    pending_for(lost_turn, 20)
    assert deadlines.stalled_computer_turns(timezone.now()) == []


def test_a_humans_turn_is_never_swept(duel, alice):
    pending_for(duel, 3600)
    assert deadlines.stalled_computer_turns(timezone.now()) == []


def test_the_sweep_runs_every_15_seconds_from_beat(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-computer-turns"]
    assert entry["task"] == "games.tasks.sweep_computer_turns"
    assert entry["schedule"] <= 15
    assert deadlines.COMPUTER_STALL + timedelta(seconds=entry["schedule"]) <= timedelta(seconds=60)
