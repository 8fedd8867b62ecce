"""Does the command line search as much as a worker at the same budget?

    .venv/bin/python bench/ai/cli_budget.py [--budget 2] [--seed N] [--rounds 2]

The same positions (classic two players at 0 / 20 / 40 pieces on the board, classic four
players at 20, Shuffle four players at 20; each reached by Casual players from the run's seed)
are decided by Expert twice, alternately, ``--rounds`` times each:

* **worker**: in this long-lived process, warmed up once (``mcts.warm_up``, as a Celery worker
  does at its start), ``games.ai.decide`` with ``--budget`` seconds;
* **command line**: a new process per decision, ``python -m games.ai move --level expert
  --budget B -`` with the position's record (RECORD.md) on standard input: what a user of the
  command line runs; the process is this script with `--child`, which counts the simulations.

For each: the simulations the search ran within the budget (``stats["sims"]`` summed over the
searches of one decision) and the wall time; for the command line also the whole process's wall
time. The same threads in both (the search's default, ``MctsParams.threads``). Equal numbers of
simulations at the same budget mean equal play: the command line's compiled code and tables are
loaded before its clock starts. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))


class Counted:
    """While in use: ``games.ai.mcts.mcts_choose`` counts its simulations in ``sims``."""

    def __enter__(self):
        from games.ai import mcts

        self.mcts, self.real, self.sims = mcts, mcts.mcts_choose, []

        def counted(*args, **kwargs):
            out = self.real(*args, **kwargs)
            self.sims.append(out[1]["sims"])
            return out

        mcts.mcts_choose = counted
        return self

    def __exit__(self, *exc):
        self.mcts.mcts_choose = self.real


def child(argv: list[str]) -> int:
    """The command line's process (``--child ARGS``): ``python -m games.ai ARGS`` with the
    search's simulations and the time of its ``main`` written on standard error."""
    from games.ai.cli import main as cli_main

    with Counted() as counted:
        start = time.perf_counter()
        code = cli_main(argv)
        took = time.perf_counter() - start
    print(json.dumps({"sims": sum(counted.sims), "main_s": took}), file=sys.stderr)
    return code


def positions(seed: int) -> list[tuple[str, dict]]:
    """(name, record) for each position, reached by Casual players."""
    from games.ai import decide
    from games.engine import apply, new_game, view
    from games.engine.record import make_record

    out = []
    specs = [
        ("classic, 2 players, 0 pieces", "classic", 2, 0),
        ("classic, 2 players, 20 pieces", "classic", 2, 20),
        ("classic, 2 players, 40 pieces", "classic", 2, 40),
        ("classic, 4 players, 20 pieces", "classic", 4, 20),
        ("Shuffle, 4 players, 20 pieces", "shuffle", 4, 20),
    ]
    for k, (name, mode, players, pieces) in enumerate(specs):
        rng = random.Random(seed * 100 + k)
        initial = new_game(mode=mode, players=players, seed=rng.randrange(2**31))
        state, actions = initial, []
        while True:
            placed = sum(21 - bin(supply).count("1") for supply in state.supply)
            if placed >= pieces and state.step in ("place", "card", "setup"):
                break
            seat = state.controller()
            action = decide(view(state, seat), level="casual", seed=rng.randrange(2**31))
            actions.append(action)
            state = apply(state, action)
        out.append((name, make_record(initial, actions, reveal=True)))
    return out


def worker_decision(record: dict, budget: float, seed: int) -> tuple[int, float]:
    from games.ai import decide
    from games.engine import view
    from games.engine.record import replay

    state = replay(record)
    with Counted() as counted:
        start = time.perf_counter()
        decide(view(state, state.controller()), level="expert", seed=seed, budget=budget)
        return sum(counted.sims), time.perf_counter() - start


def cli_decision(record: dict, budget: float, seed: int) -> tuple[int, float, float]:
    argv = ["move", "--level", "expert", "--budget", str(budget), "--seed", str(seed), "-"]
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--child", *argv],
        input=json.dumps(record).encode(),
        capture_output=True,
        cwd=ROOT,
        check=True,
    )
    process = time.perf_counter() - start
    json.loads(done.stdout)  # the action, as RECORD.md's command line prints it
    counts = json.loads(done.stderr.decode().strip().splitlines()[-1])
    return counts["sims"], counts["main_s"], process


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        sys.exit(child(sys.argv[2:]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**5)
    from games.ai import mcts
    from games.ai.mcts.search import MctsParams

    mcts.warm_up()  # the worker's start
    load = os.getloadavg()[0]
    rows = []
    for name, record in positions(seed):
        worker, cli, walls, processes = [], [], [], []
        for r in range(args.rounds):
            cli_sims, cli_wall, process = cli_decision(record, args.budget, seed + r)
            sims, wall = worker_decision(record, args.budget, seed + r)
            worker.append(sims)
            cli.append(cli_sims)
            walls.append((wall, cli_wall))
            processes.append(process)
        rows.append((name, worker, cli, walls, processes))
    print(
        f"Seed {seed}, budget {args.budget} s, {MctsParams.threads} search threads, "
        f"{args.rounds} rounds; {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; load average {load:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after.\n"
    )
    print(
        "| position | worker: simulations | command line: simulations | command line / worker "
        "| decision wall s, worker / command line | command line process wall s |"
    )
    print("|---|---|---|---|---|---|")
    for name, worker, cli, walls, processes in rows:
        ratio = sum(cli) / max(1, sum(worker))
        w = statistics.median(a for a, _ in walls)
        c = statistics.median(b for _, b in walls)
        print(
            f"| {name} | {' / '.join(map(str, worker))} | {' / '.join(map(str, cli))} "
            f"| {ratio:.2f} | {w:.2f} / {c:.2f} | {statistics.median(processes):.2f} |"
        )


if __name__ == "__main__":
    main()
