"""Master: Expert's search with a long budget, played only by a Celery worker.

The search itself is replaced by a recorder here (no test waits 20 s): what is checked is which
budget reaches it, from which entry point.
"""

from __future__ import annotations

import pytest

import games.ai
from games.ai import DEFAULT_BUDGET, LEVELS, MASTER_BUDGET, choose_action, decide
from games.ai.players import casual_action
from games.engine import legal_actions, view
from tests.ai.positions import positions


@pytest.fixture
def budgets(monkeypatch):
    """Replace Expert's search by Casual, recording the budget each call was given."""
    seen: list[float] = []

    def recorder(seat_view, state, rng, *, budget, max_sims=None):
        seen.append(budget)
        return casual_action(state, seat_view["seat"])

    monkeypatch.setattr(games.ai, "expert_action", recorder)
    return seen


def test_master_is_a_level_with_a_long_budget(budgets):
    assert "master" in LEVELS and 15 <= MASTER_BUDGET <= 30
    state = positions("classic", 2)["place"]
    action = decide(view(state, state.controller()), level="master", seed=1)
    assert action in legal_actions(state)
    decide(view(state, state.controller()), level="expert", seed=1)
    assert budgets == [MASTER_BUDGET, DEFAULT_BUDGET]


def test_the_website_entry_point_plays_master_only_for_a_worker(budgets):
    state = positions("shuffle", 2)["place"]
    choose_action(state, level="master", seed=3)  # a web request, a timed-out turn, a test
    choose_action(
        state, level="master", seed=3, worker=True
    )  # games.jobs.tasks.ai_play in a worker
    assert budgets == [DEFAULT_BUDGET, MASTER_BUDGET]


@pytest.fixture
def master_game(alice):
    """A 2-player classic game: alice (seat 0) against the computer at Master (seat 1), after
    alice's setup placement, so that the computer decides now."""
    from games import services
    from games.models import Seat
    from games.services import SeatSpec

    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="master")],
    )
    alice_moves(game, alice)
    return game


def alice_moves(game, alice) -> None:
    from games import engine, services

    game.refresh_from_db()
    action = engine.legal_actions(game.current_state())[0]
    services.action_submit(game=game, user=alice, action=action, expected_ply=game.ply)
    game.refresh_from_db()


@pytest.mark.django_db
def test_ai_play_thinks_long_only_in_a_worker(master_game, budgets, alice):
    from games.jobs.tasks import ai_play

    game = master_game
    ply = game.ply
    # Eagerly, as the tests' settings (and a site without workers) run it inside the request.
    ai_play.apply(args=(game.pk, ply))
    assert budgets == [DEFAULT_BUDGET]
    game.refresh_from_db()
    assert game.ply > ply  # the computer moved
    alice_moves(game, alice)
    # As a worker runs it: a request with the worker's host name, not eager.
    ai_play.push_request(hostname="celery@worker", is_eager=False)
    try:
        ai_play.run(game.pk, game.ply)
    finally:
        ai_play.pop_request()
    assert budgets == [DEFAULT_BUDGET, MASTER_BUDGET]
