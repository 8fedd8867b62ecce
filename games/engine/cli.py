"""The engine's command line. Bad input of any kind: exit status 2 and one line on stderr."""

from __future__ import annotations

import json
import statistics
import sys
import time

from .errors import RecordError
from .record import parse, replay
from .rules import legal_actions
from .scoring import score
from .verify import verify

USAGE = (
    "usage: python -m games.engine state|legal|score|bench|verify RECORD "
    "(a file path, or - for stdin)"
)
COMMANDS = ("state", "legal", "score", "bench", "verify")


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def bench(state, seconds: float = 1.0) -> dict:
    """Recompute ``legal`` for the position from scratch for about ``seconds``; median per call.

    Nothing derived from the position is kept between calls; the geometry tables (placements per
    square, filled on first use) are the engine's precomputed tables, not a cache of results.
    """
    times = []
    count = 0
    deadline = time.perf_counter() + seconds
    while True:
        start = time.perf_counter()
        count = len(legal_actions(state))
        times.append(time.perf_counter() - start)
        if time.perf_counter() >= deadline and len(times) >= 3:
            break
    return {
        "calls": len(times),
        "ms_per_call": round(statistics.median(times) * 1000, 4),
        "actions": count,
    }


def run(command: str, text: bytes) -> dict:
    if command == "verify":
        return verify(parse(text))
    state = replay(parse(text))
    if command == "state":
        return state.to_json()
    if command == "legal":
        return {
            "to_move": state.to_json()["to_move"],
            "step": state.step,
            "actions": legal_actions(state),
        }
    if command == "score":
        return score(state)
    return bench(state)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    command, path = argv
    try:
        text = _read(path)
    except OSError as exc:
        print(f"cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        out = run(command, text)
    except RecordError as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return 2
    except Exception as exc:  # never a traceback, whatever the input (RECORD.md)
        print(
            f"cannot read the record: {type(exc).__name__}: {exc}".replace("\n", " "),
            file=sys.stderr,
        )
        return 2
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 1 if command == "verify" and not out["ok"] else 0
