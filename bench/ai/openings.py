"""Our openings against Pentobi's opening book, classic two players (Pentobi's ``classic_2``).

    .venv/bin/python bench/ai/openings.py /path/to/pentobi/opening_books/book_classic_2.blksgf \
        [--depth 8] [--sims 2000] [--seeds 3] [--seed N] [--threads 1] [--scoring advanced] \
        [--per-depth 10] [--json FILE]

Pentobi's book (GPL, in its source's ``opening_books/``; it stays outside this repository: name
its path) is a game tree of moves Pentobi plays in the opening. Our classic two-player game is
its ``Blokus Two-Player`` (games/engine/blksgf.py, ``classic_2`` in games/bots/gtp.py): blue
and red against yellow and green, R2.3. The book's squares are Pentobi's (blue starts at a20,
yellow t20, red t1, green a1); our rules let each colour take any free corner (R3.1), so every
book position is a position of ours as it stands.

For the book positions of the first ``--depth`` moves (8: each colour's first two moves, the
first four of each player), reached through the book's lines (at most ``--per-depth`` of each
move number, drawn with the seed):

* **Book moves.** Our search picks a placement there, ``--seeds`` times with ``--sims``
  simulations each (Expert's classic placement is this pick, ``mcts_choose`` in expert.py;
  the seeds are drawn per run unless ``--seed`` is given). A pick is a book move when a board
  symmetry takes the position to a book position and the pick to one of the book's moves there
  (as Pentobi looks its book up; yellow's first piece on a1 after blue's on a20 is the book's t20
  seen in a mirror). A first piece of ours on a corner no symmetry lets Pentobi's rules accept
  (red next to blue: Pentobi's red starts opposite blue) is counted apart.
* **Considered.** Whether the book's moves there are among the placements the search's tree
  expands at its root (``mcts.root_considered``: the opening prunes small pieces): a move the
  tree never considers is one it can never play.
* **Our pick against the book's.** The mover's value of the position after our first seed's
  pick and after each of the book's moves there (at most three, the best kept), each by the
  same search from that position (``mcts.seat_value``, ``--sims``, the first seed): how much
  better or worse the search judges its own choice than the book's. Where the pick is a book
  move the difference shows the search's noise.
* **The corners fight.** Where yellow or red places its first piece, the search's root (one
  search of ``--sims``, the first seed) shared out by corner, next to blue's or opposite it: the
  priors' mass there (the tree's one-step scores, mcts/priors.py), the visits, and the mover's
  value of the most visited move there.
* **Values.** The search's value of its pick for each player (``stats["values"]``: the mean over
  the pick's simulations, in [0, 1] as the search values a playout, 0.5 an even game), averaged
  over the seeds: the second player's (yellow and green) value at the empty board and after
  each of the book's first moves, and by depth.

The report (Markdown on stdout, ``--json FILE`` as JSON) has the seeds, the commit, the load
before and after and the command. Single-threaded by default (``--threads 1``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from bench.ai.arena import head_commit, load, machine  # noqa: E402
from games.ai import mcts  # noqa: E402
from games.ai.mcts.choose import _search  # noqa: E402  (the root's edges: priors, visits)
from games.engine import COLOURS, apply, new_game  # noqa: E402
from games.engine.blksgf import PENTOBI_CORNER, SYMMETRIES, sgf_tokens, sgf_values  # noqa: E402
from games.engine.errors import RecordError  # noqa: E402
from games.engine.rules import placement_text  # noqa: E402

# Pentobi's colour numbers in the order of play (1 blue, 2 yellow, 3 red, 4 green: ours too).
NUMBER_COLOUR = {"1": "blue", "2": "yellow", "3": "red", "4": "green"}
SIDE = {"blue": "first", "red": "first", "yellow": "second", "green": "second"}
SECOND = 1  # the second player's seat (yellow and green)

Cells = frozenset  # of (column, row) from 0, a1 = (0, 0)


@dataclass
class Node:
    """A book move (None at the root) and the book's answers to it."""

    colour: str | None = None
    cells: Cells | None = None
    children: list[Node] = field(default_factory=list)


