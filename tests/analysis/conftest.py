"""A finished classic two-player game between alice and bob (public: carol may watch), played
to its end by random legal moves, and a shallow analysis depth so that the tests run fast."""

from __future__ import annotations

import pytest


@pytest.fixture
def shallow(settings):
    settings.ANALYSIS_SIMS = 16
    return settings


@pytest.fixture
def classic_game(alice, bob):
    from games import services
    from games.models import Seat
    from games.services import SeatSpec

    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    return game


@pytest.fixture
def finished_game(classic_game):
    from games.models import Game
    from tests.support.records import play

    game = play(classic_game, seed=3)
    assert game.status == Game.Status.FINISHED
    return game
