"""The search's position and its playouts (compiled): one packed value per square and colour,
attach-point lists, and per-colour legal-move lists kept up to date during a playout.

* ``pos`` (one per thread, copied from the root at each simulation)::

    feat[4, 402] int16    FORB if the colour may not cover the square (taken, or beside its own
                          piece: R4.1, R4.3), plus, for the colour placing in a playout, its
                          local points (below); PAD is always 0, OFF always FORB
    is_att[4, 402] uint8  the square is in the colour's attach list
    att_list[4, 400]      the colour's attach points in order of appearance (R4.2: diagonal to
                          its pieces; R3.1 / R4.5: the four corners while it has none)
    att_n[4], used[4, 21], onboard[4], lastp[4]

  A placement is legal for colour c when the sum of ``feat[c]`` over its five slots is below
  FORB, and that sum is its local points' count (Pentobi's PlayoutFeatures).

* ``lists`` (one per thread): per colour its legal placements in this playout, the attach points
  they were built from, the pieces considered, marks, and the gamma sums of the pick.
  The first time a colour moves in a playout its list is built from its attach points through
  the (square, status, piece) table; later it is re-checked (five loads a move) and extended at
  the attach points gained since, and with pieces newly considered (Pentobi's State).

* ``reply`` (one per thread, ``MctsParams.lgr``, classic two players): last good replies
  (LGRF-2). Before a colour's list is brought up to date, a playout tries the reply stored for
  it to the last two placements, then to the last one; a legal one is played without updating
  the list (its next update re-checks it: a used piece's placements drop out there). After
  each simulation ``update_replies`` stores the winners' replies and forgets the losers'.
"""

from __future__ import annotations

import math

import numpy as np

from .compiled import njit
from .tables import (
    CELLS,
    NPIECES,
    NSTATUS,
    OFF,
    SLOTS,
    T_ADJ,
    T_ATT,
    T_CELLS,
    T_CSTRIDE,
    T_MLIST,
    T_MSTART,
    T_NADJ,
    T_NATT,
    T_PIECE,
    T_SIDE,
    T_SIZE,
    T_STPT,
)

FORB = 0x1000
SIZE = 20
CORNER_SQUARES = (0, SIZE - 1, CELLS - SIZE, CELLS - 1)
# Room for one colour's legal placements (the compiled loop does not check bounds; a colour
# never has more than a couple of thousand).
MAX_MOVES = 8192

V5, Z5, F5, P5, T5, U5, X5 = 16, 20, 9, 13, 14, 15, 18  # PIECES.index of each (tests check)

P_FEAT, P_ISATT, P_ATTL, P_ATTN, P_USED, P_ONB, P_LAST = range(7)
L_MOVES, L_N, L_READY, L_DONE_AT, L_MARK, L_STAMP, L_CONS, L_ALL, L_CUM, L_LPTS, L_LPOW = range(11)
L_GSIZE, L_NEW, L_GAM = 11, 12, 13


def new_position():
    feat = np.zeros((4, CELLS + 2), np.int16)
    feat[:, OFF] = FORB
    is_att = np.zeros((4, CELLS + 2), np.uint8)
    att_list = np.zeros((4, CELLS), np.uint16)
    att_n = np.zeros(4, np.int32)
    for c in range(4):
        for k, cell in enumerate(CORNER_SQUARES):
            att_list[c, k] = cell
            is_att[c, cell] = 1
        att_n[c] = 4
    return (
        feat,
        is_att,
        att_list,
        att_n,
        np.zeros((4, NPIECES), np.uint8),
        np.zeros(4, np.int32),
        np.full(4, -1, np.int32),
    )


def new_lists(placements: int, weight_local: float = 1e6):
    """A thread's playout lists (module docstring); ``weight_local``: the pick's gamma factor
    per local point (the piece's is 5 per square)."""
    return (
        np.zeros((4, MAX_MOVES), np.uint16),
        np.zeros(4, np.int32),
        np.zeros(4, np.uint8),
        np.zeros(4, np.int32),
        np.zeros((4, placements), np.int32),
        np.zeros(1, np.int32),
        np.zeros((4, NPIECES), np.uint8),
        np.zeros(4, np.uint8),
        np.zeros(MAX_MOVES, np.float64),
        np.zeros(128, np.int32),
        np.array([weight_local**k for k in range(16)], np.float64),
        np.array([0.0, 1.0, 5.0, 25.0, 125.0, 625.0]),
        np.zeros(NPIECES, np.uint8),
        np.zeros(MAX_MOVES, np.float64),  # the gammas of the placements an update adds
    )