def square(text: str) -> tuple[int, int]:
    return ord(text[0]) - ord("a"), int(text[1:]) - 1


def name(x: int, y: int) -> str:
    return f"{chr(ord('a') + x)}{y + 1}"


def cells_of(squares: str) -> Cells:
    return frozenset(square(s.strip()) for s in squares.split(","))


def read_book(text: str) -> Node:
    """The book's game tree: every variation, every move node (``1[...]`` ... ``4[...]``)."""
    root = Node()
    stack: list[Node] = []  # the node each open variation hangs from
    current = root
    try:
        tokens = list(sgf_tokens(text))
    except RecordError as exc:
        raise ValueError(f"the book is not SGF: {exc}") from None
    for opened, closed, node, ident, values in tokens:
        if opened:
            stack.append(current)
        elif closed:
            current = stack.pop()
        elif node:
            continue
        elif ident in NUMBER_COLOUR:
            (squares,) = sgf_values(values)
            child = Node(NUMBER_COLOUR[ident], cells_of(squares))
            current.children.append(child)
            current = child
    if stack:
        raise ValueError("the book is not SGF (unbalanced parentheses)")
    return root


def positions(root: Node, depth: int) -> list[tuple[list[Node], list[Node]]]:
    """(the book line to a position, the book's moves there) for every position of fewer than
    ``depth`` moves with a book move, shallowest first, in the book's order."""
    out, frontier = [], [([], root)]
    for _ in range(depth):
        nxt = []
        for line, node in frontier:
            if node.children:
                out.append((line, node.children))
                nxt += [([*line, child], child) for child in node.children]
        frontier = nxt
    return out


def sample(found: list, per_depth: int, rng: random.Random) -> list:
    """At most ``per_depth`` positions of each depth, drawn with ``rng`` (all of a depth that
    has no more), shallowest first."""
    out = []
    for depth in sorted({len(line) for line, _ in found}):
        here = [item for item in found if len(item[0]) == depth]
        out += here if len(here) <= per_depth else rng.sample(here, per_depth)
    return out


def mapped(f, cells: Cells) -> Cells:
    return frozenset(f(x, y) for x, y in cells)


Position = frozenset  # of (colour, cells): the pieces on the board


def position_of(pieces) -> Position:
    return frozenset(pieces)


def book_index(found: list[tuple[list[Node], list[Node]]]) -> dict[Position, set]:
    """Every book position -> the book's moves there, (colour, cells); transpositions merged."""
    index: dict[Position, set] = {}
    for line, answers in found:
        key = position_of((n.colour, n.cells) for n in line)
        index.setdefault(key, set()).update((a.colour, a.cells) for a in answers)
    return index


def classify(line: list[Node], colour: str, cells: Cells, index: dict[Position, set]) -> str:
    """``book``: a symmetry takes the position to a book position and the pick to a book move
    there; ``corner``: a first piece that no symmetry puts on Pentobi's corner for its colour
    while it puts the first pieces before it on theirs; else ``other``."""
    placed = [(n.colour, n.cells) for n in line]
    for f in SYMMETRIES:
        moves = index.get(position_of((c, mapped(f, s)) for c, s in placed))
        if moves and (colour, mapped(f, cells)) in moves:
            return "book"
    firsts = {}
    for c, s in placed:
        firsts.setdefault(c, s)
    if colour not in firsts:  # the colour's first piece
        firsts[colour] = cells
        if not any(
            all(PENTOBI_CORNER[c] in mapped(f, s) for c, s in firsts.items()) for f in SYMMETRIES
        ):
            return "corner"
    return "other"


def state_of(line: list[Node], scoring: str):
    state = new_game(mode="classic", players=2, scoring=scoring)
    for node in line:
        if COLOURS[state.turn] != node.colour:
            raise ValueError(f"the book has {node.colour} move where {COLOURS[state.turn]} moves")
        text = ",".join(name(x, y) for x, y in sorted(node.cells))
        state = apply(state, {"place": text})
    return state


