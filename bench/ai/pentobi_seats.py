"""Pentobi as the yardstick of the first-move advantage in classic two-player games: its own
self-play first-seat win rate, and its judgement of positions.

    PENTOBI_GTP=... PENTOBI_BOOKS=... .venv/bin/python bench/ai/pentobi_seats.py selfplay \
        --level 5 --games 40 --seed 1000 [--second-level 4] [--nobook] [--sgf DIR]
    PENTOBI_GTP=... .venv/bin/python bench/ai/pentobi_seats.py judge --level 6 FILE.blksgf ...

``selfplay``: Pentobi plays both sides (blue and red against yellow and green, its fixed
corners), game g with ``--seed`` + g; a tie is half a win; ``--second-level``: the second seat
(yellow and green) is a second engine at that level (each engine is told the other's moves).
``judge``: for each game file (ours from ``bench/ai/pentobi_arena.py --sgf``, or ``selfplay
--sgf``), Pentobi (no book) searches the position before plies 8, 12, 16, 20, 24 and 32 with
blue to move (``loadsgf FILE N+1``, ``reg_genmove``) and gives its most visited move's value
(``move_values``): the first player's expected result, 0 to 1.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from bench.ai.arena import wilson  # noqa: E402
from bench.ai.pentobi_arena import Gtp, pentobi_command  # noqa: E402

PLIES = (8, 12, 16, 20, 24, 32)


def selfplay(binary: str, args) -> None:
    books = None if args.nobook else os.environ.get("PENTOBI_BOOKS") or None
    points, margins = 0.0, []
    for g in range(args.games):
        argv = pentobi_command(binary, 2, level=args.level, seed=args.seed + g, books=books)
        second = args.level if args.second_level is None else args.second_level
        argv2 = pentobi_command(binary, 2, level=second, seed=args.seed + g, books=books)
        with Gtp(argv) as gtp, Gtp(argv2) as gtp2:
            engines = (gtp,) if args.second_level is None else (gtp, gtp2)
            passes, k = 0, 0
            while passes < 4:
                colour = "1234"[k % 4]
                mover = engines[k % 2 % len(engines)]
                answer = mover.send(f"genmove {colour}").strip().lower()
                for other in engines:
                    if other is not mover and answer != "pass":
                        other.send(f"play {colour} {answer}")
                passes = passes + 1 if answer == "pass" else 0
                k += 1
            final = gtp.send("final_score").strip()  # B+n, W+n or 0
            if args.sgf:
                Path(args.sgf).mkdir(parents=True, exist_ok=True)
                gtp.send(f"savesgf {Path(args.sgf).resolve() / f'self{g:03d}.blksgf'}")
        margin = 0 if final == "0" else int(final[2:]) * (1 if final[0] == "B" else -1)
        margins.append(margin)
        points += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        print(f"game {g + 1}: {final}", file=sys.stderr, flush=True)
    rate = points / args.games
    lo, hi = wilson(rate, args.games)
    print(
        f"Pentobi level {args.level} against level {second} "
        f"({'no book' if books is None else 'book'}), seeds "
        f"{args.seed}-{args.seed + args.games - 1}: the first seat won {rate:.1%} "
        f"[{lo:.1%}, {hi:.1%}] of {args.games}; mean margin {statistics.fmean(margins):+.1f}"
    )


def judge(binary: str, args) -> None:
    rows = []
    for path in args.files:
        with Gtp(pentobi_command(binary, 2, level=args.level, seed=1, books=None)) as gtp:
            row = []
            for ply in PLIES:
                gtp.send(f"loadsgf {Path(path).resolve()} {ply + 1}")
                gtp.send("reg_genmove 1")
                row.append(float(gtp.send("move_values").splitlines()[0].split()[2]))
        rows.append(row)
        print(path, " ".join(f"{v:.2f}" for v in row), flush=True)
    means = [statistics.fmean(r[i] for r in rows) for i in range(len(PLIES))]
    print("plies", " ".join(str(p) for p in PLIES))
    print(f"mean of {len(rows)}", " ".join(f"{v:.2f}" for v in means))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("selfplay")
    one.add_argument("--level", type=int, default=5)
    one.add_argument("--games", type=int, default=40)
    one.add_argument("--seed", type=int, default=1000)
    one.add_argument("--second-level", type=int, help="the second seat's level (default --level)")
    one.add_argument("--nobook", action="store_true")
    one.add_argument("--sgf", help="write the games here")
    two = sub.add_parser("judge")
    two.add_argument("--level", type=int, default=6)
    two.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    binary = os.environ.get("PENTOBI_GTP", "").strip()
    if not binary:
        print("PENTOBI_GTP is not set (bench/ai/pentobi_arena.py's docstring)", file=sys.stderr)
        return 2
    (selfplay if args.command == "selfplay" else judge)(binary, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
