"""Beginner and Casual: policies on a (determinized) engine State, for the seat that decides.

They read the state the way the seat may: the legal actions and everything the one-step scores
look at (board, supplies, the seat's hand and Draw 2 cards) are public or the seat's own. The
only hidden parts they touch are in the sampled futures of a Draw 2 (which cards it draws), and
those come from ``determinize``, never from the real game.

Casual (one step, greedy): every decision is scored by the best placement it leads to this turn,
with ``QuickScorer`` (squares placed, anchors won, opponents' anchors covered); a card by the turn
it makes possible plus what it does to the turn order (Skip, Reverse).
"""

from __future__ import annotations

from games.engine import apply, legal_actions
from games.engine.cards import CARD_KINDS
from games.engine.pieces import BOARD, CORNERS, shift_adjacent, shift_diagonal
from games.engine.rules import (
    legal_placements,
    placement_context,
    placement_text,
    placements_covering,
    warp_moves,
)
from games.engine.state import COLOURS, State
from games.engine.steps import PLACE_STEPS

from .evaluate import QuickScorer, anchors_of, quick_value, seat_weights

__all__ = [
    "Casual",
    "beginner_action",
    "card_order_bonus",
    "casual_action",
    "warp_options",
]

SKIP_VALUE = 3.0  # a lost turn of a colour, in squares (roughly one average piece)


def _sorted(values) -> list[int]:
    """Placements in a fixed order (the engine hands out sets)."""
    return sorted(values)


# -- Beginner -------------------------------------------------------------------------------


def beginner_action(s: State, seat: int, rng) -> dict:
    """A legal random choice, placements weighted by size squared (a mild taste for big pieces)."""
    step = s.step
    if step in PLACE_STEPS:
        options = _sorted(legal_placements(s))
        weights = [(v & BOARD).bit_count() ** 2 for v in options]
        return {"place": placement_text(rng.choices(options, weights=weights, k=1)[0])}
    return rng.choice(legal_actions(s))  # the other steps have few options


# -- Casual ---------------------------------------------------------------------------------


class Casual:
    """Greedy one-step scores for the seat that decides."""

    def __init__(self, seat: int):
        self.seat = seat
        # Ranked placements by position: cards that leave the placement rules alone (Skip,
        # Reverse, Double Play, a card without effect) lead to the same list.
        self._ranked: dict[tuple, list[tuple[float, int]]] = {}

    # Public: the action for the decision at hand.
    def action(self, s: State) -> dict:
        step = s.step
        if step in PLACE_STEPS:
            value, _ = self.best_placement(s, double=s.double and step == "place")
            if value is None:  # cannot happen at a decision: the engine passes by itself
                raise ValueError("no placement to choose")
            return {"place": placement_text(value)}
        if step in ("card", "keep"):
            cards = s.hands[s.owner(s.turn)] if step == "card" else s.drawn
            if len(set(cards)) == 1:  # one kind of card: nothing to weigh
                return {step: cards[0]}
            return {step: self.best_card(s)[1]}
        if step == "declare":
            return {"declare": COLOURS[self.best_declare(s)[1]]}
        if step == "recycle":
            return {"recycle": placement_text(self.best_recycle(s)[1])}
        if step == "warp":
            _, (old, new) = self.best_warp(s)
            return {"warp": placement_text(old), "to": placement_text(new)}
        raise ValueError(f"no decision at step {step!r}")

    def _width(self, depth: int, full: int) -> int:
        """How many Recycle / Warp options to follow up: fewer inside a card's evaluation."""
        return 2 if depth else full

    # Placements -----------------------------------------------------------------------------

    def scored_placements(self, s: State) -> list[tuple[float, int]]:
        """(score, placement) of every legal placement, best first."""
        if s.step not in PLACE_STEPS:
            return []
        context = placement_context(s)
        key = (s.turn, *context, *s.boards, *s.supply)
        ranked = self._ranked.get(key)
        if ranked is None:
            values = _sorted(placements_covering(*context))
            w = seat_weights(s, self.seat)
            scores = QuickScorer(s, w).scores(s.turn, values) if values else []
            ranked = sorted(zip(scores, values, strict=True), key=lambda p: (-p[0], p[1]))
            self._ranked[key] = ranked
        return ranked

    def best_placement(self, s: State, *, double: bool = False) -> tuple[int | None, float]:
        """The best placement and its score; with Double Play the first piece is picked among
        the best few by the score of the pair (R6.6)."""
        ranked = self.scored_placements(s)
        if not ranked:
            return None, 0.0
        if not double:
            return ranked[0][1], ranked[0][0]
        best, best_value = ranked[0][1], None
        for score, value in ranked[:4]:
            after = apply(s, {"place": placement_text(value)})
            total = score
            if after.step == "place_second" and after.turn == s.turn:
                second = self.scored_placements(after)
                total += second[0][0] if second else 0.0
            if best_value is None or total > best_value:
                best, best_value = value, total
        return best, best_value

    def turn_value(self, s: State, colour: int, depth: int = 0) -> float:
        """The score of the best rest of ``colour``'s turn from ``s`` (greedy), 0 once it ended."""
        if s.over or s.turn != colour or depth > 4:
            return 0.0
        step = s.step
        if step in PLACE_STEPS:
            _, value = self.best_placement(s, double=s.double and step == "place")
            return value
        if step in ("card", "keep"):
            return self.best_card(s, depth)[0]
        if step == "declare":
            return self.best_declare(s, depth)[0]
        if step == "recycle":
            return self.best_recycle(s, depth)[0]
        if step == "warp":
            return self.best_warp(s, depth)[0]
        return 0.0

    # Cards ----------------------------------------------------------------------------------

    def best_card(self, s: State, depth: int = 0) -> tuple[float, str]:
        """The card (from hand, or kept after Draw 2) whose turn scores best."""
        step = s.step
        cards = s.hands[s.owner(s.turn)] if step == "card" else s.drawn
        kinds = [k for k in CARD_KINDS if k in cards]
        best_value, best_kind = None, kinds[0]
        colour = s.turn
        for kind in kinds:
            after = apply(s, {step: kind})
            value = card_order_bonus(s, kind, self.seat) + self.turn_value(after, colour, depth + 1)
            if best_value is None or value > best_value:
                best_value, best_kind = value, kind
        return best_value or 0.0, best_kind

    def best_declare(self, s: State, depth: int = 0) -> tuple[float, int]:
        best_value, best = None, s.turn
        for c in range(4):
            after = apply(s, {"declare": COLOURS[c]})
            value = self.turn_value(after, s.turn, depth + 1)
            if best_value is None or value > best_value:
                best_value, best = value, c
        return best_value or 0.0, best

    def best_recycle(self, s: State, depth: int = 0) -> tuple[float, int]:
        """Take back the piece whose removal and the placement that follows score best."""
        w = seat_weights(s, self.seat)
        base = quick_value(s, w)
        occ = s.occupied
        options = []
        for c in s.seat_colours(s.controller()):
            for value in s.pieces[c]:
                mask = value & BOARD
                boards = list(s.boards)
                boards[c] &= ~mask
                after_occ = occ & ~mask
                delta = _board_value(boards, after_occ, w) - base
                # The piece comes back to the colour to move: it may go straight out again.
                if c == s.turn:
                    delta += w[c] * mask.bit_count() * 0.8
                options.append((delta, value))
        options.sort(key=lambda p: (-p[0], p[1]))
        best_value, best = None, options[0][1]
        for _delta, value in options[: self._width(depth, 4)]:
            after = apply(s, {"recycle": placement_text(value)})
            total = (quick_value(after, w) - base) + self.turn_value(after, s.turn, depth + 1)
            if best_value is None or total > best_value:
                best_value, best = total, value
        return best_value or 0.0, best

    def best_warp(self, s: State, depth: int = 0) -> tuple[float, tuple[int, int]]:
        """Move the opponent piece whose new spot costs its colour the most anchors (and frees
        ours), then place as usual."""
        options = warp_options(s, seat_weights(s, self.seat))
        best_value, best = None, (options[0][1], options[0][2])
        for delta, old, new in options[: self._width(depth, 3)]:
            after = apply(s, {"warp": placement_text(old), "to": placement_text(new)})
            total = delta + self.turn_value(after, s.turn, depth + 1)
            if best_value is None or total > best_value:
                best_value, best = total, (old, new)
        return best_value or 0.0, best


