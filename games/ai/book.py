"""The opening book: the first placements of two-player games, chosen by our own long searches.

Expert and Master look a position up here before they search (``expert.expert_action``); a
position the book does not hold, or a book move that is not legal there, is searched as usual.

* **What it holds.** For each game it covers (``book_name``: classic or Shuffle, two players,
  free corners as on the site (R3.1) or the fixed corners of the Pentobi arena,
  ``MctsParams.fixed_corners``), the positions of the first plies reached by the book's own
  lines and the likeliest replies to them, each with the placement a long search chose there.
  ``bench/ai/make_book.py`` builds it from our search alone (each simulation a game our playout
  policy plays against itself; no other program's book) and writes ``opening_book.json`` next
  to this module with the command, commit and simulation count that made it.
* **Symmetry.** A position is stored once for its eight board symmetries (turns and mirror
  images): its key is the smallest of its eight texts (``position_key``), and the move is
  stored as seen in that symmetry and turned back on the way out. Not in the fixed-corner game,
  where a symmetry would move a colour off its corner.
* **Shuffle.** Only the setup round (R3.1, R3.2: no card is played before every colour has its
  first piece), where the position is the placements alone; the search values it as Shuffle
  does (two players: the worse colour's score, R8.3). Later, the hands decide and no book can.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from games.engine import apply, new_game
from games.engine.blksgf import INVERSE, SYMMETRIES
from games.engine.pieces import COLUMNS
from games.engine.rules import legal_placements, placement_text

BOOK_FILE = Path(__file__).with_name("opening_book.json")


def book_name(state, fixed_corners: bool) -> str | None:
    """The book a position belongs to (``"classic-2-free"``…), or None where no book can be:
    three and four players, and Shuffle after its setup round."""
    if state.players != 2:
        return None
    if state.mode == "shuffle" and state.step != "setup":
        return None
    return f"{state.mode}-2-{'fixed' if fixed_corners else 'free'}"


def _cells(text: str) -> list[tuple[int, int]]:
    return [(COLUMNS.index(part[0]), int(part[1:]) - 1) for part in text.split(",")]


def _text(cells) -> str:
    """Squares as the record writes them, column by column (``placement_text``)."""
    return ",".join(f"{COLUMNS[x]}{y + 1}" for x, y in sorted(cells))


def _seen(texts: list[list[str]], k: int) -> str:
    f = SYMMETRIES[k]
    return "|".join(
        ";".join(_text(f(x, y) for x, y in _cells(t)) for t in colour) for colour in texts
    )


def position_key(state, fixed_corners: bool = False) -> tuple[str, int]:
    """The position's key (its placements, colour by colour in the order played, as seen in the
    symmetry whose text is the smallest) and that symmetry's index in ``SYMMETRIES``. In the
    fixed-corner game (``MctsParams.fixed_corners``) each colour has its own corner, which a
    symmetry would move: the position is its own key."""
    texts = [[placement_text(v) for v in state.pieces[c]] for c in range(4)]
    symmetries = (0,) if fixed_corners else range(len(SYMMETRIES))
    return min((_seen(texts, k), k) for k in symmetries)


def from_key_frame(move: str, k: int) -> str:
    """A move stored in the key's symmetry ``k``, as seen on the game's board."""
    g = SYMMETRIES[INVERSE[k]]
    return _text(g(x, y) for x, y in _cells(move))


def to_key_frame(move: str, k: int) -> str:
    """A move on the game's board, as seen in the key's symmetry ``k``."""
    f = SYMMETRIES[k]
    return _text(f(x, y) for x, y in _cells(move))


@cache
def _books(path: str) -> dict:
    file = Path(path)
    if not file.exists():
        return {}
    return json.loads(file.read_text())["books"]


def book_move(state, *, fixed_corners: bool = False, path: Path | None = None) -> int | None:
    """The book's placement (an engine value) for the colour to move, or None: not a book
    position, or the stored move is not legal here (it never should be: then the search
    decides, as without a book)."""
    name = book_name(state, fixed_corners)
    if name is None:
        return None
    entries = _books(str(path or BOOK_FILE)).get(name, {}).get("positions")
    if not entries:
        return None
    key, k = position_key(state, fixed_corners)
    entry = entries.get(key)
    if entry is None:
        return None
    wanted = from_key_frame(entry["move"], k)
    for value in legal_placements(state):
        if placement_text(value) == wanted:
            return value
    return None


def position_of(key: str, mode: str = "classic", seed: int = 0):
    """The two-player position a key names, its placements played in turn order (blue,
    yellow, red, green; every colour still places in a book's first plies)."""
    colours = [part.split(";") if part else [] for part in key.split("|")]
    state = new_game(mode=mode, players=2, scoring="advanced", seed=seed)
    for i in range(max(len(c) for c in colours)):
        for c in range(4):
            if i < len(colours[c]):
                state = apply(state, {"place": colours[c][i]})
    return state
