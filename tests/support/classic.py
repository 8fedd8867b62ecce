"""Shared test helpers (moved from tests/games/test_pentobi_files.py)."""

from __future__ import annotations

import random

from games import engine, services
from games.models import Game, Seat
from games.services import SeatSpec


def finished_classic(alice, bob, seed: int, corners=("a20", "t20", "t1", "a1")) -> Game:
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    rng = random.Random(seed)
    users = {0: alice, 1: bob}
    corners = iter(corners)  # default: Pentobi's corners, in turn order (R3.1)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        state = game.current_state()
        if state.step == "setup":
            action = {"place": next(corners)}
        else:
            action = rng.choice(engine.legal_actions(state))
        services.action_submit(
            game=game, user=users[state.controller()], action=action, expected_ply=game.ply
        )
