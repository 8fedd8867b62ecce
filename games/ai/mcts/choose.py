"""The Python side of a search: the root's arrays from an engine state, the threads, the
clock, the statistics, and the searches kept for reuse (the compiled part is search.py)."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from games.engine import COLOURS
from games.engine.blksgf import PENTOBI_CORNER
from games.engine.pieces import PIECES, PLACEMENTS
from games.engine.rules import legal_placements

from .position import (
    MAX_MOVES,
    P_ATTL,
    P_ATTN,
    P_ISATT,
    P_LAST,
    P_ONB,
    P_USED,
    considered_mask,
    generate,
    generate_considered,
    new_lists,
    new_position,
    new_replies,
    place,
    prime_lists,
    pruned_tables,
    values,
)
from .priors import new_grids
from .search import SLICE, MctsParams, _run
from .tables import NPIECES, T_CELLS, T_CENTRE, T_PIECE, T_SIZE, Tables, placement_index


def position_arrays(state, fixed_corners: bool = False):
    """The search's root position for an engine ``State``: its pieces placed in the order the
    state lists them (Recycle and Warp change those lists), supplies and last pieces as the
    state has them.

    ``fixed_corners`` (``MctsParams.fixed_corners``; the Pentobi arena): the colours play the
    fixed-corner game of Pentobi's classic games instead of R3.1's free corners: blue starts on
    a20, yellow on t20, red on t1, green on a1 (``start_corners``)."""
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
    if fixed_corners and state.mode == "classic" and _on_fixed_corners(state, tab):
        start_corners(pos)
    return pos


def _on_fixed_corners(state, tab) -> bool:
    """Whether every first piece placed so far covers its colour's fixed corner."""
    return all(
        FIXED_CORNERS[c] in tab[T_CELLS][placement_index(state.pieces[c][0])]
        for c in range(4)
        if state.pieces[c]
    )


# The fixed corners of Pentobi's classic games, as the search's squares (x + 20 y): blue a20,
# yellow t20, red t1, green a1 (games.engine.blksgf.PENTOBI_CORNER).
FIXED_CORNERS = tuple(x + 20 * y for x, y in (PENTOBI_CORNER[c] for c in COLOURS))


def start_corners(pos) -> None:
    """The fixed-corner game (``position_arrays``): each colour still without a piece may start
    only on its own corner (``FIXED_CORNERS``), so that the tree plans every colour's first
    piece where Pentobi's rules put it. ``position_arrays`` leaves a position whose first
    pieces are not all on their colours' corners as it is (R3.1's free corners)."""
    att_list, att_n, is_att, onboard = pos[P_ATTL], pos[P_ATTN], pos[P_ISATT], pos[P_ONB]
    for c in range(4):
        if onboard[c]:
            continue
        for i in range(att_n[c]):
            is_att[c, att_list[c, i]] = 0
        att_list[c, 0] = FIXED_CORNERS[c]
        is_att[c, FIXED_CORNERS[c]] = 1
        att_n[c] = 1


def colours_on_board(state) -> np.ndarray:
    """Which colour covers each of the search's squares (colour + 1; 0: empty, and the two
    squares past the board)."""
    tab = Tables.get()
    out = np.zeros(len(tab[T_CENTRE]), np.int8)
    for c in range(4):
        for value in state.pieces[c]:
            m = placement_index(value)
            for k in range(int(tab[T_SIZE][tab[T_PIECE][m]])):
                out[tab[T_CELLS][m, k]] = c + 1
    return out


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
    # Last good reply (``lgr``), connect pruning, ``margin_share_classic2`` and
    # ``margin_adaptive`` were measured in classic two-player games only: other games search
    # without them.
    classic2 = state is not None and state.mode == "classic" and state.players == 2
    multi = state is not None and state.mode == "classic" and state.players > 2
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
            params.margin_share_classic2 if classic2 else params.margin_share,
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
            params.expand_inc,
            params.lgr if classic2 else 0,
            params.connect_pieces if classic2 else 0,
            params.margin_adaptive if classic2 else params.margin_adaptive_multi if multi else 0,
        ],
        np.float64,
    )


