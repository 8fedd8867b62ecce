"""The AI's command line: the action an AI level takes at the end of a game record.

    python -m games.ai move --level expert [--seed N] [--budget SECONDS] [--sims N] RECORD

``RECORD`` is a ``blokus-record/1`` file (RECORD.md) or ``-`` for standard input. The record is
replayed by the engine, then only the view of the seat to move is handed to the AI (R9): a
record that gives the decks (an exported game) tells the AI nothing more than the seat knows.
``--sims N`` bounds each search by N simulations as well as by the budget (Expert and Master, as
the arena's ``--sims`` and the site's ``AI_MAX_SIMS`` setting do): with the bound reached first,
the same seed gives the same action as the site's worker and the arena
(tests/ai/test_same_moves.py). The action is printed as JSON in the record's action format. Bad
input of any kind: exit status 2 and one line on standard error, as the engine's command line
does (games/engine/cli.py).
"""

from __future__ import annotations

import json
import sys

from games.engine import view
from games.engine.errors import RecordError
from games.engine.record import parse, replay

from . import LEVELS, decide

USAGE = (
    "usage: python -m games.ai move --level beginner|casual|expert|master [--seed N] "
    "[--budget SECONDS] [--sims N] RECORD (a file path, or - for stdin)"
)


# The most simulations --sims takes: far more than any budget affords (Master's 9.9 s with two
# threads come to about a million late in a game, bench/AI_RESULTS.md's simulations a second), so
# that a typing slip is refused rather than searched for hours.
MAX_SIMS = 10_000_000


class UsageError(ValueError):
    pass


def _value(arg: str, value: str):
    """The option ``arg``'s value read from ``value``, or UsageError."""
    if arg == "--level":
        if value not in LEVELS:
            raise UsageError(f"unknown level {value!r}: pick one of {', '.join(LEVELS)}")
        return value
    if arg == "--seed":
        try:
            return int(value)
        except ValueError:
            raise UsageError(f"--seed must be an integer, not {value!r}") from None
    if arg == "--sims":
        try:
            sims = int(value)
        except ValueError:
            sims = 0
        if not 0 < sims <= MAX_SIMS:
            raise UsageError(
                f"--sims must be a whole number of simulations from 1 to {MAX_SIMS}, not {value!r}"
            )
        return sims
    try:
        budget = float(value)
    except ValueError:
        budget = -1.0
    if not budget > 0 or budget > 3600:
        raise UsageError(f"--budget must be a number of seconds > 0, not {value!r}")
    return budget


def parse_args(argv: list[str]) -> dict:
    if not argv or argv[0] != "move":
        raise UsageError(USAGE)
    # No --budget: the level's own (Expert DEFAULT_BUDGET, Master MASTER_BUDGET).
    # No --sims: the budget alone bounds the search.
    options = {"level": "casual", "seed": 0, "budget": None, "sims": None, "record": None}
    rest = argv[1:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg in ("--level", "--seed", "--budget", "--sims"):
            if i + 1 >= len(rest):
                raise UsageError(f"{arg} needs a value; {USAGE}")
            value = rest[i + 1]
            i += 2
            options[arg[2:]] = _value(arg, value)
        elif arg.startswith("--") or options["record"] is not None:
            raise UsageError(f"unexpected argument {arg!r}; {USAGE}")
        else:
            options["record"] = arg
            i += 1
    if options["record"] is None:
        raise UsageError(f"RECORD is missing; {USAGE}")
    return options


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def run(options: dict, text: bytes) -> dict:
    state = replay(parse(text))
    if state.over:
        raise RecordError("the game is over: there is no decision to take")
    seat_view = view(state, state.controller())
    if options["level"] in ("expert", "master"):
        # Load the compiled search (numba's cache) and build its tables before the decision's
        # clock starts, as a worker does at its start: the budget is all search.
        from . import mcts

        mcts.warm_up()
    return decide(
        seat_view,
        level=options["level"],
        seed=options["seed"],
        budget=options["budget"],
        max_sims=options["sims"],
    )


def main(argv: list[str]) -> int:
    try:
        options = parse_args(argv)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    path = options["record"]
    try:
        text = _read(path)
    except OSError as exc:
        print(f"cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        action = run(options, text)
    except RecordError as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return 2
    except Exception as exc:  # never a traceback, whatever the input
        print(
            f"cannot read the record: {type(exc).__name__}: {exc}".replace("\n", " "),
            file=sys.stderr,
        )
        return 2
    json.dump(action, sys.stdout)
    sys.stdout.write("\n")
    return 0
