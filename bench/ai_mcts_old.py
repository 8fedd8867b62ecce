"""Frozen: the tree search as of 3e27baf (then one module), before issue #23 (bench only: the
"before" of bench/mcts_speed.py, side by side with today's games/ai/mcts/). Not used by the site.

Monte Carlo tree search for Blokus placements, with a compiled inner loop (numba).

Expert and Master place their pieces by this search in games with two or four players when numba
is installed (``AVAILABLE``); without it (or for three players, whose shared colour changes
hands) they use the pure-Python search of search.py, which stays the reference path.

* **Shuffle mode:** the search places as if no more cards were played: below the root, the game
  is classic Blokus in the current direction (R7.1), with a Skip in force passing over the next
  colour once (R6.1), and finished games are valued as Shuffle scores them (two players: the
  worse colour, R8.3 / R8.4). A card that changes R4 for this placement (Wild, Edge to Edge,
  Double Play's second piece) gives the root the engine's placements (``given_moves``). Cards,
  Recycle and Warp are decided elsewhere (expert.py).

* **Board:** 400 squares (``x + 20 * y``), one byte each: free, or the colour on it. Per colour: the
  squares it may not cover (taken, or sharing a side with its own piece: R4.1, R4.3) and the
  squares diagonal to its pieces (R4.2); a colour with no piece on the board covers a free corner
  (R3.1, R4.5). Placements are the engine's own table (``games.engine.pieces.PLACEMENTS``), so a
  move found here is a move the engine accepts (tests/ai/test_mcts.py compares both move
  generators on random positions).
* **Tree:** one node per position, one edge per legal placement of the colour to move (colours
  without a placement are skipped: in classic mode a colour that cannot place never can again,
  R8.1). Edges are chosen by PUCT (``Q + c * P * sqrt(N) / (1 + n)``); unvisited edges start from
  the node's mean value minus ``fpu``. The priors ``P`` are a softmax over a one-step score like
  Casual's: the piece's squares, the corners it opens for its colour, the opponents' corners it
  takes, and, early on, squares towards the middle of the board. A new leaf is played out at
  once and expanded on its next visit.
* **Playouts:** every colour in turn places a random piece among its largest placeable ones; the
  game is then scored as the game is scored (R8.3 / R8.4) and every player gets a value in [0, 1]:
  ``1 - margin_share`` for the rank (win 1, draw 1/2; with four players, the share of opponents
  beaten) and ``margin_share`` for the points margin (a smooth curve of it).
* **Budget:** the search runs in slices of ``SLICE`` simulations between clock checks (the
  compiled loop cannot read the clock), until the time budget or ``max_sims`` is used up. With
  ``max_sims`` reached first and a seed, the choice is repeatable.

The deciding seat passes its view only; classic games hide nothing (R9), so the search sees what
the seat sees.
"""

from __future__ import annotations

import functools
import math
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from games.engine.pieces import BOARD, PIECE_SHIFT, PIECES, PLACEMENTS, SIZE, W
from games.engine.rules import legal_placements

try:  # numba is optional: without it, Expert keeps its pure-Python search
    from numba import njit

    AVAILABLE = True
except ImportError:  # pragma: no cover - exercised by the fallback test with numba hidden
    AVAILABLE = False

    def njit(*args, **kwargs):
        def wrap(f):
            return f

        return wrap


__all__ = ["AVAILABLE", "MctsParams", "Tables", "mcts_choose", "position_arrays", "supported"]

CELLS = SIZE * SIZE
NPIECES = len(PIECES)
V5, Z5 = PIECES.index("V5"), PIECES.index("Z5")
F5, P5, T5, U5, X5 = (PIECES.index(name) for name in ("F", "P", "T5", "U", "X"))
SLICE = 64
# Room for one colour's legal placements (the compiled loop does not check bounds; a colour
# never has more than a couple of thousand): the playouts' buffer, and the free edges the tree
# keeps before it expands a node.
MAX_MOVES = 8192  # simulations per call of the compiled loop (between clock checks)


