"""The AI decides from the seat's view only: it cannot see other hands or the piles' order."""

from __future__ import annotations

import inspect
import random

import pytest

from games.ai import LEVELS, choose_action, decide
from games.engine import view
from games.engine.state import State
from tests.ai.positions import PLAYERS, built, positions

# Master is Expert with a longer budget: with max_sims bounding the search it is the same player.
SEARCHED = [level for level in LEVELS if level != "master"]

SIMS = 2  # Expert: bounded by simulations (not time), so that runs repeat exactly


def disguise(s: State, seat: int, rng: random.Random) -> State:
    """The same position with every part the seat may not know dealt anew (R9.2, R9.3)."""
    alt = State.from_json(s.to_json())
    alt.seed = (s.seed or 0) + 12345
    mine = s.owner(s.seat_colours(seat)[0])
    for owner in s.owners():
        if owner == mine:
            known = s.known_bottom[owner]
            top = list(s.piles[owner][: len(s.piles[owner]) - known])
            rng.shuffle(top)
            alt.piles[owner] = top + list(s.piles[owner][len(top) :])
            continue
        drawn = list(s.drawn) if s.drawn and s.owner(s.turn) == owner else []
        cards = list(s.hands[owner]) + list(s.piles[owner]) + drawn
        rng.shuffle(cards)
        n_hand, n_drawn = len(s.hands[owner]), len(drawn)
        alt.hands[owner] = cards[:n_hand]
        if n_drawn:
            alt.drawn = cards[n_hand : n_hand + n_drawn]
        alt.piles[owner] = cards[n_hand + n_drawn :]
        alt.known_bottom[owner] = 0
    return alt


def ask(state, level, seed):
    seat = state.controller()
    return decide(view(state, seat), level=level, seed=seed, budget=30, max_sims=SIMS)


@pytest.mark.parametrize("level", SEARCHED)
@pytest.mark.parametrize("players", PLAYERS)
def test_hidden_parts_do_not_change_the_action(players, level):
    rng = random.Random(players)
    for step, state in positions("shuffle", players, seed=3).items():
        if step == "setup":
            continue
        seat = state.controller()
        other = disguise(state, seat, rng)
        assert other.to_json() != state.to_json()
        assert view(other, seat) == view(state, seat)
        assert ask(other, level, seed=4) == ask(state, level, seed=4), step


def test_disguise_really_changes_what_others_hold():
    state = built(2, "card")
    state.hands[1] = ["warp", "wild"]
    state.piles[1] = ["skip", "skip", "draw2", "edge"]
    changed = {tuple(disguise(state, 0, random.Random(k)).hands[1]) for k in range(20)}
    assert len(changed) > 1


def test_the_entry_point_takes_a_view_not_a_state():
    params = list(inspect.signature(decide).parameters)
    assert params[0] == "seat_view"
    state = built(4, "card")
    with pytest.raises(ValueError):
        decide(state, level="casual", seed=1)  # a State is refused
    with pytest.raises(ValueError):
        decide(view(state, 1), level="casual", seed=1)  # not yellow's decision
    with pytest.raises(ValueError):
        decide(view(state, None), level="casual", seed=1)  # a spectator decides nothing


def test_choose_action_passes_only_the_view_on():
    state = built(2, "declare")
    for level in ("beginner", "casual"):
        assert choose_action(state, level=level, seed=9) == decide(
            view(state, state.controller()), level=level, seed=9
        )


def test_the_ai_package_never_imports_django():
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, games.ai, games.ai.cli, games.ai.judge;"
        "print(any(m.startswith('django') for m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"
