"""The post-game analysis's speed and stability: time per decision and per game at
the analysis depth, and how far two runs with different seeds agree.

Plays a few games per mode and player count by the Casual level after a few random decisions (game
seeds ``--seed``, ``--seed``+1, ...: the same games each run), then analyses every game twice as the
site does (games.ai.judge: every decision with ``analyse_decision`` on one search thread,
``--sims`` simulations a search, then each player's biggest drops judged again deeper and the
three biggest a third time, ``next_to_refine`` and ``judge_again``), with two seeds chosen at
random (printed; ``--run-seeds A,B`` repeats a run).
Prints a Markdown table, a row per game and one per mode for all its games: decisions, seconds per
decision (mean, p50, p95), CPU seconds per game (each run), the decisions judged again, and the
agreement of the two runs: the same best move, the mean absolute difference of the estimate after
the move played, the correlation of the drops, the share of drops of 10 points or more found by both
(of those either finds), each player's single biggest mistake (the same decision in both runs, of
the players), and each player's three biggest (found by both, of those either finds; the mean
number both lists hold, and the players whose lists share two or more).

    .venv/bin/python bench/ai/analysis_speed.py [--games classic:2x4,shuffle:4x3] [--sims 1000]
        [--run-seeds 5,6] [--jobs 2] [--json out/analysis_speed.json]

Targets (one core): a two-player classic game (about 60 decisions) in 60 s or less,
a four-player Shuffle game (about 150) in 3 min or less. Each game's analyses run on one core
(``--jobs N``: N games side by side, one process each); the CPU seconds are the analysis's own.
Note ``uptime``: with other work on the machine the times are longer than on an idle core.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.ai.arena import head_commit  # noqa: E402
from games.ai import choose_action, mcts  # noqa: E402
from games.ai import judge as analysis  # noqa: E402
from games.ai.judge import (  # noqa: E402
    REFINE_FLOOR,
    analyse_decision,
    decisions,
    judge_again,
    next_to_refine,
)
from games.engine import apply, legal_actions, new_game  # noqa: E402

DEFAULT_SIMS = 1000  # config/settings.py ANALYSIS_SIMS's default
BIG = 0.10  # a drop of 10 points or more: a mistake worth listing


OPENING = 6  # decisions played at random first: Casual alone plays the same classic game


def game(mode: str, players: int, seed: int) -> tuple:
    start = new_game(mode=mode, players=players, seed=seed)
    s, actions, rng = start, [], random.Random(seed)
    while not s.over:
        if len(actions) < OPENING:
            action = rng.choice(legal_actions(s))
        else:
            action = choose_action(s, level="casual", seed=rng.randrange(1 << 30))
        actions.append(action)
        s = apply(s, action)
    return start, actions


def run(start, actions, sims: int, seed: int, refine: bool = True) -> dict:
    """One analysis of a game as the task runs it (games/jobs/analysis.py): its results, the
    wall-clock seconds of each first judgement, the CPU seconds of all (the analysis searches on
    one thread: its CPU time is what it takes on a core of its own), the decisions judged again."""
    results, times, positions = [], [], {}
    cpu = time.process_time()
    for ply, state, action in decisions(start, actions):
        positions[ply] = (state, action)
        began = time.perf_counter()
        results.append(analyse_decision(state, action, ply=ply, sims=sims, seed=seed * 1000 + ply))
        times.append(time.perf_counter() - began)
    again = []
    while refine:
        ply = next_to_refine([r.as_dict() for r in results], sims)
        if ply is None:
            break
        state, action = positions[ply]
        results[ply - 1] = judge_again(
            state, action, results[ply - 1].as_dict(), sims=sims, seed=seed * 1000 + ply
        )
        again.append(ply)
    return {
        "results": results,
        "times": times,
        "cpu": time.process_time() - cpu,
        "again": again,
    }


def both_runs(work: tuple) -> list[dict]:
    """One game played and analysed twice (a worker's job with ``--jobs``)."""
    mode, players, seed, sims, seeds, refine = work
    start, actions = game(mode, players, seed)
    return [run(start, actions, sims, s, refine) for s in seeds]


def _correlation(xs: list[float], ys: list[float]) -> float:
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:  # constant (every drop 0) or too short
        return 0.0


def ranked(results, seat: int) -> list[int]:
    """A player's mistakes as the replay lists them: drops of REFINE_FLOOR or more (the
    presenter's MISTAKE_FLOOR), biggest first, the earlier first on a tie."""
    mine = [r for r in results if r.seat == seat and r.judged and r.loss >= REFINE_FLOOR]
    return [r.ply for r in sorted(mine, key=lambda r: (-r.loss, r.ply))]


def compare(one: list, two: list) -> dict:
    """How far two analyses of one game agree (the counts, so that games add up)."""
    pairs = list(zip(one, two, strict=True))
    seats = sorted({r.seat for r in one if r.judged})
    top_same, top3_both, top3_either, top3_two = 0, 0, 0, 0
    for seat in seats:
        a, b = ranked(one, seat), ranked(two, seat)
        top_same += a[:1] == b[:1]  # the same single biggest (or none in both)
        top3_both += len(set(a[:3]) & set(b[:3]))
        top3_either += len(set(a[:3]) | set(b[:3]))
        # the two top-3 lists share 2 decisions or more (or all of the shorter, if it is shorter)
        top3_two += len(set(a[:3]) & set(b[:3])) >= min(2, len(a[:3]), len(b[:3]))
    big1 = {r.ply for r in one if r.loss >= BIG}
    big2 = {r.ply for r in two if r.loss >= BIG}
    return {
        "decisions": len(pairs),
        "same_best": sum(a.best == b.best for a, b in pairs),
        "after_diff": math.fsum(abs(a.after - b.after) for a, b in pairs),
        "players": len(seats),
        "top_same": top_same,
        "top3_both": top3_both,
        "top3_either": top3_either,
        "top3_two": top3_two,
        "big_both": len(big1 & big2),
        "big_either": len(big1 | big2),
        "loss_corr": _correlation([a.loss for a in one], [b.loss for b in two]),
    }


def row(name: str, cmp: dict, times: list[float], cpus: list[float], again: list[int]) -> dict:
    n = cmp["decisions"]
    return {
        "game": name,
        "decisions": n,
        "mean_s": statistics.fmean(times),
        "p50_s": statistics.median(times),
        "p95_s": sorted(times)[int(0.95 * (len(times) - 1))],
        "cpu_s": cpus,
        "again": again,
        "same_best": cmp["same_best"] / n,
        "after_diff": cmp["after_diff"] / n,
        "loss_corr": cmp["loss_corr"],
        "big_shared": cmp["big_both"] / max(1, cmp["big_either"]),
        "top_same": (cmp["top_same"], cmp["players"]),
        "top3_shared": cmp["top3_both"] / max(1, cmp["top3_either"]),
        "top3_mean": cmp["top3_both"] / max(1, cmp["players"]),
        "top3_two": cmp["top3_two"],
    }


def total(name: str, games: list[dict], rows: list[dict]) -> dict:
    """A mode's games together: counts added up, times pooled, correlations averaged."""
    cmp = {k: sum(g["cmp"][k] for g in games) for k in games[0]["cmp"] if k != "loss_corr"}
    cmp["loss_corr"] = statistics.fmean(g["cmp"]["loss_corr"] for g in games)
    times = [t for g in games for t in g["times"]]
    cpus = [statistics.fmean(r["cpu_s"][k] for r in rows) for k in (0, 1)]
    again = [statistics.fmean(len(r["again"][k]) for r in rows) for k in (0, 1)]
    out = row(name, cmp, times, cpus, again)
    out["games"] = len(games)
    return out


def print_table(rows: list[dict]) -> None:
    print(
        "| game | decisions | wall s / decision (mean, p50, p95) | CPU s / game (run 1, 2) | "
        "judged again (run 1, 2) | same best | mean abs. diff. of the estimate | "
        "drops' correlation | drops >= 10 points found by both | top mistake the same | "
        "top-3 mistakes found by both | top-3 lists: shared a player (mean), players sharing >= 2 |"
    )
    print("|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        same, players = r["top_same"]
        again = ", ".join(f"{a:.1f}" if isinstance(a, float) else str(len(a)) for a in r["again"])
        name = f"**{r['game']}**" if "games" in r else r["game"]
        print(
            f"| {name} | {r['decisions']} | {r['mean_s']:.2f}, {r['p50_s']:.2f}, "
            f"{r['p95_s']:.2f} | {r['cpu_s'][0]:.1f}, {r['cpu_s'][1]:.1f} | {again} | "
            f"{100 * r['same_best']:.0f} % | {100 * r['after_diff']:.1f} points | "
            f"{r['loss_corr']:.2f} | {100 * r['big_shared']:.0f} % | "
            f"{same}/{players} ({100 * same / max(1, players):.0f} %) | "
            f"{100 * r['top3_shared']:.0f} % | {r['top3_mean']:.2f}, "
            f"{r['top3_two']}/{players} ({100 * r['top3_two'] / max(1, players):.0f} %) |"
        )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        default="classic:2x4,shuffle:4x3",
        help="mode:players[xgames], comma-separated",
    )
    parser.add_argument("--sims", type=int, default=DEFAULT_SIMS)
    parser.add_argument("--seed", type=int, default=11, help="the first game's seed")
    parser.add_argument("--run-seeds", help="the two runs' seeds, A,B (default: at random)")
    parser.add_argument("--no-refine", action="store_true", help="skip the second look")
    parser.add_argument("--refine-top", type=int, help="try another analysis.REFINE_TOP")
    parser.add_argument("--refine-max", type=int, help="try another analysis.REFINE_MAX")
    parser.add_argument("--confirm-top", type=int, help="try another analysis.CONFIRM_TOP")
    parser.add_argument("--confirm-max", type=int, help="try another analysis.CONFIRM_MAX")
    parser.add_argument(
        "--no-carry", action="store_true", help="deeper looks without the row's best (CARRY)"
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument("--jobs", type=int, default=1, help="games analysed side by side")
    args = parser.parse_args(argv)
    if args.run_seeds:
        seeds = [int(x) for x in args.run_seeds.split(",")]
    else:
        seeds = [random.SystemRandom().randrange(1, 1 << 20) for _ in range(2)]
    if args.refine_top:
        analysis.REFINE_TOP = args.refine_top
    if args.refine_max:
        analysis.REFINE_MAX = args.refine_max
    if args.confirm_top is not None:
        analysis.CONFIRM_TOP = args.confirm_top
    if args.confirm_max is not None:
        analysis.CONFIRM_MAX = args.confirm_max
    if args.no_carry:
        analysis.CARRY = False
    mcts.warm_up()
    load = os.getloadavg()
    revision = head_commit()  # the code that analyses, even if HEAD moves during a long run
    rows, dump = [], []
    for spec in args.games.split(","):
        mode, _, rest = spec.partition(":")
        players, _, count = rest.partition("x")
        games = []
        work = [
            (mode, int(players), args.seed + k, args.sims, seeds, not args.no_refine)
            for k in range(int(count or 1))
        ]
        if args.jobs > 1:
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                done = pool.map(both_runs, work, chunksize=1)
        else:
            done = [both_runs(w) for w in work]
        for (_, _, seed, *_), runs in zip(work, done, strict=True):
            cmp = compare(runs[0]["results"], runs[1]["results"])
            games.append({"cmp": cmp, "times": runs[0]["times"]})
            rows.append(
                row(
                    f"{mode} {players}p #{seed}",
                    cmp,
                    runs[0]["times"],
                    [r["cpu"] for r in runs],
                    [r["again"] for r in runs],
                )
            )
            dump.append(
                {
                    "game": f"{mode} {players}p",
                    "seed": seed,
                    "runs": [{**r, "results": [x.as_dict() for x in r["results"]]} for r in runs],
                }
            )
            print(f"# {rows[-1]['game']}: done", file=sys.stderr)
        rows.append(total(f"{mode} {players}p, {len(games)} games", games, rows[-len(games) :]))
    extra = " --no-refine" if args.no_refine else ""
    extra += f" --jobs {args.jobs}" if args.jobs > 1 else ""
    extra += f" --confirm-top {args.confirm_top}" if args.confirm_top is not None else ""
    extra += f" --confirm-max {args.confirm_max}" if args.confirm_max is not None else ""
    extra += " --no-carry" if args.no_carry else ""
    print(
        f"`bench/ai/analysis_speed.py --games {args.games} --sims {args.sims} --seed {args.seed} "
        f"--run-seeds {seeds[0]},{seeds[1]}{extra}` "
        f"(Shuffle: each judgement over {analysis.WORLDS} sampled worlds sharing its "
        f"simulations; second look: top {analysis.REFINE_TOP}, at most {analysis.REFINE_MAX} a "
        "player, "
        f"{analysis.REFINE_FACTOR}x the simulations in another sampled world; then the top "
        f"{analysis.CONFIRM_TOP} judged a third time and averaged, at most "
        f"{analysis.CONFIRM_MAX} a player; close calls up to {analysis.CONTEST_LOOKS} deep "
        f"judgements) on {platform.node()}, {os.cpu_count()} cores, "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start, commit {revision}\n"
    )
    print_table(rows)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {"sims": args.sims, "seeds": seeds, "load": load, "rows": rows, "games": dump},
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