@njit(cache=True)
def copy_position(dst, src):
    """dst = src, in explicit loops (numba's slice assignments measured 15x slower here)."""
    feat, is_att, att_list, att_n, used, onboard, lastp = dst
    s_feat, s_is_att, s_att_list, s_att_n, s_used, s_onboard, s_lastp = src
    for c in range(4):
        for i in range(feat.shape[1]):
            feat[c, i] = s_feat[c, i]
            is_att[c, i] = s_is_att[c, i]
        for i in range(s_att_n[c]):
            att_list[c, i] = s_att_list[c, i]
        for p in range(used.shape[1]):
            used[c, p] = s_used[c, p]
        att_n[c] = s_att_n[c]
        onboard[c] = s_onboard[c]
        lastp[c] = s_lastp[c]


@njit(cache=True, inline="always")
def place_arrays(c, m, feat, is_att, att_list, att_n, used, onboard, lastp, cells5, piece, psize,
                 adj, nadj, att, natt, hist_col, hist_mv):  # fmt: skip
    """Colour c places placement m, on the position's and the tables' arrays themselves (the
    compiled loops take them out of their tuples once: numba counts a reference each time)."""
    p = piece[m]
    if onboard[c] == 0:  # its first piece: the corners stop being its attach points
        for i in range(att_n[c]):
            is_att[c, att_list[c, i]] = 0
        att_n[c] = 0
    for k in range(psize[p]):
        cell = cells5[m, k]
        for col in range(4):
            feat[col, cell] |= FORB
    for k in range(nadj[m]):
        feat[c, adj[m, k]] |= FORB
    for k in range(natt[m]):
        d = att[m, k]
        if feat[c, d] < FORB and not is_att[c, d]:
            is_att[c, d] = 1
            att_list[c, att_n[c]] = d
            att_n[c] += 1
    used[c, p] = 1
    onboard[c] += 1
    lastp[c] = p
    hist_col[0], hist_col[1], hist_col[2] = hist_col[1], hist_col[2], c
    hist_mv[0], hist_mv[1], hist_mv[2] = hist_mv[1], hist_mv[2], m


@njit(cache=True)
def place(c, m, pos, tab, hist):
    """Colour c places placement m (tree and playouts alike)."""
    feat, is_att, att_list, att_n, used, onboard, lastp = pos
    place_arrays(c, m, feat, is_att, att_list, att_n, used, onboard, lastp, tab[T_CELLS],
                 tab[T_PIECE], tab[T_SIZE], tab[T_ADJ], tab[T_NADJ], tab[T_ATT], tab[T_NATT],
                 hist[0], hist[1])  # fmt: skip


@njit(cache=True, inline="always")
def status(c, a, feat, stpt):
    """The six-bit status of square a for colour c (bit j: its status point j is forbidden)."""
    s = 0
    for j in range(6):
        if feat[c, stpt[a, j]] >= FORB:
            s |= 1 << j
    return s


@njit(cache=True, inline="always")
def sum5(c, m, feat, cells5):
    """FORB or more: illegal for c; otherwise the placement's local points."""
    return (
        np.int32(feat[c, cells5[m, 0]])
        + feat[c, cells5[m, 1]]
        + feat[c, cells5[m, 2]]
        + feat[c, cells5[m, 3]]
        + feat[c, cells5[m, 4]]
    )


@njit(cache=True, inline="always")
def considered(k, p, sz):
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


@njit(cache=True, inline="always")
def considered_arrays(c, used, onboard, psize, every, out):
    """out[p] = 1 for the unused pieces colour c's moves are generated with (all of them if
    ``every``); whether any."""
    k = onboard[c]
    anyp = False
    for p in range(NPIECES):
        ok = not used[c, p] and (every or considered(k, p, psize[p]))
        out[p] = 1 if ok else 0
        anyp = anyp or ok
    return anyp


@njit(cache=True)
def considered_mask(c, pos, tab, every, out):
    """``considered_arrays`` on a position tuple."""
    return considered_arrays(c, pos[P_USED], pos[P_ONB], tab[T_SIZE], every, out)


