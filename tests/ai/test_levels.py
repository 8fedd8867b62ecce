"""Every level returns a legal action in every mode, player count and step."""

from __future__ import annotations

import pytest

from games.ai import LEVELS, choose_action, decide
from games.engine import legal_actions, view
from tests.ai.positions import (
    CLASSIC_STEPS,
    MODES,
    PLAYERS,
    SHUFFLE_STEPS,
    built,
    positions,
    random_positions,
)

BUDGET = 0.05  # Expert, Master: a tiny budget keeps the suite fast (a slice of the search)


def act(state, level, seed=1):
    seat = state.controller()
    return decide(view(state, seat), level=level, seed=seed, budget=BUDGET)


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("mode", MODES)
def test_every_step_gets_a_legal_action(mode, players, level):
    found = positions(mode, players)
    assert set(found) >= set(SHUFFLE_STEPS if mode == "shuffle" else CLASSIC_STEPS)
    for step, state in found.items():
        action = act(state, level)
        assert action in legal_actions(state), (step, action)


@pytest.mark.parametrize("players", PLAYERS)
def test_built_positions_reach_their_step(players):
    for step in SHUFFLE_STEPS[1:]:
        s = built(players, step)
        assert s.step == step


@pytest.mark.parametrize("level", ["beginner", "casual"])
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("mode", MODES)
def test_random_positions_get_legal_actions(mode, players, level):
    states = random_positions(mode, players, seed=100 + players)
    for state in states[::12]:
        action = act(state, level, seed=state.ply)
        assert action in legal_actions(state)


@pytest.mark.parametrize("mode", MODES)
def test_expert_on_random_positions(mode):
    states = random_positions(mode, 2, seed=5)
    for state in states[3::25]:
        assert act(state, "expert", seed=state.ply) in legal_actions(state)


def test_a_whole_game_between_levels_ends():
    from games.engine import apply, new_game, score

    s = new_game(mode="shuffle", players=3, seed=11)
    levels = ["beginner", "casual", "beginner"]
    while not s.over:
        s = apply(s, choose_action(s, level=levels[s.controller()], seed=s.ply))
    assert score(s)["over"]


def test_expert_uses_its_search_with_time(monkeypatch):
    """With a time budget (no simulation cap) Expert's card is its tree search's choice: each
    candidate card is searched, simulations run, and the card played is the best valued."""
    from games.ai import mcts

    searched = []
    search = mcts.mcts_choose

    def recorded(state, **kwargs):
        assert kwargs.get("max_sims") is None  # the budget alone bounds it
        value, stats = search(state, **kwargs)
        searched.append(stats)
        return value, stats

    monkeypatch.setattr(mcts, "mcts_choose", recorded)
    state = built(2, "card")  # blue holds Wild and Recycle
    action = decide(view(state, 0), level="expert", seed=3, budget=0.4)
    assert action in legal_actions(state)
    cards = legal_actions(state)  # the candidates, in the order they are searched
    assert len(cards) == len(searched) == 2 and all(stats["sims"] > 0 for stats in searched)
    values = [stats["value"] for stats in searched]
    assert action == cards[values.index(max(values))]


def test_choose_action_keeps_the_website_signature():
    state = positions("shuffle", 4)["card"]
    action = choose_action(state, level="casual", seed=5)
    assert action in legal_actions(state)
    with pytest.raises(ValueError):
        choose_action(state, level="grandmaster", seed=5)
