"""The tree and the search loop (compiled), and the Python side that sets a search up.

* **Tree:** one node per position, one edge per legal placement of the colour to move (colours
  without a placement are skipped: in classic mode a colour that cannot place never can again,
  R8.1). Edges are chosen by PUCT (``Q + c * P * sqrt(N) / (1 + n)``), values blended with their
  all-moves-as-first values; unvisited edges start from the node's mean value minus ``fpu``.
  A new leaf is played out at once and expanded on its next visit.
* **Budget:** the search runs in slices of ``SLICE`` simulations between clock checks (the
  compiled loop cannot read the clock), until the time budget or ``max_sims`` is used up. With
  ``max_sims`` reached first and a seed, the choice is repeatable.
* **Threads:** root parallelism, one tree per thread, the root statistics added up.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from games.engine.pieces import PIECES, PLACEMENTS
from games.engine.rules import legal_placements

from .compiled import njit
from .position import (
    L_READY,
    MAX_MOVES,
    P_LAST,
    P_ONB,
    P_USED,
    considered_mask,
    copy_position,
    generate,
    generate_considered,
    new_lists,
    new_position,
    place,
    playout_move,
    prime_lists,
    restore_lists,
    values,
)
from .priors import new_grids, priors
from .tables import NPIECES, T_CDIST, T_CELLS, T_PIECE, T_SIZE, Tables, placement_index

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


# -- the compiled part ----------------------------------------------------------------------
#
#   tree = (n_first, n_count, n_colour, n_visits, n_value,
#           e_move, e_prior, e_visits, e_value, e_child, e_anum, e_aval, tops)
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
def _expand(node, turn, done, tree, pos, tab, lists, grids, given, owner, params):
    """Give ``node`` its edges: the placements of the first colour from ``turn`` that has one
    (colours without one are marked done); none at all: the game is over (count 0)."""
    n_first, n_count, n_colour = tree[0], tree[1], tree[2]
    e_move, e_prior, e_visits, e_value = tree[5], tree[6], tree[7], tree[8]
    e_child, e_anum, e_aval, tops = tree[9], tree[10], tree[11], tree[12]
    n_count[node] = 0
    for k in range(4):
        c = (turn + k * int(params[15])) % 4
        if done[c]:
            continue
        at = tops[1]
        if node == 0 and given.shape[0] > 0:  # the root's placements, given (card effects)
            n = given.shape[0]
            e_move[at : at + n] = given
        else:
            n = generate_considered(c, pos, tab, lists, e_move, at)
            if n == 0:
                done[c] = 1
                continue
            if pos[P_ONB].sum() <= params[13]:
                n = _centre_filter(at, n, e_move, tab, params[14])
        n_first[node], n_count[node], n_colour[node] = at, n, c
        for e in range(at, at + n):
            e_anum[e], e_aval[e], e_visits[e], e_value[e], e_child[e] = 0, 0.0, 0, 0.0, -1
        priors(c, at, n, e_move, e_prior, pos, tab, owner, grids, params[3:9], params[2])
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
def _played(m, c, ply, seen):
    seen[0][m] = seen[3][0]
    seen[1][m] = c
    seen[2][m] = ply


@njit(cache=True)
def _playout(turn, step, ply, done, pos, tab, lists, owner, hist, seen):
    """Play the game out from colour ``turn`` (every colour by ``playout_move``; the next
    colour is ``step`` on: 1 clockwise, 3 reversed)."""
    idle = 0
    c = turn
    ready = lists[L_READY]
    onboard = pos[P_ONB]
    while idle < 4:
        if done[c]:
            idle += 1
        else:
            m = playout_move(c, pos, tab, lists, owner, hist)
            if m < 0:
                done[c] = 1
                idle += 1
            else:
                if onboard[c] == 0:
                    ready[c] = 0  # its first piece replaces the corners as attach points
                place(c, m, pos, tab, hist)
                _played(m, c, ply, seen)
                ply += 1
                idle = 0
        c = (c + step) % 4


@njit(cache=True)
def _backup(depth, path_nodes, path_edges, path_owner, vals, tree, seen):
    """Add the playout's values along the path, and to the all-moves-as-first values of every
    edge whose placement the node's colour played later in the simulation."""
    n_first, n_count, n_colour, n_visits, n_value = tree[0], tree[1], tree[2], tree[3], tree[4]
    e_move, e_visits, e_value, e_anum, e_aval = tree[5], tree[7], tree[8], tree[10], tree[11]
    p_stamp, p_col, p_ply = seen[0], seen[1], seen[2]
    sim = seen[3][0]
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


