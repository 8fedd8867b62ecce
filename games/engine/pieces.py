"""The 21 pieces (R1.3), their orientations, and the board geometry as bitboards.

A square ``(x, y)`` has column ``x`` (0 = ``a`` … 19 = ``t``) and row ``y`` (0 = row ``1`` … 19 =
row ``20``), as in R1.1. Bitboards are Python ints: square ``(x, y)`` is bit ``y * W + x`` with
``W = 21``; the 21st column is padding that is never part of the board, so that shifting a
bitboard by one column cannot wrap a square onto the next row.
"""

from __future__ import annotations

SIZE = 20
W = SIZE + 1  # one padding column per row (see module docstring)
BOARD = sum(((1 << SIZE) - 1) << (y * W) for y in range(SIZE))
COLUMNS = "abcdefghijklmnopqrst"

# R1.3 — every piece as (x, y) squares; names as in the rule book's table.
SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "1": ((0, 0),),
    "2": ((0, 0), (1, 0)),
    "I3": ((0, 0), (1, 0), (2, 0)),
    "V3": ((0, 0), (1, 0), (0, 1)),
    "I4": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "O": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "T4": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "L4": ((0, 0), (1, 0), (2, 0), (0, 1)),
    "Z4": ((0, 0), (1, 0), (1, 1), (2, 1)),
    "F": ((1, 0), (2, 0), (0, 1), (1, 1), (1, 2)),
    "I5": ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
    "L5": ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1)),
    "N": ((0, 0), (1, 0), (2, 0), (2, 1), (3, 1)),
    "P": ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)),
    "T5": ((0, 0), (1, 0), (2, 0), (1, 1), (1, 2)),
    "U": ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1)),
    "V5": ((0, 0), (1, 0), (2, 0), (0, 1), (0, 2)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
    "Y": ((0, 0), (1, 0), (2, 0), (3, 0), (1, 1)),
    "Z5": ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2)),
}
PIECES: tuple[str, ...] = tuple(SHAPES)
PIECE_INDEX = {name: i for i, name in enumerate(PIECES)}
PIECE_SIZE = {name: len(cells) for name, cells in SHAPES.items()}
ALL_PIECES_MASK = (1 << len(PIECES)) - 1

# Placements are ints: the squares' bitboard, plus one bit above the board naming the piece, so
# that one AND against "forbidden squares | pieces not in supply" checks both at once.
PIECE_SHIFT = SIZE * W


def bit(x: int, y: int) -> int:
    return 1 << (y * W + x)


def square_name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def parse_square(text: str) -> int:
    """Return the bit index of a square such as ``k10``; raise ValueError if it is not one."""
    text = text.strip()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        raise ValueError(f"unknown square {text!r} (R1.1)")
    x, y = COLUMNS.index(text[0]), int(text[1:]) - 1
    if not 0 <= y < SIZE or text[1] == "0":
        raise ValueError(f"unknown square {text!r} (R1.1)")
    return y * W + x


