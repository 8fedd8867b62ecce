"""The replay's position and move list, from a view of the position: ``engine.view`` for the
viewer's seat while the game runs, the whole position once it is finished (R9.4). Captions and
the score direction are the game page's (``captions``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.pieces import PIECE_SIZE
from games.engine.state import COLOURS, LETTERS
from games.translations import card_name, colour_name, step_name

from .captions import event_text, player_label, standings

LETTER_COLOUR = dict(zip(LETTERS, COLOURS, strict=True))  # engine.view's board letters


def _card_names(cards: list[str]) -> list[str]:
    return [card_name(card) for card in cards]


def position(
    data: dict,
    colour_seats: dict,
    ply: int,
    total: int,
    revealed: bool,
    labels: dict,
    marks: dict | None = None,
) -> dict:
    """What the board partial shows at ``ply`` of ``total`` actions. ``marks`` (``last_move``)
    names the squares of the last move (``last``) and those it emptied (``gone``); without it, the
    squares the last action filled."""
    if marks is None:
        marks = {"last": _last_squares(data["events"]) if ply else set(), "gone": set()}
    rows = []
    for i, line in enumerate(data["board"]):
        number = 20 - i
        cells = [LETTER_COLOUR.get(ch, "") for ch in line]
        squares = []
        for x, colour in enumerate(cells):
            name = f"{COLUMNS[x]}{number}"
            squares.append(
                {
                    "colour": colour,
                    "last": name in marks["last"] and bool(colour),
                    "gone": name in marks["gone"] and not colour,
                    "name": name,
                }
            )
        rows.append({"number": number, "cells": cells, "squares": squares})
    decks = []
    for owner, discards in data["discards"].items():
        deck = {"owner": owner, "owner_name": colour_name(owner), "discards": _card_names(discards)}
        if revealed:
            deck["hand"] = _card_names(data["hands"][owner])
            deck["pile"] = _card_names(data["draw_piles"][owner])
            deck["hand_count"], deck["pile_count"] = len(deck["hand"]), len(deck["pile"])
        else:
            deck["hand"], deck["pile"] = None, None
            deck["hand_count"] = data["hand_counts"][owner]
            deck["pile_count"] = data["pile_counts"][owner]
        decks.append(deck)
    players = [
        {
            "label": labels[seat] if seat in labels else player_label(seat),
            "colours": [
                {"key": c, "name": colour_name(c)} for c, s in colour_seats.items() if s == seat
            ],
        }
        for seat in range(data["players"])
    ]
    supply = [
        {
            "colour": colour,
            "label": colour_name(colour),
            "pieces": names,
            "squares": sum(PIECE_SIZE[p] for p in names),
        }
        for colour, names in data["supply"].items()
    ]
    return {
        "ply": ply,
        "total": total,
        "first": 0,
        "prev": max(0, ply - 1),
        "next": min(total, ply + 1),
        "last": total,
        "rows": rows,
        # which marks the board shows, for its legend (the analysis adds its own: analysis.py)
        "marks": {
            "last": any(sq["last"] for row in rows for sq in row["squares"]),
            "gone": any(sq["gone"] for row in rows for sq in row["squares"]),
        },
        "columns": "abcdefghijklmnopqrst",
        "to_move": data["to_move"],
        "to_move_name": colour_name(data["to_move"]),
        "step": data["step"],
        "step_name": step_name(data["step"]),
        "direction": _("clockwise") if data["direction"] == 1 else _("counter-clockwise"),
        "over": data["over"],
        "shared_color": data.get("shared_color"),
        "shared_color_name": colour_name(data.get("shared_color")),
        "events": [event_text(e) for e in data["events"]] if ply else [],
        "supply": supply,
        "decks": decks,
        "revealed": revealed,
        "hand": None if revealed or data.get("hand") is None else _card_names(data["hand"]),
        "drawn": [] if revealed else _card_names(data.get("drawn", [])),
        "players": players,
        "mode": data["mode"],
    }


COLUMNS = "abcdefghijklmnopqrst"


def _last_squares(events: list[dict]) -> set[str]:
    out: set[str] = set()
    for event in events:
        if event.get("event") == "place":
            out.update(event["squares"].split(","))
        elif event.get("event") == "warp":
            out.update(event["to"].split(","))
    return out


def _turn_at(turns: list[dict], ply: int) -> dict | None:
    return next((t for t in turns if t["first_ply"] <= ply <= t["ply"]), None)


def last_move(rows: list[tuple[int, int, list[dict]]], turns: list[dict], ply: int) -> dict:
    """The squares to mark at ``ply``: what the latest turn with a placement (up to ``ply``)
    placed, or moved by Warp (``last``), and what it emptied by Recycle or Warp (``gone``).
    ``rows`` are (ply, seat, public events); a card played at the start of a turn leaves the
    turn before it marked."""
    events_at = {p: events or [] for p, _seat, events in rows}
    for turn in reversed([t for t in turns if t["first_ply"] <= ply]):
        last: set[str] = set()
        gone: set[str] = set()
        for p in range(turn["first_ply"], min(turn["ply"], ply) + 1):
            for event in events_at.get(p, []):
                kind = event.get("event")
                if kind == "place":
                    last.update(event["squares"].split(","))
                elif kind == "warp":
                    gone.update(event["squares"].split(","))
                    last.update(event["to"].split(","))
                elif kind == "recycle":
                    gone.update(event["squares"].split(","))
        if last or gone:
            return {"last": last, "gone": gone - last}
    return {"last": set(), "gone": set()}


def turn_list(
    turns: list[dict], rows: list[tuple[int, int, list[dict]]], ply: int, base_url: str
) -> list[dict]:
    """The move list: ``turns`` (``log.turns``, oldest first), each with its ``actions`` (one line
    per action, its public events in words, a link to that ply) and the ``current`` one marked."""
    events_at = {p: events or [] for p, _seat, events in rows}
    out = []
    for turn in turns:
        actions = []
        for p in range(turn["first_ply"], turn["ply"] + 1):
            texts = [event_text(e) for e in events_at.get(p, [])]
            actions.append(
                {
                    "ply": p,
                    "text": " · ".join(texts) or "—",
                    "href": f"{base_url}?ply={p}",
                    "current": p == ply,
                }
            )
        out.append({**turn, "actions": actions, "current": turn["first_ply"] <= ply <= turn["ply"]})
    return out


def turn_steps(turns: list[dict], ply: int, total: int) -> dict:
    """Stepping by turn: ``turns`` in order (``log.turns``, oldest first), each from its
    ``first_ply`` to its last action ``ply``. The current turn holds ``ply``; a step back goes to
    the end of the turn before it, a step on to the end of this turn (or the next one).
    ``in_turn`` of ``turn_actions`` places ``ply`` inside its turn."""
    current = _turn_at(turns, ply)
    index = turns.index(current) if current else -1
    ends = [t["ply"] for t in turns]
    before = [e for e in ends if e < ply]
    after = [e for e in ends if e > ply]
    if current is not None and ply < current["ply"]:
        before = [e for e in ends if e < current["first_ply"]]
    return {
        "current": current["number"] if current else 0,
        "count": len(turns),
        "prev_turn": before[-1] if before else 0,
        "next_turn": after[0] if after else total,
        "index": index,
        "colour": current["colour"] if current else "",
        "label": current["label"] if current else "",
        "letter": current["letter"] if current else "",
        "player": current["player"] if current else "",
        "in_turn": ply - current["first_ply"] + 1 if current else 0,
        "turn_actions": current["ply"] - current["first_ply"] + 1 if current else 0,
    }


def scores(score: dict, labels: dict) -> dict:
    """Final scores, as the game page shows them (one direction flag, ``lower_wins``)."""
    return standings(score, labels)
