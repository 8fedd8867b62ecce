"""Master: Expert's search with a long budget, played only by a Celery worker.

The search itself is replaced by a recorder here (no test waits 10 s): what is checked is which
budget reaches it, from which entry point, and how a Shuffle turn shares it.
"""

from __future__ import annotations

import pytest

import games.ai
from games.ai import DEFAULT_BUDGET, LEVELS, MASTER_BUDGET, choose_action, decide, mcts
from games.ai.expert import ExpertParams
from games.ai.mcts import MctsParams
from games.ai.players import PLACE_STEPS, casual_action
from games.engine import legal_actions, view
from tests.ai.clocks import Ticking
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
    assert "master" in LEVELS and DEFAULT_BUDGET < MASTER_BUDGET <= 10  # a Master move within 10 s
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


@pytest.fixture
def windows(monkeypatch):
    """Replace the tree search by an instant answer recording each search's deadline, with
    Expert's clock stopped (``expert.clock``): a decision's window is then exactly what its
    budget gives its searches, however busy the machine."""
    from games.ai import expert
    from games.engine.rules import legal_placements

    clock = Ticking(0.0)
    monkeypatch.setattr(expert, "clock", clock)
    deadlines: list[float] = []

    def instant(state, *, deadline, **kwargs):
        deadlines.append(deadline)
        return min(legal_placements(state)), {"value": 0.5, "sims": 1}

    def instant_value(state, seat, *, deadline, **kwargs):
        deadlines.append(deadline)
        return 0.5

    monkeypatch.setattr(mcts, "mcts_choose", instant)
    monkeypatch.setattr(mcts, "seat_value", instant_value)

    class Windows:
        def decide(self, state, level: str) -> float:
            """The seconds the decision at ``state`` may search, from its start."""
            del deadlines[:]
            action = decide(view(state, state.controller()), level=level, seed=1)
            assert action in legal_actions(state)
            assert deadlines, "the decision did not search"
            return max(deadlines) - clock.now

    return Windows()


# Every way a Shuffle turn goes: a card, the choice it may ask for, the placement, and Double
# Play's second piece.
TURNS = [
    ("card", "place"),
    ("card", "keep", "place"),
    ("card", "declare", "place"),
    ("card", "place", "place_second"),
    ("card", "keep", "place", "place_second"),  # the longest: Draw 2 kept Double Play
]


@pytest.mark.parametrize("players", [2, 4])
def test_a_master_shuffle_turn_shares_its_ten_seconds_as_experts_turn_shares_two(windows, players):
    found = positions("shuffle", players, seed=13)
    steps = ("card", "keep", "declare", "place", "place_second")
    master = {step: windows.decide(found[step], "master") for step in steps}
    expert = {step: windows.decide(found[step], "expert") for step in steps}
    shares = ExpertParams.turn_shares
    for step in steps:
        # The same share of each level's budget: a placement searches all of its share, a
        # card's choices ExpertParams.budget_share of it (the rest: the turn's margin).
        searched = MctsParams.budget_share if step in PLACE_STEPS else ExpertParams.budget_share
        assert master[step] == pytest.approx(shares[step] * searched * MASTER_BUDGET), step
        assert expert[step] == pytest.approx(shares[step] * searched * DEFAULT_BUDGET), step
    for turn in TURNS:  # a whole turn searches for 10 s at most (a few ms of preparation aside)
        assert sum(master[step] for step in turn) <= 10.0, turn
    assert master["card"] + master["place"] >= 0.7 * MASTER_BUDGET  # the usual turn thinks long