def parse_squares(text: str) -> int:
    """The board mask of a record's squares (``a1,b1,b2``); ValueError if malformed (R1.1)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("squares must be a string such as 'a1,b1,b2' (R1.1)")
    mask = 0
    for part in text.split(","):
        b = 1 << parse_square(part)
        if mask & b:
            raise ValueError(f"square {part.strip()} is listed twice (R1.3)")
        mask |= b
    return mask


def squares_of(mask: int) -> list[int]:
    """Bit indices set in a board mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def sort_key(index: int) -> tuple[int, int]:
    # Squares are listed by column, then row: a1, a2, …, a20, b1, …
    return (index % W, index // W)


def mask_text(mask: int) -> str:
    """A board mask as the record's comma-separated squares, column by column (a1, a2, …, b1)."""
    cells = squares_of(mask & BOARD)
    cells.sort(key=_COLUMN_FIRST.__getitem__)
    return ",".join([_NAME[i] for i in cells])


# mask_text's tables, by bit index (it names every legal placement of a panel):
# a square's name, and its place when squares are listed column by column.
_NAME = [square_name(i % W, i // W) if i % W < SIZE else "" for i in range(SIZE * W)]
_COLUMN_FIRST = [(i % W) * SIZE + i // W for i in range(SIZE * W)]


# A placement's text, cached per process: every legal placement a panel lists and every piece a
# snapshot holds is named again and again, and a value's text never changes.
_TEXT: dict[int, str] = {}
_PIECE_OF_TEXT: dict[str, str] = {}


def placement_text(value: int) -> str:
    """A placement value's record text (its squares, ``mask_text``)."""
    text = _TEXT.get(value)
    if text is None:
        text = _TEXT[value] = mask_text(value & BOARD)
        _PIECE_OF_TEXT[text] = PIECES[(value >> PIECE_SHIFT).bit_length() - 1]
    return text


def placement_piece(text: str) -> str | None:
    """The piece of a placement text that ``placement_text`` wrote (its value names the piece:
    no shape to normalise); None for a text it has not written."""
    return _PIECE_OF_TEXT.get(text)


def normalize(cells) -> tuple[tuple[int, int], ...]:
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


def orientations(cells) -> list[tuple[tuple[int, int], ...]]:
    """Every distinct rotation and mirror image of a shape (R1.3)."""
    seen: list[tuple[tuple[int, int], ...]] = []
    current = list(cells)
    for flip in (False, True):
        shape = [(-x, y) for x, y in current] if flip else current
        for _ in range(4):
            shape = [(y, -x) for x, y in shape]
            norm = normalize(shape)
            if norm not in seen:
                seen.append(norm)
    return seen


ORIENTATIONS: dict[str, list[tuple[tuple[int, int], ...]]] = {
    name: orientations(cells) for name, cells in SHAPES.items()
}
# Every orientation's normalized shape → piece name: recognises a piece from its squares.
SHAPE_NAME: dict[tuple[tuple[int, int], ...], str] = {
    shape: name for name, shapes in ORIENTATIONS.items() for shape in shapes
}


def shape_of_mask(mask: int) -> str | None:
    """The piece whose shape these squares form, or None if they form none (R1.3)."""
    cells = [(i % W, i // W) for i in squares_of(mask)]
    if not cells or len(cells) > 5:
        return None
    return SHAPE_NAME.get(normalize(cells))


def _build_tables():
    placements: list[int] = []  # every placement of every piece anywhere on the board
    by_cell: list[list[int]] = [[] for _ in range(PIECE_SHIFT)]
    for name in PIECES:
        tag = 1 << (PIECE_SHIFT + PIECE_INDEX[name])
        for shape in ORIENTATIONS[name]:
            width = max(x for x, _ in shape) + 1
            height = max(y for _, y in shape) + 1
            for oy in range(SIZE - height + 1):
                for ox in range(SIZE - width + 1):
                    idxs = [(oy + y) * W + ox + x for x, y in shape]
                    value = sum(1 << i for i in idxs) | tag
                    placements.append(value)
                    for i in idxs:
                        by_cell[i].append(value)
    return placements, by_cell


PLACEMENTS, BY_CELL = _build_tables()
PLACEMENT_PIECE = {value: PIECES[(value >> PIECE_SHIFT).bit_length() - 1] for value in PLACEMENTS}

# The 3×3 neighbourhood of square i, as bits of ``mask << (W + 1)`` read at i, i + W, i + 2W.
_NEIGHBOURHOOD = [(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
_PRUNED: dict[int, list[int]] = {}


def clear_geometry_cache() -> None:
    """Empty the lazily filled geometry table (benchmarks time every position from empty)."""
    _PRUNED.clear()


def candidates(index: int, pattern: int) -> list[int]:
    """Placements covering square ``index`` that avoid the blocked squares of its 3×3 neighbourhood.

    ``pattern`` has bit k set when neighbour ``_NEIGHBOURHOOD[k]`` is blocked. Filled on first use
    and kept: the table depends on geometry only, never on a position.
    """
    key = index * 512 + pattern
    found = _PRUNED.get(key)
    if found is None:
        x, y = index % W, index // W
        blocked = 0
        for k, (dx, dy) in enumerate(_NEIGHBOURHOOD):
            if pattern >> k & 1 and 0 <= x + dx < SIZE and 0 <= y + dy < SIZE:
                blocked |= 1 << ((y + dy) * W + x + dx)
        found = _PRUNED[key] = [v for v in BY_CELL[index] if not v & blocked]
    return found


def shift_adjacent(mask: int) -> int:
    """Squares sharing a side with ``mask`` (not including it), on the board."""
    return ((mask << 1) | (mask >> 1) | (mask << W) | (mask >> W)) & BOARD & ~mask


def shift_diagonal(mask: int) -> int:
    """Squares touching ``mask`` only at a corner or along a side-free diagonal, on the board."""
    return ((mask << (W + 1)) | (mask << (W - 1)) | (mask >> (W - 1)) | (mask >> (W + 1))) & BOARD


CORNERS = bit(0, 0) | bit(SIZE - 1, 0) | bit(SIZE - 1, SIZE - 1) | bit(0, SIZE - 1)
