"""Arena: AI levels play each other; win rates, mean scores and time per decision.

    .venv/bin/python bench/ai/arena.py --mode shuffle --players 2 --games 40 --seats expert,casual \
        [--budget 2] [--sims N] [--seed 1] [--opening 4] [--scoring basic] [--jobs 2] [--json] \
        [--progress]
    .venv/bin/python bench/ai/arena.py suite [--out DIR] [--only NAME ...] [--force] [--md FILE]

``--seats`` names one level per seat (seat 0 first). Between games the levels rotate one seat to
the right, so that every level plays every seat (and blue's first move) equally often. Each game
is seeded from ``--seed`` (the decks and every AI decision), so a run repeats exactly as long as
Expert's search is bounded by work (``--sims``) rather than time.

**The code of another commit.** A seat named ``LEVEL@REV`` (``expert@3e6615a``) plays that level
as the code of commit REV played it: REV's ``games/`` is exported from git once (bench/ai/
before.py) and a process of its own, started once per level and kept for the run, replays the game
so far with REV's engine and decides with REV's ``games.ai.decide``, from the seat's view. Its
times are that ``decide``'s own. ``expert@3e6615a`` is the frozen Expert of the older results
(``baseline`` in bench/AI_RESULTS.md), ``expert@3e27baf`` Expert with the tree search before
its speed work.

``--opening N``: the first N decisions of every game are Beginner's (random, seeded), and the
games of one rotation replay the same start (decks and moves) with the seats rotated: without it
two classic games between the same levels in the same seats differ only by timing.

``--sims N`` stops every search at N simulations (the budget then only caps a slow one): two
searches compared at the same number of simulations, the quality of a simulation and not its
speed; with a budget far above what they take, a run repeats exactly.

**What a run writes down.** The seed (``--seed``, or drawn per run from the operating system's
randomness, ``os.urandom``) and every game's seed derived from it, the commit that played
(``git rev-parse``, ``-dirty`` when tracked files differ from it), the load average before and
after and the command: printed on stderr when the run starts and in the report (text and
``--json``). Every game is kept under ``--keep DIR`` (default ``out/arena/<time>-seed<seed>/``):
a classic game as Pentobi's ``.blksgf`` (games/engine/blksgf.py), a Shuffle game (Pentobi knows
no cards) as its ``blokus-record/1`` record with the decks (RECORD.md).

``--jobs N`` plays N games at a time, each in its own process, and shares the machine's cores
among them (Expert's search threads, games/ai/mcts/); the report lists the games in order as one
at a time would.

Every decision is taken from the deciding seat's view only (``decide(view(state, seat))``).
Wins: a player alone in first place wins 1; players sharing first place share the win (a
two-player tie is half a win each). With exactly two levels at the table the report also gives
their head-to-head rate: per game, the share of (first level's seat, second level's seat) pairs
where the first scored better (ties half), averaged over games (``--seats expert,expert@REV,
expert,expert@REV``: 50 % means equal strength with four players too), and its Elo difference.
Confidence intervals: Wilson score intervals (95 %) for win rates, mean ± 1.96 standard errors
for scores.

**suite** runs the configurations of ``SUITE`` below, each as its own command with ``--json``,
keeps each report in ``--out`` (a run already there is reused unless ``--force``) and prints a
Markdown page of the figures: the machine, the exact commands, the AI's first targets
(Casual beats Beginner in ≥ 90 % of games, Expert beats Casual in ≥ 65 %; p95 time per decision
≤ 50 ms for Casual, ≤ 2.5 s for Expert at 2 s) and the head to head against older Experts.
``--md FILE`` also writes that page to FILE (the first sections of bench/AI_RESULTS.md came from
it; that file has grown by hand since, so the suite never overwrites it).
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
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from bench.ai.before import Before, BeforeError, commit_of, tree  # noqa: E402
from games.ai import DEFAULT_BUDGET, LEVELS, MASTER_BUDGET, decide, mcts  # noqa: E402
from games.engine import apply, new_game, score, view  # noqa: E402
from games.engine.blksgf import ExportError, export  # noqa: E402
from games.engine.record import make_record  # noqa: E402

OUT = ROOT / "out" / "arena"  # the games of each run, a folder per run (``--keep``)

# -- figures ----------------------------------------------------------------------------------


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


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def machine() -> str:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"`nproc` = {os.cpu_count()}; CPU: {cpu}; Python {platform.python_version()}"


def head_commit() -> str:
    """The commit that plays (``git rev-parse --short HEAD``), ``-dirty`` when tracked files
    differ from it; ``unknown`` outside a git checkout."""
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    head = done.stdout.strip()
    if done.returncode != 0 or not head:
        return "unknown"
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return head + ("-dirty" if status.stdout.strip() else "")


def load() -> float:
    """The one-minute load average."""
    return round(os.getloadavg()[0], 2)


def keep_game(path: Path, initial, actions: list[dict], names: list[str]) -> Path:
    """Write a finished game under ``path`` (no suffix): ``.blksgf`` for a classic game Pentobi
    can open, else the ``blokus-record/1`` record with the decks (``.json``). Returns the file."""
    record = make_record(initial, actions, reveal=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    if record["mode"] == "classic":
        try:
            text = export(record, names=names, date=f"{datetime.now(UTC):%Y-%m-%d}")
        except ExportError:  # three players sharing another colour than green
            pass
        else:
            target = path.with_suffix(".blksgf")
            target.write_text(text)
            return target
    target = path.with_suffix(".json")
    target.write_text(json.dumps(record, indent=1) + "\n")
    return target


# -- seats and games --------------------------------------------------------------------------

# The processes of the seats played by another commit's code, one per revision in this process
# (a pool worker keeps its own for all its games; each ends when its parent does).
_BEFORE: dict[str, Before] = {}
_THREADS = [0]  # search threads of those processes (0: their default)


def split_level(name: str) -> tuple[str, str | None]:
    """``expert@3e6615a`` -> ("expert", "3e6615a"); ``expert`` -> ("expert", None)."""
    level, _, rev = name.partition("@")
    return level, rev or None


def _before(rev: str) -> Before:
    if rev not in _BEFORE:
        _BEFORE[rev] = Before(rev, threads=_THREADS[0])
    return _BEFORE[rev]


def close_before() -> None:
    while _BEFORE:
        _BEFORE.popitem()[1].close()


def _decide(name: str, state, initial, actions: list[dict], *, seed, budget, max_sims):
    """(action, seconds) of the seat named ``name`` for the decision at hand."""
    level, rev = split_level(name)
    if rev is not None:
        record = make_record(initial, actions, reveal=True)
        return _before(rev).decide(record, level=level, seed=seed, budget=budget, max_sims=max_sims)
    seat_view = view(state, state.controller())
    start = time.perf_counter()
    action = decide(seat_view, level=level, seed=seed, budget=budget, max_sims=max_sims)
    return action, time.perf_counter() - start


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
    keep: Path | None = None,
) -> dict:
    """One game; ``levels[seat]`` plays ``seat``, after ``opening`` decisions by Beginner;
    ``max_sims`` bounds each search by simulations as well as by ``budget`` (a large budget and
    ``max_sims`` compare two searches at the same number of simulations); ``keep``: write the
    game there (``keep_game``). Returns the engine's score dict."""
    state = initial = new_game(mode=mode, players=players, scoring=scoring, seed=seed)
    actions: list[dict] = []
    turn = 0.0  # the seconds of the turn in progress (every decision of one colour's turn)
    while not state.over:
        level = "beginner" if state.ply < opening else levels[state.controller()]
        action, spent = _decide(
            level,
            state,
            initial,
            actions,
            seed=seed * 1009 + state.ply,
            budget=budget,
            max_sims=None if level == "beginner" else max_sims,
        )
        colour = state.turn
        state = apply(state, action)
        actions.append(action)
        if level != "beginner":
            times[level].append(spent)
            turn += spent
        placed = "place" in action and state.step != "place_second"
        if placed or state.over or state.turn != colour or state.step in ("card", "setup"):
            if level != "beginner":
                times.setdefault(f"{level}/turn", []).append(turn)
            turn = 0.0
    if keep is not None:
        keep_game(keep, initial, actions, levels)
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