@njit(cache=True, inline="always")
def _add_at(c, a, cons, feat, stpt, cells5, mstart, mlist, cs, out, at, n, mark, stamp):
    """Append to out[at + n:] colour c's legal placements covering attach point a with the
    pieces ``cons`` marks, not marked ``stamp`` yet; the new n. ``cs``: the offset of c's lists
    in ``mstart`` (tables.T_CSTRIDE)."""
    base = cs + (a * NSTATUS + status(c, a, feat, stpt)) * NPIECES
    for p in range(NPIECES):
        if not cons[p]:
            continue
        for j in range(mstart[base + p], mstart[base + p + 1]):
            m = mlist[j]
            if mark[m] == stamp:
                continue
            mark[m] = stamp
            if sum5(c, m, feat, cells5) < FORB:
                out[at + n] = m
                n += 1
    return n


@njit(cache=True, inline="always")
def _add_weighed(c, a, cons, feat, stpt, cells5, mstart, mlist, cs, out, n, mark, stamp, piece,
                 psize, gsize, lpow, gam):  # fmt: skip
    """``_add_at`` for a playout list (at 0), with each placement's gamma in ``gam`` (its local
    points are the sum the legality check reads)."""
    base = cs + (a * NSTATUS + status(c, a, feat, stpt)) * NPIECES
    for p in range(NPIECES):
        if not cons[p]:
            continue
        g = gsize[psize[p]]
        for j in range(mstart[base + p], mstart[base + p + 1]):
            m = mlist[j]
            if mark[m] == stamp:
                continue
            mark[m] = stamp
            v = sum5(c, m, feat, cells5)
            if v < FORB:
                out[n] = m
                gam[n] = g * lpow[v]
                n += 1
    return n


@njit(cache=True)
def generate(c, pos, tab, cons, out, at, mark, stamp):
    """Colour c's legal placements with the pieces ``cons`` marks, regenerated in full from its
    attach points, written to out[at:]; their count."""
    feat, att_list = pos[P_FEAT], pos[P_ATTL]
    stpt, cells5, mstart, mlist = tab[T_STPT], tab[T_CELLS], tab[T_MSTART], tab[T_MLIST]
    cs = c * tab[T_CSTRIDE][0]
    n = 0
    for i in range(pos[P_ATTN][c]):
        a = att_list[c, i]
        if feat[c, a] < FORB:
            n = _add_at(c, a, cons, feat, stpt, cells5, mstart, mlist, cs, out, at, n, mark, stamp)
    return n


@njit(cache=True)
def generate_considered(c, pos, tab, lists, out, at):
    """Colour c's legal placements among the pieces ``considered`` names, or with every piece
    if none of those fits; their count (the tree's expansion)."""
    cons = lists[L_NEW]
    mark = lists[L_MARK][c]
    stamp = lists[L_STAMP]
    n = 0
    if considered_mask(c, pos, tab, False, cons):
        stamp[0] += 1
        n = generate(c, pos, tab, cons, out, at, mark, stamp[0])
    if n == 0 and considered_mask(c, pos, tab, True, cons):
        stamp[0] += 1
        n = generate(c, pos, tab, cons, out, at, mark, stamp[0])
    return n


@njit(cache=True)
def _prune(feat, used, cells5, stpt, mstart, mlist):
    """Per colour, the (square, status, piece) lists of ``mstart``/``mlist`` cut to what can
    still be played from the position of ``feat`` and ``used`` (Pentobi's SharedConst::init):
    a search only adds placements (a square once forbidden to a colour stays so, a used piece
    stays used), so a placement illegal here is illegal in every position of the search, a
    square forbidden here is never an attach point, and a square's status only gains bits: the
    lists of statuses without all of this one's bits are never read. Kept placements stay in
    the table's order, so a lookup in the cut lists yields what the full one yields once its
    illegal placements are skipped (the same moves in the same order: the same search).
    Colour c's lists start at ``c * SLOTS``."""
    start = np.empty(4 * SLOTS + 1, np.int32)
    out = np.empty(4 * len(mlist), np.uint16)
    total = 0
    for c in range(4):
        for a in range(CELLS):
            free = feat[c, a] < FORB
            now = status(c, a, feat, stpt) if free else 0
            for s in range(NSTATUS):
                reachable = free and (s & now) == now
                for p in range(NPIECES):
                    base = (a * NSTATUS + s) * NPIECES + p
                    start[c * SLOTS + base] = total
                    if not reachable or used[c, p]:
                        continue
                    for j in range(mstart[base], mstart[base + 1]):
                        m = mlist[j]
                        if sum5(c, m, feat, cells5) < FORB:
                            out[total] = m
                            total += 1
    start[4 * SLOTS] = total
    return start, out[:total].copy()


