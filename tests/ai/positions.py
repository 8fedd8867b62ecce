"""Positions for the AI tests: every mode, player count and step (setup, card, keep, declare,
recycle, warp, place, place_second), by random play and, where random play may not reach a step,
by construction with tests/engine/helpers.py."""

from __future__ import annotations

import functools
import random

from games.engine import apply, legal_actions, new_game
from games.engine.state import State
from tests.engine.helpers import make_state, play

MODES = ("classic", "shuffle")
PLAYERS = (2, 3, 4)
SHUFFLE_STEPS = ("setup", "card", "keep", "declare", "recycle", "warp", "place", "place_second")
CLASSIC_STEPS = ("setup", "place")

# Two pieces per colour, each pair touching at a corner: every card can act (a Warp can move the
# yellow domino to s2,s3; Recycle can take back a blue piece).
PIECES = {
    "blue": ["a1", "b2,c2"],
    "yellow": ["t1", "r2,s2"],
    "red": ["t20", "r19,s19"],
    "green": ["a20", "b19,c19"],
}


@functools.cache
def random_positions(mode: str, players: int, seed: int, plies: int = 400) -> list[State]:
    """States met in one random game (every decision point), seeded. Cached: callers must not
    change the states (the engine's apply never does)."""
    rng = random.Random(seed)
    s = new_game(mode=mode, players=players, seed=seed)
    out = []
    for _ in range(plies):
        if s.over:
            break
        out.append(s)
        s = apply(s, rng.choice(legal_actions(s)))
    return out


def built(players: int, step: str) -> State:
    """A shuffle position at ``step`` for blue (seat 0), built by hand."""
    owners = {2: ["blue", "yellow"], 3: ["blue", "yellow", "red"], 4: list(PIECES)}[players]
    piles = {o: ["skip", "reverse", "edge"] for o in owners}
    first = {
        "card": ["wild", "recycle"],
        "keep": ["draw2", "skip"],
        "declare": ["wild", "skip"],
        "recycle": ["recycle", "skip"],
        "warp": ["warp", "skip"],
        "place": ["skip", "reverse"],
        "place_second": ["double", "skip"],
    }[step]
    hands = {o: ["reverse", "edge"] for o in owners}
    hands["blue"] = first
    if step == "keep":
        piles["blue"] = ["warp", "wild", "skip"]
    s = make_state(
        "shuffle",
        players,
        pieces=PIECES,
        hands=hands,
        piles=piles,
        shared_color="green" if players == 3 else None,
    )
    if step == "card":
        return s
    s = play(s, {"card": first[0]})
    if step == "place_second":
        ranked = sorted(a["place"] for a in legal_actions(s))
        s = play(s, {"place": ranked[0]})
    assert s.step == step and s.turn == 0, (step, s.step)
    return s


@functools.cache
def positions(mode: str, players: int, seed: int = 7) -> dict[str, State]:
    """One position per step for the mode and player count (random play first, then built)."""
    found: dict[str, State] = {}
    for s in random_positions(mode, players, seed):
        found.setdefault(s.step, s)
    if mode == "shuffle":
        for step in SHUFFLE_STEPS:
            if step not in found:
                found[step] = built(players, step)
    return found
