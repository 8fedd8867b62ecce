"""Simulations per second per thread: our search (games/ai/mcts/) against Pentobi's, and against
our search at an earlier commit (``--before``, default 3e27baf: the search before its speed work,
taken from git by bench/ai/before.py), on the same positions in one run.

* Classic rows (2 and 4 players, 0 / 20 / 40 pieces on the board): one Pentobi level-5
  self-play game per variant (``selfplay``, the run's seed), loaded by Pentobi with
  ``loadsgf FILE N+1`` and by us with ``games.engine.blksgf.parse`` + ``record.replay``: both
  search exactly the same board. Pentobi's rate is its own search log's ``Sim/s`` of a
  ``reg_genmove`` at ``--level 7 --threads 1 --nobook`` with ``param reuse_subtree 0``; ours is
  ``stats["sims"]`` / wall time of ``mcts_choose`` with one thread and ``--seconds``.
* Shuffle rows (4 players, the first placement with >= 4 / 20 / 40 pieces on the board of a
  game of Casual players, the run's seed): today's search against the earlier one, side by side.

The earlier search runs in a process of its own on the same positions (handed over as records),
one thread, the same ``--seconds``; its rates are its own ``stats["sims"]`` over its own wall and
CPU time.

    .venv/bin/python bench/ai/mcts_speed.py [--seconds 3] [--seed N] [--pentobi PATH] \
        [--before REV]

The seed is drawn per run unless given, and printed. Needs a Release ``pentobi-gtp``
(``--pentobi`` or ``PENTOBI_GTP``); without it the Pentobi column is empty.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from bench.ai.before import Before  # noqa: E402
from games.ai import decide, mcts  # noqa: E402
from games.engine import apply, blksgf, new_game, record, view  # noqa: E402

VARIANT = {2: "classic_2", 4: "classic"}
DEFAULT_PENTOBI = "/work/pentobi/build/pentobi_gtp/pentobi-gtp"


def one_thread():
    return type("OneThread", (mcts.MctsParams,), {"threads": 1})


def pentobi_game(binary: str, players: int, seed: int, folder: Path) -> Path:
    path = folder / f"{VARIANT[players]}-seed{seed}.blksgf"
    argv = [binary, "--game", VARIANT[players], "--level", "5", "--nobook", "--quiet"]
    argv += ["--seed", str(seed)]
    subprocess.run(
        argv,
        input=f"selfplay 1 {path}\nquit\n",
        text=True,
        check=True,
        timeout=600,
        capture_output=True,
    )
    return path


def _pentobi_run(argv: list[str], commands: list[str]) -> tuple[str, float]:
    """Run ``pentobi-gtp`` on ``commands``: (its stderr, the CPU seconds it used)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        argv, input="\n".join([*commands, "quit"]) + "\n", text=True, capture_output=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stderr, cpu


def pentobi_rates(binary: str, players: int, path: Path, pieces: list[int]) -> list[dict]:
    """Pentobi's search log for a level-7 ``reg_genmove`` at each position (one thread): its
    simulations per second of wall time (``Sim/s``) and per CPU second (the process's CPU time
    less that of the same process doing everything but the search)."""
    argv = [binary, "--game", VARIANT[players], "--level", "7", "--threads", "1", "--nobook"]
    argv += ["--noresign", "--seed", "1"]
    out = []
    for n in pieces:
        load = ["param reuse_subtree 0", f"loadsgf {path} {n + 1}"]
        _, idle = _pentobi_run(argv, load)
        log, cpu = _pentobi_run(argv, [*load, "reg_genmove 1"])
        found = re.findall(r"Sim (\d+).*?Sim/s (\d+), Len ([\d.]+)", log, re.S)
        if not found:
            out.append(None)
            continue
        sims, rate, length = found[-1]
        out.append(
            {
                "sims": int(sims),
                "rate": int(rate),
                "cpu_rate": int(sims) / max(1e-6, cpu - idle),
                "length": float(length),
            }
        )
    return out


def ours_rate(state, seconds: float) -> tuple[float, float]:
    """Simulations per second of wall time and per CPU second (one thread: the search runs in
    this thread)."""
    began, cpu = time.perf_counter(), time.thread_time()
    _, stats = mcts.mcts_choose(state, deadline=began + seconds, seed=1, params=one_thread())
    cpu = time.thread_time() - cpu
    return stats["sims"] / (time.perf_counter() - began), stats["sims"] / cpu