def pruned_tables(tab, pos):
    """The tables with the move lists cut per colour to the position ``pos`` (``_prune``), for
    one search from it (``MctsParams.prune_pieces``)."""
    start, flat = _prune(pos[P_FEAT], pos[P_USED], tab[T_CELLS], tab[T_STPT], tab[T_MSTART],
                         tab[T_MLIST])  # fmt: skip
    return (*tab[:T_MSTART], start, flat, np.array([SLOTS], np.int64))


@njit(cache=True, inline="always")
def _update(c, feat, att_list, att_n, used, piece, psize, cells5, stpt, mstart, mlist, cs, out,
            nmoves, ready, done_at, mark, now, cons, new, cum, lpow, gsize, gam):  # fmt: skip
    """Colour c's list brought up to date in ``out`` (module docstring), with the cumulative
    gammas of the pick in ``cum`` (5 ** squares x weight_local ** local points); its length."""
    n = 0
    total = 0.0
    if ready[c]:
        for i in range(nmoves[c]):  # the old list, re-checked
            m = out[i]
            v = sum5(c, m, feat, cells5)
            if v >= FORB or used[c, piece[m]]:
                continue
            out[n] = m
            mark[m] = now
            total += gsize[psize[piece[m]]] * lpow[v]
            cum[n] = total
            n += 1
    kept = n
    if not ready[c]:
        for i in range(att_n):
            a = att_list[c, i]
            if feat[c, a] < FORB:
                n = _add_weighed(c, a, new, feat, stpt, cells5, mstart, mlist, cs, out, n, mark,
                                 now, piece, psize, gsize, lpow, gam)  # fmt: skip
    else:
        grew = False
        for p in range(NPIECES):  # pieces considered since: at the old attach points too
            fresh = new[p] and not cons[c, p]
            grew = grew or fresh
            cons[c, p] = 1 if fresh else 0
        if grew:
            for i in range(done_at[c]):
                a = att_list[c, i]
                if feat[c, a] < FORB:
                    n = _add_weighed(c, a, cons[c], feat, stpt, cells5, mstart, mlist, cs, out, n,
                                     mark, now, piece, psize, gsize, lpow, gam)  # fmt: skip
        for i in range(done_at[c], att_n):  # the attach points gained since
            a = att_list[c, i]
            if feat[c, a] < FORB:
                n = _add_weighed(c, a, new, feat, stpt, cells5, mstart, mlist, cs, out, n, mark,
                                 now, piece, psize, gsize, lpow, gam)  # fmt: skip
    for i in range(kept, n):
        total += gam[i]
        cum[i] = total
    return n


@njit(cache=True, inline="always")
def update_arrays(c, feat, att_list, att_n, used, onboard, piece, psize, cells5, stpt, mstart,
                  mlist, cstride, moves, nmoves, ready, done_at, mark, stamp, cons, every, new,
                  cum, lpow, gsize, gam):  # fmt: skip
    """Bring colour c's playout list up to date (module docstring); its length."""
    out, mk, na = moves[c], mark[c], att_n[c]
    while True:
        considered_arrays(c, used, onboard, psize, every[c] > 0, new)
        stamp[0] += 1
        n = _update(c, feat, att_list, na, used, piece, psize, cells5, stpt, mstart, mlist,
                    c * cstride, out,
                    nmoves, ready, done_at, mk, stamp[0], cons, new, cum, lpow, gsize,
                    gam)  # fmt: skip
        ready[c] = 1
        for p in range(NPIECES):
            cons[c, p] = new[p]
        done_at[c] = na
        nmoves[c] = n
        if n > 0 or every[c]:
            return n
        every[c] = 1  # none of the considered pieces fits: every piece, from now on
        for p in range(NPIECES):
            if not used[c, p] and not new[p]:
                break
        else:
            return 0  # they were every piece left already: the list stays empty
        ready[c] = 0


