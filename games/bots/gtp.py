"""The GTP side of the bridge: a GTP engine in a child process, and the board's coordinates and
colours as Pentobi has them (its dialect: pentobi_gtp/Pentobi-GTP.md).

The mapping is bench/ai/pentobi_arena.py's, copied here because the bridge is a program of the
site's own package and the benchmark is not: colours ``1``-``4`` (games.engine.blksgf's
COLOUR_NUMBER), moves as the squares a piece covers (``a1,b1,b2``), and Pentobi's fixed starting
corners (blue a20, yellow t20, red t1, green a1), met by one of the board's eight symmetries
chosen as the colours take their corners (``BoardMap``). A game whose first pieces no symmetry
can take to Pentobi's corners (red must start opposite blue, yellow next to blue) cannot be told
to Pentobi: ``NoMapping``, and the bridge's own level plays it.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading

from games.engine.blksgf import COLOUR_NUMBER, INVERSE, PENTOBI_CORNER, SYMMETRIES
from games.engine.pieces import W, parse_square, square_name

Cell = tuple[int, int]  # (column, row) from 0: a1 is (0, 0), t20 is (19, 19), as in R1.1

VARIANT = {2: "classic_2", 3: "classic_3", 4: "classic"}  # pentobi-gtp --game
CORNER_CELLS = frozenset(PENTOBI_CORNER.values())
COMMAND_TIMEOUT = 900.0  # seconds for one GTP answer: a strong level thinks for minutes


class GtpError(RuntimeError):
    """The engine refused a command, answered nonsense or stopped."""


class NoMapping(RuntimeError):
    """The game's position cannot be put to the engine (no symmetry fits its corners)."""


def parse_move(text: str) -> list[Cell]:
    """Pentobi's move text (``a1,b1,b2``: the squares a piece covers, any order, any case)."""
    cells = []
    for part in text.strip().lower().split(","):
        try:
            index = parse_square(part)
        except ValueError:
            raise GtpError(f"{text!r} is not a move: {part!r} is not a square a1..t20") from None
        cells.append((index % W, index // W))
    if not 1 <= len(cells) <= 5 or len(set(cells)) != len(cells):
        raise GtpError(f"{text!r} is not a move: a piece covers 1 to 5 distinct squares (R1.3)")
    return cells


def format_move(cells) -> str:
    """Cells as Pentobi writes a move: squares in its order a1, b1, ..., a2, ... (Pentobi-SGF)."""
    return ",".join(square_name(x, y) for x, y in sorted(cells, key=lambda c: (c[1], c[0])))


class BoardMap:
    """The symmetry that takes our board to Pentobi's, narrowed down move by move (``left``:
    the symmetries that take every move so far to the move Pentobi has, and every first piece
    to its colour's starting point; moves are mapped with the first of them)."""

    def __init__(self):
        self.left = list(range(len(SYMMETRIES)))

    def to_pentobi(self, cells) -> list[Cell]:
        f = SYMMETRIES[self.left[0]]
        mapped = [f(x, y) for x, y in cells]
        self.keep(cells, mapped)
        return mapped

    def from_pentobi(self, cells) -> list[Cell]:
        g = SYMMETRIES[INVERSE[self.left[0]]]
        mapped = [g(x, y) for x, y in cells]
        self.keep(mapped, cells)
        return mapped

    def keep(self, ours, theirs) -> None:
        want = sorted(theirs)
        self.left = [i for i in self.left if sorted(SYMMETRIES[i](*c) for c in ours) == want]
        if not self.left:
            raise NoMapping(f"no symmetry takes {format_move(ours)} to {format_move(theirs)}")

    def allowed_corners(self, colour: str) -> list[Cell]:
        """Our corners where ``colour``'s first piece lands on Pentobi's starting point."""
        target = PENTOBI_CORNER[colour]
        return sorted({SYMMETRIES[INVERSE[i]](*target) for i in self.left})

    def first_piece(self, colour: str, cells) -> None:
        """Before mapping ``colour``'s first piece: keep the symmetries that take its corner to
        Pentobi's starting point for the colour."""
        corners = set(cells) & CORNER_CELLS
        target = PENTOBI_CORNER[colour]
        self.left = [i for i in self.left if any(SYMMETRIES[i](*c) == target for c in corners)]
        if not self.left:
            raise NoMapping(
                f"{colour}'s first piece {format_move(cells)} is on a corner Pentobi's rules "
                "do not allow after the others"
            )


def play_commands(placements: list[tuple[str, str]]) -> tuple[list[str], BoardMap]:
    """The GTP commands that set up a game from its placements so far (colour, squares), in
    order, and the board map they fix: ``clear_board`` then a ``play`` per placement."""
    board_map = BoardMap()
    started: set[str] = set()
    commands = ["clear_board"]
    for colour, squares in placements:
        cells = parse_move(squares)
        if colour not in started:
            board_map.first_piece(colour, cells)
            started.add(colour)
        mapped = board_map.to_pentobi(cells)
        commands.append(f"play {COLOUR_NUMBER[colour]} {format_move(mapped)}")
    return commands, board_map


def answer_move(answer: str, colour: str, board_map: BoardMap, first: bool) -> str:
    """The engine's ``genmove`` answer as our move's squares (``a1,b1``), on our board."""
    if answer.strip().lower() in ("pass", "resign", ""):
        raise GtpError(f"the engine answered {answer!r} for {colour}: it must place a piece")
    cells = board_map.from_pentobi(parse_move(answer))
    if first and not set(cells) & set(board_map.allowed_corners(colour)):
        raise GtpError(f"the engine's first {colour} piece {answer} is off its starting point")
    return format_move(cells)


def engine_argv(command: list[str], players: int) -> list[str]:
    """The engine's command for a game of ``players``: ``{variant}`` in it becomes Pentobi's
    variant (classic_2, classic_3, classic); without it, ``--game <variant>`` is added, as
    ``pentobi-gtp`` takes it."""
    variant = VARIANT[players]
    if any("{variant}" in part for part in command):
        return [part.replace("{variant}", variant) for part in command]
    return [*command, "--game", variant]


class Gtp:
    """A GTP engine in a child process: ``send(command)`` returns the answer or raises."""

    def __init__(self, argv: list[str], *, timeout: float = COMMAND_TIMEOUT):
        self.argv = argv
        self.timeout = timeout
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise GtpError(f"cannot start {argv[0]}: {exc}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _line(self, command: str) -> str:
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise GtpError(f"no answer to {command!r} within {self.timeout:.0f} s") from None
        if line is None:
            status = self.proc.wait()
            raise GtpError(f"{self.argv[0]} stopped (exit status {status}) after {command!r}")
        return line

    def send(self, command: str) -> str:
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise GtpError(f"{self.argv[0]} is not running (sending {command!r})") from None
        first = self._line(command)
        while not first.strip():  # GTP: empty lines before an answer are ignored
            first = self._line(command)
        body = [first[1:].strip()]
        while line := self._line(command):
            body.append(line)
        text = "\n".join(body).strip("\n")
        if first.startswith("?"):
            raise GtpError(f"{command!r} refused: {text.strip()}")
        if not first.startswith("="):
            raise GtpError(f"{command!r}: not a GTP answer: {first!r}")
        return text

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(GtpError):
                self.send("quit")
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
