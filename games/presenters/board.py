"""The board: the table board's rows (HTML built here, not in a template loop: 400 cells through
the template engine were most of the page's server time), the last move, and what
static/js/board.js draws (public, R9.1) plus the deciding seat's legal placements or warps."""

from __future__ import annotations

import html
from collections import defaultdict
from functools import lru_cache

from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.engine.pieces import (
    COLUMNS,
    PIECE_INDEX,
    PIECE_SIZE,
    SHAPE_NAME,
    SHAPES,
    normalize,
    placement_piece,
)
from games.engine.state import COLOURS, LETTERS
from games.engine.steps import PLACE_STEPS, STEP_ACTION
from games.translations import colour_letter, colour_name


def cells_of(text: str) -> list[tuple[int, int]]:
    return [(COLUMNS.index(sq[0]), int(sq[1:]) - 1) for sq in text.split(",")]


def piece_of(text: str) -> str:
    """The piece a placement text shows: named by the engine for the texts it wrote (every legal
    action's), else from the squares' shape."""
    return placement_piece(text) or _piece_of_shape(text)


@lru_cache(maxsize=4096)
def _piece_of_shape(text: str) -> str:
    return SHAPE_NAME[normalize(cells_of(text))]


def colour_at(view: dict, text: str) -> str:
    x, y = cells_of(text)[0]
    return COLOURS[LETTERS.index(view["board"][19 - y][x])]


def last_squares(view: dict, earlier_events) -> set[str]:
    """Squares of the latest placement or warp still on the board: from the view's events, else
    from ``earlier_events()`` (the public events of earlier actions, newest first)."""
    occupied = {
        f"{COLUMNS[x]}{20 - i}"
        for i, line in enumerate(view["board"])
        for x, ch in enumerate(line)
        if ch in LETTERS
    }

    def found(events) -> set[str] | None:
        for event in reversed(events or []):
            if event.get("event") == "place":
                return set(event["squares"].split(",")) & occupied
            if event.get("event") == "warp":
                return set(event["to"].split(",")) & occupied
        return None

    squares = found(view["events"])
    if squares is not None:
        return squares
    for events in earlier_events():
        squares = found(events)
        if squares is not None:
            return squares
    return set()


_COLOUR_OF = dict(zip(LETTERS, COLOURS, strict=True))


# The board table's column letters, above and below the squares: the same on every page.
COLUMN_HEAD = mark_safe(
    "<tr><td></td>" + "".join(f'<th scope="col">{c}</th>' for c in COLUMNS) + "<td></td></tr>"
)
COLUMN_FOOT = mark_safe(
    "<tr><td></td>" + "".join(f'<td class="coord">{c}</td>' for c in COLUMNS) + "<td></td></tr>"
)


def board_html(view: dict, last: set[str], decision: dict) -> str:
    """The table board's rows, 20 down to 1: each cell with its colour, letter, the last move and
    what the panel marks; a target cell holds its control (a submit button or a selection link).
    Every value is escaped (stdlib ``html.escape``); plain cells come from a cache."""
    marks = decision.get("marks", {})
    targets = decision.get("targets", {})
    language = translation.get_language() or ""  # the cells' titles are in words
    letters = {colour: colour_letter(colour) for colour in set(_COLOUR_OF.values())}
    out = []
    for i, line in enumerate(view["board"]):
        number = 20 - i
        cells = []
        for x, letter in enumerate(line):
            square = f"{COLUMNS[x]}{number}"
            colour = _COLOUR_OF.get(letter, "")
            letter = letters[colour] if colour else ""
            target = targets.get(square)
            mark = marks.get(square, "")
            if target is None:
                cells.append(_plain_cell(square, colour, letter, square in last, mark, language))
            else:
                cells.append(_target_cell(square, colour, letter, square in last, mark, target))
        out.append(
            f'<tr>\n<th scope="row">{number}</th>\n{"".join(cells)}'
            f'<td class="coord" aria-hidden="true">{number}</td>\n</tr>'
        )
    return mark_safe("\n".join(out))  # every value above is escaped


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def _open_td(square: str, colour: str, last: bool, mark: str) -> str:
    classes = " ".join(c for c in ("cell", colour, "last" if last else "", mark) if c)
    title = square + (f" {colour_name(colour)}" if colour else "")
    if last:
        title = _("%(square)s, last move") % {"square": title}
    return f'<td class="{_attr(classes)}" title="{_attr(title)}">'


