"""Build the opening book (games/ai/opening_book.json, read by games/ai/book.py) from our own
searches.

    .venv/bin/python bench/ai/make_book.py --book classic-2-free --sims 100000 --depth 4 \
        --width 3 [--threads 2] [--seed N]

From the start of the game named by ``--book`` (``classic-2-free``: classic, two players, any
free corner as on the site, R3.1; ``classic-2-fixed``: the Pentobi arena's fixed corners,
``MctsParams.fixed_corners``; ``shuffle-2-free``: the Shuffle setup round), ply by ply up to
``--depth``: each position is searched once with ``--sims`` simulations (each a game our
playout policy plays against itself from there; the tree as Master grows it), and the book
keeps the most visited placement. The ``--width`` most visited placements lead to the next
ply's positions, so that the book also answers the replies the search itself found likeliest.
Positions that a board symmetry makes equal are searched once (``book.position_key``).

The seed is drawn per run unless ``--seed`` is given (each position's search: the seed plus its
number); the run's command, seed, commit, date, machine and seconds are written into the book
beside its positions. Only the named book is replaced; the file's other books stay.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from bench.ai.arena import head_commit, load, machine  # noqa: E402
from games.ai import book, mcts  # noqa: E402
from games.ai.mcts.choose import _pick, _search  # noqa: E402
from games.engine import apply, new_game  # noqa: E402
from games.engine.rules import placement_text  # noqa: E402

BOOKS = ("classic-2-free", "classic-2-fixed", "shuffle-2-free")


def searched(state, sims: int, seed: int, params) -> tuple[int, dict, list[int]]:
    """The search's pick at ``state``, its statistics, and every root placement by visits
    (most visited first; all threads' visits added)."""
    trees, stats = _search(state, float("inf"), sims, seed, params, False, False, time.perf_counter)
    value, stats = _pick(trees, stats, state.players)
    first, count = int(trees[0][0][0]), int(trees[0][1][0])
    visits = sum(t[7][first : first + count].astype(int) for t in trees)
    order = sorted(range(count), key=lambda k: (-int(visits[k]), k))
    moves = [mcts.PLACEMENTS[int(trees[0][5][first + k])] for k in order]
    return value, stats, moves


def build(name: str, sims: int, depth: int, width: int, seed: int, threads: int, log=None):
    """The book ``name``'s positions: {key: {"move", "ply", "sims", "visits", "value"}}."""
    mode, _, corners = name.split("-")

    class Params(mcts.MctsParams):
        pass

    Params.threads = threads
    Params.fixed_corners = 1 if corners == "fixed" else 0
    positions: dict[str, dict] = {}
    frontier = [new_game(mode=mode, players=2, scoring="advanced", seed=seed)]
    for ply in range(depth):
        following = []
        for state in frontier:
            key, k = book.position_key(state, Params.fixed_corners == 1)
            if key in positions:
                continue
            began = time.perf_counter()
            value, stats, moves = searched(state, sims, seed + len(positions), Params)
            positions[key] = {
                "move": book.to_key_frame(placement_text(value), k),
                "ply": ply,
                "sims": stats["sims"],
                "visits": stats["visits"],
                "value": round(stats["value"], 4),
            }
            if log:
                print(
                    f"{name} ply {ply} position {len(positions)}: {placement_text(value)} "
                    f"({stats['visits']} of {stats['sims']} visits, value {stats['value']:.3f}, "
                    f"{time.perf_counter() - began:.1f} s)",
                    file=log,
                    flush=True,
                )
            if ply + 1 < depth:
                following += [apply(state, {"place": placement_text(m)}) for m in moves[:width]]
        frontier = following
    return positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/ai/make_book.py", description=__doc__)
    parser.add_argument("--book", choices=BOOKS, required=True)
    parser.add_argument("--sims", type=int, default=100_000)
    parser.add_argument("--depth", type=int, default=4, help="plies from the start")
    parser.add_argument("--width", type=int, default=3, help="replies followed a position")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--out", default=str(book.BOOK_FILE))
    args = parser.parse_args(argv)
    if min(args.sims, args.depth, args.width, args.threads) < 1:
        parser.error("--sims, --depth, --width and --threads must be positive")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 100_000)
    again = [a for a in (argv if argv is not None else sys.argv[1:])]
    if args.seed is None:
        again += ["--seed", str(seed)]
    print(f"make_book: {args.book}, seed {seed}, commit {head_commit()}", file=sys.stderr)
    load_before = load()
    began = time.perf_counter()
    positions = build(args.book, args.sims, args.depth, args.width, seed, args.threads, sys.stderr)
    out = Path(args.out)
    data = json.loads(out.read_text()) if out.exists() else {}
    data["about"] = (
        "The opening book of games/ai/book.py, built by bench/ai/make_book.py from our own "
        "searches; each book: the command that made it, then its positions."
    )
    data.setdefault("books", {})[args.book] = {
        "made": {
            "command": ".venv/bin/python bench/ai/make_book.py " + " ".join(again),
            "seed": seed,
            "commit": head_commit(),
            "date": f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
            "machine": machine(),
            "seconds": round(time.perf_counter() - began, 1),
            "load_before": load_before,
            "load_after": load(),
            "sims": args.sims,
            "depth": args.depth,
            "width": args.width,
            "threads": args.threads,
        },
        "positions": positions,
    }
    data["books"] = dict(sorted(data["books"].items()))
    out.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    print(f"make_book: {len(positions)} positions written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
