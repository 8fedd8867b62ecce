"""The load bench's report: from the raw data of a run to its figures, and from its figures to
markdown.

    .venv/bin/python bench/load/load_report.py bench/out/load_sync.json [more.json ...] [--out FILE]

bench/load/load.py (the runner) calls the first half while it runs: ``run_figures`` turns what
the bots of bench/load/load_locust.py wrote (bench/out/load_raw_*.json) and gunicorn's access log
into one run's figures, ``nudge_figures`` the nudge test's rows; ``machine`` describes what was
measured. The runner writes them to bench/out/load_<tag><ws>.json and, with ``markdown``, the
tables of bench/out/load_<tag><ws>.md, in the shape of bench/LOAD_RESULTS.md and bench/RESULTS.md.
Run as a script, this file reads such JSON files again and prints their tables (several files: one
table with a row per run of each).

Standard library only: it runs without Django, locust or the services.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# -- figures ---------------------------------------------------------------------------------


def pct(values: list[float], p: float) -> float | None:
    """The p-th percentile, interpolated between the two nearest ranks (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def summary(values: list[float]) -> dict:
    return {
        "n": len(values),
        "p50": pct(values, 50),
        "p95": pct(values, 95),
        "p99": pct(values, 99),
        "max": max(values) if values else None,
        "mean": statistics.fmean(values) if values else None,
    }


# gunicorn's --access-logformat "%(t)s %(m)s %(U)s %(s)s %(D)s" (bench/load/load.py start_servers)
ACCESS_RE = re.compile(r"\[(\d+/\w+/\d+:\d+:\d+:\d+ [+-]\d+)\] (\w+) (\S+) (\d+) (\d+)")


def access_times(path: Path, window: list[float]) -> dict:
    """Server-side time (gunicorn's %(D)s, microseconds) of the counted window, in ms, by request
    kind: the method and the URL's last part ("POST act", "GET panel")."""
    kinds: dict[str, list[float]] = {}
    statuses: dict[str, dict[str, int]] = {}
    for line in path.read_text().splitlines():
        m = ACCESS_RE.search(line)
        if not m:
            continue
        t = datetime.strptime(m.group(1), "%d/%b/%Y:%H:%M:%S %z").timestamp()
        if not window[0] <= t < window[1]:
            continue
        kind = f"{m.group(2)} {m.group(3).rstrip('/').rsplit('/', 1)[-1]}"
        kinds.setdefault(kind, []).append(int(m.group(5)) / 1000)
        statuses.setdefault(kind, {}).setdefault(m.group(4), 0)
        statuses[kind][m.group(4)] += 1
    return {k: {**summary(v), "statuses": statuses[k]} for k, v in kinds.items()}


def run_figures(raw: dict, access_log: Path, cpu: dict[str, float], context: dict) -> dict:
    """One load run's figures. ``raw``: what the bots wrote (bench/load/load_locust.py RAW: round
    trips and receipt times of the counted window); ``cpu``: CPU seconds per process over that
    window; ``context``: the run's settings and circumstances (label, think_s, games, bots,
    seconds, load averages, locust's exit code), copied in first."""
    moves = raw["moves"]
    seconds = context["seconds"]
    posted = raw["posted"]
    nudges = []
    for game, ply, _seat, t in raw["nudged"]:
        p = posted.get(f"{game}:{ply}")
        if p:
            nudges.append((t - p[1]) * 1000)
    return {
        **context,
        "moves": moves,
        "moves_per_s": moves / seconds,
        "post_act_ms": summary(raw["post_ms"]),
        "panel_after_nudge_ms": summary(raw["panel_ms"]),
        "move_visible_to_opponent_ms": summary(raw["visible_ms"]),
        "nudge_after_post_return_ms_under_load": summary(nudges),
        "server_time_ms": access_times(access_log, raw["window"]),
        "errors": raw["errors"],
        "cpu_seconds": cpu,
        "server_cpu_ms_per_move": {
            name: (cpu[name] / moves * 1000 if moves else None) for name in cpu
        },
    }


def nudge_figures(rows: list[dict]) -> dict:
    """The nudge test's figures from its rows (one per move: the POST's send and return times,
    each client's receipt time, the Action row's created_at when known; epoch seconds)."""
    after_return, after_send, after_row, missing = [], [], [], 0
    for row in rows:
        missing += 4 - len(row["clients"])
        for t in row["clients"].values():
            after_return.append((t - row["return"]) * 1000)
            after_send.append((t - row["send"]) * 1000)
            if row.get("created") is not None:
                after_row.append((t - row["created"]) * 1000)
    post = [(r["return"] - r["send"]) * 1000 for r in rows]
    return {
        "moves": len(rows),
        "missing_nudges": missing,
        "post_ms": summary(post),
        "nudge_after_post_return_ms": summary(after_return),
        "nudge_after_post_send_ms": summary(after_send),
        "nudge_after_action_row_ms": summary(after_row),
        "nudge_before_return_share": (
            sum(1 for x in after_return if x < 0) / len(after_return) if after_return else None
        ),
    }


# -- what was measured -----------------------------------------------------------------------


def machine() -> dict:
    model = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    def version(name: str) -> str:
        try:
            return installed(name)
        except PackageNotFoundError:  # locust may live in a venv of its own (--locust)
            return "not in this venv"

    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "kernel": platform.release(),
        "locust": version("locust"),
        "websocket-client": version("websocket-client"),
        "gunicorn": version("gunicorn"),
        "daphne": version("daphne"),
        "git": git_state(),
    }


