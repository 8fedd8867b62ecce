"""Redis down (the channel layer for nudges, the broker for the computer's turn) never turns a
committed move into an error: the player's POST succeeds, the move is kept, and the computer's
lost turn is recovered by the sweep (tests/games/test_computer_sweep.py)."""

from __future__ import annotations

import json

import pytest
from channels.layers import channel_layers
from kombu.exceptions import OperationalError

import games.jobs.tasks
from games import engine, services
from games.models import Action, Game, Seat
from games.services import SeatSpec

pytestmark = pytest.mark.django_db(transaction=True)

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1: every connection is refused


@pytest.fixture
def redis_down(settings, monkeypatch):
    from config.settings import redis_channel_layer

    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(DEAD_REDIS)}
    channel_layers.backends.clear()

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    monkeypatch.setattr(games.jobs.tasks.ai_play, "delay", broker_down)
    yield
    channel_layers.backends.clear()


def test_a_move_commits_and_answers_success_while_redis_is_down(client, alice, redis_down):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )
    action = engine.legal_actions(game.current_state())[0]
    client.force_login(alice)

    response = client.post(
        f"/games/{game.public_id}/act/",
        {"action": json.dumps(action), "ply": "0"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 204  # taken (the page then fetches its panel)
    game.refresh_from_db()
    assert game.ply == 1
    assert Action.objects.filter(game=game, ply=1).exists()
    assert game.status == Game.Status.ACTIVE  # the computer's turn waits for the sweep
