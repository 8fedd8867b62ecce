"""A stand-in for Pentobi's ``pentobi-gtp`` in tests (tests/ai/test_pentobi_arena.py), so that
bench/ai/pentobi_arena.py's loop runs without Pentobi.

It speaks the GTP commands the bench sends, in Pentobi's dialect (pentobi_gtp/Pentobi-GTP.md):
colours ``1``–``4``, moves as squares (``a1,b1,b2``), ``final_score`` as ``B+n`` / ``W+n`` / ``0``
with two players and a list of points per colour otherwise, ``showboard`` with ``X O # @``. It
keeps the game with our own engine in Pentobi's coordinates and is as strict as Pentobi about
its rules: a colour's first piece must cover Pentobi's starting point for it (blue a20, yellow
t20, red t1, green a1) and every move must be legal. It plays random legal moves (``--seed``).

``FAKE_GTP_ILLEGAL=1`` makes its fifth ``genmove`` answer an illegal move (a piece on top of
one already on the board), for the test that the bench refuses it.

    python tests/ai/fake_gtp.py --game classic_2 --level 1 --seed 3 [--nobook] [--quiet]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import COLOURS, IllegalAction, apply, legal_placements, new_game  # noqa: E402
from games.engine.blksgf import COLOUR_NUMBER, PENTOBI_CORNER, parse  # noqa: E402
from games.engine.pieces import bit, parse_squares  # noqa: E402
from games.engine.record import replay  # noqa: E402
from games.engine.rules import placement_text  # noqa: E402
from games.engine.scoring import colour_points  # noqa: E402

PLAYERS = {"classic_2": 2, "c2": 2, "classic_3": 3, "c3": 3, "classic": 4, "c": 4}
NUMBER = {number: colour for colour, number in COLOUR_NUMBER.items()}
MARK = {"B": "X", "Y": "O", "R": "#", "G": "@", ".": "."}


class Refused(Exception):
    pass


class Fake:
    def __init__(self, players: int, seed: int):
        self.players = players
        self.rng = random.Random(seed)
        self.genmoves = 0
        self.state = new_game(mode="classic", players=players, scoring="advanced")

    def colour(self, arg: str) -> int:
        if arg not in NUMBER:
            raise Refused(f"invalid color argument '{arg}'")
        return COLOURS.index(NUMBER[arg])

    def options(self, colour: int) -> list[int]:
        """Legal placements of ``colour`` now (none unless it is the colour to move)."""
        if self.state.over or self.state.turn != colour:
            return []
        values = sorted(legal_placements(self.state))
        if self.state.step == "setup":  # Pentobi: the first piece covers the starting point
            x, y = PENTOBI_CORNER[COLOURS[colour]]
            values = [v for v in values if v & bit(x, y)]
        return values

    def play(self, colour: int, text: str) -> None:
        try:
            mask = parse_squares(text)
        except ValueError:
            raise Refused("invalid move") from None
        if self.state.over or self.state.turn != colour:
            raise Refused("illegal move")  # stricter than Pentobi: only the colour to move
        if self.state.step == "setup" and not mask & bit(*PENTOBI_CORNER[COLOURS[colour]]):
            raise Refused("illegal move")  # Pentobi: the first piece covers the starting point
        try:
            self.state = apply(self.state, {"place": text})
        except IllegalAction:
            raise Refused("illegal move") from None

    def genmove(self, colour: int) -> str:
        self.genmoves += 1
        if os.environ.get("FAKE_GTP_ILLEGAL") == "1" and self.genmoves == 5:
            on_board = self.state.pieces[colour][0]  # its own first piece: overlaps the board
            return placement_text(on_board)
        values = self.options(colour)
        if not values:
            return "pass"
        text = placement_text(self.rng.choice(values))
        self.state = apply(self.state, {"place": text})
        return text

    def final_score(self) -> str:
        points = [89 + colour_points(self.state, c) for c in range(4)]
        if self.players > 2:
            return " ".join(map(str, points))
        diff = points[0] + points[2] - points[1] - points[3]
        return f"B+{diff}" if diff > 0 else f"W+{-diff}" if diff < 0 else "0"

    def showboard(self) -> str:
        rows = self.state.board_rows()
        lines = [""]
        for i, row in enumerate(rows):
            label = 20 - i
            lines.append(f"{label:2d} " + " ".join(MARK[m] for m in row) + f" {label}")
        lines.append("   " + " ".join("ABCDEFGHIJKLMNOPQRST"))
        return "\n".join(lines)

    def all_legal(self, colour: int) -> str:
        return "\n".join(placement_text(v) for v in self.options(colour))

    def loadsgf(self, path: str) -> None:
        try:
            record = parse(Path(path).read_bytes())
        except (OSError, ValueError) as exc:
            raise Refused(str(exc)) from None
        if record["players"] != self.players:
            raise Refused("wrong game variant")
        record["scoring"] = "advanced"
        self.state = replay(record)

    def handle(self, line: str) -> str | None:
        name, *args = line.split()
        if name == "quit":
            return None
        if name == "name":
            return "Fake Pentobi"
        if name == "version":
            return "0.0-fake"
        if name == "clear_board":  # the bot bridge sets each decision's position up anew
            self.state = new_game(mode="classic", players=self.players, scoring="advanced")
            return ""
        if name == "play":
            self.play(self.colour(args[0]), args[1])
            return ""
        if name == "genmove":
            return self.genmove(self.colour(args[0]))
        if name == "all_legal":
            return self.all_legal(self.colour(args[0]))
        if name == "final_score":
            return self.final_score()
        if name == "showboard":
            return self.showboard()
        if name == "loadsgf":
            self.loadsgf(args[0])
            return ""
        raise Refused("unknown command")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", "-g", default="classic")
    parser.add_argument("--level", "-l", type=int, default=4)
    parser.add_argument("--seed", "-r", type=int, default=0)
    parser.add_argument("--book")
    for flag in ("--nobook", "--noresign", "--quiet"):
        parser.add_argument(flag, action="store_true")
    args = parser.parse_args()
    fake = Fake(PLAYERS[args.game], args.seed)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = fake.handle(line.strip())
        except Refused as exc:
            sys.stdout.write(f"? {exc}\n\n")
        else:
            sys.stdout.write(f"= {answer or ''}\n\n")
            if answer is None:
                break
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