class MctsParams:
    """The search's constants (a class, so that experiments can try others)."""

    cpuct = 1.0  # exploration, against values in [0, 1]
    fpu = 0.1  # an unvisited edge starts at the node's mean minus this
    temperature = 1.0  # of the priors' softmax
    w_size = 1.0  # prior score: per square of the piece
    w_corner = 0.5  # per new corner square opened for the colour
    w_block = 0.5  # per opponent corner square taken
    w_near = 0.25  # per square beside an opponent's corner square
    w_lost = 0.5  # per own corner square the piece closes (shares a side with it)
    rave_k = 1000.0  # all-moves-as-first values weigh n_amaf / (n_amaf + n + n * n_amaf / k)
    w_centre = 0.15  # per square in the middle 12 x 12, while the colour has <= 5 pieces placed
    margin_share = 0.1  # part of a playout's value given by the points margin (rest: the rank)
    margin_scale = 20.0  # points margin for tanh's bend
    # Of the budget spent searching: the clock is read between slices of SLICE simulations
    # (tens of milliseconds): a 2 s budget ends by about 2.2 s, within the 2.5 s p95 of issue #12.
    budget_share = 1.0
    max_edges = 4_000_000  # edges allocated per decision (about 110 MB): the tree stops growing
    max_nodes = 400_000
    # A leaf is expanded on its second visit; in searches longer than ``long_search`` seconds
    # (Master) only once its edge has ``expand_after_long`` visits, so that the tree's memory
    # (``max_edges``) lasts the whole search.
    long_search = 5.0
    # While at most ``centre_pieces`` pieces are on the board, the tree looks only at the
    # placements that come nearest the centre (within ``centre_slack`` squares of the nearest).
    centre_pieces = 12
    centre_slack = 0.3
    threads = 2  # trees searched side by side (root parallelism), one per core
    expand_after_long = 6