def shuffle_positions(seed: int, pieces=(4, 20, 40)) -> list[tuple]:
    """The first placement of a 4-player Shuffle game of Casual players with >= n pieces on
    the board, for each n (the search's Shuffle root): (state, its record, decks revealed)."""
    s = initial = new_game(mode="shuffle", players=4, seed=seed, scoring="advanced")
    actions, out = [], []
    while not s.over and len(out) < len(pieces):
        on = sum(len(p) for p in s.pieces)
        if s.step == "place" and on >= pieces[len(out)]:
            out.append((s, record.make_record(initial, actions, reveal=True)))
        action = decide(view(s, s.controller()), level="casual", seed=seed + s.ply)
        actions.append(action)
        s = apply(s, action)
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--pentobi", default=os.environ.get("PENTOBI_GTP", DEFAULT_PENTOBI))
    parser.add_argument("--before", default="3e27baf", help="the commit of the earlier search")
    args = parser.parse_args(argv)
    seed = random.SystemRandom().randrange(1, 10_000) if args.seed is None else args.seed
    mcts.warm_up()
    with Before(args.before) as before:
        table(args, seed, before)


def table(args, seed: int, before: Before) -> None:
    binary = args.pentobi if Path(args.pentobi).exists() else None
    print(
        f"Machine: {os.cpu_count()} cores ({platform.machine()}), "
        f"Python {platform.python_version()}; "
        f"load average at start {os.getloadavg()[0]:.2f}; seed {seed}; "
        f"{args.seconds:.1f} s per search, one thread; Pentobi: {binary or 'absent'}; "
        f"before: {args.before}.\n"
    )
    print(
        "Rates: simulations per second of wall time, then per CPU second (robust to a busy\n"
        "machine: the search's own CPU time; Pentobi's less its start-up's).\n"
    )
    print(
        "| variant | pieces | legal placements | Pentobi L7 sims/s (CPU) | ours before (CPU) "
        "| ours (CPU) | ours / Pentobi, wall (CPU) | ours / before, wall (CPU) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    pieces = [0, 20, 40]
    with tempfile.TemporaryDirectory() as folder:
        for players in (2, 4):
            if not binary:
                break
            path = pentobi_game(binary, players, seed, Path(folder))
            data = blksgf.parse(path.read_text())
            rates = pentobi_rates(binary, players, path, pieces)
            for i, n in enumerate(pieces):
                position = {**data, "scoring": "advanced", "actions": data["actions"][:n]}
                state = record.replay(position)
                then, then_cpu = before.rate(position, args.seconds)
                now, now_cpu = ours_rate(state, args.seconds)
                theirs = rates[i]
                legal = len(mcts.root_moves(state))
                if theirs:
                    them = f"{theirs['rate']:,} ({theirs['cpu_rate']:,.0f})"
                    share = f"**{now / theirs['rate']:.0%}** ({now_cpu / theirs['cpu_rate']:.0%})"
                else:
                    them = share = "-"
                print(
                    f"| {VARIANT[players]} | {n} | {legal} | {them} "
                    f"| {then:,.0f} ({then_cpu:,.0f}) | {now:,.0f} ({now_cpu:,.0f}) "
                    f"| {share} | {now / then:.2f}x ({now_cpu / then_cpu:.2f}x) |",
                    flush=True,
                )
    for state, position in shuffle_positions(seed):
        on = sum(len(p) for p in state.pieces)
        then, then_cpu = before.rate(position, args.seconds)
        now, now_cpu = ours_rate(state, args.seconds)
        print(
            f"| shuffle, 4 players | {on} | {len(mcts.root_moves(state))} | - "
            f"| {then:,.0f} ({then_cpu:,.0f}) | {now:,.0f} ({now_cpu:,.0f}) | - "
            f"| **{now / then:.2f}x** ({now_cpu / then_cpu:.2f}x) |",
            flush=True,
        )
    print(f"\nLoad average at the end {os.getloadavg()[0]:.2f}.")


if __name__ == "__main__":
    main()
