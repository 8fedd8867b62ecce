"""One analysed game told in words: each player's biggest mistakes from a run of
``analysis_speed.py --json``, with what the move played and the best move found each leave on
the board.

For every listed mistake it prints the turn, the piece and squares played and the best ones, the
player's estimate after each (the analysis's ``before`` and ``after``), and, after each of the
two, every colour's corner squares (the free squares where R4 lets it start a piece): a mistake
in Blokus often shows as corners given up or left open to the other side. The board
after the move played is drawn with the played piece's squares marked ``*`` and the best move's
squares ``+``.

    .venv/bin/python bench/ai/analysis_story.py out/analysis42/run.json [--game 0] [--run 0]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from analysis_speed import game, ranked  # noqa: E402

from games.ai.judge import DecisionResult, describe  # noqa: E402
from games.engine import apply  # noqa: E402
from games.engine.moves import r4_context  # noqa: E402
from games.engine.pieces import W, parse_squares, squares_of  # noqa: E402
from games.engine.state import COLOURS  # noqa: E402


def corners(s) -> dict[str, int]:
    """Each colour's corner squares: the free squares where R4 lets it start a piece."""
    return {
        name: r4_context(s.boards[c], s.occupied)[0].bit_count()
        for c, name in enumerate(COLOURS[: len(s.boards)])
    }


def squares(action: dict) -> set[int]:
    text = action.get("place")
    return set(squares_of(parse_squares(text))) if text else set()


def board(s, played: dict, best: dict) -> str:
    rows = s.board_rows()  # row 20 first, one letter a colour, "." empty
    mine, other = squares(played), squares(best)
    lines = []
    for r, row in enumerate(rows):
        y = 19 - r
        cells = []
        for x, mark in enumerate(row):
            i = y * W + x
            cells.append("*" if i in mine else "+" if i in other and mark == "." else mark)
        lines.append(f"{y + 1:2d} " + " ".join(cells))
    lines.append("   " + " ".join("abcdefghijklmnopqrst"))
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", type=Path)
    parser.add_argument("--game", type=int, default=0, help="the game's index in the file")
    parser.add_argument("--run", type=int, default=0, help="which of the two analyses")
    parser.add_argument("--boards", action="store_true", help="draw the board at each mistake")
    args = parser.parse_args(argv)
    data = json.loads(args.json.read_text())
    entry = data["games"][args.game]
    mode, players = entry["game"].split()
    start, actions = game(mode, int(players.rstrip("p")), entry["seed"])
    results = [DecisionResult(**r) for r in entry["runs"][args.run]["results"]]
    other = [DecisionResult(**r) for r in entry["runs"][1 - args.run]["results"]]
    states = [start]
    for action in actions:
        states.append(apply(states[-1], action))
    print(f"{entry['game']} game, seed {entry['seed']}, analysis run {args.run} of the file")
    for seat in sorted({r.seat for r in results if r.judged}):
        mine, theirs = ranked(results, seat), ranked(other, seat)
        print(f"\nSeat {seat}: biggest mistakes {mine[:3]} (the other run: {theirs[:3]})")
        for ply in mine[:3]:
            r = results[ply - 1]
            before_state = states[ply - 1]
            after_played = apply(before_state, r.played)
            after_best = apply(before_state, r.best)
            p, b = describe(r.played), describe(r.best)
            print(
                f"- action {ply} ({r.colour}, {r.step}): played {p.get('piece', p.get('value'))} "
                f"at {r.played.get('place', r.played)}; best {b.get('piece', b.get('value'))} at "
                f"{r.best.get('place', r.best)}; estimate {100 * r.before:.0f} % with the best, "
                f"{100 * r.after:.0f} % after the move played: {100 * r.loss:.0f} points "
                f"({r.sims} simulations)"
            )
            cp, cb = corners(after_played), corners(after_best)
            print(
                "    corner squares after the move played / after the best: "
                + ", ".join(f"{name} {cp[name]} / {cb[name]}" for name in cp)
            )
            if args.boards:
                print(board(after_played, r.played, r.best))


if __name__ == "__main__":
    main()
