"""Tournament pairings and standings (games/pairing.py): every rule of its docstring as a test,
then whole random Swiss events (hypothesis). Pure: no database."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.pairing import (
    Pairing,
    Player,
    Result,
    bye_points,
    round_robin,
    standings,
    swiss,
    table_points,
    tiebreak_names,
)


def pairs_of(pairing: Pairing) -> set[frozenset[int]]:
    return {frozenset(p) for t in pairing.tables for p in itertools.combinations(t, 2)}


def everyone_once(pairing: Pairing, ids) -> None:
    seen = [p for t in pairing.tables for p in t] + list(pairing.byes)
    assert sorted(seen) == sorted(ids)


# --- points ---


def test_two_players_score_a_win_a_tie_and_a_loss():
    assert table_points([1, 2]) == [1, 0]
    assert table_points([2, 1]) == [0, 1]
    assert table_points([1, 1]) == [0.5, 0.5]


def test_places_give_size_minus_place_and_ties_share_the_places_they_cover():
    assert table_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert table_points([1, 2, 2, 4]) == [3, 1.5, 1.5, 0]
    assert table_points([1, 2, 2, 3]) == [3, 1.5, 1.5, 0]  # dense places mean the same
    assert table_points([1, 1, 1, 4]) == [2, 2, 2, 0]
    assert table_points([3, 1, 2]) == [0, 2, 1]
    assert table_points([1, 1, 3]) == [1.5, 1.5, 0]


def test_a_bye_is_worth_a_win_with_two_players_and_a_mean_seat_at_tables():
    assert bye_points(2) == 1
    assert bye_points(3) == 1
    assert bye_points(4) == 1.5
    with pytest.raises(ValueError):
        bye_points(5)


# --- Swiss, two players ---


def test_round_one_pairs_the_top_half_with_the_bottom_half_and_seats_alternately():
    players = [Player(i, rating=2000 - i) for i in range(1, 9)]
    pairing = swiss(players, size=2, met={}, blocked=set())
    assert {frozenset(t) for t in pairing.tables} == {
        frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]
    }
    assert pairing.byes == []


def test_score_groups_pair_within_themselves_and_an_odd_one_floats_down():
    players = [Player(i, score=s, rating=2000 - i) for i, s in enumerate([2, 2, 2, 1, 1, 1])]
    pairing = swiss(players, size=2, met={}, blocked=set())
    tables = {frozenset(t) for t in pairing.tables}
    # Group 2: 0 v 1, 2 floats down and heads group 1 (2, 3, 4, 5): 2 v 4, 3 v 5.
    assert tables == {frozenset((0, 1)), frozenset((2, 4)), frozenset((3, 5))}


def test_nobody_meets_an_opponent_twice_while_another_pairing_exists():
    players = [Player(i, rating=2000 - i) for i in range(4)]
    met = {frozenset((0, 2)): 1, frozenset((1, 3)): 1}
    pairing = swiss(players, size=2, met=met, blocked=set())
    assert not pairs_of(pairing) & set(met)


def test_the_groups_leftovers_are_completed_over_the_field_before_any_repeat():
    # Scores put 0 and 1 together; they met. A perfect pairing without repeats exists only
    # by pairing across the groups: the matching finds it.
    players = [Player(i, score=s) for i, s in enumerate([3, 3, 0, 0])]
    met = {frozenset((0, 1)): 1, frozenset((2, 3)): 1, frozenset((0, 2)): 1}
    pairing = swiss(players, size=2, met=met, blocked=set())
    assert pairs_of(pairing) == {frozenset((0, 3)), frozenset((1, 2))}


def test_a_repeat_when_unavoidable_is_the_least_met_pair():
    players = [Player(i) for i in range(2)]
    pairing = swiss(players, size=2, met={frozenset((0, 1)): 3}, blocked=set())
    assert len(pairing.tables) == 1
    players = [Player(i) for i in range(4)]
    met = {frozenset(p): 1 for p in itertools.combinations(range(4), 2)}
    met[frozenset((0, 1))] = met[frozenset((2, 3))] = 2
    pairing = swiss(players, size=2, met=met, blocked=set())
    assert pairs_of(pairing) in (
        {frozenset((0, 2)), frozenset((1, 3))},
        {frozenset((0, 3)), frozenset((1, 2))},
    )


def test_a_blocked_pair_never_plays_and_a_player_left_without_opponent_gets_a_bye():
    players = [Player(i) for i in range(4)]
    blocked = {frozenset((0, 1)), frozenset((0, 2)), frozenset((0, 3))}
    pairing = swiss(players, size=2, met={}, blocked=blocked)
    assert not pairs_of(pairing) & blocked
    assert 0 in pairing.byes and len(pairing.tables) == 1
    everyone_once(pairing, range(4))


def test_the_bye_goes_to_the_lowest_ranked_of_those_with_the_fewest_byes():
    players = [Player(i, score=5 - i, byes=1 if i == 4 else 0) for i in range(5)]
    assert swiss(players, size=2, met={}, blocked=set()).byes == [3]
    players = [Player(i, score=0, rating=1000 + i) for i in range(5)]
    assert swiss(players, size=2, met={}, blocked=set()).byes == [0]


def test_the_player_with_fewer_firsts_moves_first():
    a = Player(1, games=2, firsts=2, streak=2)
    b = Player(2, games=2, firsts=0, streak=-2)
    assert swiss([a, b], size=2, met={}, blocked=set()).tables == [(2, 1)]
    a = Player(1, rating=2000, games=3, firsts=1, streak=-1)
    b = Player(2, games=3, firsts=2, streak=1)
    assert swiss([a, b], size=2, met={}, blocked=set()).tables == [(1, 2)]


def test_on_equal_firsts_the_longer_run_of_second_moves_goes_first():
    a = Player(1, rating=2000, games=2, firsts=1, streak=1)
    b = Player(2, games=2, firsts=1, streak=-1)
    assert swiss([a, b], size=2, met={}, blocked=set()).tables == [(2, 1)]


def test_nobody_gets_a_third_first_move_in_a_row_when_avoidable():
    # 1 has had fewer firsts overall, but moved first in the last two games.
    a = Player(1, games=5, firsts=2, streak=2)
    b = Player(2, games=5, firsts=3, streak=-1)
    assert swiss([a, b], size=2, met={}, blocked=set()).tables == [(2, 1)]


def test_pairing_prefers_opponents_whose_first_move_needs_do_not_clash():
    # 0 and 1 both must move second (two firsts in a row); 2 and 3 both must move first.
    players = [
        Player(0, rating=1400, games=2, firsts=2, streak=2),
        Player(1, rating=1300, games=2, firsts=2, streak=2),
        Player(2, rating=1200, games=2, firsts=0, streak=-2),
        Player(3, rating=1100, games=2, firsts=0, streak=-2),
    ]
    pairing = swiss(players, size=2, met={}, blocked=set())
    assert sorted(pairing.tables) == [(2, 0), (3, 1)]


# --- Swiss, three and four players ---


def test_tables_are_cut_by_score_then_rating_and_the_remainder_sits_out():
    players = [Player(i, score=10 - i) for i in range(10)]
    pairing = swiss(players, size=4, met={}, blocked=set())
    assert [sorted(t) for t in pairing.tables] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert pairing.byes == [8, 9]
    pairing = swiss(players, size=3, met={}, blocked=set())
    assert [sorted(t) for t in pairing.tables] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert pairing.byes == [9]


def test_swaps_between_tables_avoid_repeat_meetings():
    players = [Player(i, score=10 - i) for i in range(8)]
    met = {frozenset(p): 1 for p in itertools.combinations(range(4), 2)}
    pairing = swiss(players, size=4, met=met, blocked=set())
    counted = sum(met.get(p, 0) for p in pairs_of(pairing))
    # Cut in order, the first table would repeat all six pairs; the four who met can only be
    # split two and two, which repeats one pair at each table.
    assert counted == 2
    assert all(len(t) == 4 for t in pairing.tables)


def test_a_blocked_pair_never_sits_at_one_table():
    players = [Player(i, score=10 - i) for i in range(9)]
    blocked = {frozenset((0, 1)), frozenset((3, 4))}
    pairing = swiss(players, size=3, met={}, blocked=blocked)
    assert not pairs_of(pairing) & blocked
    assert len(pairing.tables) == 3


def test_a_table_that_cannot_avoid_a_blocked_pair_sits_out():
    players = [Player(i) for i in range(4)]
    pairing = swiss(players, size=4, met={}, blocked={frozenset((0, 1))})
    assert pairing.tables == [] and sorted(pairing.byes) == [0, 1, 2, 3]
    # With a fifth player, the one due a bye takes the blocked player's seat instead.
    players = [Player(i, score=5 - i) for i in range(5)]
    pairing = swiss(players, size=4, met={}, blocked={frozenset((0, 1))})
    assert len(pairing.tables) == 1 and not pairs_of(pairing) & {frozenset((0, 1))}


def test_seat_zero_goes_to_the_fewest_firsts_and_never_a_third_time_in_a_row():
    players = [
        Player(1, games=3, firsts=1, streak=1),
        Player(2, games=3, firsts=0, streak=-3),
        Player(3, games=3, firsts=1, streak=-1),
        Player(4, games=3, firsts=1, streak=-2),
    ]
    assert swiss(players, size=4, met={}, blocked=set()).tables == [(2, 4, 3, 1)]
    players = [
        Player(1, games=4, firsts=0, streak=-4),
        Player(2, games=4, firsts=2, streak=2),
        Player(3, games=4, firsts=1, streak=-1),
    ]
    assert swiss(players, size=3, met={}, blocked=set()).tables == [(1, 3, 2)]
    # Seat 0's candidate has moved first twice in a row: the next one sits first.
    players = [
        Player(1, games=4, firsts=2, streak=2),
        Player(2, games=4, firsts=2, streak=-1),
        Player(3, games=4, firsts=2, streak=-2),
    ]
    table = swiss(players, size=3, met={}, blocked=set()).tables[0]
    assert table[0] != 1


# --- round robin, two players ---


@pytest.mark.parametrize("n", range(2, 15))
def test_every_pair_meets_once_with_firsts_balanced(n):
    ids = list(range(100, 100 + n))
    rounds = round_robin(ids, size=2)
    assert len(rounds) == (n if n % 2 else n - 1)
    meetings = Counter(frozenset(t) for r in rounds for t in r.tables)
    assert set(meetings) == {frozenset(p) for p in itertools.combinations(ids, 2)}
    assert set(meetings.values()) == {1}
    firsts, games = Counter(), Counter()
    for r in rounds:
        everyone_once(r, ids)
        assert len(r.byes) == n % 2
        for a, b in r.tables:
            firsts[a] += 1
            games[a] += 1
            games[b] += 1
    assert all(abs(2 * firsts[i] - games[i]) <= 1 for i in ids)


def test_a_double_round_robin_meets_twice_with_the_first_move_swapped():
    ids = [1, 2, 3, 4, 5, 6]
    rounds = round_robin(ids, size=2, double=True)
    assert len(rounds) == 10
    seated = Counter(t for r in rounds for t in r.tables)
    assert set(seated.values()) == {1}
    assert all((b, a) in seated for a, b in seated)


def test_a_blocked_pair_sits_out_its_round_robin_game():
    rounds = round_robin([1, 2, 3, 4], size=2, blocked={frozenset((1, 2))})
    assert all(frozenset(t) != {1, 2} for r in rounds for t in r.tables)
    assert sum(1 for r in rounds if {1, 2} <= set(r.byes)) == 1


def test_a_round_robin_is_the_same_for_the_same_ids():
    assert round_robin([5, 3, 9, 1, 7], size=3) == round_robin([5, 3, 9, 1, 7], size=3)
    assert round_robin([5, 3, 9, 1], size=2) == round_robin([5, 3, 9, 1], size=2)


# --- round robin, three and four players ---


@pytest.mark.parametrize(("size", "n"), [(3, 3), (3, 7), (3, 9), (3, 12), (4, 4), (4, 8), (4, 13)])
def test_tables_meet_every_pair_evenly_with_seats_rotated(size, n):
    ids = list(range(n))
    rounds = round_robin(ids, size=size)
    assert len(rounds) >= -(-(n - 1) // (size - 1))
    meetings = Counter(p for r in rounds for p in pairs_of(r))
    counts = [meetings[frozenset(p)] for p in itertools.combinations(ids, 2)]
    assert min(counts) >= 1
    assert max(counts) - min(counts) <= 2
    firsts = Counter()
    for r in rounds:
        everyone_once(r, ids)
        assert len(r.byes) == n % size
        assert all(len(t) == size for t in r.tables)
        firsts.update(t[0] for t in r.tables)
    assert max(firsts[i] for i in ids) - min(firsts[i] for i in ids) <= 2


def test_a_resolvable_design_is_found_when_the_round_count_allows():
    # Nine players in threes: four rounds in which every pair meets exactly once exist
    # (the affine plane of order 3); so do five rounds of four for sixteen players.
    rounds = round_robin(list(range(9)), size=3)
    assert len(rounds) == 4
    assert Counter(p for r in rounds for p in pairs_of(r)).most_common(1)[0][1] == 1


def test_a_double_round_robin_of_tables_meets_every_pair_twice():
    rounds = round_robin(list(range(6)), size=3, double=True)
    meetings = Counter(p for r in rounds for p in pairs_of(r))
    assert min(meetings[frozenset(p)] for p in itertools.combinations(range(6), 2)) >= 2


def test_a_round_robin_of_tables_never_seats_a_blocked_pair():
    blocked = {frozenset((0, 1)), frozenset((2, 5))}
    rounds = round_robin(list(range(8)), size=4, blocked=blocked)
    assert rounds and not any(pairs_of(r) & blocked for r in rounds)


def test_too_few_players_for_a_table_make_no_rounds():
    assert round_robin([1, 2], size=3) == []
    with pytest.raises(ValueError):
        round_robin([1, 1, 2], size=2)


# --- standings ---


def test_tiebreak_names_follow_the_table_size():
    assert tiebreak_names(2) == ("Buchholz", "Sonneborn-Berger")
    assert tiebreak_names(4) == ("Opponents' points",)


def test_buchholz_and_sonneborn_berger_on_a_worked_example():
    # Four players, three rounds (a round robin), by hand:
    #   1 beats 2, 3 ties 4;  1 ties 3, 2 beats 4;  1 loses to 4, 2 beats 3.
    # Points: 1: 1 + .5 + 0 = 1.5; 2: 0 + 1 + 1 = 2; 3: .5 + .5 + 0 = 1; 4: .5 + 0 + 1 = 1.5.
    # Buchholz (opponents' points): 1: 2 + 1 + 1.5 = 4.5; 2: 1.5 + 1.5 + 1 = 4;
    #   3: 1.5 + 1.5 + 2 = 5; 4: 1 + 2 + 1.5 = 4.5.
    # Sonneborn-Berger: 1: beat 2 (2) + half of 3 (0.5) = 2.5; 2: beat 4 and 3: 1.5 + 1 = 2.5;
    #   3: half of 4 and of 1: 0.75 + 0.75 = 1.5; 4: half of 3 (0.5) + beat 1 (1.5) = 2.
    results = [
        Result((1, 2), (1, 0)),
        Result((3, 4), (0.5, 0.5)),
        Result((1, 3), (0.5, 0.5)),
        Result((2, 4), (1, 0)),
        Result((4, 1), (1, 0)),
        Result((2, 3), (1, 0)),
    ]
    table = standings([1, 2, 3, 4], results, {}, size=2)
    assert [(s.id, s.rank, s.points, s.tiebreaks, s.games) for s in table] == [
        (2, 1, 2, (4, 2.5), 3),
        (1, 2, 1.5, (4.5, 2.5), 3),
        (4, 3, 1.5, (4.5, 2), 3),
        (3, 4, 1, (5, 1.5), 3),
    ]


def test_a_bye_adds_points_but_no_opponent():
    results = [Result((1, 2), (1, 0))]
    table = {s.id: s for s in standings([1, 2, 3], results, {3: 1}, size=2)}
    assert table[3].points == 1 and table[3].tiebreaks == (0, 0) and table[3].byes == 1
    assert table[1].tiebreaks == (0, 0)  # 2 scored nothing


def test_opponents_points_at_tables_and_equal_ranks_for_full_ties():
    # One four-player game: 1 first, 2 and 3 tie for second, 4 last; 5 has a bye.
    results = [Result((1, 2, 3, 4), tuple(table_points([1, 2, 2, 4])))]
    table = standings([1, 2, 3, 4, 5], results, {5: 1}, size=4)
    by_id = {s.id: s for s in table}
    assert by_id[1].tiebreaks == (3,)  # 1.5 + 1.5 + 0
    assert by_id[2].tiebreaks == (4.5,)  # 3 + 1.5 + 0
    assert by_id[4].tiebreaks == (6,)
    assert by_id[5].points == 1.5 and by_id[5].tiebreaks == (0,)
    assert [(s.id, s.rank) for s in table] == [(1, 1), (2, 2), (3, 2), (5, 4), (4, 5)]


# --- whole Swiss events over random results ---


def play_swiss(n, size, rounds, blocked, seed):
    """A whole event: each round paired by swiss() from the players' records, with random
    places; returns every round's pairing and the final records."""
    rng = random.Random(seed)
    state = {i: {"score": 0.0, "firsts": 0, "games": 0, "streak": 0, "byes": 0} for i in range(n)}
    ratings = {i: rng.randrange(800, 2200) for i in range(n)}
    met: Counter[frozenset[int]] = Counter()
    played = []
    for _ in range(rounds):
        players = [Player(i, rating=ratings[i], **state[i]) for i in range(n)]
        pairing = swiss(players, size=size, met=met, blocked=blocked)
        played.append((pairing, Counter(met)))
        for table in pairing.tables:
            for seat, (pid, got) in enumerate(
                zip(table, table_points([rng.randint(1, size) for _ in table]), strict=True)
            ):
                s = state[pid]
                s["score"] += got
                s["games"] += 1
                first = seat == 0
                s["firsts"] += first
                s["streak"] = (max(s["streak"], 0) + 1) if first else (min(s["streak"], 0) - 1)
            met.update(frozenset(p) for p in itertools.combinations(table, 2))
        for pid in pairing.byes:
            state[pid]["byes"] += 1
            state[pid]["score"] += bye_points(size)
    return played, state


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 40),
    size=st.sampled_from([2, 3, 4]),
    rounds=st.integers(3, 7),
    blocks=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=4),
    seed=st.integers(0, 2**32),
)
def test_a_random_swiss_keeps_every_rule(n, size, rounds, blocks, seed):
    blocked = {frozenset(b) for b in blocks if b[0] != b[1] and max(b) < n}
    played, state = play_swiss(n, size, rounds, blocked, seed)
    most_blocked = max(Counter(i for b in blocked for i in b).values(), default=0)
    for pairing, met_before in played:
        everyone_once(pairing, range(n))  # nobody twice, nobody missing
        assert all(len(t) == size for t in pairing.tables)
        assert not pairs_of(pairing) & blocked
        if size == 2:
            # Dirac: with fewer rounds (plus blocks) than half the field, a pairing without
            # repeats always exists, so none may happen; nor a bye beyond the odd one.
            if rounds + most_blocked < n / 2:
                assert not any(met_before[p] for p in pairs_of(pairing))
                assert len(pairing.byes) == n % 2
        else:
            assert len(pairing.byes) >= n % size
    if size == 2 and rounds + most_blocked < n / 2:
        # First moves: nobody more than two ahead of their second moves, or behind. (In a
        # field so small that the opponents run out, avoiding a repeat comes first.)
        assert all(abs(2 * s["firsts"] - s["games"]) <= 2 for s in state.values())


