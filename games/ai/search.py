"""Expert's placement search: a selective alpha-beta over colour moves, on bare bitboards.

A node is the board (four bitboards), the supplies and the colour to move. Cards are left out
below the root: every later colour is assumed to place a piece by R4 (in Shuffle mode that is
what most turns do, and a sampled hand would only add noise). The root's children come from the
engine (``apply``), so the decision at hand keeps every card effect (Edge to Edge, Wild, Double
Play…).

* Move generation: the engine's placement tables (``placements_covering``), cached per
  (colour's squares, occupied squares, supply) for the whole search.
* Move ordering and selection: a one-step score like Casual's (squares, corners won and lost,
  opponents' corners covered) from the mover's point of view; only the best ``widths[ply]``
  moves of a node are searched (the root keeps all its candidates).
* Values: for the deciding seat, its colours maximise and every other colour minimises
  ("paranoid"); leaves get ``Evaluator.value``: squares placed, a premium for large pieces
  while the board is open, mobility (sqrt of the legal placements), reach (free squares the
  next piece could cover) and exclusive reach (reach no opponent shares: weighted 0.3 in
  classic mode, where it measured better against Pentobi, 0 in Shuffle), combined per player
  as the scoring combines colours (R8.3). A leaf is first played on by ``rollout`` greedy
  colour moves (one-step scores, five-square pieces first), as the frozen Expert's
  simulations do.
* Iterative deepening under a deadline and a node budget: an unfinished iteration still counts
  for the root moves it searched (the previous best is always searched first).
"""

from __future__ import annotations

import math
import time

from games.engine.pieces import BOARD, CORNERS, PIECE_SHIFT, PIECE_SIZE, PIECES
from games.engine.pieces import shift_adjacent as _adj
from games.engine.pieces import shift_diagonal as _diag
from games.engine.rules import placements_covering, r4_context

from .evaluate import CENTRE_12, sum_over_supply

__all__ = ["Evaluator", "OutOfBudget", "SearchParams", "Searcher"]

INF = float("inf")
SIZE_OF = [PIECE_SIZE[p] for p in PIECES]
TOTAL = sum(SIZE_OF)
PREMIUM = {1: 0.0, 2: 0.0, 3: 0.2, 4: 0.6, 5: 1.2}
PREMIUM_OF = [PREMIUM[n] for n in SIZE_OF]


class SearchParams:
    """Weights and widths (a class so that experiments can try others)."""

    mobility = 1.2  # per sqrt(legal placements)
    reach = 0.25  # per free square the colour's next piece could cover
    # Per reach square no opponent colour can cover next. Classic: 0.3 measured better against
    # Pentobi level 5 (mean margin -18.0 and -23.5 over two sets of 10 games, against -22.5 and
    # -34.6 without); Shuffle: not measured, off.
    exclusive = 0.0
    exclusive_classic = 0.3
    premium = 1.0  # times PREMIUM while the board is open
    finished = 8.0  # a colour with nothing left
    win = 10.0  # at the end of the game, for the winner
    widths = (0, 8, 6, 5, 4, 4, 3)  # moves searched per node at each ply below the root
    rollout = 3  # greedy colour moves played at a leaf before it is evaluated
    anchor = 0.7  # ordering: per corner won / lost
    block = 0.5  # ordering: per opponent corner covered
    size_bonus = 1.0  # ordering: a piece of five squares
    centre = 0.0  # ordering: per square in the board's middle 12 x 12, early (fading); 0: off
    rollout_fives = True  # rollouts look at five-square pieces only while there are any


class OutOfBudget(Exception):
    """The search ran out of time or nodes."""