def scratch(placements: int, given=None, root=None):
    """A thread's ``work`` tuple: its position, playout lists, prior grids, the root's
    placements if they are given (none: the root's are generated), the placements' stamps of
    the simulation (all moves as first), the root's playout lists (``prime_lists``; from
    ``root``, the root position, else empty), and the search loop's own scratch (the latest
    three placements, colours done, the path, values: ``_run`` allocates nothing)."""
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
        (
            np.empty(3, np.int32),
            np.empty(3, np.int32),
            np.zeros(4, np.uint8),
            np.empty(128, np.int32),
            np.empty(128, np.int32),
            np.empty(128, np.int32),
            np.zeros(4),
            np.zeros(4),  # the players' points
            np.zeros((4, 3)),  # the players' margins so far (adapt_values): count, mean, M2
        ),
        new_replies(placements),
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
        np.empty(max_edges, np.float32),  # e_q: the value selection reads (search._value)
        np.empty(max_edges, np.float32),  # e_pw: prior / (1 + visits)
        np.zeros((MAX_MOVES, 4)),  # r_seat: every seat's values summed, by root edge
    )


_POOLS: dict[int, ThreadPoolExecutor] = {}

# A settling search (``mcts_choose(settle=True)``) judges its rate after this many seconds at
# the earliest (Pentobi's 0.1 s: a rate measured over a few slices says little).
SETTLE_AFTER = 0.1
# A prefork Celery worker warms the search up in its main process (config/celery.py), which
# starts a pool, then forks its children: a fork copies the pool but not its threads, and a
# child's first threaded search waited for them forever. Each process starts its own pool.
os.register_at_fork(after_in_child=_POOLS.clear)


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
    settle: bool = False,
    clock=time.perf_counter,
) -> tuple[int, dict]:
    """The placement (an engine value) the search picks for the colour to move, and statistics.

    ``deadline`` is a time on ``clock`` (``time.perf_counter`` unless a test drives its own);
    ``max_sims`` bounds the simulations too. Without ``max_sims``, a search kept for this very
    position (``keep=True`` on an earlier call) goes on from its trees (``stats["reused"]``: the
    simulations it had).

    ``settle``: a time-budgeted search stops as soon as its pick cannot change, that is when the
    most visited root move leads the second by more than the simulations the time left affords
    at the rate so far (Pentobi's ``SearchBase::check_cannot_change``); ``stats["settled"]``
    says so. The pick is the one the whole budget would have made; the player waits less. A
    search bounded by ``max_sims`` runs them all (repeatable), and so does one whose values
    matter beyond its pick (a Shuffle card candidate's).

    ``stats["value"]``: the mean value of the pick for the colour's player; ``stats["values"]``:
    every seat's mean value over the pick's simulations.
    """
    trees, stats = _search(state, deadline, max_sims, seed, params, keep, settle, clock)
    tree = trees[0]
    if int(tree[1][0]) <= 0 or tree[2][0] != state.turn:
        raise ValueError("the colour to move has no placement")
    return _pick(trees, stats, state.players)


def seat_value(
    state,
    seat: int,
    *,
    deadline: float,
    max_sims: int | None = None,
    seed: int = 0,
    params=MctsParams,
    clock=time.perf_counter,
) -> float:
    """The value of ``state`` for ``seat``, in [0, 1] as the search values a playout, whoever
    is to move there: the seat's mean value over the simulations of the mover's pick (the
    search of ``mcts_choose`` from ``state``, the colours without a placement passed over), or,
    when the game is over or no colour can place, the finished game's value
    (``final_values``). Expert values a Shuffle candidate after which its colour does not place
    by this."""
    if not state.over:
        trees, stats = _search(state, deadline, max_sims, seed, params, False, False, clock)
        if int(trees[0][1][0]) > 0:
            return _pick(trees, stats, state.players)[1]["values"][seat]
    return float(final_values(state, params)[seat])


def final_values(state, params=MctsParams) -> np.ndarray:
    """Every seat's value of ``state`` taken as a finished game, as the search values a
    finished playout (``position.values``: R8.3 / R8.4 points, then rank and margin)."""
    pos = position_arrays(state)
    out = np.zeros(4)
    values(
        pos[P_USED],
        pos[P_LAST],
        Tables.get()[T_SIZE],
        owners(state),
        state.players,
        state.scoring == "advanced",
        param_vector(params, 1, state),
        out,
        np.zeros(4),
    )
    return out[: state.players]


