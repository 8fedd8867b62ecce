"""Pairings and standings of asynchronous Blokus tournaments, for games of 2, 3 or 4 players.

Pure: plain data in, plain data out; no Django, no database, no clock, no global ``random``
(a round robin seeds its own ``random.Random`` from the ids, so the same ids give the same
schedule). The tournament services store players and results and call these functions.

Points
  Two players: a win 1, a tie 0.5 each, a loss 0. Three and four players: points by place,
  ``size - place`` for places 1..size (3/2/1/0 with four, 2/1/0 with three); players who tie
  share the points of the places they cover, averaged: places [1, 2, 2, 4] give
  [3, 1.5, 1.5, 0]. (Two players follow the same formula: 1/0, a tie 0.5 each.)
  A bye: 1 point with two players (as in a chess Swiss); with tables, the mean points of a seat,
  (size - 1) / 2 (1.5 with four, 1 with three).

Byes
  Whoever cannot be seated this round gets a bye: the lowest-ranked player (by score, then
  rating) among those who have had the fewest byes. With tables of three or four the remainder
  of the count (N mod size) sits out, chosen the same way.

Swiss, two players
  Players are ordered by score, then rating (the seeding), and paired score group by score
  group from the top: within a group (with the players floated down from the group above at its
  head) the top half meets the bottom half in order (the first with the first of the bottom
  half), skipping to the next of the bottom half where a pairing is not allowed; who is left
  over floats down to the next group. Two players never meet twice while another complete
  pairing exists: if the groups leave someone over, the pairing is completed over the whole
  field (a maximum matching, Edmonds' blossoms) before any repeat; repeats, when unavoidable,
  are as few as possible and between players who met least often. A blocked pair never plays:
  if blocks leave a player with no possible opponent, that player gets a bye as well.
  Who moves first: never a third first move in a row, and nobody more than two first moves
  ahead of (or behind) their second moves, where either can be avoided; otherwise the player
  who has moved first less often relative to their games (firsts minus seconds), then fewer
  firsts, then the one who has moved second more games in a row, then the higher ranked. The
  pairing itself prefers, within a group, opponents whose first-move needs do not clash.

Swiss, three and four players
  The players without a bye, ordered by score then rating, are cut into consecutive tables of
  ``size``; then players are swapped between tables, nearest tables first, wherever that lowers
  the number of repeat meetings (the sum over tables of how often each pair at the table has
  met). A blocked pair never sits at one table: a swap with a player who was to have a bye is
  allowed only to separate one, and a table that still cannot be formed sits out (its players
  get byes). Seats: seat 0 moves first; each table is ordered by first moves relative to a
  fair share (firsts * size - games) ascending, then by streak (the longest run of not moving
  first goes earlier), then rank; nobody sits first a third time in a row if someone else at
  the table can.

Round robin, two players
  The circle method: every pair meets once (``double``: twice, the second cycle the same rounds
  with the first move swapped). With an odd count one player sits out each round. First moves
  alternate as far as the circle allows: in each game the player with fewer firsts so far (then
  the one who moved second last) moves first, so that each has about half their games first.
  A blocked pair does not play: both sit out that round.

Round robin, three and four players
  A schedule of rounds, at least ceil((n - 1) / (size - 1)), in which pairs meet as evenly as
  possible: every player sits at a table each round except the remainder (n mod size, taken in
  turn by those with the fewest byes), rounds are added until every pair (twice with
  ``double``) has met, and within a round players are swapped between tables to avoid pairs that
  have already met (a pair that met c times weighs 8**c). Several seeded attempts; the kept one
  has the fewest rounds, then the smallest spread of pair meetings (max - min), then the most
  even seats. Seats are rotated over the schedule: each table takes the seat order in which its
  players have held those seats least often.

Standings
  Ordered by points, then tiebreaks. Two players: Buchholz (the sum of each opponent's final
  points, once per game; a bye counts nothing), then Sonneborn-Berger (the final points of every
  opponent beaten, plus half of those of every opponent tied). Three and four players: the
  opponents' points (the sum of the final points of everyone else at each of a player's
  tables). Players equal on points and every tiebreak share a rank (1, 1, 3).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

# The weight of a blocked pair at one table: higher than any sum of repeat meetings.
BLOCKED = 10**6
# What moving a player who was not due a bye into the byes costs: only separating a blocked pair
# is worth it.
BYE_SWAP = 10**4


@dataclass(frozen=True)
class Player:
    id: int
    score: float = 0.0  # tournament points so far
    rating: int = 1000  # for ordering within a score group (seeding)
    firsts: int = 0  # games in which they sat in seat 0 (moved first)
    games: int = 0  # games played (byes excluded)
    streak: int = 0  # +n: first in each of their last n games; -n: not first in the last n
    byes: int = 0


@dataclass(frozen=True)
class Pairing:
    tables: list[tuple[int, ...]]  # each table's player ids in seat order: index 0 moves first
    byes: list[int]  # players without a game this round


@dataclass(frozen=True)
class Result:
    players: tuple[int, ...]  # seat order
    points: tuple[float, ...]  # tournament points each got in that game


@dataclass(frozen=True)
class Standing:
    id: int
    rank: int  # 1-based; equal rank for full ties
    points: float
    tiebreaks: tuple[float, ...]  # in the order of tiebreak_names(size)
    games: int
    byes: int


def _check_size(size: int) -> None:
    if size not in (2, 3, 4):
        raise ValueError(f"a table seats 2, 3 or 4 players, not {size}")


# --- points ------------------------------------------------------------------------------------


def table_points(places: list[int]) -> list[float]:
    """Points per seat from the places a game reports (1 = first; tied players share a place,
    written 1, 2, 2, 4 or 1, 2, 2, 3: either way a place covers the players ranked above it)."""
    size = len(places)
    _check_size(size)
    out = []
    for place in places:
        above = sum(1 for other in places if other < place)
        tied = sum(1 for other in places if other == place)
        covered = range(above + 1, above + tied + 1)
        out.append(sum(size - q for q in covered) / tied)
    return out


def bye_points(size: int) -> float:
    _check_size(size)
    return 1.0 if size == 2 else (size - 1) / 2


# --- shared helpers ----------------------------------------------------------------------------


def _ranked(players: list[Player]) -> list[Player]:
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.id))


def _take_byes(order: list[Player], count: int) -> list[Player]:
    """The ``count`` lowest-ranked among those with the fewest byes (``order`` is ranked)."""
    if count <= 0:
        return []
    rank = {p.id: i for i, p in enumerate(order)}
    return sorted(order, key=lambda p: (p.byes, -rank[p.id]))[:count]


def _table_cost(table: list[int], pair_cost: Callable[[int, int], int]) -> int:
    return sum(pair_cost(a, b) for a, b in itertools.combinations(table, 2))


def _improve(
    tables: list[list[int]],
    pair_cost: Callable[[int, int], int],
    *,
    reach: int,
    spare: list[int] | None = None,
    passes: int = 4,
) -> None:
    """Swap players between tables, nearest first, while a swap lowers the total cost. A table
    at cost 0 is left alone; ``reach`` bounds the distance searched unless a blocked pair needs
    separating. ``spare`` (the byes) may trade places only to separate a blocked pair."""
    count = len(tables)
    costs = [_table_cost(t, pair_cost) for t in tables]
    for _ in range(passes):
        changed = False
        for i in range(count):
            if costs[i] == 0:
                continue
            limit = count if costs[i] >= BLOCKED else min(count, reach + 1)
            for distance in range(1, limit):
                if _swap_at(tables, costs, i, distance, pair_cost):
                    changed = True
                    break
            if costs[i] >= BLOCKED and spare:
                changed |= _swap_spare(tables, costs, i, spare, pair_cost)
        if not changed:
            return


def _swap_at(tables, costs, i, distance, pair_cost) -> bool:
    best = (0, None)
    for j in (i - distance, i + distance):
        if not 0 <= j < len(tables):
            continue
        for x, a in enumerate(tables[i]):
            for y, b in enumerate(tables[j]):
                new_i = tables[i][:x] + [b] + tables[i][x + 1 :]
                new_j = tables[j][:y] + [a] + tables[j][y + 1 :]
                ci, cj = _table_cost(new_i, pair_cost), _table_cost(new_j, pair_cost)
                delta = ci + cj - costs[i] - costs[j]
                if delta < best[0]:
                    best = (delta, (j, new_i, new_j, ci, cj))
    if best[1] is None:
        return False
    j, new_i, new_j, ci, cj = best[1]
    tables[i], tables[j], costs[i], costs[j] = new_i, new_j, ci, cj
    return True


def _swap_spare(tables, costs, i, spare, pair_cost) -> bool:
    best = (0, None)
    for x, a in enumerate(tables[i]):
        for y, b in enumerate(spare):
            new_i = tables[i][:x] + [b] + tables[i][x + 1 :]
            ci = _table_cost(new_i, pair_cost)
            if ci + BYE_SWAP - costs[i] < best[0]:
                best = (ci + BYE_SWAP - costs[i], (x, y, a, new_i, ci))
    if best[1] is None:
        return False
    x, y, a, new_i, ci = best[1]
    tables[i], costs[i] = new_i, ci
    spare[y] = a
    return True


# --- Swiss, two players ------------------------------------------------------------------------


def _need(p: Player) -> int:
    """-1: must move first (behind by two or second twice in a row); +1: must move second."""
    diff = 2 * p.firsts - p.games
    if p.streak >= 2 or diff >= 2:
        return 1
    if p.streak <= -2 or diff <= -2:
        return -1
    return 0


def _seat_pair(a: Player, b: Player, rank: Mapping[int, int]) -> tuple[int, int]:
    def faults(first: Player, second: Player) -> tuple[bool, bool, bool]:
        after_first = 2 * first.firsts - first.games + 1
        after_second = 2 * second.firsts - second.games - 1
        return (
            first.streak >= 2,
            max(abs(after_first), abs(after_second)) > 2,
            second.streak <= -2,
        )

    def key(p: Player) -> tuple:
        return (2 * p.firsts - p.games, p.firsts, p.streak, rank[p.id])

    fa, fb = faults(a, b), faults(b, a)
    if fa != fb:
        return (a.id, b.id) if fa < fb else (b.id, a.id)
    return (a.id, b.id) if key(a) <= key(b) else (b.id, a.id)


def _pair_groups(order: list[Player], allowed) -> tuple[dict[int, int], list[int]]:
    """Score group by score group from the top (indices into ``order``): the top half of each
    group meets its bottom half; the rest floats down. Returns the mate of each paired index
    and who is left over after the last group."""
    mate: dict[int, int] = {}
    floaters: list[int] = []
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and order[end].score == order[start].score:
            end += 1
        bracket = floaters + list(range(start, end))
        half = len(bracket) // 2
        top, bottom = bracket[:half], bracket[half:]
        floaters = []
        for p in top:
            # The first allowed opponent whose first-move need does not clash, else the first
            # allowed one (a clash makes someone a third first in a row or three ahead).
            need = _need(order[p])
            options = (q for q in bottom if allowed(p, q))
            first = choice = next(options, None)
            while choice is not None and need != 0 and _need(order[choice]) == need:
                choice = next(options, None)
            if choice is None and end < len(order):
                choice = None  # a clash at best: float down and look in the next group
            elif choice is None:
                choice = first
            if choice is None:
                floaters.append(p)
                continue
            bottom.remove(choice)
            mate[p], mate[choice] = choice, p
        floaters = sorted(floaters + bottom)
        start = end
    return mate, floaters


def _clash(a: Player, b: Player) -> bool:
    return _need(a) == _need(b) != 0


def _mend_clashes(order: list[Player], mate: dict[int, int], fresh) -> None:
    """Two players who must both move first (or both second) trade opponents with the nearest
    pair (by rank) where the trade leaves no clash and no repeat: the groups' order can corner
    such a pair at the bottom of the field."""
    for a in sorted(mate, reverse=True):
        b = mate[a]
        if a > b or not _clash(order[a], order[b]):
            continue
        others = sorted((c for c in mate if c < mate[c] and c != a), key=lambda c: abs(c - a))
        for c in others:
            d = mate[c]
            for x, y in ((c, d), (d, c)):
                if (
                    fresh(a, x)
                    and fresh(b, y)
                    and not _clash(order[a], order[x])
                    and not _clash(order[b], order[y])
                ):
                    mate[a], mate[x], mate[b], mate[y] = x, a, y, b
                    break
            else:
                continue
            break


def _augment(nodes: list[int], mate: dict[int, int], allowed) -> None:
    """Grow ``mate`` to a maximum matching over ``nodes`` along augmenting paths (Edmonds'
    blossoms, the breadth-first version); ``allowed(a, b)`` gives the edges."""
    n = len(nodes)
    index = {v: i for i, v in enumerate(nodes)}
    match = [index.get(mate.get(v), -1) for v in nodes]
    for root in range(n):
        if match[root] == -1:
            search = _Search(root, n, match, lambda a, b: allowed(nodes[a], nodes[b]))
            end, parent = search.run(), search.parent
            while end != -1:
                prev = parent[end]
                nxt = match[prev]
                match[end], match[prev] = prev, end
                end = nxt
    mate.clear()
    for i, j in enumerate(match):
        if j != -1:
            mate[nodes[i]] = nodes[j]


class _Search:
    """One breadth-first search for an augmenting path from ``root`` (Edmonds: an odd cycle
    found on the way is a blossom, contracted to its base)."""

    def __init__(self, root, n, match, edge):
        self.n, self.match, self.edge = n, match, edge
        self.used, self.parent, self.base = [False] * n, [-1] * n, list(range(n))
        self.used[root] = True
        self.root, self.queue = root, [root]

    def run(self) -> int:
        match, parent, base, queue = self.match, self.parent, self.base, self.queue
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in range(self.n):
                if to == v or base[v] == base[to] or match[v] == to or not self.edge(v, to):
                    continue
                if to == self.root or (match[to] != -1 and parent[match[to]] != -1):
                    self.shrink(v, to)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        return to
                    self.used[match[to]] = True
                    queue.append(match[to])
        return -1

    def lca(self, a, b):
        match, parent, base = self.match, self.parent, self.base
        seen = [False] * self.n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(self, v, b, child, blossom):
        match, parent, base = self.match, self.parent, self.base
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    def shrink(self, v, to):
        current = self.lca(v, to)
        blossom = [False] * self.n
        self.mark(v, current, to, blossom)
        self.mark(to, current, v, blossom)
        for i in range(self.n):
            if blossom[self.base[i]]:
                self.base[i] = current
                if not self.used[i]:
                    self.used[i] = True
                    self.queue.append(i)


def swiss(
    players: list[Player],
    *,
    size: int,
    met: Mapping[frozenset[int], int],
    blocked: set[frozenset[int]],
) -> Pairing:
    """One round of a Swiss tournament (the rules are in the module's docstring)."""
    _check_size(size)
    order = _ranked(players)
    if size > 2:
        return _swiss_tables(order, size, met, blocked)
    bye = _take_byes(order, len(order) % 2)
    order = [p for p in order if p not in bye]
    rank = {p.id: i for i, p in enumerate(order)}

    def fresh(a: int, b: int) -> bool:
        pair = frozenset((order[a].id, order[b].id))
        return not met.get(pair, 0) and pair not in blocked

    def possible(a: int, b: int) -> bool:
        return frozenset((order[a].id, order[b].id)) not in blocked

    mate, left = _pair_groups(order, fresh)
    if left:
        everyone = list(range(len(order)))
        _augment(everyone, mate, fresh)
        left = [i for i in everyone if i not in mate]
        # Who is still left over has met every possible opponent who is free: repeats among
        # them, the least-met first, are the fewest repeats any complete pairing needs.
        while len(left) >= 2:
            a = left.pop(0)
            options = [b for b in left if possible(a, b)]
            if not options:
                break
            b = min(options, key=lambda b: (met.get(frozenset((order[a].id, order[b].id)), 0), b))
            left.remove(b)
            mate[a], mate[b] = b, a
        if len(mate) + 1 < len(order):
            _augment(everyone, mate, possible)
    _mend_clashes(order, mate, fresh)
    tables, extra = [], []
    for i, p in enumerate(order):
        if i not in mate:
            extra.append(p.id)
        elif i < mate[i]:
            tables.append(_seat_pair(p, order[mate[i]], rank))
    return Pairing(tables=tables, byes=[p.id for p in bye] + extra)


# --- Swiss, three and four players -------------------------------------------------------------


def _seat_table(table: list[Player], size: int, rank: Mapping[int, int]) -> tuple[int, ...]:
    ordered = sorted(table, key=lambda p: (p.firsts * size - p.games, p.streak, rank[p.id], p.id))
    if ordered[0].streak >= 2:
        fresh = [p for p in ordered if p.streak < 2]
        if fresh:
            ordered.remove(fresh[0])
            ordered.insert(0, fresh[0])
    return tuple(p.id for p in ordered)


def _swiss_tables(order, size, met, blocked) -> Pairing:
    bye = _take_byes(order, len(order) % size)
    seated = [p.id for p in order if p not in bye]
    tables = [seated[i : i + size] for i in range(0, len(seated), size)]

    def cost(a: int, b: int) -> int:
        pair = frozenset((a, b))
        return BLOCKED if pair in blocked else met.get(pair, 0)

    spare = [p.id for p in bye]
    _improve(tables, cost, reach=8, spare=spare)
    byes = list(spare)
    by_id = {p.id: p for p in order}
    rank = {p.id: i for i, p in enumerate(order)}
    kept = []
    for table in tables:
        if _table_cost(table, cost) >= BLOCKED:
            byes.extend(table)  # no table without a blocked pair: it sits out
        else:
            kept.append(_seat_table([by_id[i] for i in table], size, rank))
    kept.sort(key=lambda t: min(rank[i] for i in t))
    return Pairing(tables=kept, byes=sorted(byes, key=rank.__getitem__))


# --- round robin -------------------------------------------------------------------------------


def round_robin(
    ids: list[int],
    *,
    size: int,
    double: bool = False,
    blocked: set[frozenset[int]] = frozenset(),
) -> list[Pairing]:
    """Every round of a round robin (the rules are in the module's docstring)."""
    _check_size(size)
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    if len(ids) < size:
        return []
    if size == 2:
        return _circle(list(ids), double, blocked)
    return _schedule(list(ids), size, double, blocked)


def _circle(ids: list[int], double: bool, blocked) -> list[Pairing]:
    """Berger's tables: the circle method with the top row moving first, its rounds taken
    n/2 apart, so that each player swaps rows (and so the first move) from round to round."""
    # With an odd count the empty seat is the fixed one: everyone rotates through both rows.
    ring: list[int | None] = ([None] if len(ids) % 2 else []) + list(ids)
    n = len(ring)
    circle = []
    for _ in range(n - 1):
        circle.append([(ring[i], ring[n - 1 - i]) for i in range(n // 2)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    rounds = []
    for number in range(n - 1):
        tables, byes = [], []
        for i, (a, b) in enumerate(circle[number * (n // 2) % (n - 1)]):
            if i == 0 and number % 2:
                a, b = b, a  # the player fixed in the circle alternates
            if a is None or b is None:
                byes.append(b if a is None else a)
            elif frozenset((a, b)) in blocked:
                byes.extend((a, b))
            else:
                tables.append((a, b))
        rounds.append(Pairing(tables=tables, byes=byes))
    if double:
        rounds += [Pairing(tables=[(b, a) for a, b in r.tables], byes=list(r.byes)) for r in rounds]
    return rounds


def _schedule(ids: list[int], size: int, double: bool, blocked) -> list[Pairing]:
    n = len(ids)
    need = 2 if double else 1
    least = math.ceil((n - 1) / (size - 1)) * need
    rng = random.Random(f"{size}:{int(double)}:" + ",".join(map(str, sorted(ids))))
    cut = [[frozenset((a, b)) in blocked for b in ids] for a in ids]
    pairs = [(a, b) for a, b in itertools.combinations(range(n), 2) if not cut[a][b]]
    best, best_key = None, None
    for attempt in range(max(2, min(12, 4000 // (n * n)))):
        rounds, meets = _attempt(n, size, need, least, cut, pairs, rng, attempt)
        counts = [meets[a][b] for a, b in pairs]
        key = (len(rounds), max(counts, default=0) - min(counts, default=0), _seat_spread(rounds))
        if best_key is None or key < best_key:
            best, best_key = rounds, key
    return [
        Pairing(tables=[tuple(ids[i] for i in t) for t in r.tables], byes=[ids[i] for i in r.byes])
        for r in best
    ]


def _attempt(n, size, need, least, cut, pairs, rng, attempt):
    """One seeded schedule over the indices 0..n-1, round after round until every pair that is
    not blocked has met ``need`` times (and at least ``least`` rounds)."""
    meets = [[0] * n for _ in range(n)]
    byes_had = [0] * n
    seats: Counter[tuple[int, int]] = Counter()
    rounds = []
    cap = least * 3 + 6
    while len(rounds) < least or (any(meets[a][b] < need for a, b in pairs) and len(rounds) < cap):
        weight = [
            [BLOCKED if cut[a][b] else 8 ** meets[a][b] - 1 for b in range(n)] for a in range(n)
        ]
        unmet = [sum(1 for b in range(n) if b != a and meets[a][b] < need) for a in range(n)]
        order = sorted(range(n), key=lambda a: (byes_had[a], unmet[a], rng.random()))
        out, playing = order[: n % size], order[n % size :]
        tables = _pick_tables(playing, size, weight, rng, passes=6 + attempt)
        kept = []
        for table in tables:
            if _table_cost(table, _matrix_cost(weight)) >= BLOCKED:
                out += table  # no way to seat this table without a blocked pair: it sits out
                continue
            for a, b in itertools.combinations(table, 2):
                meets[a][b] += 1
                meets[b][a] += 1
            kept.append(_rotate(table, seats, rng))
        for a in out:
            byes_had[a] += 1
        rounds.append(Pairing(tables=kept, byes=sorted(out)))
    return rounds, meets


def _matrix_cost(weight: list[list[int]]) -> Callable[[int, int], int]:
    return lambda a, b: weight[a][b]


def _pick_tables(playing, size, weight, rng, *, passes):
    """The better of two seeded starts, each improved by swaps (they find local optima)."""
    cost = _matrix_cost(weight)
    best, best_total = None, None
    for _ in range(2):
        rng.shuffle(playing)
        trial = [playing[i : i + size] for i in range(0, len(playing), size)]
        _improve(trial, cost, reach=len(trial), passes=passes)
        total = sum(_table_cost(t, cost) for t in trial)
        if best is None or total < best_total:
            best, best_total = trial, total
    return best


def _rotate(table: list[int], seats: Counter, rng: random.Random) -> tuple[int, ...]:
    """The seat order in which the players have held those seats least often (seat 0 weighs
    most: it moves first)."""
    perms = list(itertools.permutations(table))
    rng.shuffle(perms)
    size = len(table)

    def weight(perm):
        return sum((size - k) * 4 ** seats[(p, k)] for k, p in enumerate(perm))

    chosen = min(perms, key=weight)
    for k, p in enumerate(chosen):
        seats[(p, k)] += 1
    return chosen


def _seat_spread(rounds: list[Pairing]) -> int:
    firsts: Counter[int] = Counter()
    for r in rounds:
        for t in r.tables:
            firsts[t[0]] += 1
            for p in t[1:]:
                firsts[p] += 0
    return max(firsts.values(), default=0) - min(firsts.values(), default=0)


# --- standings ---------------------------------------------------------------------------------


def tiebreak_names(size: int) -> tuple[str, ...]:
    _check_size(size)
    return ("Buchholz", "Sonneborn-Berger") if size == 2 else ("Opponents' points",)


def standings(
    ids: list[int], results: list[Result], byes: Mapping[int, int], *, size: int
) -> list[Standing]:
    """The table of a tournament (the rules are in the module's docstring)."""
    _check_size(size)
    points = {i: bye_points(size) * byes.get(i, 0) for i in ids}
    games: Counter[int] = Counter()
    for r in results:
        for player, got in zip(r.players, r.points, strict=True):
            points[player] += got
            games[player] += 1
    breaks: dict[int, list[float]] = {i: [0.0] * len(tiebreak_names(size)) for i in ids}
    for r in results:
        for player, got in zip(r.players, r.points, strict=True):
            others = [o for o in r.players if o != player]
            breaks[player][0] += sum(points[o] for o in others)
            if size == 2:
                (other,) = others
                # Sonneborn-Berger: the game's own points (1 a win, 0.5 a tie) weigh the
                # opponent's final points.
                breaks[player][1] += got * points[other]
    ordered = sorted(ids, key=lambda i: (-points[i], *[-b for b in breaks[i]], i))
    out, previous = [], None
    for place, i in enumerate(ordered, start=1):
        key = (points[i], tuple(breaks[i]))
        rank = out[-1].rank if key == previous else place
        previous = key
        out.append(Standing(i, rank, points[i], tuple(breaks[i]), games[i], byes.get(i, 0)))
    return out
