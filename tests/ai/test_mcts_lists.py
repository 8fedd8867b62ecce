"""The search's incremental move lists (games/ai/mcts/position.py): after every placement of a
simulation, each colour's list equals a full regeneration from its attach points and the
engine's own R4 placements (R3.1, R4.1-R4.5), in two- and four-player classic games and from
Shuffle roots with a Skip in force (R6.1) and a reversed direction (R6.2, R7.1); and so do
the lists a search cuts to its root (``position.pruned_tables``), in the full table's order."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.ai import mcts
from games.ai.mcts import position as P
from games.ai.mcts.tables import T_CELLS, T_CSTRIDE, T_MLIST, T_MSTART, T_STPT
from games.engine import apply, legal_placements, new_game
from games.engine.pieces import BOARD, PIECE_SHIFT, PIECES, PLACEMENTS
from games.engine.rules import placement_text, placements_covering, r4_context
from tests.ai.positions import random_positions


def _classic(players: int, seed: int, plies: int):
    rng = random.Random(seed)
    s = new_game(mode="classic", players=players, seed=seed, scoring="advanced")
    for _ in range(plies):
        if s.over:
            break
        s = apply(s, {"place": placement_text(rng.choice(sorted(legal_placements(s))))})
    return s


def _shuffle_root(players: int, seed: int, *, skip: bool, reverse: bool):
    s = next(
        s
        for s in random_positions("shuffle", players, seed=seed)
        if s.step == "place" and s.ply > 8 and s.wild is None and not s.edge
    ).copy()
    s.skip_pending = skip
    s.direction = -1 if reverse else 1
    return s


def _roots():
    yield "classic 2, start", _classic(2, 1, 0)
    yield "classic 2, mid", _classic(2, 2, 14)
    yield "classic 4, start", _classic(4, 3, 0)
    yield "classic 4, mid", _classic(4, 4, 22)
    yield "shuffle 2, skip", _shuffle_root(2, 5, skip=True, reverse=False)
    yield "shuffle 4, skip", _shuffle_root(4, 6, skip=True, reverse=False)
    yield "shuffle 4, reverse", _shuffle_root(4, 7, skip=False, reverse=True)
    yield "shuffle 4, skip and reverse", _shuffle_root(4, 8, skip=True, reverse=True)


def _simulate_and_compare(s, every: bool, seed: int, primed: bool = False, pruned=False) -> int:
    """Play one simulation's placements at random from root ``s`` through the incremental lists
    (local points set as in a playout); after each update compare the list with a full
    regeneration and, with every piece considered, with the engine's R4. ``pruned``: the lists
    read the tables cut to the root, and a full regeneration from them lists what one from the
    whole tables lists, in the same order. The moves compared."""
    rng = random.Random(seed)
    full_tab = mcts.Tables.get()
    pos = mcts.position_arrays(s)
    tab = P.pruned_tables(full_tab, pos) if pruned else full_tab
    lists = P.new_lists(len(PLACEMENTS))
    lists[P.L_ALL][:] = 1 if every else 0
    if primed:  # as a simulation starts: from the root's lists (prime_lists)
        root = P.new_lists(len(PLACEMENTS))
        root[P.L_ALL][:] = 1 if every else 0
        P.prime_lists(pos, tab, root)
        P.restore_lists(lists, root)
    owner = mcts.owners(s)
    hist = mcts.history(s)
    boards = list(s.boards)
    supply = list(s.supply)
    step = 1 if s.direction > 0 else 3
    c = s.turn
    done = [False] * 4
    first = True
    compared = 0
    while not all(done):
        if not done[c]:
            n_local = P.set_local(c, pos, tab, lists, owner, hist)
            n = P.update_moves(c, pos, tab, lists)
            incremental = sorted(int(m) for m in lists[P.L_MOVES][c, :n])
            assert len(set(incremental)) == n  # no placement listed twice
            cons = np.zeros(len(PIECES), np.uint8)
            P.considered_mask(c, pos, tab, lists[P.L_ALL][c] > 0, cons)
            out = np.empty(P.MAX_MOVES, np.int32)
            lists[P.L_STAMP][0] += 1
            stamp = lists[P.L_STAMP][0]
            full = P.generate(c, pos, tab, cons, out, 0, lists[P.L_MARK][c], stamp)
            assert incremental == sorted(int(m) for m in out[:full]), (c, s.ply)
            if pruned:  # the whole tables give the same list, in the same order
                whole = np.empty(P.MAX_MOVES, np.int32)
                lists[P.L_STAMP][0] += 1
                stamp = lists[P.L_STAMP][0]
                n_whole = P.generate(c, pos, full_tab, cons, whole, 0, lists[P.L_MARK][c], stamp)
                assert list(whole[:n_whole]) == list(out[:full]), (c, s.ply)
            if every:
                occupied = boards[0] | boards[1] | boards[2] | boards[3]
                anchors, blocked = r4_context(boards[c], occupied)
                engine = placements_covering(anchors, blocked, supply[c])
                assert sorted(PLACEMENTS[m] for m in incremental) == sorted(engine), (c, s.ply)
            lpts = lists[P.L_LPTS][:n_local]
            pos[P.P_FEAT][c, lpts] &= P.FORB
            compared += 1
            if n == 0:
                done[c] = True
            else:
                m = rng.choice(incremental)
                if pos[P.P_ONB][c] == 0:
                    lists[P.L_READY][c] = 0
                P.place(c, m, pos, tab, hist)
                value = PLACEMENTS[m]
                boards[c] |= value & BOARD
                supply[c] &= ~(1 << ((value >> PIECE_SHIFT).bit_length() - 1))
        c = (c + (2 * step if first and s.skip_pending else step)) % 4
        first = False
    return compared


@pytest.mark.parametrize("name, root", list(_roots()), ids=[name for name, _ in _roots()])
@pytest.mark.parametrize("every", [True, False], ids=["every piece", "considered pieces"])
@pytest.mark.parametrize(
    "primed, pruned",
    [(False, False), (True, False), (True, True)],
    ids=["fresh lists", "root's lists", "root's lists, tables cut to the root"],
)
def test_incremental_lists_equal_a_full_regeneration_and_the_engine(
    name, root, every, primed, pruned
):
    compared = sum(_simulate_and_compare(root, every, seed, primed, pruned) for seed in range(3))
    assert compared > 30


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tables_cut_to_the_root_keep_only_what_the_root_leaves_playable(players):
    """A cut list holds, for its colour, exactly the placements of the whole list that are legal
    at the root (R4.1, R4.3: no square taken or beside the colour's own piece) with a piece the
    colour still has, at squares free to it and statuses the root's can grow into."""
    s = _classic(players, 12, 6 * players)
    tab = mcts.Tables.get()
    pos = mcts.position_arrays(s)
    cut = P.pruned_tables(tab, pos)
    start, flat, whole_start, whole = cut[T_MSTART], cut[T_MLIST], tab[T_MSTART], tab[T_MLIST]
    stride = int(cut[T_CSTRIDE][0])
    assert stride == P.SLOTS and int(tab[T_CSTRIDE][0]) == 0
    feat, used = pos[P.P_FEAT], pos[P.P_USED]
    rng = random.Random(players)
    checked = 0
    for _ in range(400):
        c, a, st, p = rng.randrange(4), rng.randrange(400), rng.randrange(64), rng.randrange(21)
        base = (a * 64 + st) * 21 + p
        got = [int(m) for m in flat[start[c * stride + base] : start[c * stride + base + 1]]]
        root_status = P.status(c, a, feat, tab[T_STPT])
        if feat[c, a] >= P.FORB or st & root_status != root_status or used[c, p]:
            assert got == []
            continue
        expected = [
            int(m)
            for m in whole[whole_start[base] : whole_start[base + 1]]
            if P.sum5(c, m, feat, tab[T_CELLS]) < P.FORB
        ]
        assert got == expected
        checked += len(got)
    assert checked > 0


@pytest.mark.parametrize("players", [2, 4])
def test_the_tables_name_the_engines_pieces(players):
    for name in ("V5", "Z5", "F", "P", "T5", "U", "X"):
        attr = {"F": "F5", "P": "P5", "U": "U5", "X": "X5"}.get(name, name)
        assert getattr(P, attr) == PIECES.index(name)
    s = _classic(players, 9, 6)
    assert mcts.root_moves(s) == sorted(legal_placements(s))
