"""The tree's priors (compiled): a softmax over a one-step score like Casual's, read from grids.

Per expansion two grids are filled once from the opponents' attach lists (Pentobi's
PriorKnowledge): ``block`` (how many opponents may attach at the square) and ``near`` (how many
have an attach point beside it). A placement's score is then a sum over its five slots, its
attach points and its side neighbours (about 25 loads): its squares, the corners it opens for
its colour, the opponents' corners it takes, the squares beside those, the colour's own corners
it closes, and, while the colour has at most five pieces placed, its squares in the middle.
"""

from __future__ import annotations

import math

import numpy as np

from .compiled import njit
from .position import FORB, P_ATTL, P_ATTN, P_FEAT, P_ISATT, P_ONB
from .tables import (
    CELLS,
    OFF,
    T_ADJ,
    T_ADJW,
    T_ATT,
    T_ATTW,
    T_CELLS,
    T_CENTRE,
    T_NADJ,
    T_NATT,
    T_PIECE,
    T_SIDE,
    T_SIZE,
)

MAX_TOUCHED = 8192


def new_grids():
    """A thread's grids: block, near, a stamp per square, the squares touched, counters; and
    which colour covers each square (colour + 1, 0: empty) at the root and at the node being
    expanded (``search._connecting``: the tree's descent keeps it, playouts do not)."""
    return (
        np.zeros(CELLS + 2, np.int16),
        np.zeros(CELLS + 2, np.int16),
        np.zeros(CELLS + 2, np.int32),
        np.zeros(MAX_TOUCHED, np.int32),
        np.zeros(2, np.int32),  # stamp counter, squares touched
        np.zeros(CELLS + 2, np.int8),  # the root's colours
        np.zeros(CELLS + 2, np.int8),  # this simulation's, down the tree
    )


@njit(cache=True)
def _fill(c, pos, tab, owner, grids):
    feat, is_att, att_list, att_n, onboard = (
        pos[P_FEAT],
        pos[P_ISATT],
        pos[P_ATTL],
        pos[P_ATTN],
        pos[P_ONB],
    )
    side = tab[T_SIDE]
    block, near, seen, touched, count = grids[0], grids[1], grids[2], grids[3], grids[4]
    t = 0
    for o in range(4):
        if o == c or owner[o] == owner[c] or onboard[o] == 0:
            continue
        count[0] += 1
        tag = count[0]
        for i in range(att_n[o]):
            a = att_list[o, i]
            if feat[o, a] >= FORB:
                continue
            block[a] += 1
            touched[t] = a
            t += 1
            for q in range(4):
                nb = side[a, q]
                if nb == OFF or feat[o, nb] >= FORB or is_att[o, nb] or seen[nb] == tag:
                    continue
                seen[nb] = tag
                near[nb] += 1
                touched[t] = nb
                t += 1
    count[1] = t


@njit(cache=True)
def _clear(grids):
    block, near, touched, count = grids[0], grids[1], grids[3], grids[4]
    for i in range(count[1]):
        block[touched[i]] = 0
        near[touched[i]] = 0


@njit(cache=True)
def _scores(c, first, n, e_move, out, feat, is_att, onboard, cells5, centre, piece, psize, att,
            attw, natt, adj, adjw, nadj, block, near, w):  # fmt: skip
    """The one-step score of each edge's placement first..first+n for colour c (the prior's
    exponent), into out; the best. One flat loop on the arrays themselves: numba counts a
    reference each time an array is taken out of a tuple, and an inlined helper with many
    arguments measured 2.7 times slower than this loop."""
    has = onboard[c] > 0
    early = onboard[c] <= 5
    w_size, w_corner, w_block, w_near, w_lost, w_centre = w[0], w[1], w[2], w[3], w[4], w[5]
    best = -1e9
    for e in range(first, first + n):
        m = e_move[e]
        sz = psize[piece[m]]
        blocks = 0
        near_n = 0
        mid = 0
        for k in range(5):
            cell = cells5[m, k]
            blocks += block[cell]
            near_n += near[cell]
            mid += centre[cell]
        corners = 0
        for k in range(natt[m]):
            d = att[m, k]
            if feat[c, d] < FORB and not (has and is_att[c, d]):
                corners += attw[m, k]
        lost = 0
        if has:
            for k in range(nadj[m]):
                nb = adj[m, k]
                if is_att[c, nb] and feat[c, nb] < FORB:
                    lost += adjw[m, k]
        h = w_size * sz + w_corner * corners + w_block * blocks + w_near * near_n - w_lost * lost
        if early:
            h += w_centre * mid
        out[e] = h
        best = max(best, h)
    return best


@njit(cache=True)
def scores(c, first, n, e_move, out, pos, tab, grids, w):
    """``_scores`` on the tuples."""
    return _scores(c, first, n, e_move, out, pos[P_FEAT], pos[P_ISATT], pos[P_ONB],
                   tab[T_CELLS], tab[T_CENTRE], tab[T_PIECE], tab[T_SIZE], tab[T_ATT],
                   tab[T_ATTW], tab[T_NATT], tab[T_ADJ], tab[T_ADJW], tab[T_NADJ], grids[0],
                   grids[1], w)  # fmt: skip


@njit(cache=True)
def priors(c, first, n, e_move, e_prior, pos, tab, owner, grids, w, temperature):
    """Softmax priors of the edges first..first+n."""
    _fill(c, pos, tab, owner, grids)
    best = scores(c, first, n, e_move, e_prior, pos, tab, grids, w)
    _clear(grids)
    total = 0.0
    for e in range(first, first + n):
        e_prior[e] = math.exp((e_prior[e] - best) / temperature)
        total += e_prior[e]
    for e in range(first, first + n):
        e_prior[e] /= total
