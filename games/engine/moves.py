"""Legal moves (R4, R5.3, R6): the placements a colour may make, Warp's moves, and every legal
action of the decision at hand. ``rules.apply`` checks an action against the same functions."""

from __future__ import annotations

from itertools import filterfalse

from .cards import CARD_KINDS
from .pieces import (
    ALL_PIECES_MASK,
    BOARD,
    CORNERS,
    PIECE_SHIFT,
    W,
    candidates,
    placement_text,
    shift_adjacent,
    shift_diagonal,
)
from .state import COLOURS, State
from .steps import PLACE_STEPS


def _placements(anchors: int, blocked: int, supply: int) -> set[int]:
    """Every placement covering an anchor square, on no blocked square, of a piece in supply."""
    forbidden = blocked | ((ALL_PIECES_MASK ^ supply) << PIECE_SHIFT)
    test = forbidden.__and__
    shifted = blocked << (W + 1)
    out: set[int] = set()
    update = out.update
    while anchors:
        low = anchors & -anchors
        i = low.bit_length() - 1
        anchors ^= low
        pattern = (
            (shifted >> i & 7) | (shifted >> (i + W) & 7) << 3 | (shifted >> (i + 2 * W) & 7) << 6
        )
        update(filterfalse(test, candidates(i, pattern)))
    return out


# The public name for callers outside the engine (the AI's move generator).
placements_covering = _placements


def _any_placement(anchors: int, blocked: int, supply: int) -> bool:
    forbidden = blocked | ((ALL_PIECES_MASK ^ supply) << PIECE_SHIFT)
    test = forbidden.__and__
    shifted = blocked << (W + 1)
    while anchors:
        low = anchors & -anchors
        i = low.bit_length() - 1
        anchors ^= low
        pattern = (
            (shifted >> i & 7) | (shifted >> (i + W) & 7) << 3 | (shifted >> (i + 2 * W) & 7) << 6
        )
        for _ in filterfalse(test, candidates(i, pattern)):
            return True
    return False


def r4_context(own: int, occupied: int) -> tuple[int, int]:
    """(anchors, blocked) for a placement by R4 for a colour whose pieces are ``own``.

    R4.5: with no piece on the board the piece must cover a free corner square instead.
    """
    if not own:
        return CORNERS & ~occupied, occupied
    adjacent = shift_adjacent(own)
    return shift_diagonal(own) & ~adjacent & ~occupied, occupied | adjacent


def placement_context(s: State) -> tuple[int, int, int]:
    """(anchors, blocked, supply) for the placement the current step asks for."""
    c = s.turn
    occupied = s.occupied
    if s.step == "setup":  # R3.1
        return CORNERS & ~occupied, occupied, s.supply[c]
    if s.step == "place_second":  # R6.6: touch the first piece at a corner, otherwise R4
        adjacent = shift_adjacent(s.boards[c])
        return shift_diagonal(s.first) & ~adjacent & ~occupied, occupied | adjacent, s.supply[c]
    if s.edge:  # R6.5: share a side with one of the player's own colours; R4.2/R4.3 lifted
        own = s.own_mask(s.controller())
        return shift_adjacent(own) & ~occupied, occupied, s.supply[c]
    rules_colour = s.wild if s.wild is not None else c  # R6.4
    anchors, blocked = r4_context(s.boards[rules_colour], occupied)
    return anchors, blocked, s.supply[c]


def legal_placements(s: State) -> set[int]:
    """Placements (``mask | piece tag`` ints) legal at the current step; empty at other steps."""
    if s.step not in PLACE_STEPS:
        return set()
    return _placements(*placement_context(s))


def has_placement(s: State) -> bool:
    return _any_placement(*placement_context(s))


def warp_moves(s: State) -> list[tuple[int, int, int]]:
    """(colour, piece, new placement) for every Warp the player to move may make (R6.8)."""
    mine = s.seat_colours(s.controller()) if s.seat_of(s.turn) is not None else []
    occupied = s.occupied
    moves = []
    for colour in range(4):
        if colour in mine:
            continue
        for value in s.pieces[colour]:
            mask = value & BOARD
            rest = s.boards[colour] & ~mask
            if not rest:  # R6.8: no other piece of its colour to touch
                continue
            anchors, blocked = r4_context(rest, occupied & ~mask)
            for new in _placements(anchors, blocked, value >> PIECE_SHIFT):
                if new != value:
                    moves.append((colour, value, new))
    return moves


def _any_warp(s: State) -> bool:
    mine = s.seat_colours(s.controller())
    occupied = s.occupied
    for colour in range(4):
        if colour in mine:
            continue
        for value in s.pieces[colour]:
            mask = value & BOARD
            rest = s.boards[colour] & ~mask
            if not rest:
                continue
            anchors, blocked = r4_context(rest, occupied & ~mask)
            if _placements(anchors, blocked, value >> PIECE_SHIFT) - {value}:
                return True
    return False


def legal_actions(s: State) -> list[dict]:
    """Every legal action at the current decision, in the record's action format."""
    step = s.step
    if step in PLACE_STEPS:
        return [{"place": t} for t in sorted(map(placement_text, legal_placements(s)))]
    if step == "card":
        hand = s.hands[s.owner(s.turn)]
        return [{"card": k} for k in CARD_KINDS if k in hand]
    if step == "keep":
        return [{"keep": k} for k in CARD_KINDS if k in s.drawn]
    if step == "declare":
        return [{"declare": c} for c in COLOURS]
    if step == "recycle":
        texts = [placement_text(v) for c in s.seat_colours(s.controller()) for v in s.pieces[c]]
        return [{"recycle": t} for t in sorted(texts)]
    if step == "warp":
        moves = [(placement_text(old), placement_text(new)) for _, old, new in warp_moves(s)]
        return [{"warp": old, "to": new} for old, new in sorted(moves)]
    return []
