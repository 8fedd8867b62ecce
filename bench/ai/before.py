"""The code of an earlier commit, taken from git, for the "before" side of an AI bench.

A bench compares today's AI with the AI of commit REV without a frozen copy in the repository:
``tree(REV)`` exports the ``games/`` folder of that commit (``git archive``) once into
``out/before/<commit>/`` (ignored by git, like the Pentobi build beside it), and ``Before(REV)``
runs a long-lived Python process there that imports that commit's ``games`` package and
answers, one JSON line per request:

* ``decide``: the record of a game so far (RECORD.md, decks revealed) is replayed by that
  commit's engine and its ``games.ai.decide`` decides from the view of the seat to move, as its
  ``python -m games.ai move`` does; the answer is the action and the seconds ``decide`` took
  (the process's start and the replay are outside that clock);
* ``rate``: that commit's tree search (``games.ai.mcts.mcts_choose``, one thread) runs for some
  seconds on the position at the end of a record; the answer is its simulations, wall time and
  CPU time.

The process lives as long as its user keeps it (a compiled search is loaded once, before the
first request that searches, as a worker does) and ends when its standard input closes. Only the
record format and those public names are relied on, so any commit since the AI package began works:
``3e6615a`` is the Expert before the first AI work (``baseline`` in bench/AI_RESULTS.md),
``3e27baf`` the tree search before its speed work (that file's "ours before"); both were frozen
copies here once.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "out" / "before"

# Run in the exported tree (its folder first on the import path, before PYTHONPATH's): that
# commit's engine and AI only. Requests and answers are JSON lines on stdin and stdout.
DRIVER = r"""
import json, sys, time
from games.engine import view
from games.engine.record import parse, replay
from games.ai import decide
try:
    from games.ai import mcts
except ImportError:  # before the tree search existed
    mcts = None
threads = int(sys.argv[1])
if mcts is not None and threads and hasattr(mcts, "MctsParams"):
    mcts.MctsParams.threads = threads
warm = [False]


def answer(ask):
    if ask.get("warm", True) and not warm[0] and mcts is not None and hasattr(mcts, "warm_up"):
        mcts.warm_up()  # compiled once (the first time in a new tree: slow), outside any clock
        warm[0] = True
    state = replay(parse(ask["record"]))
    if ask["op"] == "decide":
        seat_view = view(state, state.controller())
        start = time.perf_counter()
        action = decide(
            seat_view,
            level=ask["level"],
            seed=ask["seed"],
            budget=ask["budget"],
            max_sims=ask["max_sims"],
        )
        return {"action": action, "seconds": time.perf_counter() - start}
    params = type("OneThread", (mcts.MctsParams,), {"threads": 1})
    began, cpu = time.perf_counter(), time.thread_time()
    _, stats = mcts.mcts_choose(state, deadline=began + ask["seconds"], seed=1, params=params)
    cpu = time.thread_time() - cpu
    return {"sims": stats["sims"], "wall": time.perf_counter() - began, "cpu": cpu}


for line in sys.stdin:
    try:
        reply = answer(json.loads(line))
    except Exception as exc:
        reply = {"error": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(reply), flush=True)
"""


class BeforeError(RuntimeError):
    pass


def commit_of(rev: str) -> str:
    """The full commit id ``rev`` names in this repository."""
    done = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise BeforeError(f"{rev!r} names no commit of this repository")
    return done.stdout.strip()


def tree(rev: str) -> Path:
    """The folder holding ``games/`` as it was at ``rev``, exported once and kept."""
    commit = commit_of(rev)
    folder = OUT / commit
    if folder.is_dir():
        return folder
    OUT.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit, "games"], cwd=ROOT, capture_output=True
    )
    if archive.returncode != 0:
        raise BeforeError(f"git archive {commit} games: {archive.stderr.decode().strip()}")
    # Into a fresh folder first, renamed when complete: a run stopped midway, or two at once,
    # never leave a half tree under the commit's name.
    staging = Path(tempfile.mkdtemp(prefix=f".{commit[:12]}-", dir=OUT))
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(staging, filter="data")
    try:
        staging.rename(folder)
    except OSError:  # another run exported it meanwhile
        if not folder.is_dir():
            raise
    return folder


class Before:
    """A process running the code of ``rev`` (see the module's docstring). ``threads``: that
    search's threads (0: its own default)."""

    def __init__(self, rev: str, *, threads: int = 0):
        self.rev = rev
        self.folder = folder = tree(rev)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", DRIVER, str(threads)],
            cwd=folder,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def _ask(self, request: dict) -> dict:
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise BeforeError(f"the process of {self.rev} has stopped") from None
        line = self.process.stdout.readline()
        if not line:
            raise BeforeError(f"the process of {self.rev} stopped (its error is above)")
        reply = json.loads(line)
        if "error" in reply:
            raise BeforeError(f"the code of {self.rev}: {reply['error']}")
        return reply

    def decide(
        self,
        record: dict,
        *,
        level: str,
        seed: int,
        budget: float | None,
        max_sims: int | None = None,
    ) -> tuple[dict, float]:
        """The action of ``level`` at ``rev`` at the end of ``record`` (decks revealed: the
        other process replays the game, then decides from the seat's view only), and the
        seconds its ``decide`` took."""
        reply = self._ask(
            {
                "op": "decide",
                "record": json.dumps(record),
                "level": level,
                "seed": seed,
                "budget": budget,
                "max_sims": max_sims,
                "warm": level not in ("beginner", "casual"),  # levels that do not search
            }
        )
        return reply["action"], reply["seconds"]

    def rate(self, record: dict, seconds: float) -> tuple[float, float]:
        """That commit's search on one thread for ``seconds`` at the end of ``record``:
        simulations per second of wall time and per CPU second."""
        reply = self._ask({"op": "rate", "record": json.dumps(record), "seconds": seconds})
        return reply["sims"] / reply["wall"], reply["sims"] / max(1e-9, reply["cpu"])

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()  # the driver's loop ends at the end of its input
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