class Evaluator:
    """Leaf values for one seat, with the game's seating (who owns which colour)."""

    def __init__(
        self,
        seat: int,
        seats: list[list[int]],
        *,
        shuffle2: bool,
        advanced: bool = False,
        classic: bool = False,
        params=SearchParams,
    ):
        self.seat = seat
        self.exclusive = params.exclusive_classic if classic else params.exclusive
        # A colour that places all its pieces: R8.4's +15 with the advanced scoring.
        self.finished = params.finished + (15.0 if advanced else 0.0)
        self.seats = seats  # colours of every seat (the shared colour belongs to nobody)
        self.shuffle2 = shuffle2  # two players in Shuffle mode: a player's worse colour counts
        self.params = params
        self.scored = sorted({c for cols in seats for c in cols})
        self.mine = set(seats[seat])
        self.moves_cache: dict[tuple[int, int, int], tuple[list[int], int]] = {}

    # -- move generation (cached) -------------------------------------------------------------

    def moves(self, own: int, occ: int, supply: int) -> tuple[list[int], int]:
        """(placements, union of their squares) for a colour with squares ``own`` (R4)."""
        key = (own, occ, supply)
        found = self.moves_cache.get(key)
        if found is None:
            if not supply:
                found = ([], 0)
            else:
                anchors, blocked = r4_context(own, occ)
                values = list(placements_covering(anchors, blocked, supply))
                reach = 0
                for v in values:
                    reach |= v
                found = (values, reach & BOARD)
            if len(self.moves_cache) > 200_000:
                self.moves_cache.clear()
            self.moves_cache[key] = found
        return found

    # -- values --------------------------------------------------------------------------------

    def colour_values(self, boards, supply) -> list[float]:
        p = self.params
        occ = boards[0] | boards[1] | boards[2] | boards[3]
        open_factor = max(0.0, 1.0 - 2.5 * occ.bit_count() / 400) * p.premium
        reaches = [0, 0, 0, 0]
        counts = [0, 0, 0, 0]
        for c in self.scored:
            values, reach = self.moves(boards[c], occ, supply[c])
            counts[c], reaches[c] = len(values), reach
        out = [0.0, 0.0, 0.0, 0.0]
        for c in self.scored:
            value = float(TOTAL - sum_over_supply(SIZE_OF, supply[c]))
            if open_factor:
                value += open_factor * (_PREMIUM_ALL - sum_over_supply(PREMIUM_OF, supply[c]))
            if counts[c]:
                others = 0
                for k in self._rivals(c):
                    others |= reaches[k]
                value += p.mobility * math.sqrt(counts[c]) + p.reach * reaches[c].bit_count()
                value += self.exclusive * (reaches[c] & ~others).bit_count()
            elif not supply[c]:
                value += self.finished
            out[c] = value
        return out

    def _rivals(self, c: int) -> list[int]:
        for cols in self.seats:
            if c in cols:
                return [k for k in self.scored if k not in cols]
        return []

    def seat_values(self, colour_values: list[float]) -> list[float]:
        out = []
        for cols in self.seats:
            if len(cols) == 1:
                out.append(colour_values[cols[0]])
            elif self.shuffle2:
                out.append(_softmin(colour_values[cols[0]], colour_values[cols[1]]))
            else:
                out.append(colour_values[cols[0]] + colour_values[cols[1]])
        return out

    def margin(self, per_seat: list[float]) -> float:
        mine = per_seat[self.seat]
        others = [v for k, v in enumerate(per_seat) if k != self.seat]
        return mine - (0.5 * max(others) + 0.5 * sum(others) / len(others))

    def value(self, boards, supply) -> float:
        """The position's value for the seat (a margin, in squares)."""
        return self.margin(self.seat_values(self.colour_values(boards, supply)))

    def final(self, supply) -> float:
        """The value of a finished game: the margin in placed squares, plus or minus ``win``."""
        values = [0.0] * 4
        for c in self.scored:
            values[c] = float(TOTAL - sum_over_supply(SIZE_OF, supply[c]))
            if not supply[c]:
                values[c] += self.finished
        per_seat = self.seat_values(values)
        margin = self.margin(per_seat)
        best_other = max(v for k, v in enumerate(per_seat) if k != self.seat)
        if per_seat[self.seat] > best_other + 1e-9:
            return margin + self.params.win
        if per_seat[self.seat] < best_other - 1e-9:
            return margin - self.params.win
        return margin


_PREMIUM_ALL = sum(PREMIUM_OF)


def _softmin(a: float, b: float, t: float = 3.0) -> float:
    lo = min(a, b)
    return lo - t * math.log(math.exp((lo - a) / t) + math.exp((lo - b) / t))


class Searcher:
    """Alpha-beta over colour moves for one seat (see the module docstring)."""

    def __init__(
        self,
        evaluator: Evaluator,
        *,
        direction: int = 1,
        deadline: float = INF,
        max_nodes: int | None = None,
        params=SearchParams,
    ):
        self.ev = evaluator
        self.direction = direction
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.params = params
        self.nodes = 0
        self.weights_of = [self._weights(c) for c in range(4)]

    def _weights(self, colour: int) -> list[float]:
        """What each colour's squares and corners are worth to the player moving ``colour``."""
        for cols in self.ev.seats:
            if colour in cols:
                return [
                    1.0 if k in cols else (-1.0 if k in self.ev.scored else 0.0) for k in range(4)
                ]
        return [0.0] * 4  # the shared colour: its moves are ordered by size only

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfBudget
        if self.max_nodes is None and time.perf_counter() > self.deadline:
            raise OutOfBudget

    # -- the tree ------------------------------------------------------------------------------

    def next_mover(self, boards, supply, after: int) -> tuple[int | None, list[int]]:
        """The next colour after ``after`` with a legal placement, and its placements."""
        occ = boards[0] | boards[1] | boards[2] | boards[3]
        for k in range(1, 5):
            c = (after + k * self.direction) % 4
            values, _ = self.ev.moves(boards[c], occ, supply[c])
            if values:
                return c, values
        return None, []

    def ordered(self, boards, colour: int, values: list[int], keep: int) -> list[int]:
        """The ``keep`` most promising placements of ``colour``, best first."""
        if len(values) <= keep:
            return values
        scores = quick_scores(boards, colour, values, self.weights_of[colour], self.params)
        ranked = sorted(zip(scores, values, strict=True), key=lambda p: (-p[0], p[1]))
        return [v for _, v in ranked[:keep]]

    def leaf(self, boards, supply, colour, values) -> float:
        """A leaf's value: ``rollout`` greedy colour moves, then the evaluation."""
        for _ in range(self.params.rollout):
            best = best_quick(boards, colour, values, self.weights_of[colour], self.params)
            boards, supply = play(boards, supply, colour, best)
            colour, values = self.next_mover(boards, supply, colour)
            if colour is None:
                return self.ev.final(supply)
        return self.ev.value(boards, supply)

    def value(self, boards, supply, colour, values, ply: int, depth: int, alpha, beta) -> float:
        """The value of the position with ``colour`` to move (its ``values`` placements)."""
        self.tick()
        if colour is None:
            return self.ev.final(supply)
        if depth <= 0:
            return self.leaf(boards, supply, colour, values)
        widths = self.params.widths
        keep = widths[min(ply, len(widths) - 1)]
        maximise = colour in self.ev.mine
        best = -INF if maximise else INF
        for v in self.ordered(boards, colour, values, keep):
            child_boards, child_supply = play(boards, supply, colour, v)
            nxt, nxt_values = self.next_mover(child_boards, child_supply, colour)
            score = self.value(
                child_boards, child_supply, nxt, nxt_values, ply + 1, depth - 1, alpha, beta
            )
            if maximise:
                best = max(best, score)
                alpha = max(alpha, score)
            else:
                best = min(best, score)
                beta = min(beta, score)
            if alpha >= beta:
                break
        return best


