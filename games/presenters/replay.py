"""The replay's position and move list, from a view of the position: ``engine.view`` for the
viewer's seat while the game runs, the whole position once it is finished (R9.4). Captions and
the score direction are the game page's (``captions``)."""

from __future__ import annotations

from games.engine.cards import CARD_NAMES
from games.engine.pieces import PIECE_SIZE

from .captions import action_text, event_text, standings

LETTER_COLOUR = {"B": "blue", "Y": "yellow", "R": "red", "G": "green"}


def _card_names(cards: list[str]) -> list[str]:
    return [CARD_NAMES.get(card, card) for card in cards]


def position(
    data: dict, colour_seats: dict, ply: int, total: int, revealed: bool, labels: dict
) -> dict:
    """What the board partial shows at ``ply`` of ``total`` actions; the squares the last action
    filled (a placement, a warp's new spot) are marked."""
    last = _last_squares(data["events"]) if ply else set()
    rows = []
    for i, line in enumerate(data["board"]):
        number = 20 - i
        cells = [LETTER_COLOUR.get(ch, "") for ch in line]
        squares = [
            {
                "colour": colour,
                "letter": colour[:1].upper(),
                "last": f"{COLUMNS[x]}{number}" in last,
                "name": f"{COLUMNS[x]}{number}",
            }
            for x, colour in enumerate(cells)
        ]
        rows.append({"number": number, "cells": cells, "squares": squares})
    decks = []
    for owner, discards in data["discards"].items():
        deck = {"owner": owner, "discards": _card_names(discards)}
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
            "label": labels.get(seat, f"Player {seat + 1}"),
            "colours": [c for c, s in colour_seats.items() if s == seat],
        }
        for seat in range(data["players"])
    ]
    supply = [
        {"colour": colour, "pieces": names, "squares": sum(PIECE_SIZE[p] for p in names)}
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
        "columns": "abcdefghijklmnopqrst",
        "to_move": data["to_move"],
        "step": data["step"],
        "direction": "clockwise" if data["direction"] == 1 else "counter-clockwise",
        "over": data["over"],
        "shared_color": data.get("shared_color"),
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


def turn_steps(turns: list[dict], ply: int, total: int) -> dict:
    """Stepping by turn: ``turns`` in order (``log.turns``, oldest first), each from its
    ``first_ply`` to its last action ``ply``. The current turn holds ``ply``; a step back goes to
    the end of the turn before it, a step on to the end of this turn (or the next one)."""
    current = next((t for t in turns if t["first_ply"] <= ply <= t["ply"]), None)
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
    }


def moves(actions: list[tuple[int, dict, str]]) -> list[dict]:
    """The move list: (ply, record action, who) → its caption."""
    return [{"ply": ply, "text": action_text(a), "who": who} for ply, a, who in actions]


def scores(score: dict, labels: dict) -> dict:
    """Final scores, as the game page shows them (one direction flag, ``lower_wins``)."""
    return standings(score, labels)
