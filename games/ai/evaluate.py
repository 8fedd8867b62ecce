"""Position features and evaluations, on bitboards (see games/engine/pieces.py).

Two evaluations, both "how good is this for ``seat``", in units of squares:

* ``QuickScorer`` — Casual's one-step score of a placement, in O(1) big-int operations per
  placement: squares placed, anchors (corner squares where the colour may grow) won and lost, and
  anchors of other colours covered. Every colour's change is weighted by what it means to the
  seat: +1 for its own colours, negative for opponents, 0 for the shared colour (R2.4).
* ``static_eval`` — Expert's evaluation of a whole position: for every colour the squares placed
  (large pieces worth a little more while the board is open), plus its mobility (how many legal
  placements it has, R4) and its reach (how many free squares its next piece could cover);
  combined per player as the scoring combines colours (R8.3: sum in classic, the worse colour in
  two-player shuffle), and compared with the opponents (half the strongest one, half their
  mean).
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
from games.engine.rules import placements_covering, r4_context
from games.engine.state import State

__all__ = [
    "EvalParams",
    "QuickParams",
    "QuickScorer",
    "anchors_of",
    "centre_mask",
    "colour_values",
    "quick_value",
    "seat_value",
    "seat_weights",
    "static_eval",
    "terminal_value",
]

SIZE_OF_INDEX = [PIECE_SIZE[p] for p in PIECES]
TOTAL_SQUARES = sum(SIZE_OF_INDEX)  # 89, R1.3


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


# -- Expert's evaluation --------------------------------------------------------------------

# Value of a placed piece by its size: squares, plus a premium for large pieces, which are the
# hard ones to fit late in the game. The premium fades as the board fills (see static_eval).
SIZE_PREMIUM = {1: 0.0, 2: 0.0, 3: 0.2, 4: 0.6, 5: 1.2}


class EvalParams:
    """Weights of ``static_eval`` (a class so that experiments can try others)."""

    mobility = 1.2  # per sqrt(legal placements)
    reach = 0.25  # per free square the colour's next piece could cover
    premium = 1.0  # times SIZE_PREMIUM while the board is open


def colour_features(s: State, c: int, occ: int) -> tuple[int, int, int]:
    """(legal placements, reach squares, placed squares) for colour ``c`` by R4."""
    own = s.boards[c]
    supply = s.supply[c]
    if not supply:
        return 0, 0, own.bit_count()
    anchors, blocked = r4_context(own, occ)
    found = placements_covering(anchors, blocked, supply)
    reach = 0
    for v in found:
        reach |= v
    return len(found), (reach & BOARD).bit_count(), own.bit_count()


def colour_values(s: State, params=EvalParams) -> list[float]:
    occ = s.occupied
    filled = occ.bit_count() / (SIZE * SIZE)
    open_factor = max(0.0, 1.0 - 2.5 * filled) * params.premium
    values = []
    for c in range(4):
        if c == s.shared:  # nobody scores the shared colour (R2.4)
            values.append(0.0)
            continue
        moves, reach, placed = colour_features(s, c, occ)
        premium = 0.0
        if open_factor:
            for v in s.pieces[c]:
                premium += SIZE_PREMIUM[(v & BOARD).bit_count()]
        value = placed + open_factor * premium
        if moves:
            value += params.mobility * math.sqrt(moves) + params.reach * reach
        elif not s.supply[c]:  # nothing left beats any mobility (R8.4 even pays a bonus)
            value += 8.0 + (_advanced_bonus(s, c) if s.scoring == "advanced" else 0.0)
        values.append(value)
    return values


def _advanced_bonus(s: State, c: int) -> float:
    return 15.0 + (5.0 if s.last_piece[c] == "1" else 0.0)


def _softmin(a: float, b: float, t: float = 3.0) -> float:
    lo = min(a, b)
    return lo - t * math.log(math.exp((lo - a) / t) + math.exp((lo - b) / t))


def seat_value(s: State, values: list[float], seat: int) -> float:
    cols = s.seat_colours(seat)
    if len(cols) == 1:
        return values[cols[0]]
    a, b = values[cols[0]], values[cols[1]]
    if s.mode == "shuffle":  # R8.3: the larger remaining count, i.e. the worse colour
        return _softmin(a, b)
    return a + b


def static_eval(s: State, seat: int, params=EvalParams) -> float:
    """How good the position is for ``seat``: its value minus its opponents' (squares)."""
    if s.over:
        return terminal_value(s, seat)
    values = colour_values(s, params)
    return _margin(s, seat, [seat_value(s, values, p) for p in range(s.players)])


def _margin(s: State, seat: int, per_seat: list[float]) -> float:
    mine = per_seat[seat]
    others = [v for p, v in enumerate(per_seat) if p != seat]
    best = max(others)
    return mine - (0.5 * best + 0.5 * sum(others) / len(others))


def terminal_value(s: State, seat: int) -> float:
    """The final result for ``seat``, on the same scale: placed squares (and the advanced
    scoring's bonuses) compared with the opponents', plus a bonus for winning."""
    values = []
    for c in range(4):
        value = float(TOTAL_SQUARES - remaining(s.supply[c]))
        if not s.supply[c]:
            value += 8.0 + (_advanced_bonus(s, c) if s.scoring == "advanced" else 0.0)
        values.append(value)
    per_seat = [seat_value(s, values, p) for p in range(s.players)]
    margin = _margin(s, seat, per_seat)
    best_other = max(v for p, v in enumerate(per_seat) if p != seat)
    if per_seat[seat] > best_other + 1e-9:
        margin += 10.0
    elif per_seat[seat] < best_other - 1e-9:
        margin -= 10.0
    return margin