@lru_cache(maxsize=8192)
def _plain_cell(square: str, colour: str, letter: str, last: bool, mark: str, language: str) -> str:
    """One cell without a control: the same few thousand strings on every page, built once (per
    ``language``, the active one: the title is in words)."""
    return f"{_open_td(square, colour, last, mark)}{_attr(letter)}</td>"


def _target_cell(square, colour, letter, last, mark, target: dict) -> str:
    label, title = _attr(target["label"]), _attr(target["title"])
    if target.get("post"):
        inner = (
            f'<button type="submit" name="action" value="{_attr(target["post"])}" '
            f'aria-label="{label}" title="{title}">{_attr(letter)}</button>'
        )
    else:
        link = target["link"]
        inner = (
            f'<a href="{_attr(link["href"])}" hx-get="{_attr(link["hx"])}" '
            f'aria-label="{label}" title="{title}">{_attr(letter)}</a>'
        )
    return f"{_open_td(square, colour, last, mark)}{inner}</td>"


def tray_order(pieces, playable=None) -> list[str]:
    """The tray's order: the pieces that can be placed now first (when ``playable``, the deciding
    seat's, is known), the largest first, then the engine's order. A newcomer wants the
    five-square pieces first, and a phone's tray shows only a few pieces at once."""
    return sorted(
        pieces,
        key=lambda p: (playable is not None and p not in playable, -PIECE_SIZE[p], PIECE_INDEX[p]),
    )


def board_data(view: dict, anchors: list[str], last: set[str], decision: dict) -> dict:
    """The public picture (R9.1), the same for every reader: board rows (row 20 first), the last
    move, the anchors of the colour to move (``engine.anchors``), the panel's marks, and that
    colour's supply, the largest pieces first (the seat placing one gets its own order in
    ``legal_data``)."""
    colour = view["to_move"]
    tray = tray_order(view["supply"][colour]) if colour else []
    return {
        "ply": view["ply"],
        "board": view["board"],
        "last": sorted(last, key=lambda sq: (sq[0], int(sq[1:]))),
        "toMove": colour,
        "toMoveName": colour_name(colour),
        "anchors": anchors if not view["over"] else [],
        "marks": {sq: m for sq, m in decision.get("marks", {}).items() if m != "target"},
        "tray": tray,
        "shapes": {p: SHAPES[p] for p in tray},
    }


def legal_data(decision: dict) -> dict | None:
    """The deciding seat's legal placements (or warps) at this step, as the record writes them:
    board.js looks the piece under the pointer up here (no rule runs in the browser)."""
    step = decision.get("step")
    legal = decision.get("legal", [])
    if step in PLACE_STEPS:  # grouped once, by the decision panel (presenters.decision)
        return {
            "step": step,
            "action": STEP_ACTION[step],
            "placements": decision["by_piece"],
            # The tray: the pieces that can be placed first (the others follow, greyed).
            "tray": tray_order(decision["supply"], decision["by_piece"]),
        }
    if step == "recycle":  # R6.7: one of the player's own pieces, picked on the board
        return {
            "step": step,
            "action": STEP_ACTION[step],
            "pieces": {
                o["squares"]: {"piece": o["piece"], "colour": o["colour"]}
                for o in decision["options"]
            },
        }
    if step != "warp":
        return None
    moves: dict[str, list[str]] = defaultdict(list)
    for a in legal:
        moves[a["warp"]].append(a["to"])
    pieces = {
        s["squares"]: {"piece": s["piece"], "colour": s["colour"]} for s in decision["sources"]
    }
    return {
        "step": step,
        "action": STEP_ACTION[step],
        "moves": moves,
        "source": decision.get("source"),
        "pieces": pieces,
        "shapes": {p["piece"]: SHAPES[p["piece"]] for p in pieces.values()},
    }


def script_text(step: str | None = None, tray_player: str = "") -> dict:
    """The words static/js/board.js writes (status lines, buttons, the clock), in the active
    language; ``{name}`` marks what the script fills in. Plurals come as ``[one, other]``. The
    words of Recycle's step come only with that step. The same words on every panel: built
    once per language (nobody changes them afterwards); besides them ``tray_player``, who moves
    the colour whose pieces the tray shows ("you" for the reader), named on its caption."""
    language = translation.get_language() or ""
    text = dict(_placing_text(language))
    text["trayPlayer"] = tray_player
    if step == "recycle":
        text.update(_recycle_text(language))
    return text


