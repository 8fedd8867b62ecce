"""The tree and the search loop (compiled); choose.py sets a search up and reads its result.

* **Tree:** one node per position, one edge per legal placement of the colour to move (colours
  without a placement are skipped: in classic mode a colour that cannot place never can again,
  R8.1). Edges are chosen by PUCT (``Q + c * P * sqrt(N) / (1 + n)``), values blended with their
  all-moves-as-first values; unvisited edges start from the node's mean value minus ``fpu``.
  A new leaf is played out at once and expanded on a later visit: its second at depth 1, one
  visit later every two levels deeper (``MctsParams.expand_inc``).
* **Budget:** the search runs in slices of ``SLICE`` simulations between clock checks (the
  compiled loop cannot read the clock), until the time budget or ``max_sims`` is used up. With
  ``max_sims`` reached first and a seed, the choice is repeatable.
* **Threads:** root parallelism, one tree per thread, the root statistics added up.
"""

from __future__ import annotations

import math

import numpy as np

from .compiled import borrow, njit
from .position import (
    MAX_MOVES,
    P_ONB,
    adapt_values,
    copy_position,
    generate_considered,
    place_arrays,
    playout,
    restore_lists,
    update_replies,
    values,
)
from .priors import priors
from .tables import T_ADJ, T_ATT, T_CDIST, T_CELLS, T_NADJ, T_NATT, T_PIECE, T_SIZE

NO_VALUE = -1e30  # an edge's e_q while it has no value (selection reads the node's mean)
SLICE = 64  # simulations per call of the compiled loop (between clock checks)


class MctsParams:
    """The search's constants."""

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
    # ... in classic two-player games: against Pentobi level 6 at 2 s, 0.3 took the second seat
    # from 4.5 of 20 to 10 of 20 on the same seeds, then 7 of 20 in a new 40-game run that won
    # 19 of 20 as first player (bench/AI_RESULTS.md, "the margin in classic two-player games"):
    # when most playouts lose, the margin tells the moves apart. Other games keep
    # ``margin_share`` until measured there.
    margin_share_classic2 = 0.3
    margin_scale = 20.0  # points margin for tanh's bend
    # Of the budget spent searching: the clock is read between slices of SLICE simulations
    # (a few milliseconds): a 2 s budget ends by about 2.05 s.
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
    # Deeper leaves wait longer: a leaf at depth d (the root's children: 1) is expanded once its
    # edge has ``expand_after + expand_inc * (d - 1)`` visits (Pentobi's
    # expansion_threshold_inc): fewer, better-informed expansions deep in the tree.
    expand_inc = 0.5
    # The playouts try the last good reply (LGRF-2, position.update_replies) to the last two
    # placements, then to the last one, before their policy (Pentobi's LastGoodReply). On:
    # 60.3 % [52.6, 67.6] of 160 games against it off at 1,500 simulations (bench/AI_RESULTS.md).
    lgr = 1
    # 1: the colours start in the fixed corners of Pentobi's classic games (blue a20, yellow
    # t20, red t1, green a1: ``choose.start_corners``) instead of R3.1's free corners. The
    # Pentobi arena plays that game; the site never sets it.
    fixed_corners = 0
    # Classic two players: while fewer than this many pieces are on the board, the tree looks
    # only at the placements with a side against the player's other colour when there are any
    # (Pentobi's classic_2 "connect" pruning: the two colours join in the middle). 0: off.
    connect_pieces = 0
    # Classic two players, 1: the margin's part of a playout's value is measured against this
    # search's playouts so far (``position.adapt_values``, Pentobi's quality-based reward)
    # instead of the fixed curve of ``margin_scale``. 0: off: as second player against Pentobi
    # level 6 it scored 5 of 20 where the fixed curve had 7 (bench/AI_RESULTS.md, stop 51).
    margin_adaptive = 0
    margin_adaptive_multi = 0  # ... the same in classic three- and four-player games (not run)
    # A search with at least ``prune_pieces`` pieces on the board, time-budgeted to at least
    # ``prune_seconds`` or bounded to at least ``prune_sims`` simulations, first cuts the move
    # lists to what its root leaves playable, per colour (``position.pruned_tables``, Pentobi's
    # SharedConst): the same moves, fewer entries to skip. 0: never. Off: at 12 pieces on, the
    # same searches took 1.00x (classic 2 players), 1.00x (4) and 0.97x (Shuffle 4) the time,
    # within this machine's noise (bench/AI_RESULTS.md, stop 53): the lists it shortens are
    # read only at new attach points (about an eighth of a simulation), while half goes to
    # re-checking the colour's old list, which it leaves as long.
    prune_pieces = 0
    prune_seconds = 0.5
    prune_sims = 20_000


