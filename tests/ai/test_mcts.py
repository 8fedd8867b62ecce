"""The Monte Carlo tree search (games/ai/mcts/): its move generator agrees with the engine's
(R4), it plays legally from a seat's view, repeatably with a seed, and scores finished games as
R8.3 / R8.4 do."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ai import decide, expert, mcts
from games.ai.expert import ExpertParams
from games.engine import COLOURS, apply, legal_actions, legal_placements, new_game, view
from games.engine.pieces import PIECE_INDEX, PIECE_SHIFT, PIECE_SIZE, PIECES
from games.engine.rules import placement_text
from tests.ai.clocks import Ticking
from tests.ai.positions import random_positions


def _random_game(players: int, seed: int, plies: int):
    rng = random.Random(seed)
    s = new_game(mode="classic", players=players, seed=seed, scoring="advanced")
    for _ in range(plies):
        if s.over:
            break
        s = apply(s, {"place": placement_text(rng.choice(sorted(legal_placements(s))))})
    return s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10_000), st.integers(0, 90))
def test_the_move_generator_finds_exactly_the_engines_placements(players, seed, plies):
    """R3.1, R4.1-R4.5: every legal placement and nothing else, at any point of a game."""
    s = _random_game(players, seed, plies)
    if s.over:
        return
    assert mcts.root_moves(s) == sorted(legal_placements(s))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_search_plays_legal_placements_from_the_view(players):
    states = [s for s in random_positions("classic", players, seed=5)][::7]
    for s in states:
        seen = view(s, s.controller())
        action = decide(seen, level="expert", seed=3, budget=30, max_sims=40)
        assert action in legal_actions(s), s.ply


def test_a_seed_and_a_simulation_count_make_the_choice_repeatable():
    s = _random_game(2, 11, 14)
    seen = view(s, s.controller())
    runs = {
        decide(seen, level="expert", seed=9, budget=30, max_sims=300)["place"] for _ in range(3)
    }
    assert len(runs) == 1
    values = {
        mcts.mcts_choose(s, deadline=float("inf"), max_sims=60, seed=k)[1]["value"]
        for k in range(4)
    }
    assert len(values) > 1  # the playouts are random: another seed, other statistics


@pytest.mark.parametrize(
    "mode, players, plies", [("classic", 2, 16), ("classic", 4, 24), ("shuffle", 4, 0)]
)
def test_a_search_from_tables_cut_to_its_root_is_the_same_search(mode, players, plies):
    """``MctsParams.prune_pieces``: cutting the move lists to the root changes nothing the
    search does (the same pick, visits, value and tree for the same seed and simulations), and
    a search too short or too early to pay for the cut does not make it."""
    if mode == "classic":
        s = _random_game(players, 21, plies)
    else:
        s = next(
            s
            for s in random_positions(mode, players, seed=4)
            if s.step == "place" and sum(len(p) for p in s.pieces) >= 16
        )
    assert sum(len(p) for p in s.pieces) >= 12
    runs = []
    for prune in (0, 12):
        params = type(
            "P", (mcts.MctsParams,), {"threads": 2, "prune_pieces": prune, "prune_sims": 1}
        )
        move, stats = mcts.mcts_choose(
            s, deadline=float("inf"), max_sims=1500, seed=6, params=params
        )
        runs.append((move, stats["visits"], stats["value"], stats["values"], stats["nodes"]))
    assert runs[0] == runs[1]
    prunes, on = mcts.choose._prunes, type("On", (mcts.MctsParams,), {"prune_pieces": 12})
    assert prunes(s, 2.0, None, on)
    assert not prunes(s, 2.0, None, mcts.MctsParams)  # off unless asked for
    assert not prunes(s, 0.1, None, on)
    assert not prunes(s, 3600.0, 1000, on)  # the analysis's first searches
    assert not prunes(new_game(mode="classic", players=2, seed=1), 2.0, None, on)


def test_the_first_piece_is_a_large_one_on_a_corner():
    """R3.1: the setup placement covers a free corner; the search opens with V5 or Z5."""
    s = new_game(mode="classic", players=2, seed=1)
    value, stats = mcts.mcts_choose(s, deadline=float("inf"), max_sims=200, seed=1)
    assert {"place": placement_text(value)} in legal_actions(s)
    assert PIECES[(value >> PIECE_SHIFT).bit_length() - 1] in ("V5", "Z5")
    assert stats["sims"] == 200


def test_a_full_tree_still_gives_a_legal_choice():
    class Small(mcts.MctsParams):
        max_edges = 2 * mcts.MAX_MOVES  # the smallest tree: the root and one more node
        max_nodes = 50

    s = _random_game(4, 3, 20)
    value, stats = mcts.mcts_choose(s, deadline=float("inf"), max_sims=400, seed=2, params=Small)
    assert value in legal_placements(s)
    assert stats["nodes"] <= 50 * Small.threads
    assert stats["edges"] <= Small.max_edges * Small.threads


def test_the_search_concentrates_its_visits_on_the_move_it_picks():
    """Mid-game: the chosen placement is legal, its value a probability, and it was visited
    more often than an even spread of the simulations would give it."""
    games = (_random_game(2, seed, 48) for seed in range(21, 60))
    s = next(s for s in games if not s.over)  # the first game still on after 48 placements
    value, stats = mcts.mcts_choose(s, deadline=float("inf"), max_sims=1500, seed=4)
    assert value in legal_placements(s)
    assert 0.0 <= stats["value"] <= 1.0
    assert stats["visits"] > 1500 / max(1, len(legal_placements(s)))


class _RankOnly(mcts.MctsParams):
    margin_share = 0.0
    margin_share_classic2 = 0.0


def _values(used_rows, lastp, players, advanced, mode="classic"):
    psize = np.array([PIECE_SIZE[p] for p in PIECES], np.int8)
    used = np.array(used_rows, np.uint8)
    owner = np.array([0, 1, 0, 1] if players == 2 else [0, 1, 2, 3], np.int32)
    out = np.zeros(4)
    vec = mcts.param_vector(_RankOnly, 1, new_game(mode=mode, players=players, seed=1))
    lastp = np.array(lastp, np.int32)
    mcts.values(used, lastp, psize, owner, players, advanced, vec, out, np.zeros(4))
    return out


def _all_but(*names):
    return [0 if p in names else 1 for p in PIECES]


def test_finished_games_are_valued_as_they_are_scored():
    """R8.3 / R8.4: two players add their colours' points; the higher total wins."""
    everything = [1] * len(PIECES)
    one = PIECE_INDEX["1"]
    # Player A (blue, red): all placed with the 1 last (+20) and all placed (+15) = 35.
    # Player B (yellow, green): -5 (the I5 left) and +15 = 10.
    out = _values([everything, _all_but("I5"), everything, everything], [one, 0, 2, 0], 2, True)
    assert list(out[:2]) == [1.0, 0.0]
    # Basic scoring: squares left only; 5 against 5 is a draw.
    out = _values([_all_but("I5"), _all_but("L5"), everything, everything], [0] * 4, 2, False)
    assert list(out[:2]) == [0.5, 0.5]
    # Four players: the share of the three opponents beaten (ties count half).
    out = _values([everything, _all_but("2"), _all_but("2"), _all_but("X")], [0] * 4, 4, False)
    assert list(out) == [1.0, 0.5, 0.5, 0.0]


