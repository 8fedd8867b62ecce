"""The search's incremental move lists (games/ai/mcts/position.py): after every placement of a
simulation, each colour's list equals a full regeneration from its attach points and the
engine's own R4 placements (R3.1, R4.1-R4.5), in two- and four-player classic games and from
Shuffle roots with a Skip in force (R6.1) and a reversed direction (R6.2, R7.1)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.ai import mcts
from games.ai.mcts import position as P
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


def _simulate_and_compare(s, every: bool, seed: int, primed: bool = False) -> int:
    """Play one simulation's placements at random from root ``s`` through the incremental lists
    (local points set as in a playout); after each update compare the list with a full
    regeneration and, with every piece considered, with the engine's R4. The moves compared."""
    rng = random.Random(seed)
    tab = mcts.Tables.get()
    pos = mcts.position_arrays(s)
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
@pytest.mark.parametrize("primed", [False, True], ids=["fresh lists", "root's lists"])
def test_incremental_lists_equal_a_full_regeneration_and_the_engine(name, root, every, primed):
    compared = sum(_simulate_and_compare(root, every, seed, primed) for seed in range(3))
    assert compared > 30


@pytest.mark.parametrize("players", [2, 4])
def test_the_tables_name_the_engines_pieces(players):
    for name in ("V5", "Z5", "F", "P", "T5", "U", "X"):
        attr = {"F": "F5", "P": "P5", "U": "U5", "X": "X5"}.get(name, name)
        assert getattr(P, attr) == PIECES.index(name)
    s = _classic(players, 9, 6)
    assert mcts.root_moves(s) == sorted(legal_placements(s))
