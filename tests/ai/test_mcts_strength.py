"""Last good reply (MctsParams.lgr, Pentobi's LastGoodReply), classic two-player games only:
on or off, a seeded search with a simulation budget stays repeatable and its choice legal; good
replies are stored for winners and forgotten for losers."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.ai import mcts
from games.ai.mcts.position import new_replies, update_replies
from games.engine import apply, legal_placements, new_game
from games.engine.rules import placement_text


def _random_game(players: int, seed: int, plies: int, mode: str = "classic"):
    rng = random.Random(seed)
    s = new_game(mode=mode, players=players, seed=seed, scoring="advanced")
    for _ in range(plies):
        if s.over or s.step != "place":
            break
        s = apply(s, {"place": placement_text(rng.choice(sorted(legal_placements(s))))})
    return s


def _params(**values):
    return type("Params", (mcts.MctsParams,), values)


@pytest.mark.parametrize("lgr", [0, 1])
@pytest.mark.parametrize("threads", [1, 2])
def test_a_seeded_search_is_repeatable_and_legal_with_or_without_good_replies(lgr, threads):
    params = _params(threads=threads, lgr=lgr)
    searched = 0
    for plies in (4, 20, 44):
        s = _random_game(2, 7 + plies, plies)
        if s.over:
            continue
        runs = [
            mcts.mcts_choose(s, deadline=float("inf"), max_sims=400, seed=3, params=params)
            for _ in range(2)
        ]
        assert runs[0] == runs[1]
        assert runs[0][0] in legal_placements(s)
        searched += 1
    assert searched >= 2


def test_a_good_reply_is_stored_for_the_winner_and_forgotten_for_the_loser():
    reply = new_replies(100)
    lgr1, lgr2, hash1, hash2, seq_col, seq_mv = reply
    owner = np.array([0, 1, 0, 1], np.int32)
    seq_col[:3] = [0, 1, 2]
    seq_mv[:3] = [10, 20, 30]
    update_replies(reply, 3, owner, np.array([1.0, 0.0, 0, 0]))
    assert lgr1[2, 20] == 30  # player 0 won: red's reply to yellow's 20 is kept
    assert lgr1[1, 10] == -1  # player 1 lost: nothing stored for yellow
    assert lgr2[2, (hash1[20] ^ hash2[10]) & (lgr2.shape[1] - 1)] == 30
    update_replies(reply, 3, owner, np.array([0.0, 1.0, 0, 0]))
    assert lgr1[2, 20] == -1  # red's player lost with it: forgotten
    assert lgr1[1, 10] == 20


def test_the_margin_weighs_more_in_classic_two_player_games_only():
    """``margin_share_classic2`` (for the second seat against Pentobi) was measured in
    classic two-player games only; the analysis keeps the 90 / 10 reading everywhere."""
    from games.ai.judge import OneThread

    classic2 = new_game(mode="classic", players=2, seed=1)
    assert mcts.MctsParams.margin_share_classic2 != mcts.MctsParams.margin_share
    assert mcts.param_vector(mcts.MctsParams, 1, classic2)[9] == 0.3
    assert mcts.param_vector(OneThread, 1, classic2)[9] == mcts.MctsParams.margin_share == 0.1
    for mode, players in (("classic", 4), ("classic", 3), ("shuffle", 2), ("shuffle", 4)):
        other = new_game(mode=mode, players=players, seed=1)
        assert mcts.param_vector(mcts.MctsParams, 1, other)[9] == 0.1


def test_good_replies_hold_in_classic_two_player_games_only():
    """They were measured there (bench/AI_RESULTS.md): other games search without."""
    on = _params(lgr=1)
    assert mcts.param_vector(on, 1, new_game(mode="classic", players=2, seed=1))[21] == 1
    for mode, players in (("classic", 4), ("classic", 3), ("shuffle", 2), ("shuffle", 4)):
        other = new_game(mode=mode, players=players, seed=1)
        assert mcts.param_vector(on, 1, other)[21] == 0


def test_the_adaptive_margin_reads_a_playout_against_the_search_s_others():
    """``position.adapt_values`` (Pentobi's quality-based reward): the margin's part compares a
    playout's margin with this search's playouts so far, so that among playouts that all lose
    by about 20 points, a loss by 10 reads better than a loss by 30; the rank's part is as in
    ``values``. The first playout has nothing to compare with (0.5)."""
    from games.ai.mcts.position import adapt_values

    params = mcts.param_vector(_params(margin_adaptive=1), 1, new_game(mode="classic", players=2))
    share = params[9]
    stats, out = np.zeros((4, 3)), np.zeros(4)
    adapt_values(np.array([-40.0, -20.0, 0, 0]), 2, params, stats, out)
    assert out[0] == pytest.approx(0.5 * share) and out[1] == pytest.approx(1 - 0.5 * share)
    for points in ([-40.0, -18.0], [-41.0, -22.0], [-39.0, -19.0]):
        adapt_values(np.array([*points, 0, 0]), 2, params, stats, out)
    assert stats[0, 0] == 4 and stats[0, 1] == pytest.approx(-20.25)
    adapt_values(np.array([-30.0, -20.0, 0, 0]), 2, params, stats.copy(), out)
    closer = out[0]
    adapt_values(np.array([-50.0, -20.0, 0, 0]), 2, params, stats.copy(), out)
    further = out[0]
    # both lost (rank 0): the closer loss reads better, above the middle of the margin's part
    assert further < 0.5 * share < closer < share
    # the fixed curve, near its flat end at these margins, tells them apart less
    assert closer - further > share * (
        0.5 * (np.tanh(-10 / params[10]) - np.tanh(-30 / params[10]))
    )


def test_the_adaptive_margin_is_for_classic_two_player_games_and_off_in_the_analysis():
    from games.ai.judge import OneThread

    on = _params(margin_adaptive=1)
    assert mcts.param_vector(on, 1, new_game(mode="classic", players=2, seed=1))[23] == 1
    assert mcts.param_vector(OneThread, 1, new_game(mode="classic", players=2, seed=1))[23] == 0
    for mode, players in (("classic", 4), ("classic", 3), ("shuffle", 2), ("shuffle", 4)):
        other = new_game(mode=mode, players=players, seed=1)
        assert mcts.param_vector(on, 1, other)[23] == 0
    # three and four players have their own switch (``margin_adaptive_multi``); Shuffle none
    multi = _params(margin_adaptive_multi=1)
    assert mcts.param_vector(multi, 1, new_game(mode="classic", players=2, seed=1))[23] == 0
    for mode, players, used in (("classic", 4, 1), ("classic", 3, 1), ("shuffle", 4, 0)):
        other = new_game(mode=mode, players=players, seed=1)
        assert mcts.param_vector(multi, 1, other)[23] == used
        assert mcts.param_vector(OneThread, 1, other)[23] == 0
    # a seeded search with it on is repeatable, and picks a legal placement
    s = _random_game(2, 5, 10)
    picks = {
        mcts.mcts_choose(
            s, deadline=1e18, max_sims=400, seed=9, params=_params(margin_adaptive=1, threads=1)
        )[0]
        for _ in range(2)
    }
    assert len(picks) == 1 and picks <= legal_placements(s)


def test_a_four_player_search_with_the_adaptive_margin_is_repeatable_and_legal():
    s = _random_game(4, 6, 12)
    params = _params(margin_adaptive_multi=1, threads=1)
    picks = {mcts.mcts_choose(s, deadline=1e18, max_sims=300, seed=4, params=params)[0]}
    picks.add(mcts.mcts_choose(s, deadline=1e18, max_sims=300, seed=4, params=params)[0])
    assert len(picks) == 1 and picks <= legal_placements(s)
