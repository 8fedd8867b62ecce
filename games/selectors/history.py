"""What a reader may see of a game's history: the replay's positions and the record export.

The secrecy rules live here, next to the data (STYLE.md habit 19), not in the views: while a game
runs, a position or a record goes through ``engine.view`` for the reader's seat (R9); once it is
finished everything may be shown (R9.4), mid-game positions and the decks included.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from games import engine
from games.engine import blksgf
from games.models import Game, Seat
from games.selectors.access import Viewed
from games.selectors.analysis import export_entries
from games.selectors.table import game_view, seat_labels


@dataclass(frozen=True)
class ReplayPosition:
    """The replay of ``game`` at ``ply`` as ``seat`` may see it."""

    data: dict  # the position: the full state once revealed, else the reader's view
    revealed: bool  # R9.4: the game is finished, everything may be shown
    rows: list[tuple[int, int, list]]  # (ply, seat, public events) of every action (R9.1)
    colour_seats: dict
    labels: dict[int, str]  # seat index -> the seat's label
    final: dict | None  # the final scores, once revealed
    mode: str
    total: int  # the number of actions


def replay_position(viewed: Viewed, ply: int) -> ReplayPosition:
    """The position after ``ply`` actions (0 … the number of actions) for the reader of
    ``viewed`` (at their seat, or a spectator)."""
    game, seat = viewed.game, viewed.seat
    actions = list(game.actions.order_by("ply"))
    ply = max(0, min(len(actions), ply))
    state = game.initial_state()
    for action in actions[:ply]:
        state = engine.apply(state, action.payload)
    revealed = game.status == Game.Status.FINISHED
    data = state.to_json() if revealed else engine.view(state, seat.index if seat else None)
    return ReplayPosition(
        data=data,
        revealed=revealed,
        # The actions' public events (R9.1): what every seat saw happen, nothing of a hand or pile.
        rows=[(a.ply, a.seat, a.events) for a in actions],
        colour_seats=engine.table(state, None)["colour_seats"],
        labels=seat_labels(viewed.seats),
        final=engine.score(game.current_state()) if revealed else None,
        mode=state.mode,
        total=len(actions),
    )


def may_export(game: Game, seat: Seat | None) -> bool:
    """Whether the reader may download the game's record now: anyone who may see a finished
    game; while it runs, only its players (each their own view)."""
    return game.status == Game.Status.FINISHED or seat is not None


def record_document(game: Game, seat: Seat | None) -> dict:
    """The game's record for the reader: after the end the full record, decks included (R9.4);
    while it runs, a player's own view and the public actions, never the decks or the seed (R9).
    A finished game whose analysis is done also carries the optional ``analysis`` list
    (``selectors.analysis.export_entries``: entries of format ``blokus-analysis/1``).
    Raises PermissionDenied for anyone else while the game runs."""
    payloads = [a.payload for a in game.actions.order_by("ply")]
    if game.status == Game.Status.FINISHED:
        document = engine.make_record(game.initial_state(), payloads, reveal=True)
        entries = export_entries(game)  # optional: readers need not know it
        if entries is not None:
            document["analysis"] = entries
        return document
    if seat is None:
        raise PermissionDenied(_("only the players may export a game in play, each their own view"))
    return {
        "format": "blokus-view/1",
        "game": game.public_id,
        "seat": seat.index,
        "view": game_view(game, seat),
        "actions": payloads,
    }


def pentobi_mappable(game: Game) -> bool:
    """Whether Pentobi can open the finished game's record (games/engine/blksgf.py): classic
    only (Pentobi knows no cards), and with three players only when green is shared (Pentobi
    always shares its colour 4)."""
    return (
        game.status == Game.Status.FINISHED
        and game.mode == Game.Mode.CLASSIC
        and (game.players != 3 or game.shared_color in ("", "green"))
    )


def pentobi_text(game: Game, record: dict, seats: list[Seat]) -> str | None:
    """The finished game's ``.blksgf`` text from its full record (``record_document``), the
    seats' labels as the players' names; None where Pentobi cannot open it."""
    if not pentobi_mappable(game):
        return None
    try:
        return blksgf.export(
            record,
            names=[s.label for s in sorted(seats, key=lambda s: s.index)],
            date=f"{game.finished_at:%Y-%m-%d}" if game.finished_at else "",
        )
    except blksgf.ExportError:  # unreachable for a finished classic game
        return None