# -- the compiled part ----------------------------------------------------------------------
#
#   tree = (n_first, n_count, n_colour, n_visits, n_value,
#           e_move, e_prior, e_visits, e_value, e_child, e_anum, e_aval, tops, e_q, e_pw, r_seat)
#   hist = (hist_col, hist_mv): the latest three placements, oldest first
#   seen = (p_stamp, p_col, p_ply, sim): which colour played a placement in this simulation, when


@njit(cache=True)
def _centre_filter(at, n, e_move, tab, slack):
    """Keep, of the edges at..at+n, the placements that come nearest the board's centre (within
    ``slack`` of the nearest); their new count."""
    cells5, cdist = tab[T_CELLS], tab[T_CDIST]
    nearest = 1e9
    for e in range(at, at + n):
        m = e_move[e]
        for k in range(5):
            nearest = min(nearest, cdist[cells5[m, k]])
    kept = 0
    for e in range(at, at + n):
        m = e_move[e]
        d = 1e9
        for k in range(5):
            d = min(d, cdist[cells5[m, k]])
        if d <= nearest + slack:
            e_move[at + kept] = m
            kept += 1
    return kept


@njit(cache=True)
def _connecting(at, n, e_move, c, occ, tab):
    """Keep, of the edges at..at+n, the placements with a side against a piece of colour c's
    partner (two players: the player's other colour), if any has one; their new count."""
    adj, nadj = tab[T_ADJ], tab[T_NADJ]
    partner = (c + 2) % 4 + 1
    kept = 0
    for e in range(at, at + n):
        m = e_move[e]
        for k in range(nadj[m]):
            if occ[adj[m, k]] == partner:
                e_move[at + kept] = m
                kept += 1
                break
    return kept if kept > 0 else n


@njit(cache=True)
def _expand(node, turn, done, tree, pos, tab, lists, grids, given, owner, params):
    """Give ``node`` its edges: the placements of the first colour from ``turn`` that has one
    (colours without one are marked done); none at all: the game is over (count 0)."""
    n_first, n_count, n_colour = tree[0], tree[1], tree[2]
    e_move, e_prior, e_visits, e_value = tree[5], tree[6], tree[7], tree[8]
    e_child, e_anum, e_aval, tops = tree[9], tree[10], tree[11], tree[12]
    e_q, e_pw = tree[13], tree[14]
    n_count[node] = 0
    for k in range(4):
        c = (turn + k * int(params[15])) % 4
        if done[c]:
            continue
        at = tops[1]
        if node == 0 and given.shape[0] > 0:  # the root's placements, given (card effects)
            n = given.shape[0]
            for i in range(n):
                e_move[at + i] = given[i]
        else:
            n = generate_considered(c, pos, tab, lists, e_move, at)
            if n == 0:
                done[c] = 1
                continue
            on_board = pos[P_ONB].sum()
            if on_board < params[22]:  # two players: join the colours (MctsParams.connect_pieces)
                n = _connecting(at, n, e_move, c, grids[6], tab)
            if on_board <= params[13]:
                n = _centre_filter(at, n, e_move, tab, params[14])
        n_first[node], n_count[node], n_colour[node] = at, n, c
        for e in range(at, at + n):
            e_anum[e], e_aval[e], e_visits[e], e_value[e], e_child[e] = 0, 0.0, 0, 0.0, -1
        priors(c, at, n, e_move, e_prior, pos, tab, owner, grids, params[3:9], params[2])
        for e in range(at, at + n):
            e_q[e] = NO_VALUE
            e_pw[e] = e_prior[e]
        tops[1] = at + n
        return


@njit(cache=True, inline="always")
def _value(ev, value, an, aval, rave_k):
    """An edge's value as selection reads it: its mean blended with its all-moves-as-first
    mean (weight an / (an + ev + ev * an / rave_k)); NO_VALUE while it has neither."""
    if ev == 0:
        return aval / an if an > 0 else NO_VALUE
    q = value / ev
    if an > 0:
        beta = an / (an + ev + ev * an / rave_k)
        q = (1.0 - beta) * q + beta * aval / an
    return q