def _tables():
    """Placement and neighbourhood tables as numpy arrays (built once, from the engine's)."""
    count = len(PLACEMENTS)
    piece = np.empty(count, np.int8)
    cells = np.full((count, 5), -1, np.int16)
    cover: list[list[list[int]]] = [[[] for _ in range(NPIECES)] for _ in range(CELLS)]
    for i, value in enumerate(PLACEMENTS):
        p = (value >> PIECE_SHIFT).bit_length() - 1
        piece[i] = p
        mask = value & BOARD
        k = 0
        while mask:
            low = mask & -mask
            b = low.bit_length() - 1
            cell = (b % W) + SIZE * (b // W)
            cells[i, k] = cell
            cover[cell][p].append(i)
            k += 1
            mask ^= low
    start = np.zeros(CELLS * NPIECES + 1, np.int32)
    flat: list[int] = []
    for cell in range(CELLS):
        for p in range(NPIECES):
            start[cell * NPIECES + p] = len(flat)
            flat.extend(cover[cell][p])
    start[CELLS * NPIECES] = len(flat)
    side = np.full((CELLS, 4), -1, np.int16)
    diag = np.full((CELLS, 4), -1, np.int16)
    centre = np.zeros(CELLS, np.int8)
    for cell in range(CELLS):
        x, y = cell % SIZE, cell // SIZE
        for j, (dx, dy) in enumerate(((1, 0), (-1, 0), (0, 1), (0, -1))):
            if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE:
                side[cell, j] = cell + dx + SIZE * dy
        for j, (dx, dy) in enumerate(((1, 1), (-1, 1), (1, -1), (-1, -1))):
            if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE:
                diag[cell, j] = cell + dx + SIZE * dy
        centre[cell] = 1 if 4 <= x < 16 and 4 <= y < 16 else 0
    size = np.array([(cells[piece == p][0] >= 0).sum() for p in range(NPIECES)], np.int8)
    # Distance of a square's centre to the board's centre, at least 2 (the middle 4 x 4 are
    # alike): the opening's placements race there (``MctsParams.centre_pieces``).
    xs, ys = np.arange(CELLS) % SIZE, np.arange(CELLS) // SIZE
    cdist = np.maximum(np.hypot(xs - (SIZE - 1) / 2, ys - (SIZE - 1) / 2), 2.0)
    return piece, cells, start, np.array(flat, np.int32), side, diag, centre, size, cdist


class Tables:
    """The tables, built on first use and shared by every search."""

    @staticmethod
    @functools.cache
    def get():
        return _tables()


INDEX_OF: dict[int, int] = {}


def placement_index(value: int) -> int:
    if not INDEX_OF:
        INDEX_OF.update((v, i) for i, v in enumerate(PLACEMENTS))
    return INDEX_OF[value]


# -- the compiled part ----------------------------------------------------------------------
#
# The compiled functions pass their arrays in tuples:
#   tab  = (pl_piece, pl_cells, cstart, clist, side, diag, centre, psize, cdist)   Tables.get()
#   pos  = (occ, forb, att, used, onboard, lastp)                           position_arrays()
#   work = (anchors, mark, stamp, buf, consider, local, points, weight, given)   _scratch()
#   tree = (n_first, n_count, n_colour, n_visits, n_value,
#           e_move, e_prior, e_visits, e_value, e_child, e_anum, e_aval, tops)
#   hist = (hist_col, hist_mv): the latest three placements, oldest first
#   seen = (p_stamp, p_col, p_ply): which colour played a placement in this simulation, when


@njit(cache=True)
def _place(c, m, pos, tab, hist):
    occ, forb, att, used, onboard, lastp = pos
    pl_piece, pl_cells, side, diag = tab[0], tab[1], tab[4], tab[5]
    for k in range(5):
        cell = pl_cells[m, k]
        if cell < 0:
            break
        occ[cell] = c + 1
        for col in range(4):
            forb[col, cell] = 1
        for j in range(4):
            n = side[cell, j]
            if n >= 0:
                forb[c, n] = 1
            d = diag[cell, j]
            if d >= 0:
                att[c, d] = 1
    p = pl_piece[m]
    used[c, p] = 1
    onboard[c] += 1
    lastp[c] = p
    hist_col, hist_mv = hist
    hist_col[0], hist_col[1], hist_col[2] = hist_col[1], hist_col[2], c
    hist_mv[0], hist_mv[1], hist_mv[2] = hist_mv[1], hist_mv[2], m


@njit(cache=True)
def _anchors(c, pos, out):
    """The squares a placement of colour c must cover one of (R4.2, R4.5); their count."""
    occ, forb, att, _, onboard, _ = pos
    n = 0
    if onboard[c] == 0:
        for cell in (0, SIZE - 1, CELLS - SIZE, CELLS - 1):
            if occ[cell] == 0:
                out[n] = cell
                n += 1
        return n
    for cell in range(CELLS):
        if att[c, cell] and not forb[c, cell]:
            out[n] = cell
            n += 1
    return n


@njit(cache=True)
def _legal(c, m, forb, pl_cells):
    for k in range(5):
        cell = pl_cells[m, k]
        if cell < 0:
            return True
        if forb[c, cell]:
            return False
    return True


@njit(cache=True)
def _generate(c, pos, tab, work, out, at):
    """Legal placements of colour c with the pieces ``work``'s ``consider`` marks, written to
    out[at:]; their count."""
    forb, used = pos[1], pos[3]
    pl_cells, cstart, clist = tab[1], tab[2], tab[3]
    anchors, mark, stamp, consider = work[0], work[1], work[2], work[4]
    stamp[0] += 1
    now = stamp[0]
    n = 0
    for i in range(_anchors(c, pos, anchors)):
        a = anchors[i]
        for p in range(NPIECES):
            if used[c, p] or not consider[p]:
                continue
            base = a * NPIECES + p
            for j in range(cstart[base], cstart[base + 1]):
                m = clist[j]
                if mark[m] == now:
                    continue
                mark[m] = now
                if _legal(c, m, forb, pl_cells):
                    out[at + n] = m
                    n += 1
    return n


@njit(cache=True)
def _considered(k, p, sz):
    """Whether the search looks at piece p (of sz squares) for a colour with k pieces placed:
    early on only the large ones, after its first seven pieces every piece."""
    if k == 0:
        return p in (V5, Z5)
    if k == 1:
        return sz == 5 and p != F5 and p != P5 and p != T5 and p != U5 and p != X5
    if k == 2:
        return sz == 5 and p != P5 and p != U5
    if k <= 4:
        return sz >= 4
    if k <= 6:
        return sz >= 3
    return True


@njit(cache=True)
def _generate_considered(c, pos, tab, work, out, at):
    """Colour c's legal placements among the pieces ``_considered`` names, or with every piece
    if none of those fits; their count."""
    consider, psize = work[4], tab[7]
    for p in range(NPIECES):
        consider[p] = 1 if _considered(pos[4][c], p, psize[p]) else 0
    n = _generate(c, pos, tab, work, out, at)
    if n == 0:
        consider[:] = 1
        n = _generate(c, pos, tab, work, out, at)
    return n


@njit(cache=True)
def _add_local(p, c, pos, local, points, n):
    forb, att = pos[1], pos[2]
    if local[p] == 0:
        local[p] = 2 if att[c, p] and not forb[c, p] else 1
        points[n] = p
        n += 1
    return n


@njit(cache=True)
def _local_points(c, pos, tab, work, owner, hist):
    """Mark the squares next to the opponents' latest pieces (their corners and the squares
    beside those; 2 for a corner that is also c's own, else 1) in ``local``; their count."""
    forb = pos[1]
    pl_cells, side, diag = tab[1], tab[4], tab[5]
    local, points = work[5], work[6]
    hist_col, hist_mv = hist
    n = 0
    for r in range(3):
        o = hist_col[r]
        if o < 0 or owner[o] == owner[c]:
            continue
        for k in range(5):
            cell = pl_cells[hist_mv[r], k]
            if cell < 0:
                break
            for j in range(4):
                d = diag[cell, j]
                if d < 0 or forb[o, d]:
                    continue
                n = _add_local(d, c, pos, local, points, n)
                for q in range(4):
                    nb = side[d, q]
                    if nb >= 0 and not forb[o, nb]:
                        n = _add_local(nb, c, pos, local, points, n)
    return n


@njit(cache=True)
def _pick_weighted(n, tab, work):
    """Among buf[:n], the placements covering the most local points; one of them at random with
    weight 5 ** squares."""
    pl_piece, pl_cells, psize = tab[0], tab[1], tab[7]
    buf, local, weight = work[3], work[5], work[7]
    best = -1
    kept = 0
    total = 0.0
    for i in range(n):
        m = buf[i]
        score = 0
        for k in range(5):
            cell = pl_cells[m, k]
            if cell < 0:
                break
            score += local[cell]
        if score > best:
            best, kept, total = score, 0, 0.0
        if score == best:
            buf[kept] = m  # kept <= i: buf[i] was read already
            total += weight[psize[pl_piece[m]]]
            kept += 1
    x = np.random.random() * total
    for i in range(kept):
        x -= weight[psize[pl_piece[buf[i]]]]
        if x < 0.0:
            return buf[i]
    return buf[kept - 1]


@njit(cache=True)
def _playout_move(c, pos, tab, work, owner, hist):
    """Colour c's placement in a playout, or -1 (it cannot place).

    Placements that cover most squares next to the opponents' latest pieces come first; among
    them, a random one with weight 5 ** squares. Early on, only the pieces ``_considered``
    names (all of them if none of those fits)."""
    local, points = work[5], work[6]
    n_local = _local_points(c, pos, tab, work, owner, hist)
    n = _generate_considered(c, pos, tab, work, work[3], 0)
    pick = _pick_weighted(n, tab, work) if n > 0 else -1
    for i in range(n_local):
        local[points[i]] = 0
    return pick


@njit(cache=True)
def _values(used, lastp, psize, owner, players, advanced, params, out):
    """Each player's value in [0, 1] for a finished position (R8.3, R8.4): a player's points
    are the sum of their colours' (classic), or their worse colour's (``params[16]``: two
    players in Shuffle mode)."""
    margin_share, margin_scale, worst = params[9], params[10], params[16] > 0.0
    points = np.full(4, 1e9) if worst else np.zeros(4)
    for c in range(4):
        rem = 0
        for p in range(NPIECES):
            if not used[c, p]:
                rem += psize[p]
        pts = -float(rem)
        if advanced and rem == 0:
            pts += 15.0
            if lastp[c] == 0:
                pts += 5.0
        if owner[c] >= 0:
            points[owner[c]] = min(points[owner[c]], pts) if worst else points[owner[c]] + pts
    for i in range(players):
        beaten = 0.0
        others = 0.0
        for j in range(players):
            if j != i:
                others += points[j]
                if points[i] > points[j]:
                    beaten += 1.0
                elif points[i] == points[j]:
                    beaten += 0.5
        rank = beaten / (players - 1)
        margin = points[i] - others / (players - 1)
        bend = 0.5 * (1.0 + math.tanh(margin / margin_scale))
        out[i] = (1.0 - margin_share) * rank + margin_share * bend


@njit(cache=True)
def _covers(m, cell, sz, pl_cells):
    # A loop, not any(...): numba compiles no generator expression.
    for k in range(sz):  # noqa: SIM110
        if pl_cells[m, k] == cell:
            return True
    return False


@njit(cache=True)
def _blocking(c, cell, pos, side, owner):
    """(opponent corners this square takes, opponents whose corner it lies beside)."""
    forb, att = pos[1], pos[2]
    blocks = 0
    near = 0
    for o in range(4):
        if o == c or owner[o] == owner[c] or forb[o, cell]:
            continue
        if att[o, cell]:
            blocks += 1
            continue
        for q in range(4):
            nb = side[cell, q]
            if nb >= 0 and att[o, nb] and not forb[o, nb]:
                near += 1
                break
    return blocks, near


@njit(cache=True)
def _move_score(c, m, pos, tab, owner, w):
    """The one-step score of placement m for colour c (the prior's exponent)."""
    forb, att, onboard = pos[1], pos[2], pos[4]
    pl_piece, pl_cells, side, diag, centre, psize = tab[0], tab[1], tab[4], tab[5], tab[6], tab[7]
    sz = psize[pl_piece[m]]
    corners = blocks = near = lost = mid = 0
    for k in range(sz):
        cell = pl_cells[m, k]
        mid += centre[cell]
        b, nr = _blocking(c, cell, pos, side, owner)
        blocks += b
        near += nr
        for q in range(4):
            nb = side[cell, q]
            if nb >= 0 and att[c, nb] and not forb[c, nb] and not _covers(m, nb, sz, pl_cells):
                lost += 1
            d = diag[cell, q]
            if d < 0 or forb[c, d] or att[c, d]:
                continue
            touching = False
            for j in range(4):
                if side[d, j] >= 0 and _covers(m, side[d, j], sz, pl_cells):
                    touching = True
            if not touching:
                corners += 1
    h = w[0] * sz + w[1] * corners + w[2] * blocks + w[3] * near - w[4] * lost
    if onboard[c] <= 5:
        h += w[5] * mid
    return h


@njit(cache=True)
def _priors(c, first, n, tree, pos, tab, owner, w, temperature):
    """Softmax priors of the edges first..first+n (one-step scores, see the module docstring)."""
    e_move, e_prior = tree[5], tree[6]
    best = -1e9
    for e in range(first, first + n):
        h = _move_score(c, e_move[e], pos, tab, owner, w)
        e_prior[e] = h
        best = max(best, h)
    total = 0.0
    for e in range(first, first + n):
        e_prior[e] = math.exp((e_prior[e] - best) / temperature)
        total += e_prior[e]
    for e in range(first, first + n):
        e_prior[e] /= total


@njit(cache=True)
def _centre_distance(m, pl_cells, cdist):
    d = 1e9
    for k in range(5):
        cell = pl_cells[m, k]
        if cell < 0:
            break
        d = min(d, cdist[cell])
    return d


@njit(cache=True)
def _centre_filter(at, n, e_move, tab, slack):
    """Keep, of the edges at..at+n, the placements that come nearest the board's centre (within
    ``slack`` of the nearest); their new count."""
    pl_cells, cdist = tab[1], tab[8]
    nearest = 1e9
    for e in range(at, at + n):
        nearest = min(nearest, _centre_distance(e_move[e], pl_cells, cdist))
    kept = 0
    for e in range(at, at + n):
        if _centre_distance(e_move[e], pl_cells, cdist) <= nearest + slack:
            e_move[at + kept] = e_move[e]
            kept += 1
    return kept


@njit(cache=True)
def _expand(node, turn, done, tree, pos, tab, work, owner, params):
    """Give ``node`` its edges: the placements of the first colour from ``turn`` that has one
    (colours without one are marked done); none at all: the game is over (count 0)."""
    n_first, n_count, n_colour = tree[0], tree[1], tree[2]
    e_move, e_visits, e_value, e_child, e_anum, e_aval, tops = (
        tree[5],
        tree[7],
        tree[8],
        tree[9],
        tree[10],
        tree[11],
        tree[12],
    )
    n_count[node] = 0
    given = work[8]
    for k in range(4):
        c = (turn + k * int(params[15])) % 4
        if done[c]:
            continue
        at = tops[1]
        if node == 0 and given.shape[0] > 0:  # the root's placements, given (card effects)
            n = given.shape[0]
            e_move[at : at + n] = given
        else:
            n = _generate_considered(c, pos, tab, work, e_move, at)
            if n == 0:
                done[c] = 1
                continue
            if pos[4].sum() <= params[13]:
                n = _centre_filter(at, n, e_move, tab, params[14])
        n_first[node], n_count[node], n_colour[node] = at, n, c
        for e in range(at, at + n):
            e_anum[e], e_aval[e], e_visits[e], e_value[e], e_child[e] = 0, 0.0, 0, 0.0, -1
        _priors(c, at, n, tree, pos, tab, owner, params[3:9], params[2])
        tops[1] = at + n
        return


@njit(cache=True)
def _select(node, tree, params):
    """The edge PUCT picks at ``node`` (values blended with their all-moves-as-first values)."""
    n_first, n_count, n_visits, n_value = tree[0], tree[1], tree[3], tree[4]
    e_prior, e_visits, e_value, e_anum, e_aval = tree[6], tree[7], tree[8], tree[10], tree[11]
    cpuct, fpu, rave_k = params[0], params[1], params[11]
    first = n_first[node]
    nv = n_visits[node]
    sq = math.sqrt(nv + 1.0)
    base_q = (n_value[node] / nv if nv > 0 else 0.5) - fpu
    best = -1e9
    pick = first
    for e in range(first, first + n_count[node]):
        ev = e_visits[e]
        q = e_value[e] / ev if ev > 0 else base_q
        an = e_anum[e]
        if an > 0:
            beta = an / (an + ev + ev * an / rave_k)
            q = (1.0 - beta) * q + beta * e_aval[e] / an
        u = q + cpuct * e_prior[e] * sq / (1.0 + ev)
        if u > best:
            best = u
            pick = e
    return pick


@njit(cache=True)
def _new_leaf(pick, tree):
    """A node for the position after edge ``pick`` (if the tree has room); its index or -1."""
    n_count, n_visits, n_value, e_child, tops = tree[1], tree[3], tree[4], tree[9], tree[12]
    if tops[0] >= n_count.shape[0]:
        return -1
    child = tops[0]
    tops[0] += 1
    n_count[child] = -1
    n_visits[child] = 0
    n_value[child] = 0.0
    e_child[pick] = child
    return child


@njit(cache=True)
def _played(m, c, ply, sim, seen):
    p_stamp, p_col, p_ply = seen
    p_stamp[m] = sim
    p_col[m] = c
    p_ply[m] = ply


@njit(cache=True)
def _playout(turn, step, ply, sim, done, pos, tab, work, owner, hist, seen):
    """Play the game out from colour ``turn`` (every colour by ``_playout_move``; the next
    colour is ``step`` on: 1 clockwise, 3 reversed)."""
    idle = 0
    c = turn
    while idle < 4:
        if done[c]:
            idle += 1
        else:
            m = _playout_move(c, pos, tab, work, owner, hist)
            if m < 0:
                done[c] = 1
                idle += 1
            else:
                _place(c, m, pos, tab, hist)
                _played(m, c, ply, sim, seen)
                ply += 1
                idle = 0
        c = (c + step) % 4


@njit(cache=True)
def _backup(depth, path_nodes, path_edges, values, owner, sim, tree, seen):
    """Add the playout's values along the path, and to the all-moves-as-first values of every
    edge whose placement the node's colour played later in the simulation."""
    n_first, n_count, n_colour, n_visits, n_value = tree[0], tree[1], tree[2], tree[3], tree[4]
    e_move, e_visits, e_value, e_anum, e_aval = tree[5], tree[7], tree[8], tree[10], tree[11]
    p_stamp, p_col, p_ply = seen
    for d in range(depth):
        nd = path_nodes[d]
        e = path_edges[d]
        col = n_colour[nd]
        v = values[owner[col]]
        e_visits[e] += 1
        e_value[e] += v
        n_visits[nd] += 1
        n_value[nd] += v
        for f in range(n_first[nd], n_first[nd] + n_count[nd]):
            m = e_move[f]
            if p_stamp[m] == sim and p_col[m] == col and p_ply[m] >= d:
                e_anum[f] += 1
                e_aval[f] += v


@njit(cache=True)
def _simulate(count, root, turn0, hist0, owner, players, advanced, params, tab, tree, work, seen):
    """Run ``count`` simulations from the root position ``root`` (a ``pos`` tuple) with colour
    ``turn0`` to move; tree[12] (tops) = [nodes used, edges used]."""
    n_count, n_colour, e_move, e_child = tree[1], tree[2], tree[5], tree[9]
    tops = tree[12]
    expand_after = params[12]
    step = int(params[15])
    skip = params[17] > 0.0
    pos = (
        np.empty_like(root[0]),
        np.empty_like(root[1]),
        np.empty_like(root[2]),
        np.empty_like(root[3]),
        np.empty_like(root[4]),
        np.empty_like(root[5]),
    )
    hist = (np.empty(3, np.int32), np.empty(3, np.int32))
    done = np.zeros(4, np.uint8)
    path_nodes = np.empty(128, np.int32)
    path_edges = np.empty(128, np.int32)
    values = np.zeros(4)
    stamp = work[2]
    for _ in range(count):
        stamp[1] += 1
        sim = stamp[1]
        pos[0][:] = root[0]
        pos[1][:] = root[1]
        pos[2][:] = root[2]
        pos[3][:] = root[3]
        pos[4][:] = root[4]
        pos[5][:] = root[5]
        hist[0][:] = hist0[0]
        hist[1][:] = hist0[1]
        done[:] = 0
        node = 0
        turn = turn0
        depth = 0
        while True:
            if n_count[node] < 0:
                if tops[1] + MAX_MOVES > e_move.shape[0]:
                    break  # the tree is full: play out from here
                _expand(node, turn, done, tree, pos, tab, work, owner, params)
            if n_count[node] == 0:
                done[:] = 1
                break  # the game is over
            pick = _select(node, tree, params)
            c = n_colour[node]
            _place(c, e_move[pick], pos, tab, hist)
            _played(e_move[pick], c, depth, sim, seen)
            path_nodes[depth] = node
            path_edges[depth] = pick
            depth += 1
            turn = (c + (2 * step if depth == 1 and skip else step)) % 4  # Skip (R6.1)
            node = e_child[pick]
            if node < 0:
                _new_leaf(pick, tree)
                break
            if n_count[node] < 0 and tree[7][pick] < expand_after:
                break  # expanded on a later visit (long searches: MctsParams.expand_after_long)
        _playout(turn, step, depth, sim, done, pos, tab, work, owner, hist, seen)
        _values(pos[3], pos[5], tab[7], owner, players, advanced, params, values)
        _backup(depth, path_nodes, path_edges, values, owner, sim, tree, seen)


@njit(cache=True, nogil=True)
def _run(seed, count, root, turn0, hist0, owner, players, advanced, params, tab, tree, work, seen):
    """Seed this thread's random numbers, then ``_simulate`` (without the GIL: the threads of
    ``mcts_choose`` each search their own tree at once)."""
    np.random.seed(seed)
    _simulate(count, root, turn0, hist0, owner, players, advanced, params, tab, tree, work, seen)


# -- the Python side ------------------------------------------------------------------------


def supported(state) -> bool:
    """Whether this search plays ``state``'s placements: two or four players (three: the shared
    colour changes hands), numba present. In Shuffle mode the search places as if no more card
    were played after this one (the playouts are classic Blokus in the current direction)."""
    return AVAILABLE and state.players in (2, 4)


def position_arrays(state):
    """The search's root arrays for an engine ``State``: its pieces placed by ``_place`` in the
    order the state lists them (Recycle and Warp change those lists), the supplies and last
    pieces as the state has them."""
    tab = Tables.get()
    pos = (
        np.zeros(CELLS, np.int8),  # occ
        np.zeros((4, CELLS), np.uint8),  # forb
        np.zeros((4, CELLS), np.uint8),  # att
        np.zeros((4, NPIECES), np.uint8),  # used
        np.zeros(4, np.int32),  # onboard
        np.full(4, -1, np.int32),  # lastp
    )
    hist = (np.full(3, -1, np.int32), np.zeros(3, np.int32))
    for c in range(4):
        for value in state.pieces[c]:
            _place(c, placement_index(value), pos, tab, hist)
    used, lastp = pos[3], pos[5]
    for c in range(4):
        used[c] = [0 if state.supply[c] >> p & 1 else 1 for p in range(NPIECES)]
        last = state.last_piece[c]
        lastp[c] = -1 if last is None else PIECES.index(last)
    return pos


def _owners(state) -> np.ndarray:
    if state.players == 2:
        return np.array([0, 1, 0, 1], np.int32)
    return np.array([0, 1, 2, 3], np.int32)


def _history(state):
    """The latest placements of the three colours before the one to move (oldest first)."""
    cols = np.full(3, -1, np.int32)
    moves = np.zeros(3, np.int32)
    for r, back in enumerate((3, 2, 1)):
        c = (state.turn - back * state.direction) % 4
        if state.pieces[c]:
            cols[r] = c
            moves[r] = placement_index(state.pieces[c][-1])
    return cols, moves


def _params(params, expand_after: int, state=None) -> np.ndarray:
    """The constants as the compiled loop reads them (see ``_simulate`` and ``_move_score``)."""
    return np.array(
        [
            params.cpuct,
            params.fpu,
            params.temperature,
            params.w_size,
            params.w_corner,
            params.w_block,
            params.w_near,
            params.w_lost,
            params.w_centre,
            params.margin_share,
            params.margin_scale,
            params.rave_k,
            expand_after,
            params.centre_pieces,
            params.centre_slack,
            1 if state is None or state.direction > 0 else 3,  # the next colour: c + this
            1 if state is not None and state.mode == "shuffle" and state.players == 2 else 0,
            1 if state is not None and state.skip_pending else 0,  # the next colour loses its turn
        ],
        np.float64,
    )


def _scratch(placements: int, given=None):
    """The ``work`` tuple: anchors, marks, counters, a move buffer, considered pieces, local
    points, the playouts' weights per piece size and the root's placements if they are given
    (none: the root's are generated)."""
    return (
        np.empty(CELLS, np.int32),
        np.zeros(placements, np.int64),
        np.zeros(2, np.int64),
        np.empty(MAX_MOVES, np.int32),
        np.ones(NPIECES, np.uint8),
        np.zeros(CELLS, np.int32),
        np.empty(CELLS, np.int32),
        np.array([0.0, 1.0, 5.0, 25.0, 125.0, 625.0]),
        np.empty(0, np.int32) if given is None else given,
    )


def _tree(max_nodes: int, max_edges: int):
    """Empty tree arrays; room for at least two nodes' edges (the root is always expanded)."""
    max_edges = max(max_edges, 2 * MAX_MOVES)
    n_count = np.zeros(max_nodes, np.int32)
    n_count[0] = -1  # the root, not yet expanded
    return (
        np.zeros(max_nodes, np.int32),  # n_first
        n_count,
        np.zeros(max_nodes, np.int8),  # n_colour
        np.zeros(max_nodes, np.int32),  # n_visits
        np.zeros(max_nodes, np.float64),  # n_value
        np.empty(max_edges, np.int32),  # e_move
        np.empty(max_edges, np.float32),  # e_prior
        np.empty(max_edges, np.int32),  # e_visits
        np.empty(max_edges, np.float32),  # e_value
        np.empty(max_edges, np.int32),  # e_child
        np.empty(max_edges, np.int32),  # e_anum
        np.empty(max_edges, np.float32),  # e_aval
        np.array([1, 0], np.int64),  # tops: nodes, edges used
    )


_POOLS: dict[int, ThreadPoolExecutor] = {}


def _pool(threads: int) -> ThreadPoolExecutor:
    pool = _POOLS.get(threads)
    if pool is None:
        pool = _POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="mcts")
    return pool


