"""Pictures for the help page, drawn as SVG from the engine's own tables: the 21 pieces
(``engine.pieces.SHAPES``), the cards (``engine.cards``) and one worked example turn played by the
engine itself, so that no picture can disagree with the rules the site enforces.

Every function is pure and returns markup (cached per language: the tables never change while
the site runs, and the words are in the active language, games.translations).
The colours are the Okabe-Ito tones of ``site.css`` (``--blue`` …): each shape carries its hex
fill, so the SVG stands alone, and a ``c-<colour>`` class, so the page's palette wins.
"""

from __future__ import annotations

import functools
import html
import textwrap

from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games import engine
from games.engine.cards import CARD_KINDS, CARDS, DEFAULT_RECIPE
from games.engine.pieces import COLUMNS, PIECES, SHAPES, parse_squares, shape_of_mask
from games.engine.state import COLOURS, LETTERS
from games.translations import card_effect, card_help, card_name, colour_letter, colour_name

from .captions import event_text

FILL = {"blue": "#0072b2", "yellow": "#f0e442", "red": "#d55e00", "green": "#009e73"}
ON_FILL = {"blue": "#fff", "yellow": "#1d232b", "red": "#1d232b", "green": "#1d232b"}
LETTER = dict(zip(LETTERS, COLOURS, strict=True))  # engine.view's board letters
INK = "#1d232b"
MUTED = "#4a5260"
CELL = 12


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _language() -> str:
    """The active language: part of every cache key below (the pictures hold words)."""
    return translation.get_language() or ""


# -- pieces ---------------------------------------------------------------------------------


def piece_svg(name: str, colour: str = "blue") -> str:
    """One piece as the engine's table draws it (cells (x, y), y upwards): one square each."""
    return _piece_svg(name, colour, _language())


@functools.cache
def _piece_svg(name: str, colour: str, language: str) -> str:
    cells = SHAPES[name]
    label = ngettext("Piece %(name)s, %(n)s square", "Piece %(name)s, %(n)s squares", len(cells))
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    rects = "".join(
        f'<rect x="{x * CELL}" y="{(height - 1 - y) * CELL}" width="{CELL}" height="{CELL}"/>'
        for x, y in cells
    )
    return (
        f'<svg class="piece-pic" viewBox="-1 -1 {width * CELL + 2} {height * CELL + 2}" '
        f'width="{width * CELL + 2}" height="{height * CELL + 2}" role="img" '
        f'aria-label="{_esc(label % {"name": name, "n": len(cells)})}">'
        f'<g class="c-{colour}" fill="{FILL[colour]}" stroke="#fff" stroke-width="1">{rects}</g>'
        "</svg>"
    )


def pieces() -> list[dict]:
    return [{"name": p, "size": len(SHAPES[p]), "svg": piece_svg(p)} for p in PIECES]


# -- cards ----------------------------------------------------------------------------------

CARD_W = 124
CARD_WRAP = 20  # characters per line of the effect text at 10 px (room for wide fonts)
CARD_LINE = 12.5


def _wrap(text: str) -> list[str]:
    """The effect's lines on a card. Japanese has no spaces and its characters are twice as wide:
    half as many to a line, broken anywhere."""
    if " " not in text.strip():
        width = CARD_WRAP // 2
        return [text[i : i + width] for i in range(0, len(text), width)]
    return textwrap.wrap(text, CARD_WRAP)


@functools.cache
def _card_height(language: str) -> int:
    """One height for every card (the longest effect decides), so that a row of cards lines up."""
    lines = max(len(_wrap(card_effect(kind))) for kind in CARD_KINDS)
    return round(96 + lines * CARD_LINE)


def card_svg(kind: str, colour: str = "blue", width: int = CARD_W, compact: bool = False) -> str:
    """A card as the game page shows it: a rounded card with its deck's colour band (the symbol
    and the rule's number on it), the symbol large, the name and the effect (which a ``compact``
    card, drawn small in a hand, leaves to its label)."""
    return _card_svg(kind, colour, width, compact, _language())