def _search(state, deadline, max_sims, seed, params, keep, settle, clock):
    """Run the search from ``state`` (see ``mcts_choose``): its trees (one per thread) and
    statistics so far."""
    tab = Tables.get()
    count = len(tab[T_PIECE])
    root = position_arrays(state, params.fixed_corners)
    if _prunes(state, deadline - clock(), max_sims, params):
        tab = pruned_tables(tab, root)
    owner = owners(state)
    hist = history(state)
    players = state.players
    advanced = state.scoring == "advanced"
    long = deadline - clock() > params.long_search
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
        if params.connect_pieces:  # only connect pruning reads the colours per square
            occupied = colours_on_board(state)
            for work in works:
                work[2][5][:] = occupied
        reused = 0
    sims = 0
    rounds = 0
    per_sim = 0.0  # seconds a slice took per simulation, so far (time-budgeted searches)
    started = clock()
    settled = False
    while True:
        left = SLICE * threads if max_sims is None else max_sims - sims
        step = min(SLICE, -(-left // threads))
        if max_sims is None:
            # Time only: a first slice of a few simulations, then slices no longer than the
            # time left (a busy machine, slow simulations), so that a short search (a card
            # candidate's) ends near its deadline, not a slice after it.
            left_s = deadline - clock()
            step = min(step, 8) if per_sim == 0.0 else max(1, min(step, int(left_s / per_sim)))
        if step <= 0:
            break
        began = clock()
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
        if trees[0][1][0] == 0:
            break  # no colour can place: nothing to search
        now = clock()
        per_sim = max(per_sim, (now - began) / step)
        if now >= deadline:
            break
        settling = settle and max_sims is None and now - started >= SETTLE_AFTER
        if settling and _settled(trees, sims / (now - started) * (deadline - now)):
            settled = True
            break
    if keep and key is not None and trees[0][1][0] > 0 and trees[0][2][0] == state.turn:
        _KEPT[key] = (trees, works, reused + sims)  # its root is the colour to move's
    stats = {
        "reused": reused,
        "sims": sims,
        "nodes": sum(int(t[12][0]) for t in trees),
        "edges": sum(int(t[12][1]) for t in trees),
        "settled": settled,
    }
    return trees, stats


def _prunes(state, seconds: float, max_sims: int | None, params) -> bool:
    """Whether a search from ``state`` of ``seconds`` (``max_sims`` simulations, if bounded)
    cuts its move lists first (``MctsParams.prune_pieces``, off unless set): the cut costs up
    to tens of milliseconds, so only a long enough search from a filled enough board makes it."""
    pieces = sum(len(p) for p in state.pieces)
    if not params.prune_pieces or pieces < params.prune_pieces:
        return False
    if max_sims is not None:
        return max_sims >= params.prune_sims
    return seconds >= params.prune_seconds


def _pick(trees, stats: dict, players: int) -> tuple[int, dict]:
    """The most visited root move (all threads' visits) and the statistics with its own."""
    tree = trees[0]
    first, count = int(tree[0][0]), int(tree[1][0])
    root_edges = slice(first, first + count)
    e_visits = tree[7][root_edges].astype(np.int64)
    e_value = tree[8][root_edges].astype(np.float64)
    r_seat = tree[15][:count].copy()
    for other in trees[1:]:  # the same root edges in the same order: add their statistics
        if int(other[0][0]) != first or int(other[1][0]) != count:
            raise AssertionError("the threads' roots differ")
        e_visits += other[7][root_edges]
        e_value += other[8][root_edges]
        r_seat += other[15][:count]
    best = int(np.argmax(e_visits))
    move = int(tree[5][first + best])
    visits = max(1, int(e_visits[best]))
    stats = {
        **stats,
        "visits": int(e_visits[best]),
        "root_visits": int(e_visits.sum()),
        "value": float(e_value[best] / visits),
        "values": [float(v) / visits for v in r_seat[best, :players]],
    }
    return PLACEMENTS[move], stats


def _settled(trees, remaining: float) -> bool:
    """Whether the most visited root move (all threads' visits) leads the second by more
    than ``remaining`` simulations, so that no outcome of them can change the pick."""
    first, count = int(trees[0][0][0]), int(trees[0][1][0])
    if count <= 1:
        return count == 1
    visits = trees[0][7][first : first + count].astype(np.int64)
    for other in trees[1:]:
        visits += other[7][first : first + count]
    top2 = np.partition(visits, count - 2)[count - 2 :]
    return int(top2[1] - top2[0]) > remaining


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


def root_considered(state, fixed_corners: bool = False) -> list[int]:
    """The placements (table indices) the tree's expansion generates for the colour to move
    (tests)."""
    tab = Tables.get()
    out = np.empty(MAX_MOVES, np.int32)
    lists = new_lists(len(tab[T_PIECE]))
    pos = position_arrays(state, fixed_corners)
    n = generate_considered(state.turn, pos, tab, lists, out, 0)
    return sorted(int(m) for m in out[:n])