@njit(cache=True, nogil=True)
def _run(seed, count, root, turn0, hist0, owner, players, advanced, params, tab, tree, work):
    """Seed this thread's random numbers, then run ``count`` simulations from the root
    position ``root`` with colour ``turn0`` to move (without the GIL: the threads of
    ``mcts_choose`` each search their own tree at once)."""
    np.random.seed(seed)
    pos, lists, grids, given, seen, primed = work
    n_count, n_colour, e_move, e_child, e_visits = tree[1], tree[2], tree[5], tree[9], tree[7]
    tops = tree[12]
    expand_after = params[12]
    step = int(params[15])
    skip = params[17] > 0.0
    hist = (np.empty(3, np.int32), np.empty(3, np.int32))
    done = np.zeros(4, np.uint8)
    path_nodes = np.empty(128, np.int32)
    path_edges = np.empty(128, np.int32)
    path_owner = np.empty(128, np.int32)
    vals = np.zeros(4)
    shared = int(params[18])  # three players: the shared colour (R2.4), else -1
    psize = tab[T_SIZE]
    for _ in range(count):
        seen[3][0] += 1
        copy_position(pos, root)
        hist[0][:] = hist0[0]
        hist[1][:] = hist0[1]
        restore_lists(lists, primed)
        done[:] = 0
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
            pick = _select(node, tree, params)
            c = n_colour[node]
            place(c, e_move[pick], pos, tab, hist)
            _played(e_move[pick], c, depth, seen)
            path_nodes[depth] = node
            path_edges[depth] = pick
            if c == shared:
                path_owner[depth] = rotation
                rotation = (rotation + 1) % 3
            else:
                path_owner[depth] = owner[c]
            depth += 1
            turn = (c + (2 * step if depth == 1 and skip else step)) % 4  # Skip (R6.1)
            node = e_child[pick]
            if node < 0:
                _new_leaf(pick, tree)
                break
            if n_count[node] < 0 and e_visits[pick] < expand_after:
                break  # expanded on a later visit (long searches: MctsParams.expand_after_long)
        _playout(turn, step, depth, done, pos, tab, lists, owner, hist, seen)
        values(pos[P_USED], pos[P_LAST], psize, owner, players, advanced, params, vals)
        _backup(depth, path_nodes, path_edges, path_owner, vals, tree, seen)


# -- the Python side ------------------------------------------------------------------------


def position_arrays(state):
    """The search's root position for an engine ``State``: its pieces placed in the order the
    state lists them (Recycle and Warp change those lists), supplies and last pieces as the
    state has them."""
    tab = Tables.get()
    pos = new_position()
    hist = (np.full(3, -1, np.int32), np.zeros(3, np.int32))
    for c in range(4):
        for value in state.pieces[c]:
            place(c, placement_index(value), pos, tab, hist)
    used, lastp = pos[P_USED], pos[P_LAST]
    for c in range(4):
        used[c] = [0 if state.supply[c] >> p & 1 else 1 for p in range(NPIECES)]
        last = state.last_piece[c]
        lastp[c] = -1 if last is None else PIECES.index(last)
    return pos


def owners(state) -> np.ndarray:
    """The seat owning each colour (R2.2-R2.4); -1 for the shared colour of three players,
    which scores for nobody (R2.5) and is played by each seat in rotation (R2.4)."""
    seats = [state.seat_of(c) for c in range(4)]
    return np.array([-1 if seat is None else seat for seat in seats], np.int32)


