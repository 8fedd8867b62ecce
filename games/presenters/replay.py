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
    """What the board partial shows at ``ply`` of ``total`` actions."""
    rows = [
        {"number": 20 - i, "cells": [LETTER_COLOUR.get(ch, "") for ch in line]}
        for i, line in enumerate(data["board"])
    ]
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


def moves(actions: list[tuple[int, dict, str]]) -> list[dict]:
    """The move list: (ply, record action, who) → its caption."""
    return [{"ply": ply, "text": action_text(a), "who": who} for ply, a, who in actions]


def scores(score: dict, labels: dict) -> dict:
    """Final scores, as the game page shows them (one direction flag, ``lower_wins``)."""
    return standings(score, labels)
