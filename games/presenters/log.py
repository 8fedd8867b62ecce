"""The move log beside the board: every turn of the game, newest first, from the actions' public
events only (the ``events`` each Action keeps: what every seat saw happen, R9.1).

A turn is what one colour did from its card to its draw: in Shuffle mode a turn starts with a
played card (a Draw 2's kept card continues the same turn, R6.3) and ends with the draw, a pass
or the next colour's move; in classic mode every action is a turn. The turns after the viewer's
own last turn are marked ``new``: what happened while they were away.
"""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from games.engine.state import COLOURS
from games.translations import colour_letter, colour_name

from .captions import event_text


def _mover(events: list[dict]) -> str | None:
    return events[0].get("colour") if events else None


def _starts_turn(events: list[dict], previous: list[dict] | None, classic: bool) -> bool:
    if previous is None or classic:
        return True
    if _mover(events) != _mover(previous):
        return True
    before = previous[0]
    if before.get("event") == "card" and before.get("card") == "draw2":
        return False  # the kept card, or the placement after it (R6.3): the same turn
    if any(e.get("event") in ("draw", "pass", "over") for e in previous):
        return True
    return events[0].get("event") == "card"


def _player(colour, seat, colour_labels, seat_names, shared) -> str:
    if shared and colour == shared and seat_names and seat in seat_names:
        return _("shared colour, played by %(name)s") % {"name": seat_names[seat]}
    return colour_labels.get(colour, "")


def turns(
    actions: list[tuple[int, int, list[dict]]],
    *,
    classic: bool,
    colour_labels: dict[str, str],
    mine: set[str],
    replay_url: str,
    seat_names: dict[int, str] | None = None,
    shared: str | None = None,
    colour_seats: dict[str, int | None] | None = None,
    profiles: dict[int, str] | None = None,
) -> dict:
    """``actions`` are (ply, seat, public events) in ply order. Returns the turns, newest first,
    each with its colour, player, captions, and a link to the replay at its last action. The
    ``shared`` colour's turns (R2.5: the players take turns with it) say who played them, from
    the acting seat's name in ``seat_names``. ``profiles`` (seat -> profile address) with
    ``colour_seats`` (colour -> seat) give each turn's player's address: the name links to it."""
    colour_seats = colour_seats or {}
    profiles = profiles or {}
    out: list[dict] = []
    previous = None
    for ply, seat, events in actions:
        events = events or []
        if not events:
            continue
        if _starts_turn(events, previous, classic):
            colour = _mover(events) or ""
            out.append(
                {
                    "colour": colour,
                    "label": colour_name(colour),
                    "letter": colour_letter(colour) if colour in COLOURS else "?",
                    "player": _player(colour, seat, colour_labels, seat_names, shared),
                    "player_url": profiles.get(
                        seat if shared and colour == shared else colour_seats.get(colour), ""
                    ),
                    "lines": [],
                    "first_ply": ply,
                    "mine": colour in mine,
                }
            )
        turn = out[-1]
        turn["ply"] = ply
        turn["href"] = f"{replay_url}?ply={ply}"
        for event in events:
            kind = event.get("event")
            turn["lines"].append(
                {"text": event_text(event), "kind": kind, "colour": event.get("colour", "")}
            )
        previous = events
    last_mine = max((i for i, t in enumerate(out) if t["mine"]), default=None)
    since = 0
    for i, turn in enumerate(out):
        turn["number"] = i + 1
        turn["new"] = bool(mine) and last_mine is not None and i > last_mine
        since += turn["new"]
    out.reverse()
    return {"turns": out, "since": since, "have_moved": last_mine is not None}


def items_html(turns: list[dict]) -> SafeString:
    """The log's turns as the list's items (``turns``' output, newest first), built here rather
    than in a template loop: a finished game's log has hundreds of lines, and through the template
    engine they were most of a late position's panel. Every value is escaped. The player's
    name is a link of its own to their profile, beside the turn's link to the replay (a link
    holds no other link)."""
    title = escape(_("Replay from here"))
    out = []
    for t in turns:
        colour = escape(t["colour"])
        lines = "".join(
            f'<li class="ev-{escape(str(line["kind"]))}">{escape(line["text"])}</li>'
            for line in t["lines"]
        )
        who = escape(t["player"])
        url = t.get("player_url")
        who = (
            f'<a class="log-who" href="{escape(url)}">{who}</a>'
            if url
            else f'<span class="log-who">{who}</span>'
        )
        out.append(
            f'<li class="log-turn {colour}{" new" if t["new"] else ""}">'
            f'<a href="{escape(t["href"])}" title="{title}">'
            f'<span class="swatch {colour}" aria-hidden="true">{escape(t["letter"])}</span> '
            f'<span class="log-n">{t["number"]}.</span> '
            f"<strong>{escape(capfirst(t['label']))}</strong></a> {who}"
            f'<ul class="log-lines">{lines}</ul></li>'
        )
    return mark_safe("\n".join(out))  # every value above is escaped
