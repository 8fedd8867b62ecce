"""Simulations per decision of Expert's classic search (games/ai/mcts/), by thread count.

Plays random classic two-player games to fixed plies, then runs the search on each position for
the time Expert spends on a decision (``MctsParams.budget_share`` of the 2 s budget), once with
one thread and once with two, and prints the simulations each managed (a table in markdown).

    .venv/bin/python bench/mcts_speed.py [--plies 0,16,32,48] [--seconds 1.8]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from games.ai import mcts  # noqa: E402
from games.ai.expert import DEFAULT_BUDGET  # noqa: E402
from games.engine import apply, legal_placements, new_game  # noqa: E402
from games.engine.rules import placement_text  # noqa: E402


def position(plies: int, seed: int):
    rng = random.Random(seed)
    s = new_game(mode="classic", players=2, seed=seed, scoring="advanced")
    for _ in range(plies):
        values = sorted(legal_placements(s))
        if s.over or not values:
            break
        s = apply(s, {"place": placement_text(rng.choice(values))})
    return s


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", default="0,16,32,48")
    parser.add_argument(
        "--seconds", type=float, default=DEFAULT_BUDGET * mcts.MctsParams.budget_share
    )
    args = parser.parse_args(argv)
    if not mcts.AVAILABLE:
        raise SystemExit("numba is not installed: the search is not compiled")
    mcts.warm_up()
    print(
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load {os.getloadavg()[0]:.2f}; {args.seconds:.2f} s per decision.\n"
    )
    print("| ply | legal placements | sims, 1 thread | sims, 2 threads | ratio |")
    print("|---|---|---|---|---|")
    for plies in (int(p) for p in args.plies.split(",")):
        s = position(plies, seed=7)
        if s.over:
            continue
        sims = []
        for threads in (1, 2):
            params = type("P", (mcts.MctsParams,), {"threads": threads})
            _, stats = mcts.mcts_choose(
                s, deadline=time.perf_counter() + args.seconds, seed=1, params=params
            )
            sims.append(stats["sims"])
        ratio = sims[1] / sims[0]
        print(f"| {s.ply} | {len(legal_placements(s))} | {sims[0]} | {sims[1]} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
