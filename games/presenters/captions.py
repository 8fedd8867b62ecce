"""Words shared by the game page and the replay: steps, cards, events, moves, outlooks, scores.

One wording for both pages: events are told in the past tense ("Blue placed F on …"), the move
list in the present ("places a1"), and scores carry one direction flag, ``lower_wins``.
"""

from __future__ import annotations

from games.engine.cards import CARD_EFFECTS, CARD_NAMES
from games.engine.state import COLOURS, LETTERS

STEP_TEXT = {
    "setup": "place a setup piece on a free corner (R3.1)",
    "card": "play a card (R5.1)",
    "keep": "choose which Draw 2 card to play (R6.3)",
    "declare": "declare a colour for Wild (R6.4)",
    "recycle": "take one of their pieces back (R6.7)",
    "warp": "move an opponent's piece (R6.8)",
    "place": "place a piece (R5.3)",
    "place_second": "place Double Play's second piece (R6.6)",
}

SCORING_RULE = {
    True: "Basic scoring: the fewest squares left wins (R8.3).",
    False: "Advanced scoring: the highest score wins (R8.4).",
}


def letter(colour: str | None) -> str:
    return LETTERS[COLOURS.index(colour)] if colour else ""


# A symbol per card, drawn on the card (characters found in the common system fonts: DejaVu,
# Noto, Segoe; the name is always written beside it).
CARD_SYMBOLS = {
    "skip": "⊘",
    "reverse": "⇄",
    "draw2": "+2",
    "wild": "★",
    "edge": "▣",
    "recycle": "♻",
    "warp": "↝",
    "double": "×2",
}


def card(kind: str) -> dict:
    return {
        "kind": kind,
        "name": CARD_NAMES[kind],
        "effect": CARD_EFFECTS[kind],
        "symbol": CARD_SYMBOLS.get(kind, ""),
    }


def card_name(kind: str) -> str:
    return CARD_NAMES.get(kind, kind)


def count(n: int, word: str = "placement") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def event_text(event: dict) -> str:
    """A caption for one public event of the last action (the engine's ``events``)."""
    who = event.get("colour", "").capitalize()
    kind = event.get("event")
    if kind == "place":
        return f"{who} placed {event['piece']} on {event['squares']}"
    if kind == "pass":
        return f"{who} could not place a piece and passed"
    if kind == "card":
        return f"{who} played {card_name(event['card'])}"
    if kind == "no_effect":
        return f"{card_name(event['card'])} had no effect"
    if kind == "draw":
        n = event.get("count", 1)
        return f"{who} drew {n} card{'s' if n != 1 else ''}"
    if kind == "declare":
        return f"{who} declared {event['declared']}"
    if kind == "recycle":
        return f"{who} took back {event['owner']}'s {event['piece']} from {event['squares']}"
    if kind == "warp":
        return f"{who} moved {event['owner']}'s piece from {event['squares']} to {event['to']}"
    if kind == "skipped":
        return f"{who} was skipped"
    if kind == "over":
        return "The game is over"
    return f"{who}: {kind}"


def action_text(action: dict) -> str:
    """One record action as the move list tells it."""
    if "warp" in action:
        return f"warps {action['warp']} to {action.get('to', '?')}"
    if "place" in action:
        return f"places {action['place']}"
    if "card" in action:
        return f"plays {card_name(action['card'])}"
    if "keep" in action:
        return f"keeps {card_name(action['keep'])}"
    if "declare" in action:
        return f"declares {action['declare']}"
    if "recycle" in action:
        return f"recycles {action['recycle']}"
    return str(action)


def outlook_text(look: dict) -> dict:
    """``engine.outlook``'s counts in words: ``text``, and ``warn`` when the card would only be
    discarded (R5.1) or the turn would pass (R5.3)."""
    kind = look["kind"]
    if kind == "draw2":
        if not look["pile"]:
            return {"text": "", "warn": "Your draw pile is empty: it would just be discarded."}
        if look["pile"] == 1:
            return {"text": "You will see one card, played at once.", "warn": ""}
        return {"text": "You will see two cards and keep one.", "warn": ""}
    if kind == "illegal":
        return {"text": "", "warn": ""}
    warn = "Can't be carried out now: it would just be discarded." if look["no_effect"] else ""
    if kind == "declare":
        counts = look["by_colour"]
        best = max(COLOURS, key=lambda c: counts[c])
        detail = " · ".join(f"{c} {counts[c]}" for c in COLOURS)
        text = f"Up to {count(counts[best])} (as {best}): {detail}"
    elif kind == "recycle":
        text = (
            f"Take back one of {count(look['options'], 'piece')}, then up to {count(look['most'])}"
        )
    elif kind == "warp":
        text = f"{count(look['moves'], 'move')} for {count(look['sources'], 'piece')}, then place"
    else:
        n = look["placements"]
        text = count(n) + (", then a second piece" if look["double"] and n else "")
        if not n:
            warn = warn or "No placement then: you would pass (R5.3)."
    return {"text": text, "warn": warn}


def standings(score: dict, labels: dict[int, str], mine: int | None = None) -> dict:
    """Scores (``engine.score``) with the players' names, best first; ``lower_wins`` is the one
    direction flag both pages read (basic scoring, R8.3)."""
    lower_wins = score["scoring"] == "basic"
    players = sorted(score["players"], key=lambda p: (p["place"], p["seat"]))
    return {
        "over": score["over"],
        "scoring": score["scoring"],
        "lower_wins": lower_wins,
        "rule": SCORING_RULE[lower_wins],
        "players": [
            {
                "place": p["place"],
                "seat": p["seat"],
                "player": labels.get(p["seat"], f"Player {p['seat'] + 1}"),
                "colours": p["colours"],
                "score": p["score"],
                "mine": mine is not None and p["seat"] == mine,
            }
            for p in players
        ],
    }