def test_a_swiss_of_many_rounds_repeats_only_when_it_must():
    # Four players, six rounds: three rounds exhaust the opponents; every later round repeats
    # exactly as often as it must (two pairs), never more than the least-met pairs.
    played, _ = play_swiss(4, 2, 6, set(), seed=3)
    for number, (pairing, met_before) in enumerate(played):
        repeats = sum(1 for p in pairs_of(pairing) if met_before[p])
        assert repeats == (0 if number < 3 else 2)
        fewest = min(met_before[frozenset(p)] for p in itertools.combinations(range(4), 2))
        assert all(met_before[p] <= fewest + 1 for p in pairs_of(pairing))


def most_pairs(ids: list[int], edge) -> int:
    """The size of a maximum matching, by brute force (small graphs only)."""
    if len(ids) < 2:
        return 0
    first, rest = ids[0], ids[1:]
    best = most_pairs(rest, edge)
    for other in rest:
        if edge(first, other):
            best = max(best, 1 + most_pairs([i for i in rest if i != other], edge))
    return best


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 11),
    met=st.sets(st.tuples(st.integers(0, 10), st.integers(0, 10)), max_size=30),
    seed=st.integers(0, 1000),
)
def test_as_many_pairs_without_a_repeat_as_a_brute_force_finds(n, met, seed):
    # Random scores put players in awkward groups; odd cycles of allowed pairs (blossoms) are
    # common in such graphs, and the completion over the field must find the best anyway.
    rng = random.Random(seed)
    history = {frozenset(p): 1 for p in met if p[0] != p[1] and max(p) < n}
    players = [Player(i, score=rng.randint(0, 3), byes=1) for i in range(n)]
    pairing = swiss(players, size=2, met=history, blocked=set())
    fresh = [t for t in pairing.tables if frozenset(t) not in history]
    seated = [i for i in range(n) if i not in pairing.byes[: n % 2]]
    assert len(fresh) == most_pairs(seated, lambda a, b: frozenset((a, b)) not in history)
    assert len(pairing.tables) == len(seated) // 2  # repeats fill the rest: no blocks here