@njit(cache=True)
def update_moves(c, pos, tab, lists):
    """Bring colour c's playout list up to date (module docstring); its length."""
    feat, _, att_list, att_n, used, onboard, _ = pos
    moves, nmoves, ready, done_at, mark, stamp, cons, every, cum, _, lpow, gsize, new = lists[:13]
    return update_arrays(c, feat, att_list, att_n, used, onboard, tab[T_PIECE], tab[T_SIZE],
                         tab[T_CELLS], tab[T_STPT], tab[T_MSTART], tab[T_MLIST],
                         tab[T_CSTRIDE][0], moves, nmoves, ready, done_at, mark, stamp, cons,
                         every, new, cum, lpow, gsize, lists[L_GAM])  # fmt: skip


@njit(cache=True, inline="always")
def _add_local(c, p, feat, is_att, own, lpts, n):
    """Square p is local to colour c (2 if also its own attach point), unless it is forbidden to
    c (no legal placement covers it: its count would not matter) or local already."""
    if feat[c, p] == 0:
        feat[c, p] = 2 if own and is_att[c, p] else 1
        lpts[n] = p
        n += 1
    return n


@njit(cache=True, inline="always")
def set_local_arrays(c, feat, is_att, onboard, att, natt, side, owner, hist_col, hist_mv, lpts):
    """Add to ``feat[c]`` the local points: the attach points of the opponents' latest three
    pieces and the squares beside them (2 for one that is also c's own attach point, else 1);
    their count (listed in ``lpts``)."""
    own = onboard[c] > 0
    n = 0
    for r in range(3):
        o = hist_col[r]
        if o < 0 or owner[o] == owner[c]:
            continue
        m = hist_mv[r]
        for k in range(natt[m]):
            d = att[m, k]
            if feat[o, d] >= FORB:
                continue
            n = _add_local(c, d, feat, is_att, own, lpts, n)
            for q in range(4):
                nb = side[d, q]
                if nb != OFF and feat[o, nb] < FORB:
                    n = _add_local(c, nb, feat, is_att, own, lpts, n)
    return n


@njit(cache=True)
def set_local(c, pos, tab, lists, owner, hist):
    """``set_local_arrays`` on the tuples."""
    return set_local_arrays(c, pos[P_FEAT], pos[P_ISATT], pos[P_ONB], tab[T_ATT], tab[T_NATT],
                            tab[T_SIDE], owner, hist[0], hist[1], lists[L_LPTS])  # fmt: skip


@njit(cache=True, inline="always")
def _reply_legal(c, m, feat, is_att, used, piece, cells5):
    """A stored reply (-1: none) is playable by colour c: its piece unused, none of its squares
    forbidden, one on an attach point (Pentobi's check_lgr; not for a colour's first piece)."""
    if m < 0 or used[c, piece[m]]:
        return False
    touch = 0
    for k in range(5):
        q = cells5[m, k]
        if feat[c, q] >= FORB:
            return False
        touch |= is_att[c, q]
    return touch != 0


