"""The post-game analysis's speed and stability (issue #28): time per decision and per game at
the analysis depth, and how far two runs with different seeds agree.

Plays one game per mode and player count by the Casual level (seeded, so the same games each
run), then analyses every decision twice with games.jobs.analysis.analyse_decision (one search
thread, ``--sims`` simulations a search, the site's ANALYSIS_SIMS by default), with two seeds.
Prints a Markdown table: decisions, seconds per decision (mean, p50, p95) and per game, and the
agreement of the two runs: the same best move, the mean absolute difference of the estimate after
the move played, the correlation of the drops, the share of drops of 10 points or more found by
both (of those either finds), and the same for each player's three biggest mistakes.

    .venv/bin/python bench/analysis_speed.py [--games classic:2,shuffle:4] [--sims 300]
        [--json out/analysis_speed.json]

Targets (issue #28, one core): a two-player classic game (about 60 decisions) in 60 s or less,
a four-player Shuffle game (about 150) in 3 min or less. Run ``uptime`` alongside: with other
work on the machine the times are longer than on an idle core.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from games.ai import choose_action, mcts  # noqa: E402
from games.engine import apply, new_game  # noqa: E402
from games.jobs.analysis import analyse_decision, decisions  # noqa: E402

DEFAULT_SIMS = 300  # config/settings.py ANALYSIS_SIMS's default
BIG = 0.10  # a drop of 10 points or more: a mistake worth listing


def game(mode: str, players: int, seed: int) -> tuple:
    start = new_game(mode=mode, players=players, seed=seed)
    s, actions, rng = start, [], random.Random(seed)
    while not s.over:
        action = choose_action(s, level="casual", seed=rng.randrange(1 << 30))
        actions.append(action)
        s = apply(s, action)
    return start, actions


def run(start, actions, sims: int, seed: int) -> tuple[list, list[float], float]:
    """The results, the wall-clock seconds of each decision, and the CPU seconds of all (the
    analysis searches on one thread: its CPU time is what it takes on a core of its own)."""
    results, times = [], []
    cpu = time.process_time()
    for ply, state, action in decisions(start, actions):
        began = time.perf_counter()
        results.append(analyse_decision(state, action, ply=ply, sims=sims, seed=seed * 1000 + ply))
        times.append(time.perf_counter() - began)
    return results, times, time.process_time() - cpu


def _correlation(xs: list[float], ys: list[float]) -> float:
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:  # constant (every drop 0) or too short
        return 0.0


def worst(results, k: int = 3) -> set[tuple[int, int]]:
    out = set()
    for seat in {r.seat for r in results}:
        mine = sorted(
            (r for r in results if r.seat == seat and r.loss >= 0.02), key=lambda r: -r.loss
        )
        out |= {(seat, r.ply) for r in mine[:k]}
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="classic:2,shuffle:4")
    parser.add_argument("--sims", type=int, default=DEFAULT_SIMS)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if not mcts.AVAILABLE:
        raise SystemExit("numba is not installed: the search is not compiled")
    mcts.warm_up()
    load = os.getloadavg()
    rows = []
    for spec in args.games.split(","):
        mode, players = spec.split(":")
        start, actions = game(mode, int(players), args.seed)
        one, times, cpu = run(start, actions, args.sims, 1)
        two, _, _ = run(start, actions, args.sims, 2)
        same_best = sum(a.best == b.best for a, b in zip(one, two, strict=True)) / len(one)
        diff = statistics.fmean(abs(a.after - b.after) for a, b in zip(one, two, strict=True))
        w1, w2 = worst(one), worst(two)
        big1 = {r.ply for r in one if r.loss >= BIG}
        big2 = {r.ply for r in two if r.loss >= BIG}
        first, second = [a.loss for a in one], [b.loss for b in two]
        rows.append(
            {
                "game": f"{mode} {players}p",
                "decisions": len(actions),
                "mean_s": statistics.fmean(times),
                "p50_s": statistics.median(times),
                "p95_s": sorted(times)[int(0.95 * (len(times) - 1))],
                "game_s": sum(times),
                "game_cpu_s": cpu,
                "same_best": same_best,
                "after_diff": diff,
                "mistakes_shared": len(w1 & w2) / max(1, len(w1 | w2)),
                "big_shared": len(big1 & big2) / max(1, len(big1 | big2)),
                "loss_corr": _correlation(first, second),
            }
        )
        print(f"# {rows[-1]['game']}: done", file=sys.stderr)
    print(
        f"`bench/analysis_speed.py --sims {args.sims} --seed {args.seed}` on {platform.node()}, "
        f"{os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start\n"
    )
    print(
        "| game | decisions | wall s / decision (mean, p50, p95) | wall s / game | "
        "CPU s / game | same best | mean abs. diff. of the estimate | drops' correlation | "
        "drops >= 10 points found by both | top-3 mistakes found by both |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['game']} | {r['decisions']} | {r['mean_s']:.2f}, {r['p50_s']:.2f}, "
            f"{r['p95_s']:.2f} | {r['game_s']:.0f} | {r['game_cpu_s']:.0f} | "
            f"{100 * r['same_best']:.0f} % | "
            f"{100 * r['after_diff']:.1f} points | {r['loss_corr']:.2f} | "
            f"{100 * r['big_shared']:.0f} % | {100 * r['mistakes_shared']:.0f} % |"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"sims": args.sims, "load": load, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
