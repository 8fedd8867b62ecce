"""What the game page forecasts for a seat: turn order, attachable corners, each card's outlook.

Pure functions of a State, like the rest of the engine. They read hidden parts of the State only
the way ``legal_actions`` does (the deciding seat's own hand and Draw 2 cards), and never the pile
order: Draw 2's outlook is told from public counts only (R9.3). ``table(state, seat)`` bundles
everything a page needs beyond ``view(state, seat)``, so nothing outside the engine has to hold a
State to draw the page.
"""

from __future__ import annotations

from .errors import IllegalAction
from .pieces import mask_text
from .rules import _next_colour, apply, legal_actions, legal_placements, placement_context
from .scoring import score
from .state import COLOURS, State
from .steps import PLACE_STEPS


def next_colour(s: State, colour: int) -> int:
    """The colour that moves after ``colour`` in the current direction among colours still in
    play (R7.3, Reverse R6.2). Raises ValueError when no colour is in play."""
    in_play = s.in_play()
    if not in_play:
        raise ValueError("no colour is in play (R8.1): the game is over")
    return _next_colour(s, colour, in_play)


def turn_order(s: State, count: int = 4) -> list[dict]:
    """The next ``count`` colours to move (not counting skipped ones), each with its seat (None
    for the shared colour) and whether a pending Skip passes over it (R6.1, R6.2, R7.3)."""
    if s.turn is None or not s.in_play():
        return []
    order: list[dict] = []
    colour, skip = s.turn, s.skip_pending
    while sum(1 for o in order if not o["skipped"]) < count:
        colour = next_colour(s, colour)
        order.append({"colour": COLOURS[colour], "seat": s.seat_of(colour), "skipped": skip})
        skip = False
    return order


def _square_names(mask: int) -> list[str]:
    """A board mask's squares, column by column (a1, a2, …, b1) as in the record."""
    text = mask_text(mask)
    return text.split(",") if text else []


def _fitting_anchors(s: State) -> list[str]:
    anchors, _, _ = placement_context(s)
    covered = 0
    for value in legal_placements(s):
        covered |= value
    return _square_names(anchors & covered)


def anchors(s: State) -> list[str]:
    """Where the colour to move may attach a piece: at a placement step, exactly the anchor
    squares (R3.1, R4.2, R6.5, R6.6) that some legal placement covers; before it (a card to play
    first), those of an ordinary placement of its own colour (R4.2), as a card may still change
    them. Empty when the game is over."""
    if s.turn is None:
        return []
    if s.step in PLACE_STEPS:
        return _fitting_anchors(s)
    probe = s.copy()  # the same board and supplies, at a plain placement step
    probe.step, probe.wild, probe.edge, probe.double, probe.first = "place", None, False, False, 0
    return _fitting_anchors(probe)


def placements_now(before: State, after: State) -> int:
    """Legal placements in ``after`` while it is still ``before``'s turn at a placement step; 0
    when the turn passed because no placement existed (R5.3)."""
    if after.turn != before.turn or after.step not in ("place", "place_second"):
        return 0
    if any(e.get("event") in ("pass", "over") for e in after.events):
        return 0
    return len(legal_placements(after))


def placements_after(s: State, action: dict) -> int:
    """Placements the colour to move has after ``action`` (0 if illegal or the turn passes)."""
    try:
        return placements_now(s, apply(s, action))
    except IllegalAction:
        return 0


def outlook(s: State, action: dict) -> dict:
    """What a card (``{"card": k}``, ``{"keep": k}``) or a declaration leads to this turn.

    ``kind`` is one of ``draw2`` (``pile``: cards the player would draw from, a public count),
    ``illegal``, ``declare`` (``by_colour``: placements for each colour declared), ``recycle``
    (``options``: pieces to take back, ``most``: the best placement count after), ``warp``
    (``moves``, ``sources``), or ``place`` (``placements``, ``double``). ``no_effect`` says the
    card cannot be carried out and would only be discarded (R5.1).

    Draw 2 is never applied: what it leads to depends on the pile order, which nobody may know
    (R9.3).
    """
    kind = action.get("card") or action.get("keep")
    if kind == "draw2":
        pile = len(s.piles[s.owner(s.turn)]) + (1 if "keep" in action else 0)
        return {"kind": "draw2", "pile": pile, "no_effect": not pile}
    try:
        after = apply(s, action)
    except IllegalAction:
        return {"kind": "illegal", "no_effect": False}
    no_effect = any(e.get("event") == "no_effect" for e in after.events)
    if after.step == "declare":
        by_colour = {c: placements_after(after, {"declare": c}) for c in COLOURS}
        return {"kind": "declare", "no_effect": no_effect, "by_colour": by_colour}
    if after.step == "recycle":
        options = legal_actions(after)
        most = max((placements_after(after, a) for a in options), default=0)
        return {"kind": "recycle", "no_effect": no_effect, "options": len(options), "most": most}
    if after.step == "warp":
        moves = legal_actions(after)
        sources = len({a["warp"] for a in moves})
        return {"kind": "warp", "no_effect": no_effect, "moves": len(moves), "sources": sources}
    n = placements_now(s, after)
    return {"kind": "place", "no_effect": no_effect, "placements": n, "double": bool(after.double)}


def table(s: State, seat: int | None) -> dict:
    """Everything a page shows beyond ``view(s, seat)``, all of it public or the seat's own:

    ``colour_seats`` (colour name → seat, None for the shared colour), ``order``
    (``turn_order``), ``anchors``, ``score`` (R8 applied to the board now), and, for the seat
    deciding now only, ``legal`` (its legal actions) and ``outlooks`` (one per legal action at a
    card, keep or declare step, in the same order).
    """
    deciding = seat is not None and not s.over and s.controller() == seat
    legal = legal_actions(s) if deciding else []
    outlooks = [outlook(s, a) for a in legal] if s.step in ("card", "keep", "declare") else []
    return {
        "colour_seats": {COLOURS[c]: s.seat_of(c) for c in range(4)},
        "order": turn_order(s),
        "anchors": anchors(s),
        "score": score(s),
        "legal": legal,
        "outlooks": outlooks,
    }