def cells_of_value(value: int) -> Cells:
    return cells_of(placement_text(value))


CORNER_CELLS = frozenset(PENTOBI_CORNER.values())


def corner_of(cells: Cells) -> tuple[int, int]:
    (corner,) = cells & CORNER_CELLS  # R3.1: a first piece covers one corner
    return corner


def corner_view(state, line: list[Node], args, seed: int) -> dict | None:
    """Where yellow or red places its first piece: the root's priors, visits and values by
    corner, next to blue's or opposite it. None elsewhere."""
    colour = COLOURS[state.turn]
    if state.step != "setup" or colour not in ("yellow", "red"):
        return None
    bx, by = corner_of(line[0].cells)
    params = mcts.MctsParams
    deadline = time.perf_counter() + 3600
    trees, _ = _search(state, deadline, args.sims, seed, params, False, False, time.perf_counter)
    first, count = int(trees[0][0][0]), int(trees[0][1][0])
    edges = slice(first, first + count)
    visits = sum(tree[7][edges].astype(float) for tree in trees)
    value = sum(tree[8][edges].astype(float) for tree in trees)
    out = {}
    for k in range(count):
        x, y = corner_of(cells_of_value(mcts.PLACEMENTS[int(trees[0][5][first + k])]))
        where = "next to blue" if (x == bx) != (y == by) else "opposite blue"
        side = out.setdefault(
            where, {"prior": 0.0, "visits": 0.0, "best": (-1.0, 0.0), "corners": set()}
        )
        side["corners"].add((x, y))
        side["prior"] += float(trees[0][6][first + k])
        side["visits"] += visits[k]
        side["best"] = max(side["best"], (visits[k], value[k] / max(1.0, visits[k])))
    total_prior = sum(s["prior"] for s in out.values()) or 1.0
    total_visits = sum(s["visits"] for s in out.values()) or 1.0
    return {
        where: {
            "prior": round(s["prior"] / total_prior, 4),
            "visits": round(s["visits"] / total_visits, 4),
            "value": round(s["best"][1], 4),
            "corners": len(s["corners"]),
        }
        for where, s in sorted(out.items())
    }


def corners_table(results: list[dict]) -> list[dict]:
    rows = []
    for colour in ("yellow", "red"):
        here = [r["corners"] for r in results if r.get("corners") and r["colour"] == colour]
        for where in ("next to blue", "opposite blue"):
            sides = [c[where] for c in here if where in c]
            if sides:
                rows.append(
                    {
                        "colour": colour,
                        "corner": where,
                        "positions": len(sides),
                        **{
                            key: round(statistics.fmean(s[key] for s in sides), 4)
                            for key in ("corners", "prior", "visits", "value")
                        },
                    }
                )
    return rows


def study(line: list[Node], answers: list[Node], args, seeds: list[int], index) -> dict:
    """Our picks, the tree's root moves and the values at one book position."""
    state = state_of(line, args.scoring)
    considered = {cells_of_value(mcts.PLACEMENTS[m]) for m in mcts.root_considered(state)}
    in_tree = sum(a.cells in considered for a in answers) / len(answers)
    picks, values = [], []
    for seed in seeds:
        value, stats = mcts.mcts_choose(
            state, deadline=time.perf_counter() + 3600, max_sims=args.sims, seed=seed
        )
        cells = cells_of_value(value)
        picks.append(
            {
                "seed": seed,
                "move": placement_text(value),
                "kind": classify(line, answers[0].colour, cells, index),
            }
        )
        values.append(stats["values"])
    mover = state.controller()

    def after(cells: Cells) -> float:
        text = ",".join(name(x, y) for x, y in sorted(cells))
        s = apply(state, {"place": text})
        deadline = time.perf_counter() + 3600
        return mcts.seat_value(s, mover, deadline=deadline, max_sims=args.sims, seed=seeds[0])

    ours = after(cells_of(picks[0]["move"]))
    book = max(after(a.cells) for a in answers[:3])
    return {
        "depth": len(line),
        "corners": corner_view(state, line, args, seeds[0]),
        "after_ours": round(ours, 4),
        "after_book": round(book, 4),
        "colour": answers[0].colour,
        "line": [",".join(name(x, y) for x, y in sorted(n.cells)) for n in line],
        "book_moves": len(answers),
        "book_in_tree": round(in_tree, 3),
        "picks": picks,
        "value_second": round(statistics.fmean(v[SECOND] for v in values), 4),
        "value_mover": round(statistics.fmean(v[state.controller()] for v in values), 4),
    }