def test_shuffle_with_two_players_is_valued_by_the_worse_colour():
    """R8.3 / R8.4, two players in Shuffle mode: a player's score is their worse colour's."""
    everything = [1] * len(PIECES)
    # A (blue, red): 0 and 10 squares left, worse colour 10; B (yellow, green): 5 and 5, worse 5.
    rows = [everything, _all_but("I5"), _all_but("I5", "L5"), _all_but("L5")]
    assert list(_values(rows, [0] * 4, 2, False, mode="shuffle")[:2]) == [0.0, 1.0]
    assert list(_values(rows, [0] * 4, 2, False, mode="classic")[:2]) == [0.5, 0.5]  # 10 and 10
    # Advanced: A's worse colour -10 (blue's +15 does not help), B's -5.
    assert list(_values(rows, [0] * 4, 2, True, mode="shuffle")[:2]) == [0.0, 1.0]


def _shuffle_place_states(players: int) -> list:
    """Placement decisions of random Shuffle games, those under a card's effect first."""
    states = [
        s
        for seed in (3, 4, 5)
        for s in random_positions("shuffle", players, seed=seed)
        if s.step in ("setup", "place", "place_second")
    ]
    special = [s for s in states if s.wild is not None or s.edge or s.step == "place_second"]
    return special + states[::9]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shuffle_placements_are_legal_under_every_card_effect(players):
    """R6.4 Wild, R6.5 Edge to Edge, R6.6 Double Play's second piece: the root's placements are
    the engine's; otherwise the search's own generator (R4) finds them. Chosen from the view."""
    states = _shuffle_place_states(players)
    assert any(s.wild is not None for s in states) and any(s.edge for s in states)
    assert any(s.step == "place_second" for s in states)
    for s in states:
        given_moves = mcts.given_moves(s)
        if s.wild is not None or s.edge or s.step == "place_second":
            assert sorted(mcts.PLACEMENTS[m] for m in given_moves) == sorted(legal_placements(s))
        else:
            assert given_moves is None
        action = decide(view(s, s.controller()), level="expert", seed=2, budget=30, max_sims=24)
        assert action in legal_actions(s), (s.ply, s.step)


