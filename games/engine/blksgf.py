"""Pentobi's game files (``.blksgf``) for classic games: export a record, import one back.

Pentobi (the Blokus program players use for analysis) reads and writes a dialect of SGF,
described in its source as ``Pentobi-SGF.md``. Its classic variants are ``Blokus`` (four
players), ``Blokus Two-Player`` (two players, four colours: player B has colours 1 and 3, W has 2
and 4, as in R2.3) and ``Blokus Three-Player`` (the fourth colour shared, as in R2.4). Moves are
written ``1[a20,b20,b19]`` with the colour's number (1 blue, 2 yellow, 3 red, 4 green) and the
squares it covers, ``a1`` the lower left corner as in R1.1.

Decisions written down here (RULES.md and RECORD.md do not cover Pentobi's files):

- Pentobi's colours start in fixed corners (blue a20, yellow t20, red t1, green a1); here each
  colour chooses a free corner in the setup round (R3.1). A game is exported under the board
  symmetry (one of the square's eight) that takes every colour's chosen corner to Pentobi's; the
  picture is turned or mirrored, the game is the same. A game whose corners no symmetry matches
  (blue and yellow diagonally opposite, say) is written as it was played, with the setup round's
  pieces as setup properties of the root node (``A1`` ... ``A4``, one piece each, and ``PL`` for
  the colour to move after them, Pentobi-SGF.md "Setup Properties"): Pentobi then sets up the
  position instead of checking the corners. Every classic game can be written so.
- Only classic games: Pentobi knows no cards. A Shuffle game is refused.
- A three-player game whose shared colour is not green is refused: Pentobi always shares colour 4.
- Import reads the main line (the first variation at every branch), ignores comments, names and
  other properties, reads the root node's setup round as written above (one piece per colour,
  checked as the setup placements, R3.1) and refuses any other setup property (``AB``, ``AE``, a
  setup after the root: a position not reached by moves), and checks every move with the
  engine, so a file whose moves break a rule, or in which a colour passes while it could still
  place (R5.3), is refused with the move's number and the rule.
"""

from __future__ import annotations

import re

from .errors import IllegalAction, RecordError
from .record import FORMAT, initial_state
from .rules import apply
from .view import view

VARIANTS = {4: "Blokus", 2: "Blokus Two-Player", 3: "Blokus Three-Player"}
PLAYERS = {name: players for players, name in VARIANTS.items()}
COLOUR_NUMBER = {"blue": "1", "yellow": "2", "red": "3", "green": "4"}
NUMBER_COLOUR = {number: colour for colour, number in COLOUR_NUMBER.items()}
# Pentobi's fixed starting corners, (column, row) from 0: blue a20, yellow t20, red t1, green a1.
PENTOBI_CORNER = {"blue": (0, 19), "yellow": (19, 19), "red": (19, 0), "green": (0, 0)}
CORNERS = set(PENTOBI_CORNER.values())
SETUP_PROPERTIES = {"AB", "AW", "AE", "A1", "A2", "A3", "A4"}

# The eight symmetries of the 20 x 20 board, as functions of (column, row).
SYMMETRIES = (
    lambda x, y: (x, y),
    lambda x, y: (19 - x, y),
    lambda x, y: (x, 19 - y),
    lambda x, y: (19 - x, 19 - y),
    lambda x, y: (y, x),
    lambda x, y: (19 - y, x),
    lambda x, y: (y, 19 - x),
    lambda x, y: (19 - y, 19 - x),
)


def _inverse(i: int) -> int:
    f = SYMMETRIES[i]
    return next(
        j
        for j, g in enumerate(SYMMETRIES)
        if all(g(*f(x, y)) == (x, y) for x, y in ((1, 2), (3, 7)))
    )


INVERSE = tuple(_inverse(i) for i in range(len(SYMMETRIES)))  # SYMMETRIES[INVERSE[i]] undoes i


class ExportError(ValueError):
    """The game cannot be written as a Pentobi file (the message says why)."""


