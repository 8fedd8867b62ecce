"""What one seat may know (R9). Everything rendered, pushed or exported during play goes through
``view``: it is built from a whitelist of public fields, so a new private field cannot leak by
default.
"""

from __future__ import annotations

from .state import COLOURS, State

PUBLIC_KEYS = (
    "mode",
    "players",
    "scoring",
    "shared_color",
    "deck_recipe",
    # The commitment to the seed (cards.py) is public from the start: that is its point.
    "commitment",
    "board",
    "to_move",
    "step",
    "direction",
    "over",
    "ply",
    "supply",
    "pieces",
    "last_piece",
    "discards",
    "effect",
    "skip_pending",
    "passed",
    "rotation",
    "events",
    "resigned",
)


def seat_deck(s: State, seat: int) -> int | None:
    """The deck owner (colour index) whose hand a seat holds, or None in classic mode."""
    return s.owner(s.seat_colours(seat)[0])


def view(s: State, seat: int | None = None) -> dict:
    """The game as ``seat`` may see it; ``None`` is a spectator. After the end, everything (R9.4).

    R9.1 public: board, supplies, discard piles, hand and pile sizes, whose turn, direction, step,
    effect in force. R9.2 private to the seat: its hand, the cards its Draw 2 drew, which cards it
    put at the bottom of its pile. R9.3 secret from all: pile order, the seed and its salt (the
    commitment to them is public).
    """
    full = s.to_json()
    if s.over:
        full["seat"] = seat
        full["controller"] = None
        return full
    if seat is not None and not 0 <= seat < s.players:
        raise ValueError(f"no seat {seat} in a {s.players}-player game")
    out = {key: full[key] for key in PUBLIC_KEYS}
    out["seat"] = seat
    out["controller"] = s.controller()
    out["hand_counts"] = {COLOURS[o]: len(s.hands[o]) for o in s.owners()}
    out["pile_counts"] = {COLOURS[o]: len(s.piles[o]) for o in s.owners()}
    out["drawn_count"] = len(s.drawn)
    out["hand"], out["drawn"], out["pile_bottom"] = None, [], []
    deck = seat_deck(s, seat) if seat is not None else None
    if deck is not None:
        out["hand"] = list(s.hands[deck])
        known = s.known_bottom[deck]
        out["pile_bottom"] = list(s.piles[deck][len(s.piles[deck]) - known :]) if known else []
        if s.drawn and s.owner(s.turn) == deck:
            out["drawn"] = list(s.drawn)
    return out