def history(state):
    """The latest placements of the three colours before the one to move (oldest first)."""
    cols = np.full(3, -1, np.int32)
    moves = np.zeros(3, np.int32)
    for r, back in enumerate((3, 2, 1)):
        c = (state.turn - back * state.direction) % 4
        if state.pieces[c]:
            cols[r] = c
            moves[r] = placement_index(state.pieces[c][-1])
    return cols, moves


def param_vector(params, expand_after: int, state=None) -> np.ndarray:
    """The constants as the compiled loop reads them (see ``_run`` and ``priors``)."""
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
            -1 if state is None or state.shared is None else state.shared,
            0 if state is None else state.rotation,
        ],
        np.float64,
    )


def scratch(placements: int, given=None, root=None):
    """A thread's ``work`` tuple: its position, playout lists, prior grids, the root's
    placements if they are given (none: the root's are generated), the placements' stamps of
    the simulation (all moves as first), and the root's playout lists (``prime_lists``; from
    ``root``, the root position, else empty)."""
    primed = new_lists(placements)
    if root is not None:
        prime_lists(root, Tables.get(), primed)
    return (
        new_position(),
        new_lists(placements),
        new_grids(),
        np.empty(0, np.int32) if given is None else given,
        (
            np.zeros(placements, np.int64),
            np.zeros(placements, np.int8),
            np.zeros(placements, np.int16),
            np.zeros(1, np.int64),
        ),
        primed,
    )


def new_tree(max_nodes: int, max_edges: int):
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


# Searches kept for the next decision (subtree reuse): a Shuffle card candidate's search has
# searched the very position of the placement that follows when that candidate wins. Keyed by
# everything the search reads of a position; time-budgeted searches only (a search bounded by
# ``max_sims`` stays repeatable: it never starts from a kept tree).
_KEPT: dict[tuple, tuple] = {}


def position_key(state) -> tuple:
    """What the search reads of ``state`` (never hidden cards): equal keys, equal searches."""
    return (
        state.mode,
        state.players,
        state.scoring,
        state.turn,
        state.direction,
        bool(state.skip_pending),
        state.step,
        state.wild,
        bool(state.edge),
        state.first,
        tuple(tuple(p) for p in state.pieces),
        tuple(state.supply),
        tuple(state.last_piece),
        state.rotation,
        state.shared,
    )


def forget(keep: tuple | None = None) -> None:
    """Drop the kept searches, but the one of position key ``keep``."""
    for key in list(_KEPT):
        if key != keep:
            del _KEPT[key]


