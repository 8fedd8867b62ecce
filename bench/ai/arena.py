"""Arena: AI levels play each other; win rates, mean scores and time per decision.

    .venv/bin/python bench/ai/arena.py --mode shuffle --players 2 --games 40 --seats expert,casual \
        [--budget 2] [--seed 1] [--opening 4] [--scoring basic] [--jobs 2] [--json] [--progress]

``--seats`` names one level per seat (seat 0 first). Between games the levels rotate one seat to
the right, so that every level plays every seat (and blue's first move) equally often. Each game
is seeded from ``--seed`` (the decks and every AI decision), so a run repeats exactly as long as
Expert's search is bounded by work rather than time.

``--opening N``: the first N decisions of every game are Beginner's (random, seeded), and the
games of one rotation replay the same start (decks and moves) with the seats rotated: without it
two classic games between the same levels in the same seats differ only by timing.

``--jobs N`` plays N games at a time, each in its own process, and shares the machine's cores
among them (Expert's search threads, games/ai/mcts/); the report lists the games in order as one
at a time would.

Every decision is taken from the deciding seat's view only (``decide(view(state, seat))``).
Wins: a player alone in first place wins 1; players sharing first place share the win (a
two-player tie is half a win each). With exactly two levels at the table the report also gives
their head-to-head rate: per game, the share of (first level's seat, second level's seat) pairs
where the first scored better (ties half), averaged over games (``--seats expert,baseline,
expert,baseline``: 50 % means equal strength with four players too). ``baseline`` (the frozen
Expert, bench/ai_baseline.py) may sit at the table too. Confidence intervals: Wilson score
intervals (95 %) for win rates, mean ± 1.96 standard errors for scores.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from games.ai import BENCH_LEVELS, LEVELS, MASTER_BUDGET, decide, mcts  # noqa: E402
from games.ai.expert import DEFAULT_BUDGET  # noqa: E402
from games.engine import apply, new_game, score, view  # noqa: E402


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def elo(rate: float, n: int) -> list[float | None]:
    """The Elo difference of a score rate, with the Wilson 95 % interval's bounds mapped the
    same way ([value, low, high]; None where a rate is 0 % or 100 %: unbounded)."""

    def one(p: float) -> float | None:
        if p <= 0.0 or p >= 1.0:
            return None
        return round(-400.0 * math.log10(1.0 / p - 1.0), 1)

    lo, hi = wilson(rate, n)
    return [one(rate), one(lo), one(hi)]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def play_game(
    levels: list[str],
    *,
    mode: str,
    players: int,
    scoring: str,
    seed: int,
    budget: float | None,
    times: dict[str, list[float]],
    opening: int = 0,
    max_sims: int | None = None,
) -> dict:
    """One game; ``levels[seat]`` plays ``seat``, after ``opening`` decisions by Beginner;
    ``max_sims`` bounds each search by simulations as well as by ``budget`` (a large budget and
    ``max_sims`` compare two searches at the same number of simulations). Returns the engine's
    score dict."""
    state = new_game(mode=mode, players=players, scoring=scoring, seed=seed)
    turn = 0.0  # the seconds of the turn in progress (every decision of one colour's turn)
    while not state.over:
        seat = state.controller()
        level = "beginner" if state.ply < opening else levels[seat]
        seat_view = view(state, seat)
        start = time.perf_counter()
        action = decide(
            seat_view,
            level=level,
            seed=seed * 1009 + state.ply,
            budget=budget,
            max_sims=None if level == "beginner" else max_sims,
        )
        spent = time.perf_counter() - start
        colour = state.turn
        state = apply(state, action)
        if level != "beginner":
            times[level].append(spent)
            turn += spent
        placed = "place" in action and state.step != "place_second"
        if placed or state.over or state.turn != colour or state.step in ("card", "setup"):
            if level != "beginner":
                times.setdefault(f"{level}/turn", []).append(turn)
            turn = 0.0
    return score(state)


def pair_share(levels: list[str], result: dict, first: str, second: str) -> float | None:
    """In one game, the share of (``first`` seat, ``second`` seat) pairs that ``first`` won: the
    better place wins a pair, a tie is half (None if the game has no such pair)."""
    # The engine's place when it gives one (advanced scoring: the higher score wins, R8.4);
    # else the score (basic scoring: the lower wins, R8.3).
    scores = {p["seat"]: p.get("place", p["score"]) for p in result["players"]}
    pairs = [
        (scores[a], scores[b])
        for a in scores
        for b in scores
        if levels[a] == first and levels[b] == second
    ]
    if not pairs:
        return None
    return sum(1.0 if x < y else 0.5 if x == y else 0.0 for x, y in pairs) / len(pairs)


def _game(args, g: int) -> tuple[list[str], dict, dict[str, list[float]]]:
    """Game ``g`` of the run: (levels per seat, the engine's score dict, times per level)."""
    n = len(args.seats)
    levels = [args.seats[(i - g) % n] for i in range(n)]
    times: dict[str, list[float]] = {level: [] for level in levels}
    result = play_game(
        levels,
        mode=args.mode,
        players=args.players,
        scoring=args.scoring,
        # With an opening, the n games of a rotation replay one start (decks and moves).
        seed=args.seed * 100_003 + (g // n if args.opening else g),
        budget=args.budget,
        times=times,
        opening=args.opening,
    )
    return levels, result, times


def _share_cores(jobs: int) -> None:
    """A pool worker's search threads: the machine's cores shared among the ``jobs`` games;
    the compiled search loaded before the first game (as a worker does, outside any clock)."""
    mcts.MctsParams.threads = max(1, (os.cpu_count() or 1) // jobs)
    mcts.warm_up()


def _games(args):
    """The games' results in order: one at a time, or ``args.jobs`` at a time in processes."""
    if args.jobs == 1:
        mcts.warm_up()  # outside the decisions' clocks, as a worker does at its start
        for g in range(args.games):
            yield _game(args, g)
        return
    spawn = multiprocessing.get_context("spawn")  # not fork: the parent may run search threads
    with ProcessPoolExecutor(
        args.jobs, mp_context=spawn, initializer=_share_cores, initargs=(args.jobs,)
    ) as pool:
        yield from pool.map(_game, [args] * args.games, range(args.games))


def run(args) -> dict:
    seats = args.seats
    pair = sorted(set(seats), key=seats.index)
    head_to_head: list[float] = []
    wins = {level: [] for level in set(seats)}
    scores = {level: [] for level in set(seats)}
    times = {level: [] for level in set(seats)}
    turns: dict[str, list[float]] = {level: [] for level in set(seats)}
    for g, (levels, result, game_times) in enumerate(_games(args)):
        for level in times:
            times[level] += game_times[level]
            turns[level] += game_times.get(f"{level}/turn", [])
        if len(pair) == 2:
            share = pair_share(levels, result, pair[0], pair[1])
            if share is not None:
                head_to_head.append(share)
        firsts = [p for p in result["players"] if p["place"] == 1]
        for p in result["players"]:
            level = levels[p["seat"]]
            wins[level].append(1.0 / len(firsts) if p["place"] == 1 else 0.0)
            scores[level].append(p["score"])
        if args.progress:
            line = ", ".join(f"{levels[p['seat']]}={p['score']}" for p in result["players"])
            print(f"game {g + 1}/{args.games}: {line}", file=sys.stderr, flush=True)
    report = {
        "mode": args.mode,
        "players": args.players,
        "scoring": args.scoring,
        "games": args.games,
        "seats": seats,
        "budget": args.budget,
        "seed": args.seed,
        "opening": args.opening,
        "jobs": args.jobs,
        "levels": {},
    }
    if head_to_head:
        rate = statistics.fmean(head_to_head)
        lo, hi = wilson(rate, len(head_to_head))
        report["head_to_head"] = {
            "first": pair[0],
            "second": pair[1],
            "games": len(head_to_head),
            "rate": round(rate, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "elo": elo(rate, len(head_to_head)),
        }
    for level in sorted(set(seats), key=seats.index):
        played = len(wins[level])
        rate = statistics.fmean(wins[level]) if played else 0.0
        lo, hi = wilson(rate, played)
        mean, slo, shi = mean_ci(scores[level]) if played else (0.0, 0.0, 0.0)
        t = times[level]
        report["levels"][level] = {
            "seat_games": played,
            "win_rate": round(rate, 4),
            "win_ci95": [round(lo, 4), round(hi, 4)],
            "mean_score": round(mean, 2),
            "score_ci95": [round(slo, 2), round(shi, 2)],
            "decisions": len(t),
            "p50_ms": round(percentile(t, 0.5) * 1000, 2),
            "p95_ms": round(percentile(t, 0.95) * 1000, 2),
            "max_ms": round(max(t) * 1000, 2) if t else 0.0,
            "turns": len(turns[level]),
            "turn_p50_ms": round(percentile(turns[level], 0.5) * 1000, 2),
            "turn_p95_ms": round(percentile(turns[level], 0.95) * 1000, 2),
        }
    return report


def format_report(report: dict) -> str:
    lines = [
        f"{report['mode']}, {report['players']} players, {report['scoring']} scoring, "
        f"{report['games']} games, seats {','.join(report['seats'])}, "
        f"search budget {report['budget'] or 'default'} s, seed {report['seed']}",
        f"{'level':<10}{'games':>6}  {'win rate (95% CI)':<24}{'mean score (95% CI)':<26}"
        f"{'decisions':>10}{'p50 ms':>10}{'p95 ms':>10}",
    ]
    for level, r in report["levels"].items():
        win = f"{r['win_rate']:.1%} [{r['win_ci95'][0]:.1%}, {r['win_ci95'][1]:.1%}]"
        sc = f"{r['mean_score']:.1f} [{r['score_ci95'][0]:.1f}, {r['score_ci95'][1]:.1f}]"
        lines.append(
            f"{level:<10}{r['seat_games']:>6}  {win:<24}{sc:<26}"
            f"{r['decisions']:>10}{r['p50_ms']:>10.1f}{r['p95_ms']:>10.1f}"
        )
    h = report.get("head_to_head")
    if h:
        best, lo, hi = ("?" if v is None else f"{v:+.0f}" for v in h["elo"])
        lines.append(
            f"head to head: {h['first']} beat {h['second']} in {h['rate']:.1%} "
            f"[{h['ci95'][0]:.1%}, {h['ci95'][1]:.1%}] of {h['games']} games (pairs of seats); "
            f"Elo difference {best} [95% CI {lo}, {hi}]"
        )
    for level, r in report["levels"].items():
        lines.append(
            f"{level}: whole turns p50 {r['turn_p50_ms']:.0f} ms, p95 {r['turn_p95_ms']:.0f} ms "
            f"({r['turns']} turns)"
        )
    return "\n".join(lines)


def parse_args(argv: list[str]):
    parser = argparse.ArgumentParser(prog="bench/ai/arena.py", description=__doc__)
    parser.add_argument("--mode", choices=("classic", "shuffle"), default="shuffle")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--scoring", choices=("basic", "advanced"), default="basic")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seats", required=True, help="levels per seat, e.g. expert,casual")
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help=f"seconds per decision of the searching levels (default: Expert {DEFAULT_BUDGET}, "
        f"Master {MASTER_BUDGET})",
    )
    parser.add_argument("--seed", type=int, default=None, help="default: drawn per run")
    parser.add_argument(
        "--opening",
        type=int,
        default=0,
        help="decisions played by Beginner first (random starts; classic games differ by them)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="games at a time, in processes (Expert's search threads: the cores shared out)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--progress", action="store_true", help="one line per game on stderr")
    args = parser.parse_args(argv)
    if args.seed is None:  # chosen per run and written in the report: a run repeats with it
        args.seed = random.SystemRandom().randrange(1, 100_000)
    args.seats = [s.strip() for s in args.seats.split(",")]
    if len(args.seats) != args.players:
        parser.error(f"--seats needs {args.players} levels, one per seat")
    for level in args.seats:
        if level not in LEVELS + BENCH_LEVELS:
            known = ", ".join(LEVELS + BENCH_LEVELS)
            parser.error(f"unknown level {level!r}: pick among {known}")
    if args.games < 1 or args.jobs < 1 or (args.budget is not None and args.budget <= 0):
        parser.error("--games, --jobs and --budget must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    report = run(args)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
