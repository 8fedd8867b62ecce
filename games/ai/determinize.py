"""Determinization: a full engine ``State`` sampled to agree with what one seat knows (R9).

``determinize(view, rng)`` builds, through ``State.from_json``, a state whose public parts are the
view's and whose hidden parts are drawn at random from the cards the seat has not seen:

* every deck owner's unseen cards are its deck (the recipe, twice with two players, R2.3) minus
  its discard pile and, for the seat's own deck, minus its hand, its Draw 2 cards and the cards it
  knows lie at the bottom of its pile (R9.2);
* those cards are shuffled and dealt to the owner's hand (another seat's), to the cards a Draw 2
  holds (another seat's), then to the draw pile (above the known bottom cards for the seat's own).

The sizes of every hand and pile are public (R9.1), so the sample always fits them. A seat that
never saw a card cannot tell a uniform deal from the truth, which is the point. Nothing here reads
the real hidden parts: the view holds none.
"""

from __future__ import annotations

from collections import Counter

from games.engine.cards import CARD_KINDS, DEFAULT_RECIPE, recipe_cards
from games.engine.state import COLOUR_INDEX, COLOURS, State

__all__ = ["determinize", "owner_of", "seat_owner"]


def owner_of(view: dict, colour: int) -> int | None:
    """The deck owner (colour index) that serves ``colour`` in the view's game, as State.owner."""
    if view["mode"] != "shuffle":
        return None
    if view["players"] == 2:
        return colour % 2
    shared = view.get("shared_color")
    if view["players"] == 3 and COLOURS[colour] == (shared or "green"):
        return None
    return colour


def seat_owner(view: dict, seat: int | None) -> int | None:
    """The deck owner whose hand ``seat`` holds (None for a spectator or in classic mode)."""
    if seat is None or view["mode"] != "shuffle":
        return None
    players = view["players"]
    if players == 2:
        return seat
    if players == 4:
        return seat
    shared = COLOUR_INDEX[view.get("shared_color") or "green"]
    return [c for c in range(4) if c != shared][seat]


def _changed(view: dict) -> bool:
    """Whether the board changed earlier in this turn (the engine's ``changed`` flag).

    It is not in the view, but it follows from public facts: only a Recycle or a Warp changes the
    board before the turn's piece (both leave an event in the last apply), and Double Play's second
    piece always follows a placement.
    """
    step = view["step"]
    if step == "setup":  # every setup placement sets it; nothing reads it before the main turns
        return view["ply"] > 0
    if step == "place_second":
        return True
    if step != "place":
        return False
    colour = view["to_move"]
    return any(
        e.get("colour") == colour and e.get("event") in ("recycle", "warp")
        for e in view.get("events") or ()
    )


def determinize(view: dict, rng) -> State:
    """A full State consistent with ``view`` (from ``games.engine.view``), hidden parts sampled.

    ``rng`` is a ``random.Random``; the same view and the same generator state give the same
    state.
    """
    if view.get("over"):
        return State.from_json(view)  # R9.4: everything is public once the game is over
    seat = view.get("seat")
    own = seat_owner(view, seat)
    recipe = dict(view.get("deck_recipe") or DEFAULT_RECIPE)
    per_owner = recipe_cards(recipe) * (2 if view["players"] == 2 else 1)
    turn = COLOUR_INDEX[view["to_move"]] if view.get("to_move") else None
    drawn_owner = owner_of(view, turn) if turn is not None else None
    hands, piles, discards, known = {}, {}, {}, {}
    drawn: list[str] = []
    hand_counts = view.get("hand_counts") or {}
    pile_counts = view.get("pile_counts") or {}
    drawn_count = view.get("drawn_count") or 0
    for name in hand_counts:  # the deck owners, in colour order
        o = COLOUR_INDEX[name]
        discard = list(view["discards"][name])
        unseen = Counter(per_owner)
        unseen.subtract(discard)
        if o == own:
            hand = list(view["hand"] or [])
            mine_drawn = list(view.get("drawn") or [])
            bottom = list(view.get("pile_bottom") or [])
            unseen.subtract(hand + mine_drawn + bottom)
            top = _deal(unseen, pile_counts[name] - len(bottom), recipe, rng)
            hands[name], piles[name], known[name] = hand, top + bottom, len(bottom)
            if o == drawn_owner:
                drawn = mine_drawn
        else:
            n_hand = hand_counts[name]
            n_drawn = drawn_count if o == drawn_owner else 0
            pool = _deal(unseen, n_hand + n_drawn + pile_counts[name], recipe, rng)
            hands[name] = pool[:n_hand]
            if n_drawn:
                drawn = pool[n_hand : n_hand + n_drawn]
            piles[name], known[name] = pool[n_hand + n_drawn :], 0
        discards[name] = discard
    data = {
        "mode": view["mode"],
        "players": view["players"],
        "scoring": view["scoring"],
        "shared_color": view.get("shared_color"),
        "deck_recipe": view.get("deck_recipe"),
        "seed": None,
        "to_move": view["to_move"],
        "step": view["step"],
        "direction": view["direction"],
        "ply": view["ply"],
        "supply": view["supply"],
        "pieces": view["pieces"],
        "last_piece": view["last_piece"],
        "hands": hands,
        "draw_piles": piles,
        "discards": discards,
        "known_bottom": known,
        "drawn": drawn,
        "effect": view["effect"],
        "skip_pending": view["skip_pending"],
        "changed": _changed(view),
        "passed": view["passed"],
        "rotation": view["rotation"],
        "events": view.get("events") or [],
        "resigned": view.get("resigned") or [],
    }
    return State.from_json(data)


def _deal(unseen: Counter, count: int, recipe: dict, rng) -> list[str]:
    """``count`` cards from the unseen ones, in random order.

    In a real game the unseen cards are exactly as many as the hidden places (R1.4: every deck
    is complete). A position built by hand (tests, an analysis board) may hold fewer or more
    cards: then a random part of them is dealt, or the shortfall is filled with random kinds of
    the recipe, so that the public sizes of hands and piles still hold.
    """
    pool = [kind for kind in CARD_KINDS for _ in range(max(0, unseen[kind]))]
    rng.shuffle(pool)
    if len(pool) > count:
        return pool[:count]
    kinds = [kind for kind in CARD_KINDS if recipe.get(kind)] or list(CARD_KINDS)
    return pool + [rng.choice(kinds) for _ in range(count - len(pool))]
