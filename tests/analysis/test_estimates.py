"""Honest numbers (issue #28, item 4): on positions whose winner is known, the analysis says so.

Pure: no database. The positions come from one classic two-player game played by the Casual
level (its first 34 placements, frozen below). At that point blue (seat 0: blue and red) has an
I5 and a monomino among its pieces; putting the monomino at a12 takes the last spot where blue's
long pieces fit on that side, and a playout of the rest of the game then loses it.
"""

from __future__ import annotations

import pytest

from games.engine import apply, legal_actions, new_game
from games.engine.pieces import PIECE_INDEX
from games.jobs.analysis import analyse_decision, decisions, describe

pytestmark = pytest.mark.timeout(120)

SIMS = 300
OPENING = [
    "a1,b1,b2,b3,c2",
    "r2,s1,s2,s3,t1",
    "a19,a20,b18,b19,c19",
    "r19,s18,s19,t19,t20",
    "d3,d4,e4,e5,f5",
    "o5,p4,p5,q3,q4",
    "c17,d16,d17,e15,e16",
    "p15,p16,q16,q17,r17",
    "g6,h5,h6,h7,i6",
    "l6,m5,m6,m7,n6",
    "e13,f12,f13,f14,g13",
    "n13,o12,o13,o14,p13",
    "j7,j8,k5,k6,k7",
    "i9,j9,k8,k9,l8",
    "g10,g11,h8,h9,h10",
    "n9,n10,n11,o8,o9",
    "l4,m4,n3,n4,n5",
    "k12,l10,l11,l12,l13",
    "i11,j11,j12,j13,j14",
    "p7,q7,r6,r7,r8",
    "o6,o7,p6,q5,q6",
    "i15,j15,k14,k15,k16",
    "d9,e7,e8,e9,f9",
    "r10,s9,s10,s11,s12",
    "p8,p9,p10,p11,q10",
    "f15,f16,g16,h16,h17",
    "b8,b9,b10,b11,c10",
    "m18,m19,n18,o17,o18",
    "q12,q13,q14,q15,r15",
    "d12,d13,d14,e12,e14",
    "f17,f18,g18,h18,h19",
    "j17,j18,j19,k17,l17",
    "o2,p1,p2,q1,q2",
    "b15,b16,b17,c15,c16",
]
BLUNDER = {"place": "a12"}  # a monomino where the long pieces still fitted
SOUND = {"place": "a12,a13,a14,a15,a16"}  # the I5 there instead


def position():
    s = new_game(mode="classic", players=2)
    for text in OPENING:
        s = apply(s, {"place": text})
    assert s.controller() == 0 and not s.over
    return s


def won_endgame():
    """The same board, but blue and red have only a monomino left each while yellow and green
    still hold all 21 pieces: blue's side has (nearly) won whatever happens."""
    s = position().copy()
    for colour in (0, 2):
        s.supply[colour] = 1 << PIECE_INDEX["1"]
    for colour in (1, 3):
        s.supply[colour] = (1 << len(PIECE_INDEX)) - 1
    return s


def test_a_won_endgame_is_valued_as_won_for_the_winner():
    s = won_endgame()
    action = legal_actions(s)[0]
    result = analyse_decision(s, action, ply=35, sims=SIMS, seed=1)
    assert result.seat == 0
    assert result.before >= 0.9 and result.after >= 0.9
    assert result.loss <= 0.05


def test_a_won_endgame_is_valued_as_lost_for_the_loser():
    s = apply(won_endgame(), legal_actions(won_endgame())[0])  # yellow (seat 1) to move
    assert s.controller() == 1
    result = analyse_decision(s, legal_actions(s)[0], ply=36, sims=SIMS, seed=1)
    assert result.before <= 0.1 and result.after <= 0.1


@pytest.mark.parametrize("seed", [1, 2])
def test_a_blunder_that_strands_a_big_piece_is_a_big_mistake(seed):
    s = position()
    blunder = analyse_decision(s, BLUNDER, ply=35, sims=SIMS, seed=seed)
    sound = analyse_decision(s, SOUND, ply=35, sims=SIMS, seed=seed)
    assert blunder.before >= 0.7  # the position was good for blue
    assert blunder.after <= 0.35  # and the monomino threw it away
    assert blunder.loss >= 0.4
    assert blunder.loss > sound.loss + 0.2
    best = describe(blunder.best)
    assert best["kind"] == "place" and best["piece"] not in ("1", "2")


def test_the_best_move_played_loses_nothing():
    s = position()
    first = analyse_decision(s, BLUNDER, ply=35, sims=SIMS, seed=1)
    again = analyse_decision(s, first.best, ply=35, sims=SIMS, seed=1)
    assert again.loss == 0.0 and again.best == first.best


def test_every_decision_of_a_game_is_listed_once_in_order():
    payloads = [{"place": t} for t in OPENING[:6]]
    plies = [
        ply for ply, _state, _action in decisions(new_game(mode="classic", players=2), payloads)
    ]
    assert plies == [1, 2, 3, 4, 5, 6]


def test_a_shuffle_decision_is_judged_from_the_seats_view_only(monkeypatch):
    """Two games that differ only in what blue may not know (the other hand, the piles' order)
    get the same judgement of blue's decision (break ``world = determinize(...)`` in
    analyse_decision and this fails)."""
    import random

    from games.jobs import analysis
    from tests.engine.helpers import disguise

    # Blue plays Draw 2: what it draws is the top of its own pile, which it may not know.
    s = new_game(mode="shuffle", players=2, seed=3)
    rng = random.Random(5)
    while not (s.step == "card" and s.controller() == 0 and {"card": "draw2"} in legal_actions(s)):
        s = apply(s, rng.choice(legal_actions(s)))
    other = disguise(s, 0, random.Random(9))
    assert other.piles != s.piles
    action = {"card": "draw2"}
    seen = []
    real = analysis.view
    monkeypatch.setattr(analysis, "view", lambda st, seat: seen.append(seat) or real(st, seat))
    one = analyse_decision(s, action, ply=9, sims=50, seed=4)
    two = analyse_decision(other, action, ply=9, sims=50, seed=4)
    assert one == two
    assert seen and seen[0] == 0
