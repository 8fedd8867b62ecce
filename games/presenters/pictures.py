"""Pictures for the help page, drawn as SVG from the engine's own tables: the 21 pieces
(``engine.pieces.SHAPES``), the cards (``engine.cards``) and one worked example turn played by the
engine itself, so that no picture can disagree with the rules the site enforces."""

from __future__ import annotations

import functools
import html
import textwrap

from games import engine
from games.engine.cards import CARD_EFFECTS, CARD_KINDS, CARD_NAMES, DEFAULT_RECIPE
from games.engine.pieces import PIECES, SHAPES

from .captions import CARD_SYMBOLS, event_text

FILL = {"blue": "#0072b2", "yellow": "#f0e442", "red": "#d55e00", "green": "#009e73"}
INK = "#1d232b"
CELL = 12


@functools.cache
def piece_svg(name: str, colour: str = "blue") -> str:
    """One piece as the engine's table draws it (cells (x, y), y upwards)."""
    cells = SHAPES[name]
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    rects = "".join(
        f'<rect x="{x * CELL}" y="{(height - 1 - y) * CELL}" width="{CELL}" height="{CELL}"/>'
        for x, y in cells
    )
    return (
        f'<svg class="piece-pic" viewBox="-1 -1 {width * CELL + 2} {height * CELL + 2}" '
        f'width="{width * CELL + 2}" height="{height * CELL + 2}" role="img" '
        f'aria-label="Piece {name}, {len(cells)} squares">'
        f'<g fill="{FILL[colour]}" stroke="#fff" stroke-width="1">{rects}</g></svg>'
    )


def pieces() -> list[dict]:
    return [{"name": p, "size": len(SHAPES[p]), "svg": piece_svg(p)} for p in PIECES]


@functools.cache
def card_svg(kind: str) -> str:
    """A card: the deck's colour band with the symbol, the name, the effect."""
    name, effect = CARD_NAMES[kind], CARD_EFFECTS[kind]
    lines = textwrap.wrap(effect, 20)
    text = "".join(
        f'<tspan x="8" dy="{0 if i == 0 else 13}">{html.escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return (
        f'<svg class="card-pic" viewBox="0 0 130 {70 + 13 * len(lines)}" width="130" '
        f'height="{70 + 13 * len(lines)}" role="img" aria-label="Card {html.escape(name)}: '
        f'{html.escape(effect)}">'
        f'<rect x="1" y="1" width="128" height="{68 + 13 * len(lines)}" rx="9" fill="#fff" '
        f'stroke="{INK}" stroke-width="2"/>'
        f'<path d="M1 10a9 9 0 0 1 9-9h110a9 9 0 0 1 9 9v14H1z" fill="{INK}"/>'
        f'<text x="8" y="18" fill="#fff" font-size="13" font-weight="700">'
        f"{html.escape(CARD_SYMBOLS.get(kind, ''))}</text>"
        f'<text x="8" y="44" font-size="14" font-weight="700" fill="{INK}">'
        f"{html.escape(name)}</text>"
        f'<text y="62" font-size="10.5" fill="#4a5260">{text}</text></svg>'
    )


def cards() -> list[dict]:
    return [
        {
            "kind": kind,
            "name": CARD_NAMES[kind],
            "count": DEFAULT_RECIPE.get(kind, 0),
            "effect": CARD_EFFECTS[kind],
            "svg": card_svg(kind),
        }
        for kind in CARD_KINDS
    ]


def board_svg(view: dict, *, last: set[str] = frozenset(), anchors=(), size: int = 9) -> str:
    """A whole board from ``engine.view``'s rows (row 20 first), small."""
    letters = {"B": "blue", "Y": "yellow", "R": "red", "G": "green"}
    parts = []
    for row, line in enumerate(view["board"]):
        for x, ch in enumerate(line):
            colour = letters.get(ch)
            if colour:
                square = f"{'abcdefghijklmnopqrst'[x]}{20 - row}"
                stroke = f' stroke="{INK}" stroke-width="2"' if square in last else ""
                parts.append(
                    f'<rect x="{x * size}" y="{row * size}" width="{size}" height="{size}" '
                    f'fill="{FILL[colour]}"{stroke}/>'
                )
    for square in anchors:
        x, y = "abcdefghijklmnopqrst".index(square[0]), 20 - int(square[1:])
        cx, cy, r = x * size + size / 2, y * size + size / 2, size / 3
        parts.append(
            f'<path d="M{cx} {cy - r}l{r} {r}l-{r} {r}l-{r} -{r}z" fill="{FILL["blue"]}"/>'
        )
    grid = "".join(
        f'<path d="M{i * size} 0v{20 * size}M0 {i * size}h{20 * size}"/>' for i in range(21)
    )
    return (
        f'<svg class="board-pic" viewBox="-1 -1 {20 * size + 2} {20 * size + 2}" '
        f'width="{20 * size + 2}" height="{20 * size + 2}" role="img" aria-label="Board">'
        f'<rect width="{20 * size}" height="{20 * size}" fill="#fff"/>'
        f'<g stroke="#d8d6cf" stroke-width="0.5">{grid}</g>{"".join(parts)}</svg>'
    )


EXAMPLE_SEED = "5e" * 32  # any seed: the example is whatever the engine deals with it


@functools.cache
def example_turn() -> list[dict]:
    """One Shuffle turn of blue, played by the engine: the position before it (blue's corners
    marked), the card, the placement, the draw. Setup pieces: each colour's first legal one."""
    state = engine.new_game(mode="shuffle", players=4, seed=EXAMPLE_SEED)
    while state.step == "setup":
        state = engine.apply(state, engine.legal_actions(state)[0])
    before = engine.view(state, 0)
    hand = before["hand"]
    steps = [
        {
            "caption": (
                "Blue's turn begins. Blue holds "
                + " and ".join(CARD_NAMES[k] for k in hand)
                + " (R5.5); the diamonds are the free squares touching blue at a corner, "
                "where a blue piece may attach (R4.2)."
            ),
            "svg": board_svg(before, anchors=engine.anchors(state)),
        }
    ]
    plain = next(
        (a for a in engine.legal_actions(state) if a.get("card") in ("skip", "reverse")), None
    )
    card = plain or engine.legal_actions(state)[0]
    state = engine.apply(state, card)
    steps.append(
        {
            "caption": (
                f"1. Blue plays {CARD_NAMES[card['card']]} (R5.1): "
                f"{CARD_EFFECTS[card['card']].lower()} The card goes to blue's discard pile."
            ),
            "svg": card_svg(card["card"]),
        }
    )
    while state.step != "place" and not state.over:  # a card with a choice to make first
        state = engine.apply(state, engine.legal_actions(state)[0])
    placements = [a for a in engine.legal_actions(state) if "place" in a]
    place = max(placements, key=lambda a: len(a["place"].split(",")))  # a big piece
    state = engine.apply(state, place)
    after = engine.view(state, 0)
    events = [event_text(e) for e in after["events"]]
    steps.append(
        {
            "caption": (
                f"2. {events[0]} (R5.3): it touches a blue piece only at a corner (R4.2) and "
                "shares no side with one (R4.3); touching other colours is allowed (R4.4). "
                f"3. {events[1] if len(events) > 1 else 'Blue draws a card'} from the top of its "
                "pile (R5.4), and the next colour's turn begins."
            ),
            "svg": board_svg(after, last=set(place["place"].split(","))),
        }
    )
    return steps
