"""Shared test helpers (moved from tests/games/test_game_table.py)."""

from __future__ import annotations

import pytest

from games import engine, services
from games.engine.state import State
from games.models import Game, Seat
from games.services import SeatSpec
from tests.engine.helpers import make_state
from tests.support.pages import CORNERS, save_state

SKIPS_AND_REVERSES = {kind: 0 for kind in engine.CARD_KINDS} | {"skip": 7, "reverse": 7}


def alice_against_bob(alice, bob, *, mode: str = "classic") -> Game:
    """A 2-player game of two people, alice (blue and red) and bob, started (bob joined)."""
    game = services.game_create(
        creator=alice,
        mode=mode,
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    return game


def four_humans(alice, bob, carol, dave) -> Game:
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=4,
        deck_recipe=SKIPS_AND_REVERSES,
        seats=[
            SeatSpec(Seat.Kind.HUMAN),
            SeatSpec(Seat.Kind.INVITED, username="bob"),
            SeatSpec(Seat.Kind.INVITED, username="carol"),
            SeatSpec(Seat.Kind.INVITED, username="dave"),
        ],
    )
    for user in (bob, carol, dave):
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def play_until_alice_has_been_skipped_and_reversed(game: Game, users: dict[int, object]) -> None:
    """Play real actions for every seat (the others choose Skip before Reverse) until it is
    Alice's card step again after she moved and both a Skip and a Reverse were played since."""
    alice_moved, seen = False, set()
    for _ in range(400):
        game.refresh_from_db()
        state = game.current_state()
        seat = state.controller()
        legal = engine.legal_actions(state)
        if seat == 0 and state.step == "card" and alice_moved and seen >= {"skip", "reverse"}:
            return
        if seat == 0:
            action = legal[0]
            if "place" in action:
                alice_moved, seen = True, set()
        else:
            cards = [a for a in legal if "card" in a]
            action = next((a for a in cards if a["card"] == "skip"), cards[0] if cards else None)
            action = action or legal[0]
            if "card" in action and alice_moved:
                seen.add(action["card"])
        services.action_submit(game=game, user=users[seat], action=action, expected_ply=game.ply)
    pytest.fail("no such position within 400 actions")


def finished(duel):
    """The end, declared directly (the scores depend on the supplies only): Alice placed every
    piece, Bob's yellow keeps the I5 (advanced scoring, R8.4)."""
    empty = {"blue": [], "yellow": ["I5"], "red": [], "green": []}
    data = make_state(players=2, pieces=CORNERS, supply=empty, scoring="advanced").to_json()
    data.update(step="over", to_move=None)
    Game.objects.filter(pk=duel.pk).update(scoring="advanced")
    save_state(duel, State.from_json(data), status=Game.Status.FINISHED)
    duel.refresh_from_db()
    return duel