def game_seed(args, g: int) -> int:
    """Game ``g``'s seed (its decks and every decision's, ``seed * 1009 + ply``). With an
    opening, the games of a rotation replay one start (decks and moves)."""
    return args.seed * 100_003 + (g // len(args.seats) if args.opening else g)


def _game(args, g: int) -> tuple[list[str], dict, dict[str, list[float]]]:
    """Game ``g`` of the run: (levels per seat, the engine's score dict, times per level)."""
    n = len(args.seats)
    levels = [args.seats[(i - g) % n] for i in range(n)]
    times: dict[str, list[float]] = {level: [] for level in levels}
    seed = game_seed(args, g)
    result = play_game(
        levels,
        mode=args.mode,
        players=args.players,
        scoring=args.scoring,
        seed=seed,
        budget=args.budget,
        times=times,
        opening=args.opening,
        max_sims=args.sims,
        keep=Path(args.keep) / f"game{g:03d}-seed{seed}" if args.keep else None,
    )
    return levels, result, times


def _share_cores(jobs: int) -> None:
    """A pool worker's search threads: the machine's cores shared among the ``jobs`` games;
    the compiled search loaded before the first game (as a worker does, outside any clock)."""
    _THREADS[0] = mcts.MctsParams.threads = max(1, (os.cpu_count() or 1) // jobs)
    mcts.warm_up()


def _games(args):
    """The games' results in order: one at a time, or ``args.jobs`` at a time in processes."""
    if args.jobs == 1:
        mcts.warm_up()  # outside the decisions' clocks, as a worker does at its start
        try:
            for g in range(args.games):
                yield _game(args, g)
        finally:
            close_before()
        return
    spawn = multiprocessing.get_context("spawn")  # not fork: the parent may run search threads
    with ProcessPoolExecutor(
        args.jobs, mp_context=spawn, initializer=_share_cores, initargs=(args.jobs,)
    ) as pool:
        yield from pool.map(_game, [args] * args.games, range(args.games))


def reproducing(args) -> list[str]:
    """The run's arguments with its seed, drawn or given: the command that plays it again."""
    argv = list(args.argv)
    return argv if args.seed_given else [*argv, "--seed", str(args.seed)]


def _level_figures(wins, scores, times, turns) -> dict:
    played = len(wins)
    rate = statistics.fmean(wins) if played else 0.0
    lo, hi = wilson(rate, played)
    mean, slo, shi = mean_ci(scores) if played else (0.0, 0.0, 0.0)
    return {
        "seat_games": played,
        "win_rate": round(rate, 4),
        "win_ci95": [round(lo, 4), round(hi, 4)],
        "mean_score": round(mean, 2),
        "score_ci95": [round(slo, 2), round(shi, 2)],
        "decisions": len(times),
        "p50_ms": round(percentile(times, 0.5) * 1000, 2),
        "p95_ms": round(percentile(times, 0.95) * 1000, 2),
        "max_ms": round(max(times) * 1000, 2) if times else 0.0,
        "turns": len(turns),
        "turn_p50_ms": round(percentile(turns, 0.5) * 1000, 2),
        "turn_p95_ms": round(percentile(turns, 0.95) * 1000, 2),
    }


def run(args) -> dict:
    started = time.time()
    load_before = load()
    commit = head_commit()
    print(
        f"arena: seed {args.seed} ({'given' if args.seed_given else 'drawn for this run'}), "
        f"games' seeds {', '.join(str(game_seed(args, g)) for g in range(args.games))}; "
        f"commit {commit}; load {load_before}; games kept in {args.keep}",
        file=sys.stderr,
        flush=True,
    )
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
        "commits": args.commits,
        "budget": args.budget,
        "sims": args.sims,
        "seed": args.seed,
        "seed_drawn": not args.seed_given,
        "game_seeds": [game_seed(args, g) for g in range(args.games)],
        "opening": args.opening,
        "jobs": args.jobs,
        "commit": commit,
        "command": ".venv/bin/python bench/ai/arena.py " + " ".join(reproducing(args)),
        "date": f"{datetime.now(UTC):%Y-%m-%d}",
        "machine": machine(),
        "wall_s": round(time.time() - started, 1),
        "load_before": load_before,
        "load_after": load(),
        "kept": args.keep,
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
    for level in pair:
        report["levels"][level] = _level_figures(
            wins[level], scores[level], times[level], turns[level]
        )
    return report


def format_report(report: dict) -> str:
    sims = f", {report['sims']} simulations at most" if report.get("sims") else ""
    lines = [
        f"{report['mode']}, {report['players']} players, {report['scoring']} scoring, "
        f"{report['games']} games, seats {','.join(report['seats'])}, "
        f"search budget {report['budget'] or 'default'} s{sims}, seed {report['seed']}",
        f"seed {report['seed']} ({'drawn for this run' if report.get('seed_drawn') else 'given'})"
        f"; games' seeds {', '.join(str(s) for s in report.get('game_seeds', []))}",
        f"commit {report.get('commit', '?')}; load average {report.get('load_before', '?')} "
        f"before, {report.get('load_after', '?')} after; wall {report.get('wall_s', '?')} s; "
        f"games kept in {report.get('kept') or 'nowhere'}",
        *([f"command: {report['command']}"] if report.get("command") else []),
        *(f"{rev}: commit {commit}" for rev, commit in report.get("commits", {}).items()),
        f"{'level':<16}{'games':>6}  {'win rate (95% CI)':<24}{'mean score (95% CI)':<26}"
        f"{'decisions':>10}{'p50 ms':>10}{'p95 ms':>10}",
    ]
    for level, r in report["levels"].items():
        win = f"{r['win_rate']:.1%} [{r['win_ci95'][0]:.1%}, {r['win_ci95'][1]:.1%}]"
        sc = f"{r['mean_score']:.1f} [{r['score_ci95'][0]:.1f}, {r['score_ci95'][1]:.1f}]"
        lines.append(
            f"{level:<16}{r['seat_games']:>6}  {win:<24}{sc:<26}"
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
    parser.add_argument(
        "--seats",
        required=True,
        help="levels per seat, e.g. expert,casual; LEVEL@REV plays the code of commit REV",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help=f"seconds per decision of the searching levels (default: Expert {DEFAULT_BUDGET}, "
        f"Master {MASTER_BUDGET})",
    )
    parser.add_argument("--sims", type=int, default=None, help="simulations per search at most")
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
    parser.add_argument(
        "--keep",
        default=None,
        help="folder for the games' files (default: out/arena/<time>-seed<seed>/)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--progress", action="store_true", help="one line per game on stderr")
    args = parser.parse_args(argv)
    args.argv = list(argv)
    args.seed_given = args.seed is not None
    if args.seed is None:  # drawn per run (os.urandom) and written down: a run repeats with it
        args.seed = random.SystemRandom().randrange(1, 100_000)
    if args.keep is None:
        args.keep = str(OUT / f"{datetime.now(UTC):%Y%m%d-%H%M%S}-seed{args.seed}")
    args.seats = [s.strip() for s in args.seats.split(",")]
    if len(args.seats) != args.players:
        parser.error(f"--seats needs {args.players} levels, one per seat")
    args.commits = {}
    for name in args.seats:
        level, rev = split_level(name)
        if rev is not None:
            try:
                args.commits[rev] = commit_of(rev)
            except BeforeError as exc:
                parser.error(str(exc))
        elif level not in LEVELS:
            parser.error(f"unknown level {level!r}: pick among {', '.join(LEVELS)} (or LEVEL@REV)")
    positive = (args.budget, args.sims)
    if args.games < 1 or args.jobs < 1 or any(v is not None and v <= 0 for v in positive):
        parser.error("--games, --jobs, --budget and --sims must be positive")
    return args


# -- suite ------------------------------------------------------------------------------------


def ARGS(text: str) -> list[str]:  # noqa: N802 - reads like the command it spells
    return text.split()


# The Expert before the first AI work: "baseline" in bench/AI_RESULTS.md (a frozen copy until the
# arena took it from git).
BASELINE = "expert@3e6615a"

# name -> (arena arguments, what it measures)
SUITE: dict[str, tuple[list[str], str]] = {
    "casual-beginner-classic": (
        ARGS("--mode classic --players 2 --games 40 --seats casual,beginner"),
        "Casual vs Beginner, classic",
    ),
    "casual-beginner-shuffle": (
        ARGS("--mode shuffle --players 2 --games 40 --seats casual,beginner"),
        "Casual vs Beginner, shuffle",
    ),
    "expert-casual-classic": (
        ARGS("--mode classic --players 2 --games 20 --seats expert,casual --budget 0.5"),
        "Expert (0.5 s) vs Casual, classic",
    ),
    "expert-casual-shuffle": (
        ARGS("--mode shuffle --players 2 --games 20 --seats expert,casual --budget 0.5"),
        "Expert (0.5 s) vs Casual, shuffle",
    ),
    "expert-2s-classic": (
        ARGS("--mode classic --players 2 --games 2 --seats expert,casual --budget 2"),
        "Expert at its default 2 s budget (time per decision), classic",
    ),
    "expert-2s-shuffle": (
        ARGS("--mode shuffle --players 2 --games 2 --seats expert,casual --budget 2"),
        "Expert at its default 2 s budget (time per decision), shuffle",
    ),
    # Today's Expert against the Expert before the first AI work. Shuffle games differ by their
    # decks; classic games only by timing, so they start at random (--opening 4: Beginner's
    # four setup pieces, replayed with the seats swapped).
    "expert-baseline-classic": (
        ARGS(f"--mode classic --players 2 --games 20 --seats expert,{BASELINE} --budget 0.5")
        + ["--opening", "4"],
        f"Expert vs the Expert of {BASELINE} (both 0.5 s), classic, two players",
    ),
    "expert-baseline-shuffle2": (
        ARGS(f"--mode shuffle --players 2 --games 20 --seats expert,{BASELINE} --budget 0.5"),
        f"Expert vs the Expert of {BASELINE} (both 0.5 s), shuffle, two players",
    ),
    "expert-baseline-shuffle3": (
        ARGS(
            f"--mode shuffle --players 3 --games 12 --seats expert,{BASELINE},{BASELINE} "
            "--budget 0.5"
        ),
        f"Expert (0.5 s a turn) vs the Expert of {BASELINE} (0.5 s a decision), shuffle, "
        "three players",
    ),
    "expert-baseline-shuffle4": (
        ARGS(
            f"--mode shuffle --players 4 --games 8 --seats expert,{BASELINE},expert,{BASELINE} "
            "--budget 0.5"
        ),
        f"Expert vs the Expert of {BASELINE} (both 0.5 s), shuffle, four players",
    ),
}


def command(args: list[str]) -> list[str]:
    return [".venv/bin/python", "bench/ai/arena.py", *args, "--json"]


def run_one(name: str, out: Path, force: bool) -> dict:
    path = out / f"{name}.json"
    if path.exists() and not force:
        return json.loads(path.read_text())
    args, _ = SUITE[name]
    load_before = os.getloadavg()[0]
    start = time.time()
    done = subprocess.run(
        [sys.executable, *command(args)[1:]], cwd=ROOT, capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout)
    report["wall_s"] = round(time.time() - start, 1)
    report["load_before"] = round(load_before, 2)
    report["load_after"] = round(os.getloadavg()[0], 2)
    path.write_text(json.dumps(report, indent=2))
    return report


def _target_row(what: str, wanted: str, measured: str, ok: bool) -> str:
    return f"| {what} | {wanted} | {measured} | {'yes' if ok else 'no'} |"


def summary(reports: dict[str, dict]) -> list[str]:
    """The targets against the figures (those runs that are present)."""
    rows = []

    def level(name: str, who: str) -> dict | None:
        report = reports.get(name)
        return report["levels"].get(who) if report else None

    def rate(r: dict) -> str:
        return f"{pct(r['win_rate'])} [{pct(r['win_ci95'][0])}, {pct(r['win_ci95'][1])}]"

    for mode in ("classic", "shuffle"):
        r = level(f"casual-beginner-{mode}", "casual")
        if r:
            ok = r["win_rate"] >= 0.9
            rows.append(_target_row(f"Casual beats Beginner, {mode}", "≥ 90 %", rate(r), ok))
            ok = r["p95_ms"] <= 50
            what = f"Casual p95 time per decision, {mode}"
            rows.append(_target_row(what, "≤ 50 ms", f"{r['p95_ms']:.1f} ms", ok))
        r = level(f"expert-casual-{mode}", "expert")
        if r:
            what = f"Expert (0.5 s budget) beats Casual, {mode}"
            rows.append(_target_row(what, "≥ 65 %", rate(r), r["win_rate"] >= 0.65))
        r = level(f"expert-2s-{mode}", "expert")
        if r:
            what = f"Expert p95 time per decision (2 s budget), {mode}"
            measured = f"{r['p95_ms'] / 1000:.2f} s"
            rows.append(_target_row(what, "≤ 2.5 s", measured, r["p95_ms"] <= 2500))
    for mode in ("classic", "shuffle2", "shuffle3", "shuffle4"):
        report = reports.get(f"expert-baseline-{mode}")
        h = report.get("head_to_head") if report else None
        if h:
            lo, hi = h["ci95"]
            what = f"Expert beats the Expert of {BASELINE} (0.5 s), {mode} (head to head)"
            measured = f"{pct(h['rate'])} [{pct(lo)}, {pct(hi)}]"
            rows.append(_target_row(what, "≥ 65 %", measured, h["rate"] >= 0.65))
    if not rows:
        return []
    head = ["## Summary", "", "| target | wanted | measured | met |", "|---|---|---|---|"]
    return [*head, *rows, ""]


def _run_lines(name: str, report: dict) -> list[str]:
    args, title = SUITE[name]
    lines = [f"## {title}", "", "```", " ".join(command(args)), "```", ""]
    lines += [
        "| level | seat-games | win rate [95 % CI] | mean score [95 % CI] | decisions "
        "| p50 ms | p95 ms |",
        "|---|---|---|---|---|---|---|",
    ]
    for level, r in report["levels"].items():
        lo, hi = r["win_ci95"]
        slo, shi = r["score_ci95"]
        lines.append(
            f"| {level} | {r['seat_games']} | {pct(r['win_rate'])} [{pct(lo)}, {pct(hi)}] "
            f"| {r['mean_score']:.1f} [{slo:.1f}, {shi:.1f}] | {r['decisions']} "
            f"| {r['p50_ms']:.1f} | {r['p95_ms']:.1f} |"
        )
    h = report.get("head_to_head")
    if h:
        best, lo, hi = ("?" if v is None else f"{v:+.0f}" for v in h["elo"])
        lines += [
            "",
            f"Head to head ({h['first']} vs {h['second']}, pairs of seats per game): "
            f"{pct(h['rate'])} [{pct(h['ci95'][0])}, {pct(h['ci95'][1])}] over "
            f"{h['games']} games; Elo difference {best} [{lo}, {hi}].",
        ]
    commits = ", ".join(f"{rev} = {commit}" for rev, commit in report.get("commits", {}).items())
    lines += [
        "",
        f"Seed {report['seed']} (drawn by the run){'; ' + commits if commits else ''}. "
        f"Wall time {report.get('wall_s', '?')} s; load average "
        f"{report.get('load_before', '?')} before, {report.get('load_after', '?')} after.",
        "",
    ]
    return lines


def markdown(reports: dict[str, dict]) -> str:
    lines = [
        "# AI benchmarks",
        "",
        "Written by `bench/ai/arena.py suite`: levels rotate seats between games; wins count",
        "ties as half; 95 % confidence intervals are Wilson intervals for win rates and",
        "mean ± 1.96 SE for scores (basic scoring: lower is better). Time per decision is the",
        "wall-clock time of `decide(view)`, determinization included.",
        "",
        f"Machine: {machine()}.",
        "",
    ]
    lines += summary(reports)
    for name, report in reports.items():
        lines += _run_lines(name, report)
    return "\n".join(lines)


def suite_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench/ai/arena.py suite")
    parser.add_argument("--out", default="bench/out/ai_arena", help="the runs' JSON reports")
    parser.add_argument("--only", nargs="*", choices=list(SUITE))
    parser.add_argument("--force", action="store_true", help="run again what --out holds")
    parser.add_argument("--md", help="also write the page to this file")
    args = parser.parse_args(argv)
    out = ROOT / args.out
    out.mkdir(parents=True, exist_ok=True)
    reports = {}
    for name in args.only or list(SUITE):
        print(f"{name} …", file=sys.stderr, flush=True)
        reports[name] = run_one(name, out, args.force)
    text = markdown(reports)
    if args.md:
        Path(args.md).write_text(text + "\n")
    print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["suite"]:
        return suite_main(argv[1:])
    args = parse_args(argv)
    for rev in args.commits:  # exported before any game, outside every clock and worker
        tree(rev)
    report = run(args)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