@njit(cache=True, _nrt=False)  # allocates nothing: no reference counts (compiled.py)
def playout(turn, step, ply, done, pos, tab, lists, owner, hist, seen, reply, use_lgr):
    """Play the game out from colour ``turn`` (the next colour is ``step`` on: 1 clockwise, 3
    reversed): each colour in turn places a placement at random with weight 5 ** squares x
    weight_local ** local points (placements covering the most squares next to the opponents'
    latest pieces first), picked by binary search in the cumulative weights, until no colour
    can place. Each placement is stamped in ``seen`` (all moves as first) with its ply."""
    feat, is_att, att_list, att_n, used, onboard, lastp = pos
    moves, nmoves, ready, done_at, mark, stamp, cons, every, cum, lpts = lists[:10]
    lpow, gsize, new, gam = lists[L_LPOW], lists[L_GSIZE], lists[L_NEW], lists[L_GAM]
    piece, cells5, psize = tab[T_PIECE], tab[T_CELLS], tab[T_SIZE]
    adj, nadj = tab[T_ADJ], tab[T_NADJ]
    att, natt, side, stpt = tab[T_ATT], tab[T_NATT], tab[T_SIDE], tab[T_STPT]
    mstart, mlist, cstride = tab[T_MSTART], tab[T_MLIST], tab[T_CSTRIDE][0]
    hist_col, hist_mv = hist
    p_stamp, p_col, p_ply, sim = seen[0], seen[1], seen[2], seen[3][0]
    lgr1, lgr2, hash1, hash2, seq_col, seq_mv = reply
    mask = lgr2.shape[1] - 1
    idle = 0
    c = turn
    while idle < 4:
        if done[c]:
            idle += 1
            c = (c + step) % 4
            continue
        m = -1
        if use_lgr and onboard[c] > 0:  # the last good reply to the last two / last placement
            last = hist_mv[2]
            second = hist_mv[1] if hist_col[1] >= 0 else lgr1.shape[1] - 1
            m = lgr2[c, (hash1[last] ^ hash2[second]) & mask]
            if not _reply_legal(c, m, feat, is_att, used, piece, cells5):
                m = lgr1[c, last]
                if not _reply_legal(c, m, feat, is_att, used, piece, cells5):
                    m = -1
        if m < 0:  # no reply to play: the policy (a reply skips the list update)
            n_local = set_local_arrays(c, feat, is_att, onboard, att, natt, side, owner,
                                       hist_col, hist_mv, lpts)  # fmt: skip
            n = update_arrays(c, feat, att_list, att_n, used, onboard, piece, psize, cells5,
                              stpt, mstart, mlist, cstride, moves, nmoves, ready, done_at, mark,
                              stamp,
                              cons, every, new, cum, lpow, gsize, gam)  # fmt: skip
            if n > 0:
                x = np.random.random() * cum[n - 1]
                lo, hi = 0, n - 1
                while lo < hi:
                    mid = (lo + hi) // 2
                    if cum[mid] > x:
                        hi = mid
                    else:
                        lo = mid + 1
                m = moves[c, lo]
            for i in range(n_local):
                feat[c, lpts[i]] &= FORB
            if m < 0:
                done[c] = 1
                idle += 1
                c = (c + step) % 4
                continue
            if onboard[c] == 0:
                ready[c] = 0  # its first piece replaces the corners as attach points
        place_arrays(c, m, feat, is_att, att_list, att_n, used, onboard, lastp, cells5, piece,
                     psize, adj, nadj, att, natt, hist_col, hist_mv)  # fmt: skip
        p_stamp[m] = sim
        p_col[m] = c
        p_ply[m] = ply
        seq_col[ply] = c
        seq_mv[ply] = m
        ply += 1
        idle = 0
        c = (c + step) % 4
    return ply


@njit(cache=True)
def prime_lists(root, tab, lists):
    """The playout lists of the root position, once per search: every colour's list as its first
    update would build it (a colour without a piece yet: none, its first piece replaces its
    attach points). Each simulation starts from a copy (``restore_lists``), so a colour's first
    playout move re-checks the root's list and adds the attach points gained in the tree instead
    of generating its moves afresh."""
    lists[L_READY][:] = 0
    for c in range(4):
        if root[P_ONB][c] > 0:
            update_moves(c, root, tab, lists)


@njit(cache=True)
def restore_lists(lists, primed):
    """Start a simulation's playout lists from the root's (``prime_lists``), in explicit loops."""
    moves, nmoves, ready, done_at, cons, every = (
        lists[L_MOVES],
        lists[L_N],
        lists[L_READY],
        lists[L_DONE_AT],
        lists[L_CONS],
        lists[L_ALL],
    )
    s_moves, s_nmoves, s_ready, s_done_at, s_cons, s_every = (
        primed[L_MOVES],
        primed[L_N],
        primed[L_READY],
        primed[L_DONE_AT],
        primed[L_CONS],
        primed[L_ALL],
    )
    for c in range(4):
        for i in range(s_nmoves[c]):
            moves[c, i] = s_moves[c, i]
        for p in range(cons.shape[1]):
            cons[c, p] = s_cons[c, p]
        nmoves[c] = s_nmoves[c]
        ready[c] = s_ready[c]
        done_at[c] = s_done_at[c]
        every[c] = s_every[c]


@njit(cache=True)
def reset_lists(lists):
    lists[L_READY][:] = 0
    lists[L_ALL][:] = 0


@njit(cache=True)
def values(used, lastp, psize, owner, players, advanced, params, out, points):
    """Each player's value in [0, 1] for a finished position (R8.3, R8.4): a player's points
    are the sum of their colours' (classic), or their worse colour's (``params[16]``: two
    players in Shuffle mode); ``points``: scratch for four."""
    margin_share, margin_scale, worst = params[9], params[10], params[16] > 0.0
    for i in range(4):
        points[i] = 1e9 if worst else 0.0
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
        rank, margin = rank_margin(points, players, i)
        bend = 0.5 * (1.0 + math.tanh(margin / margin_scale))
        out[i] = (1.0 - margin_share) * rank + margin_share * bend