def by_depth(results: list[dict]) -> list[dict]:
    rows = []
    for depth in sorted({r["depth"] for r in results}):
        here = [r for r in results if r["depth"] == depth]
        off = [r["after_ours"] - r["after_book"] for r in here if r["picks"][0]["kind"] != "book"]
        picks = [p for r in here for p in r["picks"]]
        kinds = {k: sum(p["kind"] == k for p in picks) for k in ("book", "corner", "other")}
        second = [r["value_second"] for r in here]
        rows.append(
            {
                "depth": depth,
                "colour": here[0]["colour"],
                "positions": len(here),
                "picks": len(picks),
                **kinds,
                "book_in_tree": round(statistics.fmean(r["book_in_tree"] for r in here), 3),
                "ours_minus_book": round(
                    statistics.fmean(r["after_ours"] - r["after_book"] for r in here), 4
                ),
                # the same where the first seed's pick is not a book move
                "ours_minus_book_off": [
                    round(statistics.fmean(off), 4) if off else None,
                    len(off),
                ],
                "value_second": round(statistics.fmean(second), 4),
                "value_second_range": [min(second), max(second)],
            }
        )
    return rows


def off_book(row: dict) -> str:
    mean, n = row["ours_minus_book_off"]
    return f" (off the book: {mean:+.3f}, {n})" if n else ""