@lru_cache(maxsize=64)
def _recycle_text(language: str) -> dict:
    """``language``: the active one, the cache's key."""
    return {
        "recycleIt": _("Recycle it"),
        "takingBack": _("Taking back {piece} from {squares}…"),
        "recycleNone": _(
            "{square}: none of your pieces that can go back is there (the marked ones can)."
        ),
        "recyclePicked": _("{colour} {piece} on {squares}:"),
        "recycleMouse": _("Recycle it takes it back."),
        "recycleTouch": _("tap it again or press Recycle it."),
        "recycleAgain": _("Undo chooses another."),
        "recycleChoose": _("Choose the piece to take back."),
        "recycleStart": _("Click one of your marked pieces to take it back."),
        "recycleStartTouch": _("Tap one of your marked pieces to take it back."),
    }


@lru_cache(maxsize=64)
def _placing_text(language: str) -> dict:
    """``language``: the active one, the cache's key."""
    return {
        "anchorLegend": _("where {colour} may attach"),
        "lastLegend": _("last move"),
        "boardLabel": _(
            "Board. Arrow keys move the piece, R rotates, F flips, N jumps to the next spot "
            "where it fits, Enter places, Escape puts it back."
        ),
        "confirm": _("Confirm"),
        "moveHere": _("Move here"),
        "place": pgettext("button", "Place"),
        "rotate": _("Rotate (R)"),
        "flip": _("Flip (F)"),
        "undo": _("Undo"),
        "squareColour": _("{square} {colour}"),
        "squareFree": _("{square} free"),
        "fits": _("{piece} at {square}: fits."),
        "fitsNot": _("{piece} at {square}: does not fit here."),
        "nextClick": _("Enter or click places it."),
        "nextConfirm": _("Confirm to place it, Undo to move it."),
        "nextTap": _("Tap again or press Confirm to place it, Undo to move it."),
        "nextPut": _("Click or Enter puts it here; then Confirm."),
        "warpNone": _("{square}: no piece to move here."),
        "warpPick": _("{square}: {colour} {piece}; Enter picks it."),
        "noSpot": _("No spot for {piece} turned this way: R rotates, F flips."),
        "notAt": _("{piece} does not fit at {square}."),
        "armed": _(
            "{piece} on {squares}: Enter again or Confirm places it, Escape or Undo takes it back."
        ),
        "undone": _("Undone: {piece} is in your hand again."),
        "undoneAny": _("Undone: the piece is in your hand again."),
        "placing": _("Placing {piece} on {squares}…"),
        "moving": _("Moving {colour} {piece} from {squares}: choose its new spot."),
        "putBack": _("Put back. Choose a piece."),
        "warpNote": _("Click a marked piece on the board (or pick it in the list) to move it."),
        "warpNoteTouch": _("Tap a marked piece on the board (or pick it in the list) to move it."),
        "trayLabel": _("{colour}'s pieces"),
        "trayOf": _("{colour}'s pieces ({player})"),
        "playCard": _("Play {card}"),
        "playHint": _("or tap the card again. Another card: tap it."),
        # [one, other]: written out, for makemessages to find them
        "spots": [
            ngettext("{piece}: {n} spot", "{piece}: {n} spots", 1),
            ngettext("{piece}: {n} spot", "{piece}: {n} spots", 2),
        ],
        "spotsDots": [
            ngettext("{piece}: {n} spot (the dots).", "{piece}: {n} spots (the dots).", 1),
            ngettext("{piece}: {n} spot (the dots).", "{piece}: {n} spots (the dots).", 2),
        ],
        "fitsNowhere": _("{piece} fits nowhere now."),
        "hintMouse": _("Move it over the board and click; a right click turns it."),
        "hintTouch": _("Tap the board to put it there, then tap again to place it."),
        "colours": {c: colour_name(c) for c in COLOURS},
        "letters": {c: colour_letter(c) for c in COLOURS},
        "noTime": _("no time"),
        "days": _("{d} d {h} h"),
        "hours": _("{h} h {m} min"),
        "minutes": _("{m} min {s} s"),
    }
