"""The search's tables, built once per process from the engine's placement table.

* Per placement ``m`` (``games.engine.pieces.PLACEMENTS``, same indices): its piece, its squares
  padded to five with the sentinel square ``PAD`` (never forbidden, never local), so that a
  legality check is five unconditional loads; its side neighbours outside the piece (``adj``,
  with how many of its squares each touches) and its attach points (``att``: diagonal
  neighbours that share no side with the piece, with how many of its squares each touches).
* Per square: its six status points (four sides, then two diagonals; ``OFF`` off the board).
* ``moves at`` (Pentobi's PrecompMoves): for every square ``a``, every status ``s`` of its six
  status points (bit j set: point j is forbidden to the colour) and every piece, the placements
  covering ``a`` that cover none of the forbidden status points, in one flat list:
  ``mlist[mstart[(a * 64 + s) * 21 + p] : mstart[(a * 64 + s) * 21 + p + 1]]``.
  ``cstride`` (one number) is 0 for this table, shared by the four colours; a search's own
  copy pruned per colour (Pentobi's SharedConst: ``position.pruned_tables``) keeps colour c's
  lists at ``c * cstride`` further on in ``mstart``, and every lookup adds that offset.

Squares are ``x + 20 * y``; ``PAD`` = 400 and ``OFF`` = 401 extend every per-square array.
"""

from __future__ import annotations

import functools

import numpy as np

from games.engine.pieces import BOARD, PIECE_SHIFT, PIECES, PLACEMENTS, SIZE, W

from .compiled import njit

CELLS = SIZE * SIZE
PAD = CELLS  # a placement's unused square slots: always free
OFF = CELLS + 1  # off the board: always forbidden
NPIECES = len(PIECES)
NSTATUS = 64  # six status points, one bit each
MAX_ADJ = 12  # a pentomino has at most 12 side neighbours
MAX_ATT = 12

SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
STATUS = SIDES + ((1, 1), (-1, -1))