def _square(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"([a-t])([1-9]|1[0-9]|20)", text.strip().lower())
    if not match:
        raise RecordError(f"{text!r} is not a square of the 20 x 20 board (R1.1)")
    return ord(match.group(1)) - ord("a"), int(match.group(2)) - 1


def _name(x: int, y: int) -> str:
    return f"{chr(ord('a') + x)}{y + 1}"


def placements(record: dict) -> list[tuple[str, str]]:
    """Every placement of a classic record as (colour, squares), in the order played."""
    if record.get("mode") != "classic":
        raise ExportError("only classic games can be written for Pentobi (it has no cards)")
    state = initial_state(record)
    moves = []
    for index, action in enumerate(record["actions"]):
        colour = view(state, None)["to_move"]
        try:
            state = apply(state, action)
        except IllegalAction as exc:
            raise RecordError(f"action {index}: {exc}") from None
        if "resign" not in action:  # Pentobi has no resignation: the file ends with the moves
            moves.append((colour, action["place"]))
    return moves


def _symmetry(moves: list[tuple[str, str]]):
    """The board symmetry taking each colour's setup corner to Pentobi's corner for it."""
    chosen = {}
    for colour, squares in moves:
        if colour not in chosen:
            covered = {_square(s) for s in squares.split(",")}
            chosen[colour] = next(iter(covered & CORNERS))  # R3.1: the setup covers a corner
    for symmetry in SYMMETRIES:
        if all(symmetry(*corner) == PENTOBI_CORNER[c] for c, corner in chosen.items()):
            return symmetry
    raise ExportError(
        "Pentobi starts blue, yellow, red and green in the corners clockwise from the top left; "
        "no turn or mirror image of this board puts the colours' chosen corners that way round"
    )


def _setup_round(moves: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The setup round (R3.1): the first placement of each colour, which are the game's first."""
    setup: list[tuple[str, str]] = []
    for colour, squares in moves:
        if any(colour == done for done, _ in setup):
            break
        setup.append((colour, ",".join(_name(*_square(s)) for s in squares.split(","))))
    return setup


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def export(record: dict, *, names: list[str] | None = None, date: str = "") -> str:
    """A finished or unfinished classic record as the text of a ``.blksgf`` file."""
    players = record.get("players")
    shared = record.get("shared_color", "green")
    if record.get("mode") == "classic" and players == 3 and shared != "green":
        raise ExportError("Pentobi's three-player game always shares green (colour 4)")
    moves = placements(record)
    try:
        symmetry, setup = _symmetry(moves), []
    except ExportError:  # corners no symmetry matches: the setup round in the root node
        symmetry, setup = (lambda x, y: (x, y)), _setup_round(moves)
        moves = moves[len(setup) :]
    head = f"(;FF[4]CA[UTF-8]AP[Blokus Shuffle]GM[{VARIANTS[players]}]"
    if names and players == 2:
        head += f"PB[{_escape(names[0])}]PW[{_escape(names[1])}]"
    elif names:
        head += "".join(f"P{i}[{_escape(name)}]" for i, name in enumerate(names, start=1))
    if date:
        head += f"DT[{_escape(date)}]"
    if setup:
        head += "".join(f"A{COLOUR_NUMBER[colour]}[{squares}]" for colour, squares in setup)
        head += f"PL[{COLOUR_NUMBER[moves[0][0]] if moves else '1'}]"
    lines = [head]
    for colour, squares in moves:
        mapped = (symmetry(*_square(s)) for s in squares.split(","))
        lines.append(f";{COLOUR_NUMBER[colour]}[{','.join(_name(x, y) for x, y in mapped)}]")
    return "\n".join(lines) + ")\n"


# -- import ------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(\()|(\))|(;)|([A-Za-z0-9]+)((?:\s*\[(?:[^\]\\]|\\.)*\])+))", re.S)
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.S)


def sgf_tokens(text: str):
    """The SGF file's tokens in order: (open, close, node, property, its values) with one of
    them set (bench/ai/openings.py reads a whole opening book's tree with them)."""
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position == len(text):
            return
        match = _TOKEN.match(text, position)
        if not match:
            raise RecordError(f"the file is not SGF (at character {position})")
        position = match.end()
        yield match.groups()


