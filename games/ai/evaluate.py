"""Casual's one-step scores, on bitboards (see games/engine/pieces.py).

``QuickScorer`` scores a placement for ``seat`` in units of squares, in O(1) big-int operations
per placement: squares placed, anchors (corner squares where the colour may grow) won and lost,
and anchors of other colours covered. Every colour's change is weighted by what it means to the
seat (``seat_weights``): +1 for its own colours, negative for opponents, 0 for the shared colour
(R2.4). Expert values positions by its tree search instead (mcts/).
"""

from __future__ import annotations

import math

from games.engine.pieces import (
    BOARD,
    CORNERS,
    PIECE_SIZE,
    PIECES,
    SIZE,
    W,
    shift_adjacent,
    shift_diagonal,
)
from games.engine.state import State

__all__ = [
    "QuickParams",
    "QuickScorer",
    "anchors_of",
    "centre_mask",
    "quick_value",
    "seat_weights",
]

SIZE_OF_INDEX = [PIECE_SIZE[p] for p in PIECES]


def centre_mask(radius: int) -> int:
    """Squares at Chebyshev distance < radius from the board's centre point."""
    lo, hi = SIZE // 2 - radius, SIZE // 2 + radius
    out = 0
    for y in range(max(lo, 0), min(hi, SIZE)):
        for x in range(max(lo, 0), min(hi, SIZE)):
            out |= 1 << (y * W + x)
    return out


CENTRE_12 = centre_mask(6)  # the 12 × 12 middle of the board


def anchors_of(own: int, occupied: int) -> int:
    """Free squares where a piece of a colour with squares ``own`` may touch it at a corner
    without touching it along a side (R4.2, R4.3); the free board corners when ``own`` is empty
    (R4.5)."""
    if not own:
        return CORNERS & ~occupied
    return shift_diagonal(own) & ~shift_adjacent(own) & ~occupied


def sum_over_supply(table: list, supply: int):
    """``table[i]`` summed over the pieces ``i`` of a supply bitmask."""
    total = 0
    while supply:
        low = supply & -supply
        total += table[low.bit_length() - 1]
        supply ^= low
    return total


def remaining(supply: int) -> int:
    """Squares left in a colour's supply (R8.3)."""
    return sum_over_supply(SIZE_OF_INDEX, supply)


def seat_weights(s: State, seat: int) -> list[float]:
    """What a square (or an anchor) of each colour is worth to ``seat``.

    +1 for its own colours, a negative weight for opponents (the fewer opponents, the more each
    one matters), 0 for the shared colour, which nobody scores (R2.4). With two players in
    shuffle mode a player's score is its worse colour (R8.3), so the colour that lags weighs more.
    """
    own = s.seat_colours(seat)
    opp = -1.0 if s.players == 2 else (-0.6 if s.players == 3 else -0.5)
    w = [0.0 if c == s.shared else (1.0 if c in own else opp) for c in range(4)]
    if s.players == 2 and s.mode == "shuffle":
        for pair in ((0, 2), (1, 3)):
            a, b = pair
            gap = remaining(s.supply[a]) - remaining(s.supply[b])  # > 0: a lags
            lean = math.tanh(gap / 10.0) * 0.6
            w[a] *= 1.0 + lean
            w[b] *= 1.0 - lean
    return w


class QuickParams:
    """Weights of Casual's one-step score."""

    anchor = 0.7  # per anchor won (or lost) by the colour placing
    block = 0.5  # per anchor of another colour covered (times that colour's weight)
    centre = 1.0  # per square in the middle of the board, early in the game (fading)
    size_bonus = 1.0  # extra for a piece of 5 squares (the hard ones to fit late)


class QuickScorer:
    """One-step scores of placements for the colour to move, seen by one seat (Casual)."""

    __slots__ = ("occ", "anchors", "adj", "weights", "centre", "early", "params")

    def __init__(self, s: State, weights: list[float], params=QuickParams):
        self.params = params
        self.occ = occ = s.occupied
        self.anchors = [anchors_of(s.boards[k], occ) for k in range(4)]
        self.adj = [shift_adjacent(s.boards[k]) for k in range(4)]
        self.weights = weights
        placed = sum(len(p) for p in s.pieces)
        # Early on, growing towards the middle of the board wins room (R1.1: 20 × 20 squares).
        self.early = max(0.0, 1.0 - placed / 24.0)
        self.centre = CENTRE_12

    def scores(self, colour: int, values) -> list[float]:
        """The score of each placement (``mask | tag`` ints) of ``colour``, in order."""
        p = self.params
        anchor_weight, block = p.anchor, p.block
        big = p.size_bonus
        occ = self.occ
        anchors = self.anchors
        mine = anchors[colour]
        adj_own = self.adj[colour]
        w = self.weights
        wc = w[colour]
        others = [(anchors[k], w[k] * block) for k in range(4) if k != colour and w[k]]
        centre, early = self.centre, self.early * p.centre
        empty = not self.adj[colour]
        out = []
        append = out.append
        for v in values:
            m = v & BOARD
            size = m.bit_count()
            adj_m = shift_adjacent(m)
            gained = (shift_diagonal(m) & ~(adj_own | adj_m) & ~(occ | m) & ~mine).bit_count()
            lost = mine.bit_count() if empty else (mine & (m | adj_m)).bit_count()
            score = wc * (
                size
                + (big if size == 5 else 0.0)
                + anchor_weight * (gained - lost)
                + early * (m & centre).bit_count()
            )
            for a, wk in others:
                if a & m:
                    score -= wk * (a & m).bit_count()
            append(score)
        return out


def quick_value(s: State, weights: list[float]) -> float:
    """The quick scorer's position value (squares placed and anchors), for steps that are not
    placements (Recycle, Warp): their score is the change of this value."""
    occ = s.occupied
    total = 0.0
    for k in range(4):
        if weights[k]:
            placed = s.boards[k].bit_count()
            total += weights[k] * (placed + anchors_of(s.boards[k], occ).bit_count())
    return total