@njit(cache=True)
def rank_margin(points, players, i):
    """Player ``i``'s rank (the share of the others beaten, a tie half) and points margin
    (over the others' mean)."""
    beaten = 0.0
    others = 0.0
    for j in range(players):
        if j != i:
            others += points[j]
            if points[i] > points[j]:
                beaten += 1.0
            elif points[i] == points[j]:
                beaten += 0.5
    return beaten / (players - 1), points[i] - others / (players - 1)


@njit(cache=True)
def adapt_values(points, players, params, stats, out):
    """Pentobi's quality-based reward for the margin (State::get_quality_bonus, after Pepels et
    al., ECAI 2014), in place of ``values``' fixed curve: each player's margin is compared with
    the margins of this search's playouts so far (``stats[i]``: count, mean and sum of squared
    deviations, Welford's), and the margin part is 0.5 (1 + tanh((margin - mean) / deviation)).
    When most playouts lose by about 20 points, a loss by 10 then still reads better than one
    by 30; the fixed curve, saturated there, tells them apart less. ``points``: the players'
    points as ``values`` leaves them; ``out``: overwritten."""
    margin_share = params[9]
    for i in range(players):
        rank, margin = rank_margin(points, players, i)
        stats[i, 0] += 1.0
        delta = margin - stats[i, 1]
        stats[i, 1] += delta / stats[i, 0]
        stats[i, 2] += delta * (margin - stats[i, 1])
        bend = 0.5
        if stats[i, 0] > 1.0 and stats[i, 2] > 0.0:
            deviation = math.sqrt(stats[i, 2] / stats[i, 0])
            bend = 0.5 * (1.0 + math.tanh((margin - stats[i, 1]) / deviation))
        out[i] = (1.0 - margin_share) * rank + margin_share * bend


LGR_SIZE = 1 << 16  # entries of a colour's table of replies to the last two placements
_HASHES: dict = {}  # placements: the two hash tables (fixed: searches stay repeatable)


def new_replies(placements: int):
    """A thread's last-good-reply tables (``update_replies``), empty, and the simulation's
    placements in order: (replies to the last placement [4, placements + 1], replies to the
    last two [4, LGR_SIZE] by hash, the two hash tables (index ``placements``: none), colours,
    placements)."""
    hashes = _HASHES.get(placements)
    if hashes is None:
        rng = np.random.RandomState(20231)
        hashes = _HASHES[placements] = tuple(
            rng.randint(0, 1 << 30, placements + 1).astype(np.int64) for _ in range(2)
        )
    return (
        np.full((4, placements + 1), -1, np.int32),
        np.full((4, LGR_SIZE), -1, np.int32),
        hashes[0],
        hashes[1],
        np.full(256, -1, np.int32),
        np.zeros(256, np.int32),
    )


@njit(cache=True)
def update_replies(reply, n, owner, vals):
    """Last-good-reply with forgetting (LGRF-2, Baier and Drake 2010, as Pentobi's
    LastGoodReply): for each placement of the simulation after its first, the colour's reply
    to the placement before it (and to the two before it) is stored when the colour's player
    won the simulation (or drew: the best value), and forgotten if it was stored and the
    player lost."""
    lgr1, lgr2, hash1, hash2, seq_col, seq_mv = reply
    mask = lgr2.shape[1] - 1
    none = lgr1.shape[1] - 1
    best = -1e30
    for c in range(4):
        if owner[c] >= 0:
            best = max(best, vals[owner[c]])
    for i in range(1, n):
        c = seq_col[i]
        if owner[c] < 0:
            continue
        m = seq_mv[i]
        last = seq_mv[i - 1]
        second = seq_mv[i - 2] if i >= 2 else none
        h = (hash1[last] ^ hash2[second]) & mask
        if vals[owner[c]] >= best:
            lgr2[c, h] = m
            lgr1[c, last] = m
        else:
            if lgr2[c, h] == m:
                lgr2[c, h] = -1
            if lgr1[c, last] == m:
                lgr1[c, last] = -1