def warp_options(s: State, w: list[float]) -> list[tuple[float, int, int]]:
    """(change of ``quick_value``, old, new) for every Warp of the player to move, best first.

    Only anchors change: the warped colour's are recomputed, the others' lose the new squares
    and win back the old ones.
    """
    occ = s.occupied
    boards = s.boards
    base = []
    for k in range(4):
        if boards[k]:
            base.append(shift_diagonal(boards[k]) & ~shift_adjacent(boards[k]))
        else:
            base.append(CORNERS)
    before = sum(w[k] * (base[k] & ~occ).bit_count() for k in range(4) if w[k])
    weighted = [k for k in range(4) if w[k]]
    options = []
    for colour, old, new in warp_moves(s):
        om, nm = old & BOARD, new & BOARD
        occ2 = occ & ~om | nm
        total = 0.0
        for k in weighted:
            if k == colour:
                total += w[k] * anchors_of(boards[k] & ~om | nm, occ2).bit_count()
            else:
                total += w[k] * (base[k] & ~occ2).bit_count()
        options.append((total - before, old, new))
    options.sort(key=lambda p: (-p[0], p[1], p[2]))
    return options


def _board_value(boards: list[int], occ: int, w: list[float]) -> float:
    """``quick_value`` from raw boards: weighted squares plus anchors per colour."""
    total = 0.0
    for k in range(4):
        if w[k]:
            total += w[k] * (boards[k].bit_count() + anchors_of(boards[k], occ).bit_count())
    return total


def _next_colour(s: State, direction: int) -> int | None:
    in_play = s.in_play()
    for k in range(1, 5):
        nxt = (s.turn + k * direction) % 4
        if in_play >> nxt & 1:
            return nxt
    return None


def card_order_bonus(s: State, kind: str, seat: int) -> float:
    """What a card does to the turn order, in squares for ``seat`` (Casual's rule of thumb).

    Skip (R6.1) costs the next colour a turn: good against an opponent, bad against one's own
    colour. Reverse (R6.2) changes which colour moves next: worth the difference between the two.
    """
    if kind not in ("skip", "reverse"):
        return 0.0
    w = seat_weights(s, seat)
    ahead = _next_colour(s, s.direction)
    if kind == "skip":
        if ahead is None or ahead == s.turn:
            return 0.0
        return -w[ahead] * SKIP_VALUE
    behind = _next_colour(s, -s.direction)
    if ahead is None or behind is None:
        return 0.0
    # Moving sooner is worth a little for one's own colour, and letting an opponent wait too.
    return 0.3 * SKIP_VALUE * (w[behind] - w[ahead])


def casual_action(s: State, seat: int, rng=None) -> dict:
    """Casual's action for the decision at hand in ``s`` (``seat`` decides)."""
    return Casual(seat).action(s)
