"""The search's strength switches (MctsParams.quality, lgr, connect_pieces, issue #23 stop
33), classic two-player games only: each keeps a seeded search with a simulation budget
repeatable and its choice legal; quality-rewarded values stay a zero-sum pair; good replies are
stored for winners and forgotten for losers; the connect rule joins a player's colours early."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.ai import mcts
from games.ai.mcts.position import new_position, new_replies, quality_values, update_replies
from games.engine import apply, legal_placements, new_game
from games.engine.pieces import W, parse_squares
from games.engine.rules import placement_text
from tests.ai.positions import random_positions

pytestmark = pytest.mark.skipif(not mcts.AVAILABLE, reason="numba is not installed")


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


@pytest.mark.parametrize(
    "switch",
    [{"quality": 1}, {"lgr": 0}, {"lgr": 1}, {"connect_pieces": 14}, {"quality": 1, "lgr": 1}],
)
@pytest.mark.parametrize("threads", [1, 2])
def test_each_switch_keeps_a_seeded_search_repeatable_and_legal(switch, threads):
    params = _params(threads=threads, **switch)
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


def test_quality_values_are_the_rank_plus_bonuses_against_running_statistics():
    """Two players: values sum to 1; the first playout (no spread yet) is its rank alone; a
    margin above the running mean earns more than the rank, one below less."""
    params = mcts.param_vector(_params(quality=1), 1)
    pos = new_position()
    feat, is_att, att_list, att_n, used, onboard, lastp = pos
    owner = np.array([0, 1, 0, 1], np.int32)
    out = np.zeros(4)
    points = np.zeros(16)
    seen = []
    for margin in (5.0, 5.0, 15.0, -3.0):
        points[0], points[1] = margin, 0.0
        quality_values(feat, att_list, att_n, onboard, owner, params, out, points)
        assert out[0] + out[1] == pytest.approx(1.0)
        seen.append(out[0])
    assert seen[0] == 1.0  # a win, nothing to compare with yet
    assert seen[2] > 1.0  # a win by more than the mean margin
    assert seen[3] < 0.0  # a loss by more than the mean: below a plain loss


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


def _touches(state, value: int, colour: int) -> bool:
    """Whether placement ``value`` shares a side with a square of ``colour`` (R1.1 squares)."""
    squares = parse_squares(placement_text(value))
    beside = squares << 1 | squares >> 1 | squares << W | squares >> W
    return bool(beside & state.boards[colour])


def test_classic_two_players_can_open_by_joining_their_colours():
    """Classic, two players (R2.3), ``connect_pieces`` set: while fewer pieces than that are on
    the board, the search plays a placement beside its player's other colour whenever there is
    one; four players and Shuffle games have no such rule; off by default."""
    connect = _params(connect_pieces=14)
    s = next(
        s
        for seed in range(40)
        for s in random_positions("classic", 2, seed=seed)
        if s.step == "place"
        and connect.centre_pieces < s.ply < connect.connect_pieces  # the centre race is over
        and len({_touches(s, v, (s.turn + 2) % 4) for v in legal_placements(s)}) == 2
    )
    partner = (s.turn + 2) % 4
    for seed in range(3):
        value, _ = mcts.mcts_choose(
            s, deadline=float("inf"), max_sims=100, seed=seed, params=connect
        )
        assert _touches(s, value, partner)
    assert mcts.param_vector(connect, 1, s)[26] == 14


def test_the_switches_hold_in_classic_two_player_games_only():
    """They were measured there (bench/AI_RESULTS.md, stop 33): other games search as before."""
    on = _params(quality=1, lgr=1, connect_pieces=14)
    vec = mcts.param_vector(on, 1, new_game(mode="classic", players=2, seed=1))
    assert (vec[21], vec[25], vec[26]) == (1, 1, 14)
    for mode, players in (("classic", 4), ("classic", 3), ("shuffle", 2), ("shuffle", 4)):
        other = new_game(mode=mode, players=players, seed=1)
        vec = mcts.param_vector(on, 1, other)
        assert (vec[21], vec[25], vec[26]) == (0, 0, 0)