def _on(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def _placement_cells(value: int) -> list[int]:
    mask = value & BOARD
    out = []
    while mask:
        low = mask & -mask
        b = low.bit_length() - 1
        out.append((b % W) + SIZE * (b // W))
        mask ^= low
    return out


@njit(cache=True)
def _covered(m, a, cells5, size, stpt):
    """The status bits of square a whose points placement m covers."""
    cov = 0
    for j in range(6):
        for q in range(size):
            if cells5[m, q] == stpt[a, j]:
                cov |= 1 << j
    return cov


@njit(cache=True)
def _moves_at(cells5, piece, psize, stpt):
    """The flat (square, status, piece) move lists (module docstring); placements in ascending
    order within each list."""
    n = cells5.shape[0]
    slots = CELLS * NSTATUS * NPIECES
    count = np.zeros(slots + 1, np.int32)
    for m in range(n):
        p = piece[m]
        for k in range(psize[p]):
            a = cells5[m, k]
            cov = _covered(m, a, cells5, psize[p], stpt)
            for s in range(NSTATUS):
                if s & cov == 0:
                    count[(a * NSTATUS + s) * NPIECES + p] += 1
    start = np.zeros(slots + 1, np.int32)
    total = 0
    for i in range(slots):
        start[i] = total
        total += count[i]
    start[slots] = total
    fill = start[:slots].copy()
    flat = np.empty(total, np.uint16)
    for m in range(n):
        p = piece[m]
        for k in range(psize[p]):
            a = cells5[m, k]
            cov = _covered(m, a, cells5, psize[p], stpt)
            for s in range(NSTATUS):
                if s & cov == 0:
                    i = (a * NSTATUS + s) * NPIECES + p
                    flat[fill[i]] = m
                    fill[i] += 1
    return start, flat


def _build():
    count = len(PLACEMENTS)
    piece = np.empty(count, np.uint8)
    cells5 = np.full((count, 5), PAD, np.uint16)
    adj = np.full((count, MAX_ADJ), PAD, np.uint16)
    adjw = np.zeros((count, MAX_ADJ), np.int8)
    nadj = np.zeros(count, np.int8)
    att = np.full((count, MAX_ATT), PAD, np.uint16)
    attw = np.zeros((count, MAX_ATT), np.int8)
    natt = np.zeros(count, np.int8)
    for i, value in enumerate(PLACEMENTS):
        piece[i] = (value >> PIECE_SHIFT).bit_length() - 1
        cells = _placement_cells(value)
        cells5[i, : len(cells)] = cells
        inside = set(cells)
        sides: dict[int, int] = {}
        for cell in cells:
            x, y = cell % SIZE, cell // SIZE
            for dx, dy in SIDES:
                if _on(x + dx, y + dy) and (n := cell + dx + SIZE * dy) not in inside:
                    sides[n] = sides.get(n, 0) + 1
        corners: dict[int, int] = {}
        for cell in cells:
            x, y = cell % SIZE, cell // SIZE
            for dx, dy in DIAGONALS:
                d = cell + dx + SIZE * dy
                if _on(x + dx, y + dy) and d not in inside and d not in sides:
                    corners[d] = corners.get(d, 0) + 1
        nadj[i], natt[i] = len(sides), len(corners)
        adj[i, : len(sides)] = list(sides)
        adjw[i, : len(sides)] = list(sides.values())
        att[i, : len(corners)] = list(corners)
        attw[i, : len(corners)] = list(corners.values())
    psize = np.array([(cells5[piece == p][0] != PAD).sum() for p in range(NPIECES)], np.uint8)
    stpt = np.full((CELLS + 2, 6), OFF, np.uint16)
    side = np.full((CELLS + 2, 4), OFF, np.uint16)
    centre = np.zeros(CELLS + 2, np.int8)
    for cell in range(CELLS):
        x, y = cell % SIZE, cell // SIZE
        for j, (dx, dy) in enumerate(STATUS):
            if _on(x + dx, y + dy):
                stpt[cell, j] = cell + dx + SIZE * dy
        for j, (dx, dy) in enumerate(SIDES):
            if _on(x + dx, y + dy):
                side[cell, j] = cell + dx + SIZE * dy
        centre[cell] = 1 if 4 <= x < 16 and 4 <= y < 16 else 0
    # Distance of a square's centre to the board's centre, at least 2 (the middle 4 x 4 are
    # alike): the opening's placements race there (``MctsParams.centre_pieces``).
    xs, ys = np.arange(CELLS + 2) % SIZE, np.arange(CELLS + 2) // SIZE
    cdist = np.maximum(np.hypot(xs - (SIZE - 1) / 2, ys - (SIZE - 1) / 2), 2.0)
    cdist[PAD:] = 1e9
    mstart, mlist = _moves_at(cells5, piece, psize, stpt)
    return (piece, cells5, psize, adj, adjw, nadj, att, attw, natt, stpt, side, centre, cdist,
            mstart, mlist, np.zeros(1, np.int64))  # fmt: skip


# Indices into the tables tuple (the compiled code takes the tuple whole).
T_PIECE, T_CELLS, T_SIZE, T_ADJ, T_ADJW, T_NADJ, T_ATT, T_ATTW, T_NATT = range(9)
T_STPT, T_SIDE, T_CENTRE, T_CDIST, T_MSTART, T_MLIST, T_CSTRIDE = range(9, 16)
SLOTS = CELLS * NSTATUS * NPIECES  # the (square, status, piece) lists of one colour


class Tables:
    """The tables, built on first use and shared by every search and thread."""

    @staticmethod
    @functools.cache
    def get():
        return _build()


INDEX_OF: dict[int, int] = {}


def placement_index(value: int) -> int:
    """A placement's index in the tables (its index in ``PLACEMENTS``)."""
    if not INDEX_OF:
        INDEX_OF.update((v, i) for i, v in enumerate(PLACEMENTS))
    return INDEX_OF[value]