def test_a_reversed_direction_reads_the_latest_pieces_of_the_colours_before():
    """R6.2, R7.1: after a Reverse, the colours that moved before the one to move are the ones
    after it clockwise."""
    s = _random_game(4, 23, 8)
    s = s.copy()
    s.direction = -1
    cols, moves = mcts.history(s)
    assert list(cols) == [(s.turn + 3) % 4, (s.turn + 2) % 4, (s.turn + 1) % 4]  # oldest first
    assert [mcts.PLACEMENTS[m] for m in moves] == [s.pieces[c][-1] for c in cols]


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_every_thread_count_searches_repeatably(threads):
    """Root parallelism: one tree per thread, their root statistics added up."""

    class Threads(mcts.MctsParams):
        pass

    Threads.threads = threads
    s = _random_game(2, 19, 10)
    runs = [
        mcts.mcts_choose(s, deadline=float("inf"), max_sims=120, seed=5, params=Threads)
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    value, stats = runs[0]
    assert value in legal_placements(s)
    assert 120 <= stats["sims"] < 120 + threads


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shuffle_cards_valued_by_the_search_are_legal_and_repeatable(monkeypatch, players):
    """Shuffle: a card, a kept card, a declared colour (R6.4), a piece to
    recycle (R6.7) or to warp (R6.8), chosen from the view by the search's values; the same
    seed and simulation count give the same choice."""
    from tests.ai.positions import positions

    searched = []
    choose = mcts.mcts_choose

    def counted(state, **kwargs):
        searched.append(state.step)
        return choose(state, **kwargs)

    monkeypatch.setattr(mcts, "mcts_choose", counted)
    found = positions("shuffle", players, seed=13)
    for step in ("card", "keep", "declare", "recycle", "warp"):
        s = found[step]
        seen = view(s, s.controller())
        del searched[:]
        runs = [decide(seen, level="expert", seed=4, budget=30, max_sims=40) for _ in range(2)]
        assert runs[0] == runs[1], step
        assert runs[0] in legal_actions(s), step
        assert set(searched) == {"place"}, step  # each candidate valued at its placement


def _colours_after_the_root(s, sims: int = 400) -> set[int]:
    """The colours to move in the tree's expanded nodes one placement below the root of ``s``."""
    from games.ai.mcts.search import _run

    tab = mcts.Tables.get()
    count = len(tab[0])
    tree = mcts.new_tree(5_000, 400_000)
    players = 2 if s.players == 2 else 4
    args = (mcts.position_arrays(s), s.turn, mcts.history(s), mcts.owners(s), players, False)
    vec = mcts.param_vector(mcts.MctsParams, 1, s)
    _run(3, sims, *args, vec, tab, tree, mcts.scratch(count, mcts.given_moves(s), args[0]))
    first, n = int(tree[0][0]), int(tree[1][0])
    kids = [int(k) for k in tree[9][first : first + n] if k >= 0 and tree[1][k] > 0]
    assert kids, "no node below the root was expanded"
    return {int(tree[2][k]) for k in kids}


def test_below_the_root_play_follows_the_direction_and_a_skip_in_force():
    """R7.1 / R6.2: after a Reverse the next colour is the one before in clockwise order;
    R6.1: with a Skip in force the next colour loses its turn (once, right after the root)."""
    s = next(
        s
        for s in random_positions("shuffle", 4, seed=6)
        if s.step == "place" and s.ply > 12 and not s.skip_pending and s.direction == 1
    )
    assert all(s.pieces[c] for c in range(4))
    t = s.turn
    assert _colours_after_the_root(s) == {(t + 1) % 4}
    reverse = s.copy()
    reverse.direction = -1
    assert _colours_after_the_root(reverse) == {(t + 3) % 4}
    skip = s.copy()
    skip.skip_pending = True
    assert _colours_after_the_root(skip) == {(t + 2) % 4}
    both = reverse.copy()
    both.skip_pending = True
    assert _colours_after_the_root(both) == {(t + 2) % 4}


def test_three_players_value_the_shared_colour_for_the_seat_in_rotation():
    """R2.4, R2.5: the shared colour scores for nobody (owner -1) and its turn is searched for
    the seat whose rotation it is; a search from a shared-colour turn places legally."""
    s = next(
        s
        for s in random_positions("classic", 3, seed=4)
        if s.turn == s.shared and s.ply > 8 and s.step == "place"
    )
    assert list(mcts.owners(s)).count(-1) == 1 and mcts.owners(s)[s.shared] == -1
    vec = mcts.param_vector(mcts.MctsParams, 1, s)
    assert vec[18] == s.shared and vec[19] == s.rotation == s.controller()
    value, _ = mcts.mcts_choose(s, deadline=float("inf"), max_sims=200, seed=3)
    assert value in legal_placements(s)


def test_a_kept_search_goes_on_for_the_same_position_only_under_a_time_budget():
    """Subtree reuse: a search kept (``keep=True``) continues when the same position is searched
    again by time; a search bounded by ``max_sims`` never starts from a kept tree (repeatable)."""
    s = _random_game(2, 5, 12)
    mcts.forget()
    soon = 0.05
    import time

    _, first = mcts.mcts_choose(s, deadline=time.perf_counter() + soon, seed=1, keep=True)
    assert first["reused"] == 0
    bounded = mcts.mcts_choose(s, deadline=float("inf"), max_sims=64, seed=2)
    assert bounded[1]["reused"] == 0
    _, again = mcts.mcts_choose(s.copy(), deadline=time.perf_counter() + soon, seed=3)
    assert again["reused"] == first["sims"]
    assert again["root_visits"] >= first["sims"] + again["sims"] - 2 * mcts.MctsParams.threads
    _, fresh = mcts.mcts_choose(s, deadline=time.perf_counter() + soon, seed=3)
    assert fresh["reused"] == 0  # taken once


def test_a_shuffle_turn_shares_one_budget_among_its_decisions(monkeypatch):
    """Expert's whole Shuffle turn (card, kept card or colour, placement, second piece) spends
    one budget, shared out by step; the card's searches keep at most one tree. On a clock the
    test drives: every reading moves it on 2 ms (one search thread: fewer simulations)."""
    from tests.ai.positions import positions

    clock = Ticking(0.002)
    monkeypatch.setattr(expert, "clock", clock)
    monkeypatch.setattr(mcts.MctsParams, "threads", 1)
    asked = []
    choose = mcts.mcts_choose

    def timed(state, *, deadline, **kwargs):
        asked.append((state.step, deadline - clock.now))
        return choose(state, deadline=deadline, **kwargs)

    monkeypatch.setattr(mcts, "mcts_choose", timed)
    found = positions("shuffle", 2, seed=13)
    budget = 0.4
    spent = {}
    for step in ("card", "keep", "place", "place_second"):
        del asked[:]
        s = found[step]
        decide(view(s, s.controller()), level="expert", seed=1, budget=budget)
        spent[step] = sum(t for _, t in asked)
        if step == "card":
            assert len(mcts.choose._KEPT) <= 1
    shares = ExpertParams.turn_shares
    for step, seconds in spent.items():
        assert seconds <= shares[step] * budget + 1e-9, step
    assert sum(shares[step] for step in spent) <= 1.05  # the longest turn: within the budget
    assert sum(spent.values()) <= 1.05 * budget + 0.05


def _search_once() -> None:
    value, _ = mcts.mcts_choose(new_game(mode="classic", players=2, seed=1), deadline=0.0, seed=1)
    assert value in legal_placements(new_game(mode="classic", players=2, seed=1))


def test_a_process_forked_after_a_threaded_search_searches_too():
    """A prefork Celery worker (the README's `celery worker --concurrency 2`) warms the search up
    with its threads in the main process, then forks its children: a child's search must not
    wait for the parent's pool threads, which a fork does not copy (it waited forever)."""
    import multiprocessing
    import warnings

    threads = mcts.MctsParams.threads
    mcts.configure(threads=2)
    try:
        mcts.warm_up()  # the main process's threads: one pool started
        with warnings.catch_warnings():  # "use of fork() may lead to deadlocks": the point
            warnings.simplefilter("ignore", DeprecationWarning)
            child = multiprocessing.get_context("fork").Process(target=_search_once)
            child.start()
        child.join(30)
        hung = child.is_alive()
        if hung:
            child.kill()
            child.join()
        assert not hung, "the forked child's search never ended"
        assert child.exitcode == 0
    finally:
        mcts.configure(threads=threads)


class _FixedCorners(mcts.MctsParams):
    fixed_corners = 1


def _corner(value: int) -> str:
    (corner,) = set(placement_text(value).split(",")) & {"a1", "t1", "a20", "t20"}
    return corner


@pytest.mark.parametrize("players", [2, 3, 4])
def test_with_fixed_corners_each_colour_starts_on_its_pentobi_corner(players):
    """The Pentobi arena's game (MctsParams.fixed_corners; R3.1 leaves every free corner open
    on the site): blue starts on a20, yellow on t20, red on t1, green on a1, at the root and in
    the tree below it (yellow's pick leaves red's and green's corners to them)."""
    s = new_game(mode="classic", players=players, seed=3)
    for colour, corner in zip(COLOURS, ("a20", "t20", "t1", "a1"), strict=True):
        value, _ = mcts.mcts_choose(
            s, deadline=float("inf"), max_sims=300, seed=7, params=_FixedCorners
        )
        assert _corner(value) == corner, (colour, placement_text(value))
        moves = {_corner(mcts.PLACEMENTS[m]) for m in mcts.root_considered(s, fixed_corners=True)}
        assert moves == {corner}
        s = apply(s, {"place": placement_text(value)})


def test_fixed_corners_leave_a_game_begun_on_other_corners_as_r3_1_has_it():
    s = new_game(mode="classic", players=2, seed=3)
    blue = next(v for v in legal_placements(s) if _corner(v) == "a1")  # not blue's a20
    s = apply(s, {"place": placement_text(blue)})
    moves = {_corner(mcts.PLACEMENTS[m]) for m in mcts.root_considered(s, fixed_corners=True)}
    assert moves == {"t1", "a20", "t20"}


def _touches(s, c: int, value: int) -> bool:
    """Placement ``value`` has a side against a piece of colour ``c`` in ``s``."""
    cells = {tuple(divmod(i, 21))[::-1] for i in _squares(value)}
    theirs = {tuple(divmod(i, 21))[::-1] for v in s.pieces[c] for i in _squares(v)}
    return any((x + dx, y + dy) in theirs for x, y in cells for dx, dy in _SIDES)


_SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _squares(value: int) -> list[int]:
    from games.engine.pieces import BOARD, squares_of

    return squares_of(value & BOARD)


def _central_game(seed: int, plies: int):
    """Two players, each placement drawn among the legal ones reaching nearest the centre: the
    colours meet in the middle within a few rounds."""
    rng = random.Random(seed)
    s = new_game(mode="classic", players=2, seed=seed, scoring="advanced")
    for _ in range(plies):

        def reach(v: int) -> float:
            return min(abs(i % 21 - 9.5) + abs(i // 21 - 9.5) for i in _squares(v))

        options = sorted(legal_placements(s))
        best = min(map(reach, options))
        s = apply(
            s, {"place": placement_text(rng.choice([v for v in options if reach(v) <= best + 1]))}
        )
    return s


class _Connect(mcts.MctsParams):
    connect_pieces = 30  # Pentobi's 14, later here: the colours meet later in these games
    threads = 1


def test_connect_pruning_keeps_the_moves_that_join_the_two_colours_while_there_are_any():
    """MctsParams.connect_pieces (Pentobi's classic_2 pruning): with fewer than that many pieces
    on the board, the tree's nodes of a colour with a placement against its partner's pieces
    (R2.3: blue and red are one player's) hold only such placements, at the root and below."""
    from games.ai.mcts.choose import _search

    checked = 0
    for seed in range(40):
        s = _central_game(seed, 12 + seed % 6)
        partner = (s.turn + 2) % 4
        considered = [mcts.PLACEMENTS[m] for m in mcts.root_considered(s)]
        if not any(_touches(s, partner, v) for v in considered):
            continue
        trees, _ = _search(s, float("inf"), 2000, seed, _Connect, False, False, time.perf_counter)
        tree = trees[0]
        first, n = int(tree[0][0]), int(tree[1][0])
        edges = [mcts.PLACEMENTS[int(m)] for m in tree[5][first : first + n]]
        assert edges and all(_touches(s, partner, v) for v in edges)
        for e in range(first, first + n):  # two plies down: the partner's nodes
            child = int(tree[9][e])
            if child < 0 or tree[1][child] <= 0:
                continue
            s1 = apply(s, {"place": placement_text(mcts.PLACEMENTS[int(tree[5][e])])})
            for e1 in range(int(tree[0][child]), int(tree[0][child]) + int(tree[1][child])):
                grand = int(tree[9][e1])
                if grand < 0 or tree[1][grand] <= 0 or s1.over:
                    continue
                s2 = apply(s1, {"place": placement_text(mcts.PLACEMENTS[int(tree[5][e1])])})
                if s2.turn != partner or sum(map(len, s2.pieces)) >= _Connect.connect_pieces:
                    continue
                # the partner's partner is the root's colour: its pieces include the root's
                # placement, which only the tree's descent has put on the board
                here = [mcts.PLACEMENTS[m] for m in mcts.root_considered(s2)]
                if any(_touches(s2, s.turn, v) for v in here):
                    g0, gn = int(tree[0][grand]), int(tree[1][grand])
                    kids = [mcts.PLACEMENTS[int(m)] for m in tree[5][g0 : g0 + gn]]
                    assert all(_touches(s2, s.turn, v) for v in kids)
                    checked += 1
        if checked >= 3:
            break
    assert checked >= 3
