"""Action cards (R1.4, R6), deck recipes, and the deterministic shuffle.

The shuffle is specified here so that any tool can reproduce a record's decks from its ``seed``:

* each deck starts in recipe order — the kinds in ``CARD_KINDS`` order, each repeated by its
  count (two-player decks hold both colours' cards: the recipe twice, R2.3);
* a SplitMix64 generator is seeded with ``seed mod 2**64``;
* the decks are shuffled one after another, in owner order (blue, yellow, red, green, skipping
  colours that own no deck), each by Fisher–Yates from the last position down:
  ``for i = n-1 … 1: j = next() mod (i + 1); swap(deck[i], deck[j])``;
* the top card of a deck is its first element.
"""

from __future__ import annotations

from .errors import RecordError

CARD_KINDS: tuple[str, ...] = (
    "skip",
    "reverse",
    "draw2",
    "wild",
    "edge",
    "recycle",
    "warp",
    "double",
)
CARD_NAMES = {
    "skip": "Skip",
    "reverse": "Reverse",
    "draw2": "Draw 2",
    "wild": "Wild",
    "edge": "Edge to Edge",
    "recycle": "Recycle",
    "warp": "Warp",
    "double": "Double Play",
}
CARD_EFFECTS = {
    "skip": "The next colour in turn order loses its next turn.",
    "reverse": "The direction of play flips.",
    "draw2": "Draw two cards, play one of them and put the other at the bottom of your pile.",
    "wild": "Declare a colour: this turn's piece is placed as if it were of that colour.",
    "edge": "This turn's piece must share a side with a piece of one of your colours.",
    "recycle": "Take one of your pieces back into its supply, then place as usual.",
    "warp": "Move an opponent's piece to another legal spot for its colour.",
    "double": "After this turn's piece, place a second one touching it at a corner.",
}
# R1.4 — the default recipe: 14 cards per colour.
DEFAULT_RECIPE: dict[str, int] = {
    "skip": 2,
    "reverse": 2,
    "draw2": 2,
    "edge": 2,
    "double": 2,
    "recycle": 2,
    "wild": 1,
    "warp": 1,
}
DECK_SIZE = 14

_MASK64 = (1 << 64) - 1


def check_recipe(recipe: object) -> dict[str, int]:
    """Return a normalized recipe (every kind present) or raise RecordError (R1.4)."""
    if not isinstance(recipe, dict):
        raise RecordError("deck_recipe must be an object of card counts (R1.4)")
    for kind, count in recipe.items():
        if kind not in CARD_KINDS:
            raise RecordError(f"unknown card kind {kind!r} in deck_recipe (R1.4)")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise RecordError(f"deck_recipe count for {kind!r} must be a whole number (R1.4)")
    if sum(recipe.values()) != DECK_SIZE:
        raise RecordError(
            f"deck_recipe must hold {DECK_SIZE} cards, not {sum(recipe.values())} (R1.4)"
        )
    return {kind: recipe.get(kind, 0) for kind in CARD_KINDS}


def recipe_cards(recipe: dict[str, int]) -> list[str]:
    return [kind for kind in CARD_KINDS for _ in range(recipe.get(kind, 0))]


def splitmix64(seed: int):
    """An endless stream of 64-bit numbers (SplitMix64), from a seed taken mod 2**64."""
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


def shuffled_decks(seed: int, owners: list[str], cards_per_owner: dict[str, list[str]]):
    """Shuffle each owner's cards from ``seed`` as the module docstring specifies."""
    stream = splitmix64(seed)
    decks = {}
    for owner in owners:
        deck = list(cards_per_owner[owner])
        for i in range(len(deck) - 1, 0, -1):
            j = next(stream) % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        decks[owner] = deck
    return decks
