"""Building positions for engine tests without playing a whole game up to them."""

from __future__ import annotations

import random

from games.engine import apply, new_game
from games.engine.pieces import PIECE_INDEX, PIECE_SHIFT, parse_squares, shape_of_mask
from games.engine.rules import _settle
from games.engine.state import COLOUR_INDEX, State


def make_state(
    mode: str = "shuffle",
    players: int = 4,
    *,
    pieces: dict[str, list[str]] | None = None,
    supply: dict[str, list[str]] | None = None,
    hands: dict[str, list[str]] | None = None,
    piles: dict[str, list[str]] | None = None,
    discards: dict[str, list[str]] | None = None,
    to_move: str = "blue",
    direction: int = 1,
    shared_color: str | None = None,
    scoring: str = "basic",
    rotation: int = 0,
    settle: bool = True,
) -> State:
    """A main-turn position at the start of ``to_move``'s turn.

    ``pieces``: colour → placed pieces as squares strings, oldest first (removed from the supply).
    ``supply``: colour → piece names, overriding what is left after ``pieces``.
    ``hands`` / ``piles`` / ``discards``: deck owner colour → cards (piles top first). Owners not
    named keep an empty hand and pile. The turn starts at step ``card`` when the hand holds a card,
    else ``place`` (automatic passes then happen when ``settle`` is true).
    """
    s = new_game(mode=mode, players=players, scoring=scoring, shared_color=shared_color, seed=1)
    for o in s.owners():
        s.hands[o], s.piles[o], s.discards[o] = [], [], []
    for name, texts in (pieces or {}).items():
        c = COLOUR_INDEX[name]
        for text in texts:
            mask = parse_squares(text)
            piece = shape_of_mask(mask)
            assert piece is not None, text
            s.pieces[c].append(mask | 1 << (PIECE_SHIFT + PIECE_INDEX[piece]))
            s.boards[c] |= mask
            s.supply[c] &= ~(1 << PIECE_INDEX[piece])
            s.last_piece[c] = piece
    for name, names in (supply or {}).items():
        s.supply[COLOUR_INDEX[name]] = sum(1 << PIECE_INDEX[p] for p in names)
    for field, given in (("hands", hands), ("piles", piles), ("discards", discards)):
        for name, cards in (given or {}).items():
            getattr(s, field)[COLOUR_INDEX[name]] = list(cards)
    s.direction = direction
    s.rotation = rotation
    c = COLOUR_INDEX[to_move]
    s.turn = c
    owner = s.owner(c)
    s.step = "card" if owner is not None and s.hands[owner] else "place"
    if settle:
        _settle(s)
    return s


def play(state: State, *actions: dict) -> State:
    for action in actions:
        state = apply(state, action)
    return state


def disguise(s: State, seat: int | None, rng: random.Random) -> State:
    """The same public position with every part that ``seat`` may not know changed (R9)."""
    alt = s.copy()
    alt.events = list(s.events)
    if isinstance(s.seed, str):  # another seed and salt behind the same public commitment
        alt.seed = f"{(int(s.seed, 16) + 1) % 2**256:064x}"
        alt.salt = f"{(int(s.salt, 16) + 1) % 2**128:032x}"
    else:
        alt.seed = (s.seed or 0) + 1
    mine = s.owner(s.seat_colours(seat)[0]) if seat is not None else None
    for owner in s.owners():
        pile = alt.piles[owner]
        if owner == mine:  # the seat knows its hand and the cards it put at the bottom
            known = s.known_bottom[owner]
            head = pile[: len(pile) - known]
            rng.shuffle(head)
            alt.piles[owner] = head + pile[len(pile) - known :]
            continue
        pool = alt.hands[owner] + pile + (alt.drawn if alt.owner(alt.turn) == owner else [])
        rng.shuffle(pool)
        n_hand, n_drawn = len(alt.hands[owner]), len(alt.drawn)
        alt.hands[owner] = pool[:n_hand]
        if alt.owner(alt.turn) == owner:
            alt.drawn = pool[n_hand : n_hand + n_drawn]
            alt.piles[owner] = pool[n_hand + n_drawn :]
        else:
            alt.piles[owner] = pool[n_hand:]
    return alt
