"""What the game page shows of one game for one reader, as plain data: the table's facts, the
names at the table, the reader's snapshot (``engine.view`` and ``engine.table``), the clock, the
move log and, at the end, the record's check. Everything takes the ``access.Viewed`` value (or
its parts): the game and its seats were read once, by ``access.game_for_viewer``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games import engine
from games.models import Action, Game, Seat
from games.selectors import clock, hot, seating
from games.selectors.access import Viewed
from games.selectors.names import seat_profile


@dataclass(frozen=True)
class SeatRow:
    """One seat as the game page shows it (plain data: presenters never see a model)."""

    index: int
    label: str
    missing: bool  # nobody sits here yet (an open, link or invited seat)


@dataclass(frozen=True)
class TableFacts:
    """The facts about a game and its reader that the game page's presenters need, read once
    here so that the presenters take plain data and never reach the database."""

    ply: int
    players: int
    shared_color: str
    open: bool  # waiting for players
    active: bool  # in play
    aborted: bool
    seating_known: bool  # the colours of the seats are known (chosen seating, or started)
    seats: tuple[SeatRow, ...]
    viewer: int | None  # the reader's seat index (None: a spectator or a visitor)
    viewer_taken_over: bool  # the computer plays the reader's seat now
    viewer_is_creator: bool
    joinable: str  # "" (nothing to take), "invited" (Accept/Decline) or "seat" (Take a seat)
    takeback: tuple = ()  # the take back asked at this ply and its answers (unrated games)


def table_facts(viewed: Viewed, user, token: str = "") -> TableFacts:
    """The game page's plain facts for ``user`` at ``viewed.seat`` (``token``: the invite
    link's)."""
    game, seat, seats = viewed.game, viewed.seat, viewed.seats
    joinable = ""
    if game.status == Game.Status.OPEN and seat is None:
        # The write path's own rule (selectors.seating): never "Take a seat" where it would refuse.
        target = seating.seat_for_joiner(game, list(seats), user, token)
        if target is not None:
            joinable = "invited" if target.kind == Seat.Kind.INVITED else "seat"
    return TableFacts(
        ply=game.ply,
        players=game.players,
        shared_color=game.shared_color,
        open=game.status == Game.Status.OPEN,
        active=game.status == Game.Status.ACTIVE,
        aborted=game.status == Game.Status.ABORTED,
        seating_known=game.seating == Game.Seating.CHOSEN or game.status != Game.Status.OPEN,
        seats=tuple(
            SeatRow(s.index, s.label, s.kind not in (Seat.Kind.HUMAN, Seat.Kind.AI)) for s in seats
        ),
        viewer=seat.index if seat is not None else None,
        viewer_taken_over=bool(seat is not None and seat.ai_takeover),
        viewer_is_creator=user is not None
        and user.is_authenticated
        and user.pk == game.created_by_id,
        joinable=joinable,
        takeback=_takeback_facts(game),
    )


def _takeback_facts(game: Game) -> tuple:
    """The take back requests at the game's ply and their answers (part of what the panel
    shows, so part of its cache key through ``table_facts``); none in a rated game."""
    if game.rated or game.status != Game.Status.ACTIVE:
        return ()
    rows = game.takebacks.filter(at_ply=game.ply).values_list("pk", "status", "answers")
    return tuple(repr(row) for row in rows)


def seat_labels(seats: Iterable[Seat]) -> dict[int, str]:
    """The names at the table, by seat index (``seats`` with their users: ``Viewed.seats``)."""
    return {s.index: s.label for s in seats}


def seat_profiles(seats: Iterable[Seat]) -> dict[int, str]:
    """Each seat's player's profile address, by seat index ("" for a computer seat): the names
    at the table are links to them (``seats`` with their users: ``Viewed.seats``)."""
    return {s.index: seat_profile(s) for s in seats}


def game_view(game: Game, seat: Seat | None) -> dict | None:
    """engine.view for the viewer: everything shown during play goes through it (R9)."""
    if game.state is None:
        return None
    state = engine.State.from_json(game.state)
    return engine.view(state, seat.index if seat is not None else None)


def seat_snapshot(game: Game, seat: Seat | None) -> dict | None:
    """What the game page needs for one viewer: ``engine.view`` for their seat and
    ``engine.table`` (turn order, anchors, scores; legal actions and card outlooks only for the
    seat deciding now, and not while the computer plays for it). The State never leaves here."""
    if game.state is None:
        return None
    state = engine.State.from_json(game.state)
    index = seat.index if seat is not None else None
    deciding = index if seat is not None and not seat.ai_takeover else None
    return {"view": engine.view(state, index), "table": engine.table(state, deciding)}


def turn_clock(game: Game, seats: Iterable[Seat]) -> dict | None:
    """The running turn's clock: its deadline (vacations counted, selectors.clock) for a human's
    turn, or the end of their vacation while they are away; for a computer's, that it is
    thinking. None when no turn runs. ``seats``: the game's, with their users."""
    if game.status != Game.Status.ACTIVE or game.turn_started_at is None:
        return None
    per_move = dict(Game.MOVE_TIMES).get(game.move_seconds) or _("%(seconds)d s") % {
        "seconds": game.move_seconds
    }
    seat = next((s for s in seats if s.index == game.to_move_seat), None)
    if seat is None or seat.is_ai:
        return {"computer": True, "per_move": per_move}
    user = seat.user
    due = clock.deadline(game, seat.user_id, last_vacation_end=user and user.vacation_until)
    if user is not None and user.on_vacation():
        # The clock stands still while the player is away (selectors.clock): no countdown, no
        # "the computer plays at the deadline", the end of the vacation instead.
        return {"computer": False, "per_move": per_move, "vacation_until": user.vacation_until}
    return {"computer": False, "per_move": per_move, "deadline": due}


def earlier_events(game: Game, limit: int = 200):
    """A callable giving the public events of the game's actions, newest first (run lazily: the
    page needs them only when the last action placed nothing)."""
    return lambda: (
        Action.objects.filter(game=game).order_by("-ply").values_list("events", flat=True)[:limit]
    )


def turn_log(game: Game) -> list[tuple[int, int, list]]:
    """(ply, seat, public events) of every action, in order: the move log's input."""
    return hot.turn_log(game)


def shuffle_verdict(game: Game) -> dict:
    """``engine.verify`` of a finished Shuffle game's full record (seed, salt, decks, actions)."""
    payloads = [a.payload for a in game.actions.order_by("ply")]
    return engine.verify(engine.make_record(game.initial_state(), payloads, reveal=True))
