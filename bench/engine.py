"""Engine speed benchmark (issue: median ≤ 0.5 ms per legal-placement enumeration mid-game).

Positions: plies 12–48 of seeded random 4-colour classic games. For each position it times
``legal_placements`` (the enumeration the AI uses) and ``legal_actions`` (the same plus the
record-format list the command line prints) from scratch; then a whole random shuffle game
(4 players), action by action. Writes a Markdown section to stdout; ``--write`` replaces the
engine section of bench/RESULTS.md.

    .venv/bin/python bench/engine.py [--games 40] [--write]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import apply, legal_actions, new_game  # noqa: E402
from games.engine.pieces import clear_geometry_cache  # noqa: E402
from games.engine.rules import legal_placements  # noqa: E402


def positions(games: int) -> list:
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        s = new_game(mode="classic", players=4)
        for ply in range(49):
            if s.over:
                break
            if ply >= 12:
                out.append(s)
            s = apply(s, rng.choice(legal_actions(s)))
    return out


def timed(fn, items, repeat: int = 5) -> list[float]:
    """Per item, the median of ``repeat`` runs (ms)."""
    times = []
    for item in items:
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn(item)
            runs.append(time.perf_counter() - start)
        times.append(statistics.median(runs) * 1000)
    return times


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def machine() -> str:
    try:
        cpu = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        cpu = platform.processor() or "unknown CPU"
    cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    return f"{cpu}, {cores} cores, Python {platform.python_version()}, {platform.system()}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()

    cold_start = time.perf_counter()
    items = positions(args.games)
    build = time.perf_counter() - cold_start
    clear_geometry_cache()  # the lazily filled geometry table: time every position once, from empty
    cold = timed(legal_placements, items, repeat=1)

    enum = timed(legal_placements, items)
    actions = timed(legal_actions, items)
    counts = [len(legal_placements(s)) for s in items]

    rng = random.Random(7)
    s = new_game(mode="shuffle", players=4, seed=7)
    plies = 0
    start = time.perf_counter()
    while not s.over:
        s = apply(s, rng.choice(legal_actions(s)))
        plies += 1
    game = time.perf_counter() - start

    lines = [
        "## Engine",
        "",
        f"Machine: {machine()}. Run: `{' '.join(['bench/engine.py', *sys.argv[1:]])}`, "
        f"{time.strftime('%Y-%m-%d')}.",
        "",
        f"{len(items)} positions (plies 12–48 of {args.games} seeded random 4-colour classic "
        f"games; median {statistics.median(counts):.0f} legal placements, max {max(counts)}). "
        "Each position timed from scratch, median of 5 runs.",
        "",
        "| measure | median | p95 | max |",
        "|---|---|---|---|",
        f"| `legal_placements` (enumeration) | {statistics.median(enum):.3f} ms | "
        f"{pct(enum, 0.95):.3f} ms | {max(enum):.3f} ms |",
        f"| `legal_actions` (+ record-format list) | {statistics.median(actions):.3f} ms | "
        f"{pct(actions, 0.95):.3f} ms | {max(actions):.3f} ms |",
        "",
        f"- Target: median ≤ 0.5 ms per enumeration: "
        f"**{'met' if statistics.median(enum) <= 0.5 else 'missed'}** "
        f"({statistics.median(enum):.3f} ms).",
        f"- One pass over all positions starting from an empty pruned-candidates table (filled "
        f"on first use per square and neighbourhood): median {statistics.median(cold):.3f} ms, "
        f"p95 {pct(cold, 0.95):.3f} ms, max {max(cold):.2f} ms. Import and building the "
        f"positions ({len(items)} plies of play): {build:.2f} s.",
        f"- A whole random 4-player shuffle game: {plies} actions in {game * 1000:.0f} ms "
        f"({game * 1000 / plies:.2f} ms per action, including every automatic step).",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        path = ROOT / "bench" / "RESULTS.md"
        old = path.read_text() if path.exists() else "# Benchmark results\n\n"
        head, sep, rest = old.partition("## Engine\n")
        tail = rest[rest.find("\n## ") + 1 :] if "\n## " in rest else ""
        path.write_text(head.rstrip() + "\n\n" + text + ("\n" + tail if tail else ""))


if __name__ == "__main__":
    main()
