"""Computer players. For now one simple player for every level (a later issue adds real levels).

``choose_action`` picks among the engine's legal actions for the decision at hand. Those actions
depend only on what the deciding seat may know (its own hand, its own Draw 2 cards and public
information), so the choice reveals nothing hidden; the levels of the AI issue work from
``engine.view`` alone.
"""

from __future__ import annotations

import random

from games.engine import State, legal_actions
from games.engine.pieces import parse_squares

LEVELS = ("beginner", "casual", "expert")


def choose_action(state: State, *, level: str = "beginner", seed: int | None = None) -> dict:
    """A legal action, random with a mild preference for large pieces (the Beginner)."""
    rng = random.Random(seed)
    options = legal_actions(state)
    if not options:
        raise ValueError("no decision to take: the game is over")
    if "place" in options[0]:
        weights = [parse_squares(o["place"]).bit_count() ** 2 for o in options]
        return rng.choices(options, weights=weights, k=1)[0]
    return rng.choice(options)