def markdown(report: dict) -> str:
    lines = [
        f"Book `{report['book']}`, the first {report['depth']} moves; {report['sims']} "
        f"simulations a search, {report['threads']} thread(s), {report['scoring']} scoring; "
        f"seeds {', '.join(map(str, report['seeds']))}"
        f"{' (drawn for this run)' if report['seeds_drawn'] else ''}.",
        "",
        "| move | colour (player) | positions (of the book's) | picks | book move "
        "| corner Pentobi refuses | other | book moves the tree considers "
        "| second player's value, mean [min, max] | mover's value: our pick − the book's |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["by_depth"]:
        lo, hi = r["value_second_range"]
        n = r["picks"]
        lines.append(
            f"| {r['depth'] + 1} | {r['colour']} ({SIDE[r['colour']]}) | {r['positions']} "
            f"({report['book_positions'][str(r['depth'])]}) | {n} "
            f"| {r['book'] / n:.0%} | {r['corner'] / n:.0%} | {r['other'] / n:.0%} "
            f"| {r['book_in_tree']:.0%} | {r['value_second']:.3f} [{lo:.3f}, {hi:.3f}] "
            f"| {r['ours_minus_book']:+.3f}{off_book(r)} |"
        )
    lines += ["", "After each of the book's first moves (blue), yellow to move:", ""]
    lines += ["| blue's first move | second player's value | yellow's picks |", "|---|---|---|"]
    for r in report["results"]:
        if r["depth"] == 1:
            kinds = ", ".join(f"{p['move']} ({p['kind']})" for p in r["picks"])
            lines.append(f"| {r['line'][0]} | {r['value_second']:.3f} | {kinds} |")
    if report.get("corners"):
        lines += [
            "",
            "The corners fight: a first piece's corner at the root (means over the positions):",
            "",
            "| colour | corner | positions | free corners there | priors' mass | visits "
            "| mover's value of its most visited move there |",
            "|---|---|---|---|---|---|---|",
        ]
        for c in report["corners"]:
            lines.append(
                f"| {c['colour']} | {c['corner']} | {c['positions']} | {c['corners']:g} "
                f"| {c['prior']:.0%} "
                f"| {c['visits']:.0%} | {c['value']:.3f} |"
            )
    empty = next((r for r in report["results"] if r["depth"] == 0), None)
    if empty:
        lines += [
            "",
            f"Empty board, blue to move: the first player's value {empty['value_mover']:.3f}, "
            f"the second's {empty['value_second']:.3f}.",
        ]
    lines += [
        "",
        f"Commit {report['commit']}, {report['date']}, {report['machine']}; wall "
        f"{report['wall_s']} s; load {report['load_before']} before, {report['load_after']} "
        "after.",
        "",
        "```",
        report["command"],
        "```",
    ]
    return "\n".join(lines)


def parse_args(argv: list[str]):
    parser = argparse.ArgumentParser(prog="bench/ai/openings.py", description=__doc__)
    parser.add_argument("book", help="Pentobi's book_classic_2.blksgf (outside this repository)")
    parser.add_argument("--depth", type=int, default=8, help="book moves from the start")
    parser.add_argument("--sims", type=int, default=2000, help="simulations a search")
    parser.add_argument("--seeds", type=int, default=3, help="searches per position")
    parser.add_argument("--seed", type=int, default=None, help="default: drawn per run")
    parser.add_argument("--threads", type=int, default=1, help="search threads")
    parser.add_argument("--scoring", choices=("basic", "advanced"), default="advanced")
    parser.add_argument(
        "--per-depth",
        type=int,
        default=10,
        help="book positions at most per move number (drawn with the seed)",
    )
    parser.add_argument("--json", help="also write the report as JSON to this file")
    args = parser.parse_args(argv)
    if min(args.depth, args.sims, args.seeds, args.threads, args.per_depth) < 1:
        parser.error("--depth, --sims, --seeds, --threads and --per-depth must be positive")
    args.argv = list(argv)
    args.seed_given = args.seed is not None
    if args.seed is None:  # drawn per run (os.urandom) and written down
        args.seed = random.SystemRandom().randrange(1, 100_000)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        root = read_book(Path(args.book).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"cannot read the book {args.book}: {exc}", file=sys.stderr)
        return 2
    seeds = [args.seed * 1009 + k for k in range(args.seeds)]
    commit, load_before, started = head_commit(), load(), time.time()
    print(
        f"openings: seeds {', '.join(map(str, seeds))} "
        f"({'given' if args.seed_given else 'drawn for this run'}); commit {commit}; "
        f"load {load_before}",
        file=sys.stderr,
        flush=True,
    )
    mcts.configure(threads=args.threads)
    mcts.warm_up()
    found = positions(root, args.depth)
    index = book_index(found)
    chosen = sample(found, args.per_depth, random.Random(args.seed))
    results = [study(line, answers, args, seeds, index) for line, answers in chosen]
    again = args.argv if args.seed_given else [*args.argv, "--seed", str(args.seed)]
    report = {
        "book": Path(args.book).name,
        "depth": args.depth,
        "sims": args.sims,
        "threads": args.threads,
        "scoring": args.scoring,
        "seed": args.seed,
        "seeds": seeds,
        "seeds_drawn": not args.seed_given,
        "commit": commit,
        "date": f"{datetime.now(UTC):%Y-%m-%d}",
        "machine": machine(),
        "wall_s": round(time.time() - started, 1),
        "load_before": load_before,
        "load_after": load(),
        "command": ".venv/bin/python bench/ai/openings.py " + " ".join(again),
        "by_depth": by_depth(results),
        "corners": corners_table(results),
        "book_positions": {
            str(d): sum(len(line) == d for line, _ in found) for d in range(args.depth)
        },
        "results": results,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    print(markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
