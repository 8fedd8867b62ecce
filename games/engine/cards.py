"""Action cards (R1.4, R6), deck recipes, and the deterministic shuffle.

The shuffle is specified here (and on the help page) so that anyone can reproduce a game's decks
from its ``seed`` and check them against the commitment every player was shown at the start.

**The seed** is 256 bits from ``secrets``, written as 64 lowercase hex digits. **The salt** is
128 bits, 32 hex digits. **The commitment**, shown to every player when the game starts, is
``SHA-256("blokus-shuffle/1:" + seed + ":" + salt)`` (ASCII, the hex texts as written), in hex.
The seed and the salt stay secret until the game is over, then appear in the record.

**The decks** (``seed`` of 64 hex digits):

* each deck starts in recipe order: the kinds in ``CARD_KINDS`` order, each repeated by its count
  (a two-player deck holds both colours' cards: the recipe twice, R2.3);
* a byte stream is the concatenation of the blocks ``SHA-256(S || k)`` for k = 0, 1, 2 ..., where
  S is the seed's 32 bytes and k is 8 bytes, big-endian (SHA-256 in counter mode);
* numbers are read from the stream 4 bytes at a time, big-endian (0 <= u < 2**32);
* the decks are shuffled one after another, in owner order (blue, yellow, red, green, skipping
  colours that own no deck), each by Fisher-Yates from the last position down:
  ``for i = n-1 ... 1: j = uniform(i + 1); swap(deck[i], deck[j])``, where ``uniform(m)`` reads
  numbers until one is below ``2**32 - (2**32 mod m)`` and returns it mod m (rejection sampling:
  every j in 0..m-1 equally likely, so every order of a deck is equally likely);
* the top card of a deck is its first element.

Why not a small fast generator: with a 64-bit seed, a player who has seen enough of their own
deck could in principle search the seeds and learn the opponents' decks. 256 bits of seed
and a cryptographic hash leave nothing to search.

**Older records** carry an integer seed; their decks come from SplitMix64 seeded with
``seed mod 2**64``, each deck shuffled as above but with ``j = next() mod (i + 1)``. They are
still read, with no commitment.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from .errors import RecordError


@dataclass(frozen=True)
class Card:
    """Everything about one kind of card, in one place (STYLE.md habit 18): other layers read
    this registry (the web layer's words in each language are in games/translations.py, keyed
    by ``kind``; a test checks that every kind has them, a symbol and a picture)."""

    kind: str  # the record's name for it (RECORD.md)
    rule: str  # its section of the rule book (RULES.md R6)
    name: str  # the English name of the published rule sheet (R10)
    effect: str  # what it does, in one English sentence
    symbol: str  # drawn on the card
    opens: tuple[str, ...] = ()  # the decision steps it adds to the turn (see steps.STEPS)


# The kinds in recipe order (R1.4): a deck starts in this order before the shuffle.
CARDS: dict[str, Card] = {
    card.kind: card
    for card in (
        Card("skip", "R6.1", "Skip", "The next colour in turn order loses its next turn.", "⊘"),
        Card("reverse", "R6.2", "Reverse", "The direction of play flips.", "⇄"),
        Card(
            "draw2",
            "R6.3",
            "Draw 2",
            "Draw two cards, play one of them and put the other at the bottom of your pile.",
            "+2",
            opens=("keep",),
        ),
        Card(
            "wild",
            "R6.4",
            "Wild",
            "Declare a colour: this turn's piece is placed as if it were of that colour.",
            "★",
            opens=("declare",),
        ),
        Card(
            "edge",
            "R6.5",
            "Edge to Edge",
            "This turn's piece must share a side with a piece of one of your colours.",
            "▣",
        ),
        Card(
            "recycle",
            "R6.7",
            "Recycle",
            "Take one of your pieces back into its supply, then place as usual.",
            "♻",
            opens=("recycle",),
        ),
        Card(
            "warp",
            "R6.8",
            "Warp",
            "Move an opponent's piece to another legal spot for its colour.",
            "↝",
            opens=("warp",),
        ),
        Card(
            "double",
            "R6.6",
            "Double Play",
            "After this turn's piece, place a second one touching it at a corner.",
            "×2",
            opens=("place_second",),
        ),
    )
}
CARD_KINDS: tuple[str, ...] = tuple(CARDS)
CARD_NAMES = {kind: card.name for kind, card in CARDS.items()}
CARD_EFFECTS = {kind: card.effect for kind, card in CARDS.items()}
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


SEED_HEX = re.compile(r"[0-9a-f]{64}")
SALT_HEX = re.compile(r"[0-9a-f]{32}")
COMMIT_TAG = "blokus-shuffle/1"


def new_seed() -> str:
    return secrets.token_hex(32)


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(seed: str, salt: str) -> str:
    """The public commitment to a seed and its salt (module docstring)."""
    return hashlib.sha256(f"{COMMIT_TAG}:{seed}:{salt}".encode("ascii")).hexdigest()


def check_seed(seed: object) -> int | str:
    """A record's seed: 64 lowercase hex digits, or an integer (older records); else RecordError."""
    if isinstance(seed, str) and SEED_HEX.fullmatch(seed):
        return seed
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed
    raise RecordError("seed must be 64 lowercase hex digits (or an integer, in older records)")


def sha256_stream(seed: str):
    """32-bit numbers from SHA-256 in counter mode over the seed's bytes (module docstring)."""
    key = bytes.fromhex(seed)
    counter = 0
    while True:
        block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        for at in range(0, 32, 4):
            yield int.from_bytes(block[at : at + 4], "big")
        counter += 1


def _uniform(stream, m: int) -> int:
    limit = (1 << 32) - (1 << 32) % m
    while True:
        u = next(stream)
        if u < limit:
            return u % m


def shuffled_decks(seed: int | str, owners: list[str], cards_per_owner: dict[str, list[str]]):
    """Shuffle each owner's cards from ``seed`` as the module docstring specifies."""
    if isinstance(seed, str):
        stream = sha256_stream(seed)

        def pick(m: int) -> int:
            return _uniform(stream, m)
    else:
        legacy = splitmix64(seed)

        def pick(m: int) -> int:
            return next(legacy) % m

    decks = {}
    for owner in owners:
        deck = list(cards_per_owner[owner])
        for i in range(len(deck) - 1, 0, -1):
            j = pick(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        decks[owner] = deck
    return decks