def mcts_choose(
    state,
    *,
    deadline: float,
    max_sims: int | None = None,
    seed: int = 0,
    params=MctsParams,
    keep: bool = False,
) -> tuple[int, dict]:
    """The placement (an engine value) the search picks for the colour to move, and statistics.

    ``deadline`` is a ``time.perf_counter()`` time; ``max_sims`` bounds the simulations too.
    Without ``max_sims``, a search kept for this very position (``keep=True`` on an earlier
    call) goes on from its trees (``stats["reused"]``: the simulations it had).
    """
    tab = Tables.get()
    count = len(tab[T_PIECE])
    root = position_arrays(state)
    owner = owners(state)
    hist = history(state)
    players = state.players
    advanced = state.scoring == "advanced"
    long = deadline - time.perf_counter() > params.long_search
    vec = param_vector(params, params.expand_after_long if long else 1, state)
    threads = max(1, params.threads)
    key = position_key(state) if max_sims is None else None
    kept = _KEPT.pop(key, None) if key is not None else None
    if kept is not None and len(kept[0]) == threads:
        trees, works, reused = kept
    else:
        given = given_moves(state)
        trees = tuple(new_tree(params.max_nodes, params.max_edges) for _ in range(threads))
        works = tuple(scratch(count, given, root) for _ in range(threads))
        reused = 0
    sims = 0
    rounds = 0
    per_sim = 0.0  # seconds a slice took per simulation, so far (time-budgeted searches)
    while True:
        left = SLICE * threads if max_sims is None else max_sims - sims
        step = min(SLICE, -(-left // threads))
        if max_sims is None and per_sim > 0.0:
            # Time only: a slice no longer than the time left (a busy machine, slow
            # simulations), so that the search ends near its deadline, not a slice after it.
            step = max(1, min(step, int((deadline - time.perf_counter()) / per_sim)))
        if step <= 0:
            break
        began = time.perf_counter()
        seeds = np.array([seed * 7919 + rounds * threads + k for k in range(threads)], np.int64)
        args = (step, root, state.turn, hist, owner, players, advanced, vec, tab)
        if threads == 1:
            _run(seeds[0], *args, trees[0], works[0])
        else:
            jobs = [
                _pool(threads).submit(_run, seeds[k], *args, trees[k], works[k])
                for k in range(threads)
            ]
            for job in jobs:
                job.result()
        sims += step * threads
        rounds += 1
        now = time.perf_counter()
        per_sim = max(per_sim, (now - began) / step)
        if now >= deadline:
            break
    tree = trees[0]
    first, count = int(tree[0][0]), int(tree[1][0])
    if count <= 0 or tree[2][0] != state.turn:
        raise ValueError("the colour to move has no placement")
    root_edges = slice(first, first + count)
    e_visits = tree[7][root_edges].astype(np.int64)
    e_value = tree[8][root_edges].astype(np.float64)
    for other in trees[1:]:  # the same root edges in the same order: add their statistics
        if int(other[0][0]) != first or int(other[1][0]) != count:
            raise AssertionError("the threads' roots differ")
        e_visits += other[7][root_edges]
        e_value += other[8][root_edges]
    best = int(np.argmax(e_visits))
    move = int(tree[5][first + best])
    if keep and key is not None:
        _KEPT[key] = (trees, works, reused + sims)
    stats = {
        "reused": reused,
        "sims": sims,
        "nodes": sum(int(t[12][0]) for t in trees),
        "edges": sum(int(t[12][1]) for t in trees),
        "visits": int(e_visits[best]),
        "root_visits": int(e_visits.sum()),
        "value": float(e_value[best] / max(1, e_visits[best])),
    }
    return PLACEMENTS[move], stats


def given_moves(state) -> np.ndarray | None:
    """The root's placements when a card changes R4 for this one (Wild R6.4, Edge to Edge
    R6.5, Double Play's second piece R6.6): the engine's, largest pieces first, at most
    ``MAX_MOVES``. None: the search generates them (R4 as it stands)."""
    if state.mode != "shuffle" or not (
        state.wild is not None or state.edge or state.step == "place_second"
    ):
        return None
    tab = Tables.get()
    pl_piece, psize = tab[T_PIECE], tab[T_SIZE]
    indices = sorted(
        (placement_index(v) for v in legal_placements(state)),
        key=lambda m: (-int(psize[pl_piece[m]]), m),
    )
    return np.array(indices[:MAX_MOVES], np.int32)


def root_moves(state) -> list[int]:
    """Every placement the search's move generator finds for the colour to move (tests)."""
    tab = Tables.get()
    pos = position_arrays(state)
    lists = new_lists(len(tab[T_PIECE]))
    cons = np.zeros(NPIECES, np.uint8)
    considered_mask(state.turn, pos, tab, True, cons)
    out = np.empty(MAX_MOVES, np.int32)
    n = generate(state.turn, pos, tab, cons, out, 0, lists[4][state.turn], 1)
    return sorted(PLACEMENTS[int(m)] for m in out[:n])


def root_considered(state) -> list[int]:
    """The placements the tree's expansion generates for the colour to move (tests)."""
    tab = Tables.get()
    out = np.empty(MAX_MOVES, np.int32)
    lists = new_lists(len(tab[T_PIECE]))
    n = generate_considered(state.turn, position_arrays(state), tab, lists, out, 0)
    return sorted(int(m) for m in out[:n])