def mcts_choose(
    state, *, deadline: float, max_sims: int | None = None, seed: int = 0, params=MctsParams
) -> tuple[int, dict]:
    """The placement (an engine value) the search picks for the colour to move, and statistics.

    ``deadline`` is a ``time.perf_counter()`` time; ``max_sims`` bounds the simulations too.
    """
    tab = Tables.get()
    count = len(tab[0])
    root = position_arrays(state)
    owner = _owners(state)
    hist = _history(state)
    players = 2 if state.players == 2 else 4
    advanced = state.scoring == "advanced"
    long = deadline - time.perf_counter() > params.long_search
    vec = _params(params, params.expand_after_long if long else 1, state)
    given = given_moves(state)
    threads = max(1, params.threads)
    trees = tuple(_tree(params.max_nodes, params.max_edges) for _ in range(threads))
    works = tuple(_scratch(count, given) for _ in range(threads))
    seens = tuple(
        (np.zeros(count, np.int64), np.zeros(count, np.int8), np.zeros(count, np.int16))
        for _ in range(threads)
    )
    sims = 0
    rounds = 0
    while True:
        left = SLICE * threads if max_sims is None else max_sims - sims
        step = min(SLICE, -(-left // threads))
        if step <= 0:
            break
        seeds = np.array([seed * 7919 + rounds * threads + k for k in range(threads)], np.int64)
        args = (step, root, state.turn, hist, owner, players, advanced, vec, tab)
        if threads == 1:
            _run(seeds[0], *args, trees[0], works[0], seens[0])
        else:
            jobs = [
                _pool(threads).submit(_run, seeds[k], *args, trees[k], works[k], seens[k])
                for k in range(threads)
            ]
            for job in jobs:
                job.result()
        sims += step * threads
        rounds += 1
        if time.perf_counter() >= deadline:
            break
    tree = trees[0]
    n_first, n_count, n_colour, e_move = tree[0], tree[1], tree[2], tree[5]
    e_visits = tree[7].astype(np.int64)
    e_value = tree[8].astype(np.float64)
    first, count = int(n_first[0]), int(n_count[0])
    for other in trees[1:]:  # the same root edges in the same order: add their statistics
        if int(other[0][0]) != first or int(other[1][0]) != count:
            raise AssertionError("the threads' roots differ")
        e_visits[first : first + count] += other[7][first : first + count]
        e_value[first : first + count] += other[8][first : first + count]
    first, count = int(n_first[0]), int(n_count[0])
    if count <= 0 or n_colour[0] != state.turn:
        raise ValueError("the colour to move has no placement")
    best = first + int(np.argmax(e_visits[first : first + count]))
    stats = {
        "sims": sims,
        "nodes": sum(int(t[12][0]) for t in trees),
        "edges": sum(int(t[12][1]) for t in trees),
        "visits": int(e_visits[best]),
        "value": float(e_value[best] / max(1, e_visits[best])),
    }
    return PLACEMENTS[int(e_move[best])], stats


def given_moves(state) -> np.ndarray | None:
    """The root's placements when a card changes R4 for this one (Wild R6.4, Edge to Edge
    R6.5, Double Play's second piece R6.6): the engine's, largest pieces first, at most
    ``MAX_MOVES``. None: the search generates them (R4 as it stands)."""
    if state.mode != "shuffle" or not (
        state.wild is not None or state.edge or state.step == "place_second"
    ):
        return None
    pl_piece, psize = Tables.get()[0], Tables.get()[7]
    indices = sorted(
        (placement_index(v) for v in legal_placements(state)),
        key=lambda m: (-int(psize[pl_piece[m]]), m),
    )
    return np.array(indices[:MAX_MOVES], np.int32)


def root_moves(state) -> list[int]:
    """Every placement the search's move generator finds for the colour to move (tests)."""
    tab = Tables.get()
    out = np.empty(MAX_MOVES, np.int32)
    n = _generate(state.turn, position_arrays(state), tab, _scratch(len(tab[0])), out, 0)
    return sorted(PLACEMENTS[int(m)] for m in out[:n])


def warm_up() -> None:
    """Compile the search (or load it from numba's cache) before the first real decision.

    A worker calls this once at start (config/celery.py), so that no player's turn waits for
    the compiler (about ten seconds on a fresh install, well under one with the cache)."""
    if AVAILABLE:
        from games.engine import new_game

        mcts_choose(new_game(mode="classic", players=2, seed=0), deadline=0.0, max_sims=1)