def git_state() -> str:
    """The commit measured, and whether the files the run exercises differ from it."""
    head = subprocess.run(
        ["git", "log", "-1", "--format=%h %s"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--short", "--", "games", "config", "templates", "accounts"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.split()
    return head + (f" (uncommitted changes: {' '.join(dirty[1::2])})" if dirty else "")


# -- markdown --------------------------------------------------------------------------------


def ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def spread(figures: dict | None, *ps: str) -> str:
    """ "p50 / p95 / p99 ms" of a summary, "—" where there is none."""
    if not figures or not figures.get("n"):
        return "—"
    return " / ".join(ms(figures[p]) for p in ps) + " ms"


def command(args: dict) -> str:
    """The `run` command line that gave these results (its main options)."""
    parts = ["bench/load/load.py run", f"--games {args['games']}", f"--seconds {args['seconds']}"]
    parts.append(f"--warmup {args['warmup']}")
    parts += [f"--think {think}" for think in args.get("think") or []]
    parts += [f"--workers {args['workers']}", f"--ws {args['ws']}"]
    if args.get("threads"):
        parts.append(f"--threads {args['threads']}")
    parts.append(f"--nudge-moves {args['nudge_moves']}")
    return " ".join(parts)


MOVES_HEAD = (
    "| run | think | moves/s | POST act p50 / p95 / p99 (server) | POST act p50 / p95 (bot) "
    "| GET panel p50 / p95 (server) | move seen by the opponent p50 / p95 "
    "| gunicorn CPU per move | errors |\n|---|---|---|---|---|---|---|---|---|"
)


def moves_row(run: dict, commit: str) -> str:
    server = run["server_time_ms"]
    cpu = run["server_cpu_ms_per_move"].get("gunicorn")
    errors = sum(run["errors"].values())
    cells = [
        f"{run['label']} ({commit})" if commit else run["label"],
        f"{run['think_s']} s",
        f"{run['moves_per_s']:.1f}",
        spread(server.get("POST act"), "p50", "p95", "p99"),
        spread(run["post_act_ms"], "p50", "p95"),
        spread(server.get("GET panel"), "p50", "p95"),
        spread(run["move_visible_to_opponent_ms"], "p50", "p95"),
        "—" if cpu is None else f"{cpu:.1f} ms",
        str(errors),
    ]
    return "| " + " | ".join(cells) + " |"


def nudge_rows(results: dict) -> list[str]:
    rows = []
    nudge = results.get("nudge")
    if nudge:
        rows.append(
            f"| POST act returned → each client has the nudge | "
            f"{spread(nudge['nudge_after_post_return_ms'], 'p50', 'p95', 'p99')} |"
        )
        rows.append(
            f"| Action row written → each client has the nudge | "
            f"{spread(nudge['nudge_after_action_row_ms'], 'p50', 'p95', 'p99')} |"
        )
    for name, what in (
        ("layer", "channel layer: send returned → each client"),
        ("layer_persistent_loop", "same, long-lived event loop"),
    ):
        if results.get(name):
            figures = results[name]["receipt_after_send_returned_ms"]
            rows.append(f"| {what} | {spread(figures, 'p50', 'p95', 'p99')} |")
    return rows


def markdown(files: dict[str, dict]) -> str:
    """The tables of one or more results (file name -> the JSON bench/load/load.py wrote)."""
    out = ["# Live games under load", ""]
    for name, results in files.items():
        m, args = results["machine"], results["args"]
        out.append(
            f"- `{name}`: {m['cpu']}, {m['nproc']} CPUs, Python {m['python']}, locust "
            f"{m['locust']}; commit {m['git']}; `{command(args)}`"
        )
    if any(results["runs"] for results in files.values()):
        out += ["", "## Moves (2-player classic games, 2 bots each)", "", MOVES_HEAD]
    for results in files.values():
        commit = results["machine"]["git"].split(" ", 1)[0]
        out += [moves_row(run, commit) for run in results["runs"]]
    nudges = [(name, nudge_rows(results)) for name, results in files.items()]
    if any(rows for _, rows in nudges):
        out += ["", "## Nudges (4 clients on one game, idle server)", ""]
        for name, rows in nudges:
            if rows:
                out += [f"`{name}`", "", "| measure | p50 / p95 / p99 |", "|---|---|", *rows, ""]
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The tables of bench/load/load.py's results.")
    parser.add_argument("results", nargs="+", help="bench/out/load_*.json written by `run`")
    parser.add_argument("--out", help="write the markdown here (default: print it)")
    args = parser.parse_args(argv)
    text = markdown({Path(f).name: json.loads(Path(f).read_text()) for f in args.results})
    if args.out:
        Path(args.out).write_text(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