@njit(cache=True, inline="always")
def _select(node, n_first, n_count, n_visits, n_value, e_q, e_pw, cpuct, fpu):
    """The edge PUCT picks at ``node``: ``Q + cpuct * P * sqrt(N + 1) / (1 + n)``, from the
    values and prior terms kept per edge (``_value``, ``e_pw``; an edge without a value reads
    the node's mean minus ``fpu``): two loads an edge, no division."""
    first = n_first[node]
    nv = n_visits[node]
    k = cpuct * math.sqrt(nv + 1.0)
    base_q = (n_value[node] / nv if nv > 0 else 0.5) - fpu
    best = -1e9
    pick = first
    for e in range(first, first + n_count[node]):
        q = e_q[e]
        if q < -1.0:  # NO_VALUE (values are in [0, 1])
            q = base_q
        u = q + k * e_pw[e]
        if u > best:
            best = u
            pick = e
    return pick


@njit(cache=True, inline="always")
def _new_leaf(pick, n_count, n_visits, n_value, e_child, tops):
    """A node for the position after edge ``pick`` (if the tree has room); its index or -1."""
    if tops[0] >= n_count.shape[0]:
        return -1
    child = tops[0]
    tops[0] += 1
    n_count[child] = -1
    n_visits[child] = 0
    n_value[child] = 0.0
    e_child[pick] = child
    return child


@njit(cache=True, inline="always")
def _backup(depth, path_nodes, path_edges, path_owner, vals, n_first, n_count, n_colour,
            n_visits, n_value, e_move, e_prior, e_visits, e_value, e_anum, e_aval, e_q, e_pw,
            p_stamp, p_col, p_ply, sim, rave_k):  # fmt: skip
    """Add the playout's values along the path, and to the all-moves-as-first values of every
    edge whose placement the node's colour played later in the simulation; refresh the values
    and prior terms selection reads of the edges changed."""
    for d in range(depth):
        nd = path_nodes[d]
        e = path_edges[d]
        col = n_colour[nd]
        v = vals[path_owner[d]]
        e_visits[e] += 1
        e_value[e] += v
        n_visits[nd] += 1
        n_value[nd] += v
        for f in range(n_first[nd], n_first[nd] + n_count[nd]):
            m = e_move[f]
            if p_stamp[m] == sim and p_col[m] == col and p_ply[m] >= d:
                e_anum[f] += 1
                e_aval[f] += v
                e_q[f] = _value(e_visits[f], e_value[f], e_anum[f], e_aval[f], rave_k)
        e_q[e] = _value(e_visits[e], e_value[e], e_anum[e], e_aval[e], rave_k)
        e_pw[e] = e_prior[e] / (1.0 + e_visits[e])


@njit(cache=True, inline="always")
def _copy_colours(connect, occ, occ0):
    """A simulation starts from the root's colours per square (only if the tree reads them)."""
    if connect:
        for i in range(occ.shape[0]):
            occ[i] = occ0[i]


@njit(cache=True, inline="always")
def _cover(connect, occ, c, m, cells5, size):
    """Colour c covers placement m's squares, down the tree (only if the tree reads them)."""
    if connect:
        for k in range(size):
            occ[cells5[m, k]] = c + 1


