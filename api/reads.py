"""What the API shows, as plain JSON-ready data, read through the selectors the pages use: the
game from the reader's seat (``selectors.table.seat_snapshot``: ``engine.view`` and
``engine.table``, R9), the move log (the public events the page's log shows), My games
(``selectors.lists.my_games``), the chat lines the reader may read, a "Play now" request.

Nothing here reads ``game.state`` for output, ``game.seed`` or another hand: the snapshot is the
only way a position leaves, as on the game page (STYLE.md habits 3 and 15).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Game, Seat
from games.selectors import chat as chat_reads
from games.selectors import lists, table, takebacks
from games.selectors import seeks as seek_reads
from games.selectors.access import Viewed

CHAT_SHOWN = 100  # the chat panel's latest lines
# A game a request became this recently is its answer (the waiting page's rule:
# games/views/seeks.py).
JUST_STARTED = timedelta(minutes=10)


def when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def seat_out(seat: Seat) -> dict:
    return {
        "index": seat.index,
        "label": str(seat.label),
        "kind": seat.kind,
        "username": seat.user.username if seat.user_id is not None else None,
        "level": seat.ai_level or None,
        "computer_plays": bool(seat.ai_takeover),
        "place": seat.final_place,
    }


def game_head(game: Game, seats, seat: Seat | None, user) -> dict:
    """The game's settings and progress, the same for every reader, and the reader's seat."""
    return {
        "id": game.public_id,
        "status": game.status,
        "mode": game.mode,
        "players": game.players,
        "scoring": game.scoring,
        "rated": game.rated,
        "visibility": game.visibility,
        "move_seconds": game.move_seconds,
        "ply": game.ply,
        "created_by": game.created_by.username if game.created_by_id else None,
        "created_at": when(game.created_at),
        "started_at": when(game.started_at),
        "finished_at": when(game.finished_at),
        "to_move_seat": game.to_move_seat if game.status == Game.Status.ACTIVE else None,
        "seat": seat.index if seat is not None else None,
        "seats": [seat_out(s) for s in seats],
        # The invite link's token is its creator's to pass on (My games shows it to them only).
        "invite_token": game.invite_token if user.pk == game.created_by_id else None,
    }


def game_out(viewed: Viewed, user) -> dict:
    """The game as its page shows it to ``user``: the head, and while it is in play or over
    the seat's view and the table's public facts; ``legal_count`` actions are at the reader's
    decision (the list itself: ``legal_out``)."""
    game, seat, seats = viewed.game, viewed.seat, viewed.seats
    out = game_head(game, seats, seat, user)
    snapshot = table.seat_snapshot(game, seat)
    if snapshot is None:
        return out | {"view": None, "table": None, "your_decision": False, "legal_count": 0}
    facts = snapshot["table"]
    clock = table.turn_clock(game, seats)
    labels = table.seat_labels(seats)
    return out | {
        "view": snapshot["view"],
        "table": {k: v for k, v in facts.items() if k not in ("legal", "outlooks")},
        "your_decision": bool(facts["legal"]),
        "legal_count": len(facts["legal"]),
        "clock": clock_out(clock),
        "takeback": takebacks.facts(game, seat, labels),
    }


def clock_out(clock: dict | None) -> dict | None:
    if clock is None:
        return None
    return {
        "computer": bool(clock.get("computer")),
        "deadline": when(clock.get("deadline")),
        "vacation_until": when(clock.get("vacation_until")),
    }


def legal_out(viewed: Viewed) -> dict:
    """The legal actions at the reader's decision (none when it is not theirs), with the card
    outlooks the page shows beside a card, keep or declare step (in the same order)."""
    snapshot = table.seat_snapshot(viewed.game, viewed.seat)
    facts = snapshot["table"] if snapshot is not None else {"legal": [], "outlooks": []}
    return {
        "id": viewed.game.public_id,
        "ply": viewed.game.ply,
        "step": snapshot["view"]["step"] if snapshot is not None else None,
        "legal": facts["legal"],
        "outlooks": facts["outlooks"],
    }


def actions_after(game: Game, ply: int) -> list[dict]:
    """The game's actions after ``ply`` as the move log shows them: who acted and the public
    events (never the payload: a kept card's name is its owner's)."""
    return [
        {"ply": p, "seat": seat, "events": events}
        for p, seat, events in table.turn_log(game)
        if p > ply
    ]


def current_row(row: lists.CurrentRow) -> dict:
    return {
        "id": row.public_id,
        "mode_name": row.mode_name,
        "players": row.players,
        "ply": row.ply,
        "seats": list(row.seat_labels),
        "created_by_me": row.created_by_me,
        "invited": row.invited,
        "creator": row.creator,
        "since": when(row.when),
        "tournament": row.tournament or None,
    }


def finished_row(row: lists.FinishedRow) -> dict:
    return {
        "id": row.public_id,
        "mode": row.mode,
        "mode_name": row.mode_name,
        "players": row.players,
        "finished": row.finished,
        "status": row.status_name,
        "my_place": row.my_place,
        "seats": list(row.seat_labels),
        "winners": list(row.winners),
        "when": when(row.when),
        "tournament": row.tournament or None,
    }


def my_games_out(user, before: str = "") -> dict:
    page = lists.my_games(user, before=before)
    return {
        "your_turn": [current_row(r) for r in page.your_turn],
        "waiting": [current_row(r) for r in page.waiting],
        "open": [current_row(r) for r in page.open],
        "finished": [finished_row(r) for r in page.finished],
        "older": page.older or None,  # ?before=<this> for the next page
    }


def chat_out(viewed: Viewed, user) -> list[dict]:
    lines = chat_reads.latest_lines(viewed.game, user, viewed.seat, CHAT_SHOWN)
    return [
        {
            "id": line.pk,
            "user": line.user.username,
            "name": str(line.user),
            "room": line.room,
            "text": line.text,
            "at": when(line.created_at),
        }
        for line in lines
    ]


def seek_out(user) -> dict:
    """The player's "Play now" request: waiting (with the table forming), else the game the
    latest one became, else none."""
    seek = seek_reads.waiting(user)
    if seek is not None:
        seated = seek_reads.members(seek.table)
        return {
            "status": "waiting",
            "mode": seek.mode,
            "players": seek.players,
            "move_seconds": seek.move_seconds,
            "rated": seek.rated,
            "seated": [s.user.username for s in seated],
            "table_players": seek.table.players,
            "fill_at": when(seek_reads.fill_at(seated)),
            "game": None,
        }
    started = seek_reads.started(user, since=timezone.now() - JUST_STARTED)
    if started is not None and started.table.game is not None:
        return {"status": "started", "game": started.table.game.public_id}
    return {"status": "none", "game": None}
