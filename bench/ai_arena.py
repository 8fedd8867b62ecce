"""AI benchmarks (issue: AI players at three levels): arena runs and bench/AI_RESULTS.md.

Runs each arena configuration below as its own command (``bench/ai/arena.py … --json``),
keeps each report as JSON in ``--out`` (a run already there is reused unless ``--force``), and
with ``--write`` writes bench/AI_RESULTS.md: the machine, the exact commands and the figures.

    .venv/bin/python bench/ai_arena.py [--out /tmp/ai_arena] [--only NAME ...] [--force] [--write]

Targets (two players): Casual beats Beginner in ≥ 90 % of games, Expert beats Casual in ≥ 65 %;
p95 time per decision ≤ 50 ms for Casual and ≤ 2.5 s for Expert (default budget 2 s). Issue #12:
the searching Expert beats the frozen Expert of the issue's start (``baseline``) in ≥ 65 % of
Shuffle games, head to head, with two and four players (``expert-baseline-*``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"
RESULTS = ROOT / "bench" / "AI_RESULTS.md"


def ARGS(text: str) -> list[str]:  # noqa: N802 - reads like the command it spells
    return text.split()


# name → (arena arguments, what it measures)
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
    # Issue #12: the searching Expert against the frozen one (bench/ai_baseline.py). Shuffle
    # games differ by their decks; classic games only by timing, so they start at random
    # (--opening 4: Beginner's four setup pieces, replayed with the seats swapped).
    "expert-baseline-classic": (
        ARGS(
            "--mode classic --players 2 --games 20 --seats expert,baseline --budget 0.5 --opening 4"
        ),
        "Issue #12: Expert vs the frozen Expert (both 0.5 s), classic, two players",
    ),
    "expert-baseline-shuffle2": (
        ARGS("--mode shuffle --players 2 --games 20 --seats expert,baseline --budget 0.5"),
        "Issue #12: Expert vs the frozen Expert (both 0.5 s), shuffle, two players",
    ),
    "expert-baseline-shuffle4": (
        ARGS(
            "--mode shuffle --players 4 --games 8 --seats expert,baseline,expert,baseline "
            "--budget 0.5"
        ),
        "Issue #12: Expert vs the frozen Expert (both 0.5 s), shuffle, four players",
    ),
    # Issue #23: three-player Shuffle searched like two and four players (Expert: 0.5 s per
    # whole turn; the frozen Expert 0.5 s per decision).
    "expert-baseline-shuffle3": (
        ARGS("--mode shuffle --players 3 --games 12 --seats expert,baseline,baseline --budget 0.5"),
        "Issue #23: Expert (0.5 s a turn) vs the frozen Expert (0.5 s a decision), shuffle, "
        "three players",
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
        [str(PYTHON), *command(args)[1:]], cwd=ROOT, capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout)
    report["wall_s"] = round(time.time() - start, 1)
    report["load_before"] = round(load_before, 2)
    report["load_after"] = round(os.getloadavg()[0], 2)
    path.write_text(json.dumps(report, indent=2))
    return report


def machine() -> str:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    return f"`nproc` = {cores}; CPU: {cpu}; Python {platform.python_version()}"


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def summary(reports: dict[str, dict]) -> list[str]:
    """The targets of the issue against the figures (those runs that are present)."""
    rows = []

    def level(name: str, who: str) -> dict | None:
        report = reports.get(name)
        return report["levels"].get(who) if report else None

    for mode in ("classic", "shuffle"):
        r = level(f"casual-beginner-{mode}", "casual")
        if r:
            ok = r["win_rate"] >= 0.9
            rows.append(
                f"| Casual beats Beginner, {mode} | ≥ 90 % | {pct(r['win_rate'])} "
                f"[{pct(r['win_ci95'][0])}, {pct(r['win_ci95'][1])}] | {'yes' if ok else 'no'} |"
            )
    for mode in ("classic", "shuffle"):
        r = level(f"expert-casual-{mode}", "expert")
        if r:
            ok = r["win_rate"] >= 0.65
            rows.append(
                f"| Expert (0.5 s budget) beats Casual, {mode} | ≥ 65 % | {pct(r['win_rate'])} "
                f"[{pct(r['win_ci95'][0])}, {pct(r['win_ci95'][1])}] | {'yes' if ok else 'no'} |"
            )
    for mode in ("classic", "shuffle"):
        r = level(f"casual-beginner-{mode}", "casual")
        if r:
            ok = r["p95_ms"] <= 50
            rows.append(
                f"| Casual p95 time per decision, {mode} | ≤ 50 ms | {r['p95_ms']:.1f} ms | "
                f"{'yes' if ok else 'no'} |"
            )
    for mode in ("classic", "shuffle"):
        r = level(f"expert-2s-{mode}", "expert")
        if r:
            ok = r["p95_ms"] <= 2500
            rows.append(
                f"| Expert p95 time per decision (2 s budget), {mode} | ≤ 2.5 s | "
                f"{r['p95_ms'] / 1000:.2f} s | {'yes' if ok else 'no'} |"
            )
    for mode in ("classic", "shuffle2", "shuffle4"):
        report = reports.get(f"expert-baseline-{mode}")
        h = report.get("head_to_head") if report else None
        if h:
            ok = h["rate"] >= 0.65
            lo, hi = h["ci95"]
            rows.append(
                f"| Expert beats the frozen Expert (0.5 s), {mode} (head to head) | ≥ 65 % | "
                f"{pct(h['rate'])} [{pct(lo)}, {pct(hi)}] | {'yes' if ok else 'no'} |"
            )
    if not rows:
        return []
    return ["## Summary", "", "| target | wanted | measured | met |", "|---|---|---|---|"] + [
        *rows,
        "",
    ]


def markdown(reports: dict[str, dict]) -> str:
    lines = [
        "# AI benchmarks",
        "",
        "Written by `bench/ai_arena.py --write` (issue: AI players that play every card well, at",
        "three levels). Arena: bench/ai/arena.py: levels rotate seats",
        "between games; wins count ties as half; 95 % confidence intervals are Wilson intervals",
        "for win rates and mean ± 1.96 SE for scores (basic scoring: lower is better). Time per",
        "decision is wall-clock time of `decide(view)`, determinization included.",
        "",
        f"Machine: {machine()}.",
        "",
        "The two cores were shared with other work while these ran (load averages of 4–10 are",
        "given under each run), so times are pessimistic, and Expert, bounded by wall-clock",
        "time, ran fewer simulations than it would on an idle core. For the same reason the",
        "Expert–Casual win rates were measured with a reduced budget of 0.5 s per decision (20",
        "games each); the default 2 s budget was run for 2 games per mode to measure the time",
        "per decision. Win rates with half wins for ties are not strictly binomial; the Wilson",
        "interval is used as an approximation.",
        "",
        "Regenerate: `.venv/bin/python bench/ai_arena.py --out DIR --write` (runs the commands",
        "below, one after the other, keeping each JSON report in DIR).",
        "",
    ]
    lines += summary(reports)
    for name, report in reports.items():
        args, title = SUITE[name]
        lines += [f"## {title}", "", "```", " ".join(command(args)), "```", ""]
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
            elo = h.get("elo") or [None, None, None]
            best, lo, hi = ("?" if v is None else f"{v:+.0f}" for v in elo)
            lines += [
                "",
                f"Head to head ({h['first']} vs {h['second']}, pairs of seats per game): "
                f"{pct(h['rate'])} [{pct(h['ci95'][0])}, {pct(h['ci95'][1])}] over "
                f"{h['games']} games; Elo difference {best} [{lo}, {hi}].",
            ]
        lines += [
            "",
            f"Seed {report.get('seed', '?')} (drawn by the run). "
            f"Wall time {report.get('wall_s', '?')} s; load average "
            f"{report.get('load_before', '?')} before, {report.get('load_after', '?')} after.",
            "",
        ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="/tmp/ai_arena")
    parser.add_argument("--only", nargs="*", choices=list(SUITE))
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    reports = {}
    for name in args.only or list(SUITE):
        print(f"{name} …", file=sys.stderr, flush=True)
        reports[name] = run_one(name, out, args.force)
    text = markdown(reports)
    if args.write:
        RESULTS.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