@njit(cache=True, nogil=True, _nrt=False)  # allocates nothing: no reference counts (compiled.py)
def _run(seed, count, root, turn0, hist0, owner, players, advanced, params, tab, tree, work):
    """Seed this thread's random numbers, then run ``count`` simulations from the root
    position ``root`` with colour ``turn0`` to move (without the GIL: the threads of
    ``mcts_choose`` each search their own tree at once)."""
    np.random.seed(seed)
    # Every array below without its reference count (compiled.borrow): the caller holds them.
    root, hist0, owner, params = borrow((root, hist0, owner, params))
    tab, tree, work = borrow((tab, tree, work))
    pos, lists, grids, given, seen, primed, loop, reply = work
    n_first, n_count, n_colour, n_visits, n_value = tree[0], tree[1], tree[2], tree[3], tree[4]
    e_move, e_prior, e_visits, e_value = tree[5], tree[6], tree[7], tree[8]
    e_child, e_anum, e_aval, tops = tree[9], tree[10], tree[11], tree[12]
    e_q, e_pw, r_seat = tree[13], tree[14], tree[15]
    feat, is_att, att_list, att_n, used, onboard, lastp = pos
    piece, cells5, psize = tab[T_PIECE], tab[T_CELLS], tab[T_SIZE]
    adj, nadj, att, natt = tab[T_ADJ], tab[T_NADJ], tab[T_ATT], tab[T_NATT]
    p_stamp, p_col, p_ply, sims = seen
    cpuct, fpu, rave_k = params[0], params[1], params[11]
    expand_after, expand_inc = params[12], params[20]
    step = int(params[15])
    skip = params[17] > 0.0
    hist_col, hist_mv, done, path_nodes, path_edges, path_owner, vals, points, margins = loop
    adaptive = params[23] > 0.0
    hist0_col, hist0_mv = hist0
    hist = (hist_col, hist_mv)
    use_lgr = params[21] > 0.0
    seq_col, seq_mv = reply[4], reply[5]
    shared = int(params[18])  # three players: the shared colour (R2.4), else -1
    occ0, occ = grids[5], grids[6]
    connect = params[22] > 0.0
    for _ in range(count):
        sims[0] += 1
        sim = sims[0]
        copy_position(pos, root)
        _copy_colours(connect, occ, occ0)
        for i in range(3):  # explicit loops: numba's slice assignments cost far more here
            hist_col[i] = hist0_col[i]
            hist_mv[i] = hist0_mv[i]
        restore_lists(lists, primed)
        for c in range(4):
            done[c] = 0
        node = 0
        turn = turn0
        depth = 0
        rotation = int(params[19])  # who plays the shared colour's next turn (R2.4, R2.4a)
        while True:
            if n_count[node] < 0:
                if tops[1] + MAX_MOVES > e_move.shape[0]:
                    break  # the tree is full: play out from here
                _expand(node, turn, done, tree, pos, tab, lists, grids, given, owner, params)
            if n_count[node] == 0:
                done[:] = 1
                break  # the game is over
            pick = _select(node, n_first, n_count, n_visits, n_value, e_q, e_pw, cpuct, fpu)
            c = n_colour[node]
            m = e_move[pick]
            place_arrays(c, m, feat, is_att, att_list, att_n, used, onboard, lastp, cells5, piece,
                         psize, adj, nadj, att, natt, hist_col, hist_mv)  # fmt: skip
            _cover(connect, occ, c, m, cells5, psize[piece[m]])
            p_stamp[m] = sim
            p_col[m] = c
            p_ply[m] = depth
            path_nodes[depth] = node
            path_edges[depth] = pick
            seq_col[depth] = c
            seq_mv[depth] = m
            if c == shared:
                path_owner[depth] = rotation
                rotation = (rotation + 1) % 3
            else:
                path_owner[depth] = owner[c]
            depth += 1
            turn = (c + (2 * step if depth == 1 and skip else step)) % 4  # Skip (R6.1)
            node = e_child[pick]
            if node < 0:
                _new_leaf(pick, n_count, n_visits, n_value, e_child, tops)
                break
            if n_count[node] < 0 and e_visits[pick] < expand_after + expand_inc * (depth - 1):
                break  # expanded on a later visit (MctsParams.expand_after_long, expand_inc)
        n = playout(turn, step, depth, done, pos, tab, lists, owner, hist, seen, reply, use_lgr)
        values(used, lastp, psize, owner, players, advanced, params, vals, points)
        if adaptive:
            adapt_values(points, players, params, margins, vals)
        if depth > 0:  # every seat's value, by the root's edge (``choose.seat_value``)
            root_edge = path_edges[0] - n_first[0]
            for p in range(4):
                r_seat[root_edge, p] += vals[p]
        if use_lgr:
            update_replies(reply, n, owner, vals)
        _backup(depth, path_nodes, path_edges, path_owner, vals, n_first, n_count, n_colour,
                n_visits, n_value, e_move, e_prior, e_visits, e_value, e_anum, e_aval, e_q, e_pw,
                p_stamp, p_col, p_ply, sim, rave_k)  # fmt: skip