def sgf_values(values: str) -> list[str]:
    """A property's values (``[a][b]``), unescaped."""
    return [v.replace("\\]", "]").replace("\\\\", "\\") for v in _VALUE.findall(values)]


def _main_line(text: str) -> list[dict[str, list[str]]]:
    """The nodes of the game tree's main line (the first variation at every branch): each a dict
    of property -> values. Side variations are read over and dropped."""
    nodes: list[dict[str, list[str]]] = []
    depth = 0  # open parentheses
    side = 0  # > 0 while inside a variation that is not the main line
    branch_done = False  # the main line went down one variation at this depth: others are side
    for opened, closed, node, ident, values in sgf_tokens(text):
        if opened:
            if side or branch_done:
                side += 1
            depth += 1
        elif closed:
            depth -= 1
            if side:
                side -= 1
            else:
                branch_done = True  # back up from the main line: what follows is a side line
            if depth < 0:
                raise RecordError("the file is not SGF (unbalanced parentheses)")
        elif side:
            continue
        elif node:
            nodes.append({})
        elif ident:
            if not nodes:
                raise RecordError("the file is not SGF (a property before the first node)")
            parsed = sgf_values(values)
            nodes[-1].setdefault(ident.upper(), []).extend(parsed)
    if depth != 0:
        raise RecordError("the file is not SGF (unbalanced parentheses)")
    if not nodes:
        raise RecordError("the file holds no game")
    return nodes


def parse(text: str | bytes) -> dict:
    """A ``.blksgf`` file's text → a ``blokus-record/1`` classic record, checked move by move."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("a Pentobi file must be UTF-8") from None
    nodes = _main_line(text)
    variant = (nodes[0].get("GM") or [""])[0].strip()
    if variant not in PLAYERS:
        raise RecordError(
            f"game {variant!r} is not one of Pentobi's classic variants ({', '.join(PLAYERS)})"
        )
    record = {"format": FORMAT, "mode": "classic", "players": PLAYERS[variant], "actions": []}
    state = initial_state(record)
    number = 0
    state = _read_setup_round(nodes[0], state, record)
    for index, node in enumerate(nodes):
        if SETUP_PROPERTIES & node.keys() and (index or not _is_setup_round(node)):
            raise RecordError("the file sets up a position; only games played move by move load")
        for ident in ("1", "2", "3", "4"):
            for squares in node.get(ident, []):
                number += 1
                colour = NUMBER_COLOUR[ident]
                placed = ",".join(_name(*_square(s)) for s in squares.split(","))
                to_move = view(state, None)["to_move"]
                if colour != to_move:
                    raise RecordError(
                        f"move {number}: {colour} moves while {to_move} can still place "
                        "(R5.3: a pass is never a choice while a placement exists)"
                    )
                try:
                    state = apply(state, {"place": placed})
                except IllegalAction as exc:
                    raise RecordError(f"move {number}: {exc}") from None
                record["actions"].append({"place": placed})
    return record


def _is_setup_round(node: dict[str, list[str]]) -> bool:
    """A root node whose setup is one piece per colour (A1 ... A4), as export writes it."""
    found = SETUP_PROPERTIES & node.keys()
    return found <= {"A1", "A2", "A3", "A4"} and all(len(node[key]) == 1 for key in found)


def _read_setup_round(node: dict[str, list[str]], state, record: dict):
    """Play the root node's setup pieces as the setup round, in turn order (R3.1 checks each)."""
    if not SETUP_PROPERTIES & node.keys() or not _is_setup_round(node):
        return state
    for number in ("1", "2", "3", "4"):
        if f"A{number}" not in node:
            continue
        colour = NUMBER_COLOUR[number]
        placed = ",".join(_name(*_square(s)) for s in node[f"A{number}"][0].split(","))
        to_move = view(state, None)["to_move"]
        if colour != to_move:
            raise RecordError(f"setup: {colour}'s piece is set up while {to_move} is to place")
        try:
            state = apply(state, {"place": placed})
        except IllegalAction as exc:
            raise RecordError(f"setup of {colour}: {exc}") from None
        record["actions"].append({"place": placed})
    return state
