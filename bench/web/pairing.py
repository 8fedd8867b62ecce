"""Swiss pairings of a large field: games.pairing.swiss for 1,000 players, two players a game and
four, over 7 rounds with random results, timed per round (median and max).

    .venv/bin/python bench/web/pairing.py [--players 1000] [--rounds 7] [--seed 1]

Pure Python, no database: the time is the pairing alone (the services add reading the players
and writing the tables). The target is at most 1 s a round.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from games.pairing import Player, bye_points, swiss, table_points  # noqa: E402


def event(players: int, size: int, rounds: int, seed: int) -> tuple[list[float], int]:
    """Seconds per round, and the repeat meetings over the event."""
    rng = random.Random(seed)
    ratings = {i: rng.randrange(800, 2200) for i in range(players)}
    state = {i: [0.0, 0, 0, 0, 0] for i in range(players)}  # score firsts games streak byes
    met: Counter[frozenset[int]] = Counter()
    times, repeats = [], 0
    for _ in range(rounds):
        field = [Player(i, s[0], ratings[i], s[1], s[2], s[3], s[4]) for i, s in state.items()]
        start = time.perf_counter()
        pairing = swiss(field, size=size, met=met, blocked=set())
        times.append(time.perf_counter() - start)
        for table in pairing.tables:
            places = [rng.randint(1, size) for _ in table]
            for seat, (pid, got) in enumerate(zip(table, table_points(places), strict=True)):
                s = state[pid]
                s[0] += got
                s[1] += seat == 0
                s[2] += 1
                s[3] = max(s[3], 0) + 1 if seat == 0 else min(s[3], 0) - 1
            for pair in itertools.combinations(table, 2):
                repeats += met[frozenset(pair)] > 0
                met[frozenset(pair)] += 1
        for pid in pairing.byes:
            state[pid][0] += bye_points(size)
            state[pid][4] += 1
    return times, repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    for size in (2, 4):
        times, repeats = event(args.players, size, args.rounds, args.seed)
        print(
            f"size {size}: {args.players} players, {args.rounds} rounds: per round median "
            f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms; "
            f"repeat meetings {repeats}"
        )


if __name__ == "__main__":
    main()
