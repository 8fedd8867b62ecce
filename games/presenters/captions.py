"""Words shared by the game page and the replay: steps, cards, events, moves, outlooks, scores.

One wording for both pages: events are told in the past tense ("Blue placed F on …"), the move
list in the present ("places a1"), and scores carry one direction flag, ``lower_wins``. Every
sentence is a whole translatable message (games.translations names the cards and colours).
"""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.cards import CARDS
from games.engine.state import COLOURS
from games.translations import EVENT_TEXT, card_effect, card_name, colour_name

SCORING_RULE = {
    True: gettext_lazy("Basic scoring: the fewest squares left wins (R8.3)."),
    False: gettext_lazy("Advanced scoring: the highest score wins (R8.4)."),
}


def card(kind: str) -> dict:
    """A card as the pages draw it: its words in the reader's language and the registry's
    symbol (characters found in the common system fonts; the name is always written beside)."""
    return {
        "kind": kind,
        "name": card_name(kind),
        "effect": card_effect(kind),
        "symbol": CARDS[kind].symbol if kind in CARDS else "",
    }


def placements(n: int) -> str:
    return ngettext("%(n)s placement", "%(n)s placements", n) % {"n": n}


def event_text(event: dict) -> str:
    """A caption for one public event of the last action (the engine's ``events``)."""
    kind = event.get("event")
    words = {
        "colour": colour_name(event.get("colour", "")),
        "piece": event.get("piece", ""),
        "squares": event.get("squares", ""),
        "to": event.get("to", ""),
        "card": card_name(event.get("card", "")),
        "declared": colour_name(event.get("declared", "")),
        "owner": colour_name(event.get("owner", "")),
    }
    if kind == "draw":
        n = event.get("count", 1)
        text = ngettext("%(colour)s drew %(n)s card", "%(colour)s drew %(n)s cards", n)
        return capfirst(text % {**words, "n": n})
    template = EVENT_TEXT.get(kind)
    if template is None:
        return capfirst(_("%(colour)s: %(event)s") % {**words, "event": kind})
    return capfirst(str(template) % words)


def action_text(action: dict) -> str:
    """One record action as the move list tells it."""
    if "warp" in action:
        return _("warps %(squares)s to %(to)s") % {
            "squares": action["warp"],
            "to": action.get("to", "?"),
        }
    if "place" in action:
        return _("places %(squares)s") % {"squares": action["place"]}
    if "card" in action:
        return _("plays %(card)s") % {"card": card_name(action["card"])}
    if "keep" in action:
        return _("keeps %(card)s") % {"card": card_name(action["keep"])}
    if "declare" in action:
        return _("declares %(colour)s") % {"colour": colour_name(action["declare"])}
    if "recycle" in action:
        return _("recycles %(squares)s") % {"squares": action["recycle"]}
    if "resign" in action:
        return _("resigns")
    return str(action)


def outlook_text(look: dict) -> dict:
    """``engine.outlook``'s counts in words: ``text``, and ``warn`` when the card would only be
    discarded (R5.1) or the turn would pass (R5.3)."""
    kind = look["kind"]
    if kind == "draw2":
        if not look["pile"]:
            return {"text": "", "warn": _("Your draw pile is empty: it would just be discarded.")}
        if look["pile"] == 1:
            return {"text": _("You will see one card, played at once."), "warn": ""}
        return {"text": _("You will see two cards and keep one."), "warn": ""}
    if kind == "illegal":
        return {"text": "", "warn": ""}
    warn = _("Can't be carried out now: it would just be discarded.") if look["no_effect"] else ""
    if kind == "declare":
        text = _declare_text(look["by_colour"])
    elif kind == "recycle":
        text = ngettext(
            "Take back one of %(n)s piece, then up to %(placements)s",
            "Take back one of %(n)s pieces, then up to %(placements)s",
            look["options"],
        ) % {"n": look["options"], "placements": placements(look["most"])}
    elif kind == "warp":
        moves = ngettext("%(n)s move", "%(n)s moves", look["moves"]) % {"n": look["moves"]}
        text = ngettext(
            "%(moves)s for %(n)s piece, then place",
            "%(moves)s for %(n)s pieces, then place",
            look["sources"],
        ) % {"moves": moves, "n": look["sources"]}
    else:
        n = look["placements"]
        if look["no_effect"]:
            # The card would only be discarded (a Warp with no piece to move, say): what follows
            # is the usual placement, said as such rather than as the card's own count beside
            # a warning that contradicts it.
            then = placements(n) if n else _("no placement: you would pass (R5.3)")
            warn = _("No effect now: it would just be discarded, then %(then)s.") % {"then": then}
            return {"text": "", "warn": warn}
        if look["double"] and n:
            text = _("%(placements)s, then a second piece") % {"placements": placements(n)}
        else:
            text = placements(n)
        if not n:
            warn = warn or _("No placement then: you would pass (R5.3).")
    return {"text": text, "warn": warn}


def _declare_text(counts: dict) -> str:
    best = max(COLOURS, key=lambda c: counts[c])
    detail = " · ".join(f"{colour_name(c)} {counts[c]}" for c in COLOURS)
    return _("Up to %(placements)s (as %(colour)s): %(detail)s") % {
        "placements": placements(counts[best]),
        "colour": colour_name(best),
        "detail": detail,
    }


def player_label(seat: int) -> str:
    return _("Player %(number)s") % {"number": seat + 1}


def _resigned(name: str, player: dict) -> str:
    """A player's name in the scores, marked if they resigned (they rank below the others)."""
    if not player.get("resigned"):
        return name
    return _("%(name)s (resigned)") % {"name": name}


def standings(
    score: dict,
    labels: dict[int, str],
    mine: int | None = None,
    profiles: dict[int, str] | None = None,
) -> dict:
    """Scores (``engine.score``) with the players' names, best first, and each name's profile
    address where ``profiles`` has one; ``lower_wins`` is the one direction flag both pages
    read (basic scoring, R8.3)."""
    profiles = profiles or {}
    lower_wins = score["scoring"] == "basic"
    players = sorted(score["players"], key=lambda p: (p["place"], p["seat"]))
    return {
        "over": score["over"],
        "scoring": score["scoring"],
        "lower_wins": lower_wins,
        "rule": str(SCORING_RULE[lower_wins]),
        "players": [
            {
                "place": p["place"],
                "seat": p["seat"],
                "player": _resigned(
                    labels[p["seat"]] if p["seat"] in labels else player_label(p["seat"]), p
                ),
                "url": profiles.get(p["seat"], ""),
                "colours": p["colours"],
                "colour_names": [colour_name(c) for c in p["colours"]],
                "colour_pairs": [(c, colour_name(c)) for c in p["colours"]],
                "score": p["score"],
                "mine": mine is not None and p["seat"] == mine,
            }
            for p in players
        ],
    }