@functools.cache
def _card_svg(kind: str, colour: str, width: int, compact: bool, language: str) -> str:
    name, effect, symbol = card_name(kind), card_effect(kind), CARDS[kind].symbol
    w, h = CARD_W, 90 if compact else _card_height(language)
    fill, on = FILL[colour], ON_FILL[colour]
    lines = [] if compact else _wrap(effect)
    label = _("Card %(name)s: %(effect)s") % {"name": name, "effect": effect}
    text = "".join(
        f'<tspan x="9" dy="{0 if i == 0 else CARD_LINE}">{_esc(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    edge = "#8a7f00" if colour == "yellow" else fill  # yellow on white needs a darker outline
    return (
        f'<svg class="card-pic" viewBox="0 0 {w} {h}" width="{width}" '
        f'height="{round(h * width / w)}" role="img" '
        f'aria-label="{_esc(label)}">'
        f'<rect x="1.5" y="1.5" width="{w - 3}" height="{h - 3}" rx="10" fill="#fff" '
        f'stroke="{edge}" stroke-width="3"/>'
        f'<path class="c-{colour}" d="M1.5 11.5a10 10 0 0 1 10-10h{w - 23}a10 10 0 0 1 10 10V24'
        f'H1.5z" fill="{fill}"/>'
        f'<g fill="{on}" font-size="11" font-weight="700">'
        f'<text x="9" y="17">{_esc(symbol)}</text>'
        f'<text x="{w - 9}" y="17" text-anchor="end">{CARDS[kind].rule}</text></g>'
        f'<circle cx="{w / 2}" cy="44" r="16" fill="#fff" stroke="{edge}" stroke-width="2"/>'
        f'<text x="{w / 2}" y="50.5" text-anchor="middle" font-size="17" font-weight="800" '
        f'fill="{INK}">{_esc(symbol)}</text>'
        f'<text x="{w / 2}" y="79" text-anchor="middle" font-size="13" font-weight="700" '
        f'fill="{INK}">{_esc(name)}</text>'
        + (f'<text y="97" font-size="10" fill="{MUTED}">{text}</text>' if text else "")
        + "</svg>"
    )


def cards() -> list[dict]:
    return [
        {
            "kind": kind,
            "name": card_name(kind),
            "count": DEFAULT_RECIPE.get(kind, 0),
            "effect": card_effect(kind),
            "help": card_help(kind),
            "rule": CARDS[kind].rule,
            "svg": card_svg(kind),
        }
        for kind in CARD_KINDS
    ]


# -- a board, or a corner of it -------------------------------------------------------------


def _cells(view: dict) -> dict[tuple[int, int], str]:
    """``engine.view``'s rows (row 20 first) as {(x, y): colour}, y = 0 for row 1."""
    out = {}
    for row, line in enumerate(view["board"]):
        for x, ch in enumerate(line):
            if ch in LETTER:
                out[(x, len(view["board"]) - 1 - row)] = LETTER[ch]
    return out


def _xy(square: str) -> tuple[int, int]:
    return COLUMNS.index(square[0]), int(square[1:]) - 1


def board_svg(
    view: dict,
    *,
    corner: tuple[int, int, int, int] = (0, 0, 20, 20),
    last: frozenset[str] = frozenset(),
    anchors: tuple[str, ...] = (),
    contacts: tuple[tuple[int, int], ...] = (),
    size: int = 18,
    label: str = "",
) -> str:
    """Part of the board (``corner`` = first column, first row, columns, rows; zero-based) with
    its coordinates: the squares of ``last`` outlined, ``anchors`` as diamonds and ``contacts``
    (grid points) ringed."""
    x0, y0, cols, rows = corner
    label = label or _("Board")
    pad = 14  # room for the row numbers on the left and the column letters below

    def px(x: int) -> float:
        return pad + (x - x0) * size

    def py(y: int) -> float:  # the top edge of row y
        return (y0 + rows - 1 - y) * size

    parts = [f'<rect x="{pad}" y="0" width="{cols * size}" height="{rows * size}" fill="#fff"/>']
    grid = "".join(f"M{pad + i * size} 0v{rows * size}" for i in range(cols + 1)) + "".join(
        f"M{pad} {j * size}h{cols * size}" for j in range(rows + 1)
    )
    parts.append(f'<path d="{grid}" stroke="#d8d6cf" stroke-width="1" fill="none"/>')
    visible = [
        (xy, colour)
        for xy, colour in _cells(view).items()
        if x0 <= xy[0] < x0 + cols and y0 <= xy[1] < y0 + rows
    ]
    for (x, y), colour in visible:
        parts.append(
            f'<rect class="c-{colour}" x="{px(x)}" y="{py(y)}" width="{size}" height="{size}" '
            f'fill="{FILL[colour]}" stroke="#fff" stroke-width="1"/>'
        )
    for square in anchors:
        x, y = _xy(square)
        if x0 <= x < x0 + cols and y0 <= y < y0 + rows and (x, y) not in dict(visible):
            cx, cy, r = px(x) + size / 2, py(y) + size / 2, size / 3
            parts.append(
                f'<path class="anchor" d="M{cx} {cy - r}l{r} {r}l-{r} {r}l-{r} -{r}z" '
                f'fill="none" stroke="{FILL["blue"]}" stroke-width="2"/>'
            )
    for square in sorted(last):
        x, y = _xy(square)
        parts.append(
            f'<rect class="last" x="{px(x) + 1.5}" y="{py(y) + 1.5}" width="{size - 3}" '
            f'height="{size - 3}" fill="none" stroke="{INK}" stroke-width="3"/>'
        )
    for gx, gy in contacts:  # a grid point: the corner two squares share
        parts.append(
            f'<circle class="contact" cx="{px(gx)}" cy="{py(gy - 1)}" r="{size / 3.2}" '
            f'fill="#fff" stroke="{INK}" stroke-width="2.5"/>'
        )
    labels = "".join(
        f'<text x="{px(x) + size / 2}" y="{rows * size + 11}" text-anchor="middle">{COLUMNS[x]}'
        "</text>"
        for x in range(x0, x0 + cols)
    ) + "".join(
        f'<text x="{pad - 3}" y="{py(y) + size / 2 + 3.5}" text-anchor="end">{y + 1}</text>'
        for y in range(y0, y0 + rows)
    )
    parts.append(f'<g font-size="9.5" fill="{MUTED}">{labels}</g>')
    width, height = pad + cols * size + 1, rows * size + 14
    return (
        f'<svg class="board-pic" viewBox="0 -1 {width} {height + 1}" width="{width}" '
        f'height="{height + 1}" role="img" aria-label="{_esc(label)}">{"".join(parts)}</svg>'
    )


def order_svg(before: list[dict], after: list[dict]) -> str:
    """Who moves next, before and after a card (``engine.turn_order``): one disc per colour."""

    def row(order: list[dict], y: int, title: str) -> str:
        discs = []
        for i, entry in enumerate(order):
            colour, cx = entry["colour"], 78 + i * 34
            strike = (
                f'<path d="M{cx - 13} {y + 13}L{cx + 13} {y - 13}" stroke="{INK}" '
                'stroke-width="2.5"/>'
                if entry["skipped"]
                else ""
            )
            discs.append(
                f'<circle class="c-{colour}" cx="{cx}" cy="{y}" r="13" fill="{FILL[colour]}"/>'
                f'<text x="{cx}" y="{y + 4.5}" text-anchor="middle" font-weight="700" '
                f'fill="{ON_FILL[colour]}">{_esc(colour_letter(colour))}</text>{strike}'
            )
        return f'<text x="0" y="{y + 4.5}" fill="{MUTED}">{_esc(title)}</text>{"".join(discs)}'

    before_word, after_word = _("Before"), _("After")
    names = lambda order: ", ".join(colour_name(e["colour"]) for e in order)  # noqa: E731
    label = _("Next to move before: %(before)s; after: %(after)s") % {
        "before": names(before),
        "after": names(after),
    }
    return (
        '<svg class="order-pic" viewBox="0 0 200 78" width="200" height="78" role="img" '
        f'aria-label="{_esc(label)}" font-size="12">'
        f"{row(before, 18, before_word)}{row(after, 58, after_word)}</svg>"
    )


def hand_html(kinds: list[str], marks: dict[int, str], colour: str = "blue") -> str:
    """A small hand of cards; ``marks`` labels some of them by position ("played", "new")."""
    items = "".join(
        f'<li class="{"marked" if i in marks else ""}">{card_svg(kind, colour, 84, compact=True)}'
        f"<span>{_esc(marks.get(i, ''))}</span></li>"
        for i, kind in enumerate(kinds)
    )
    return f'<ul class="hand-pic">{items}</ul>'


# -- the worked example ---------------------------------------------------------------------

EXAMPLE_SEED = "5e" * 32  # any seed: the example is whatever the engine deals with it
EXAMPLE_OPENING = "W"  # each colour's setup piece: the staircase, a common opening
EXAMPLE_CORNER = (0, 0, 8, 8)  # a1-h8, blue's corner of the board


def _inside(squares: list[str], corner: tuple[int, int, int, int]) -> bool:
    x0, y0, cols, rows = corner
    return all(x0 <= x < x0 + cols and y0 <= y < y0 + rows for x, y in map(_xy, squares))


def _corner_contacts(new: list[str], cells: dict[tuple[int, int], str], colour: str):
    """The grid points where a new square meets a square of ``colour`` corner to corner."""
    points = set()
    for x, y in map(_xy, new):
        for dx in (-1, 1):
            for dy in (-1, 1):
                if cells.get((x + dx, y + dy)) == colour:
                    points.add((x + (dx > 0), y + (dy > 0)))
    return tuple(sorted(points))


def example_turn() -> list[dict]:
    """The worked example (``_example_turn``) in the active language."""
    return _example_turn(_language())


@functools.cache
def _example_turn(language: str) -> list[dict]:
    """One Shuffle turn of blue, played by the engine from a fresh deal: each colour opens with
    the staircase (its first legal setup placement of that piece), then blue plays a card (a
    Reverse or Skip when it holds one, as their effect shows in the turn order), places a large
    piece in its corner, and draws. Every step is ``engine.apply`` of a legal action."""
    state = engine.new_game(mode="shuffle", players=4, seed=EXAMPLE_SEED)
    while state.step == "setup":
        state = engine.apply(
            state,
            next(
                a
                for a in engine.legal_actions(state)
                if shape_of_mask(parse_squares(a["place"])) == EXAMPLE_OPENING
            ),
        )
    colour = engine.view(state, 0)["to_move"]
    hand = list(engine.view(state, 0)["hand"])
    order_before = engine.turn_order(state)
    anchors = tuple(engine.anchors(state))
    cards_now = engine.legal_actions(state)
    card = next((a for a in cards_now if a.get("card") in ("reverse", "skip")), cards_now[0])
    state = engine.apply(state, card)
    kind = card["card"]
    order_after = engine.turn_order(state)
    while state.step != "place" and not state.over:  # a card with a choice to make first
        state = engine.apply(state, engine.legal_actions(state)[0])

    before = engine.view(state, 0)
    placements = [
        a
        for a in engine.legal_actions(state)
        if "place" in a and _inside(a["place"].split(","), EXAMPLE_CORNER)
    ]

    def reach(action: dict) -> tuple[int, int, int]:  # a large, wide piece, out of the corner
        cells = [_xy(square) for square in action["place"].split(",")]
        xs, ys = [x for x, _ in cells], [y for _, y in cells]
        area = (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1)
        return len(cells), area, sum(xs) + sum(ys)

    place = max(placements, key=reach)
    squares = place["place"].split(",")
    state = engine.apply(state, place)
    after = engine.view(state, 0)
    events = after["events"]
    placed = next(e for e in events if e.get("event") == "place")
    drew = next((e for e in events if e.get("event") == "draw"), None)
    kept = list(hand)
    kept.remove(kind)
    new_hand = list(after["hand"])
    new_at = range(len(kept), len(new_hand)) if new_hand[: len(kept)] == kept else ()
    facts = {
        "colour": colour,
        "kind": kind,
        "hand": hand,
        "new_hand": new_hand,
        "new_at": new_at,
        "next": order_after[0]["colour"],
        "was_next": order_before[0]["colour"],
        "placed": placed,
        "drew": drew,
    }
    place_picture = board_svg(
        after,
        corner=EXAMPLE_CORNER,
        last=frozenset(squares),
        anchors=anchors,
        contacts=_corner_contacts(squares, _cells(before), colour),
        label=_("The board's corner a1 to h8 after %(event)s")
        % {"event": event_text(placed).lower()},
    )
    return _example_steps(facts, order_svg(order_before, order_after), place_picture)


def _example_effect(kind: str, next_colour: str, was_next: str) -> str:
    if kind == "reverse":
        return _(
            "The direction of play flips (R6.2): after blue comes %(next)s now, not %(was_next)s."
        ) % {"next": colour_name(next_colour), "was_next": colour_name(was_next)}
    if kind == "skip":
        return capfirst(
            _("%(next)s will lose its whole next turn (R6.1): no card, no piece, no draw.")
            % {"next": colour_name(next_colour)}
        )
    return card_effect(kind)


def _example_steps(facts: dict, order_picture: str, place_picture: str) -> list[dict]:
    """The four steps of the example turn in words (``_example_turn`` played them)."""
    colour, kind, hand = facts["colour"], facts["kind"], facts["hand"]
    who = colour_name(colour)
    names = [card_name(k) for k in hand]
    drew = facts["drew"]
    drawn = event_text(drew) if drew else capfirst(_("%(colour)s drew no card") % {"colour": who})
    effect = _example_effect(kind, facts["next"], facts["was_next"])
    return [
        {
            "title": _("Play a card"),
            "picture": hand_html(hand, {hand.index(kind): pgettext("card", "played")}, colour),
            "caption": capfirst(
                _(
                    "%(colour)s starts its turn with two cards, %(first)s and %(second)s (R5.5), "
                    "and must play one (R5.1). It plays %(card)s, which goes to its discard pile."
                )
                % {
                    "colour": who,
                    "first": names[0],
                    "second": ", ".join(names[1:]),
                    "card": card_name(kind),
                }
            ),
        },
        {
            "title": _("Its effect"),
            "picture": order_picture,
            "caption": _("%(effect)s A card's effect happens at once, before the piece (R5.1).")
            % {"effect": effect},
        },
        {
            "title": _("Place a piece"),
            "picture": place_picture,
            "caption": _(
                "%(event)s (R5.3, outlined). It touches blue only corner to corner (ringed, "
                "R4.2) and shares no side with a blue piece (R4.3); pieces of other colours may "
                "be touched any way (R4.4). The diamonds were blue's other corners."
            )
            % {"event": event_text(facts["placed"])},
        },
        {
            "title": _("Draw"),
            "picture": hand_html(
                facts["new_hand"], {i: pgettext("card", "new") for i in facts["new_at"]}, colour
            ),
            "caption": ngettext(
                "%(drawn)s from the top of its own pile (R5.4), so it holds %(n)s card again. "
                "Then it is %(next)s's turn.",
                "%(drawn)s from the top of its own pile (R5.4), so it holds %(n)s cards again. "
                "Then it is %(next)s's turn.",
                len(facts["new_hand"]),
            )
            % {"drawn": drawn, "n": len(facts["new_hand"]), "next": colour_name(facts["next"])},
        },
    ]