def play(boards, supply, colour: int, value: int) -> tuple[list[int], list[int]]:
    """Boards and supplies after ``colour`` places ``value`` (a ``mask | tag`` int)."""
    b = list(boards)
    s = list(supply)
    b[colour] |= value & BOARD
    s[colour] &= ~(value >> PIECE_SHIFT)
    return b, s


_GEOMETRY: dict[int, tuple[int, int, int, int]] = {}


def _geometry(v: int) -> tuple[int, int, int, int]:
    """(squares, squares and their side neighbours, corner squares, size) of a placement."""
    m = v & BOARD
    adj_m = _adj(m)
    found = _GEOMETRY[v] = (m, m | adj_m, _diag(m) & ~adj_m & ~m, m.bit_count())
    return found


def _scoring_masks(boards, colour: int, w: list[float]):
    """What a placement of ``colour`` is scored against: (free squares where a new corner
    counts, the colour's own corners, corners of the mover's other colours, of opponents)."""
    occ = boards[0] | boards[1] | boards[2] | boards[3]
    own = boards[colour]
    adj_own = _adj(own)
    mine = (_diag(own) & ~adj_own & ~occ) if own else (CORNERS & ~occ)
    friends = rivals = 0
    for k in range(4):
        if k != colour and w[k]:
            b = boards[k]
            a = (_diag(b) & ~_adj(b) & ~occ) if b else (CORNERS & ~occ)
            if w[k] > 0:
                friends |= a
            else:
                rivals |= a
    return BOARD & ~(adj_own | occ | mine), mine, friends, rivals


def quick_scores(boards, colour: int, values: list[int], w: list[float], p) -> list[float]:
    """One-step scores of ``colour``'s placements for the player moving it (weights ``w``: +1
    for the mover's colours, -1 for opponents, 0 for the shared colour): squares (a bonus for
    five), corners won and lost, corners of opponents covered and of the mover's others."""
    free, mine, friends, rivals = _scoring_masks(boards, colour, w)
    anchor, big, block = p.anchor, p.size_bonus, p.block
    occupied = (boards[0] | boards[1] | boards[2] | boards[3]).bit_count()
    early = max(0.0, 1.0 - occupied / 100.0) * p.centre  # ~24 pieces, as Casual's
    middle = CENTRE_12 if early else 0
    geometry = _GEOMETRY
    lost_all = mine.bit_count() if not boards[colour] else None
    out = []
    append = out.append
    for v in values:
        g = geometry.get(v) or _geometry(v)
        m, near, corners, size = g
        lost = lost_all if lost_all is not None else (mine & near).bit_count()
        score = size + (big if size == 5 else 0.0) + anchor * ((corners & free).bit_count() - lost)
        if rivals & m:
            score += block * (rivals & m).bit_count()
        if friends & m:
            score -= block * (friends & m).bit_count()
        if middle & m:
            score += early * (middle & m).bit_count()
        append(score)
    return out


_FIVES = sum(1 << (PIECE_SHIFT + i) for i, n in enumerate(SIZE_OF) if n == 5)


def best_quick(boards, colour: int, values: list[int], w: list[float], p) -> int:
    """The placement with the best ``quick_scores`` score (the first of equals), looked for
    among the five-square pieces while there are any (rollouts: a fast approximation)."""
    if p.rollout_fives:
        values = [v for v in values if v & _FIVES] or values
    scores = quick_scores(boards, colour, values, w, p)
    return values[scores.index(max(scores))]
