"""Honest numbers: on positions whose winner is known, the analysis says so.

Pure: no database. The positions come from one classic two-player game played by the Casual
level (its first 34 placements, frozen below). At that point blue (seat 0: blue and red) has an
I5 and a monomino among its pieces; putting the monomino at a12 takes the last spot where blue's
long pieces fit on that side, and a playout of the rest of the game then loses it.
"""

from __future__ import annotations

import pytest

from games.ai.judge import analyse_decision, decisions, describe
from games.engine import apply, legal_actions, new_game
from games.engine.pieces import PIECE_INDEX
from tests.support.analysis import BLUNDER, OPENING, SOUND

pytestmark = pytest.mark.timeout(120)

SIMS = 300


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


def test_a_carried_move_is_valued_beside_the_search_s_own_best():
    """A deeper look carries the row's best so far (``judge_again``): it is valued in the same
    world with the same random numbers as the search's own best and the move played, and the
    better of the two is the judgement's best, so a move once found is not lost to a later
    search that misses it. A carried move that is not legal in the position is left out."""
    s = position()
    alone = analyse_decision(s, BLUNDER, ply=35, sims=SIMS, seed=3)
    sound = analyse_decision(s, SOUND, ply=35, sims=SIMS, seed=3)  # SOUND's value: ``after``
    both = analyse_decision(s, BLUNDER, ply=35, sims=SIMS, seed=3, carry=({"place": SOUND},))
    assert both.after == alone.after  # the move played is valued as before
    assert both.before == max(alone.before, sound.after)
    assert both.best in (alone.best, {"place": SOUND})
    taken = {"place": OPENING[0]}  # a square already covered: not a legal placement
    assert analyse_decision(s, BLUNDER, ply=35, sims=SIMS, seed=3, carry=(taken,)) == alone


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

    from games.ai import judge
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
    real = judge.view
    monkeypatch.setattr(judge, "view", lambda st, seat: seen.append(seat) or real(st, seat))
    one = analyse_decision(s, action, ply=9, sims=50, seed=4)
    two = analyse_decision(other, action, ply=9, sims=50, seed=4)
    assert one == two
    assert seen and seen[0] == 0


def test_with_two_players_a_card_is_valued_where_the_opponent_moves_next():
    """A card and the placement after it are valued at the same point: once the player's turn
    is played on (the search's best placement), as 1 minus the opponent's value. Valued at the
    player's own search instead, a card read higher than the placement after it, with nothing
    played in between (the search is optimistic for the side it searches), and the chart's line
    jumped down inside a turn."""
    import random

    from games.ai.judge import _Judge

    s = new_game(mode="shuffle", players=2, seed=3)
    rng = random.Random(5)
    while True:
        s = apply(s, rng.choice(legal_actions(s)))
        if s.controller() == 0 and s.step == "place" and s.players == 2:
            after = apply(s, legal_actions(s)[0])
            if not after.over and after.controller() == 1:
                break
    value = _Judge(0, 30, 7).position_value(s)
    again = _Judge(0, 30, 7)
    placed = apply(s, again.best_placement(s))
    assert placed.controller() == 1
    _best, theirs = again.search(placed)
    assert value == 1.0 - theirs
