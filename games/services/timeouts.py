"""Turns whose time ran out: the computer plays them for their player (STYLE.md habit 20: this
is the timeout's entry to the write path; the moves come from games.jobs, which asks the AI)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Game, Seat
from games.selectors import clock
from games.selectors.turns import TIMEOUTS_BEFORE_TAKEOVER, turn_start_ply
from games.services import notify
from games.services.actions import locked, owned_key, submit
from games.services.errors import NotAllowed

TIMEOUT_LEVEL = Seat.Level.CASUAL  # plays timed-out turns and taken-over seats


def _still_theirs(seat: Seat) -> None:
    """The seat of a timed-out turn is a player's (a computer seat is ai_play's business)."""
    if seat.kind != Seat.Kind.HUMAN:
        raise NotAllowed("a timeout plays for a player's seat")


def overdue(game: Game, ply: int) -> bool:
    """Whether the turn running at ``ply`` is past its move time (vacations aside: see
    ``turn_timeout``, which asks the clock under the lock)."""
    return (
        game.status == Game.Status.ACTIVE
        and game.ply == ply
        and game.turn_started_at is not None
        and game.turn_started_at + timedelta(seconds=game.move_seconds) <= timezone.now()
    )


def turn_timeout(*, game: Game, ply: int, plan: list[dict]) -> bool:
    """The computer plays an overdue turn for its human player: ``plan`` is the rest of the
    seat's turn as the computer chose it from the position at ``ply`` (games.jobs.computer asks
    the AI before any lock is taken, so a slow choice never holds the game's row).

    Re-checks under the game's lock that the turn is still overdue at ``ply`` (a move that came
    in meanwhile wins), then plays the whole rest of the seat's turn: every decision until
    another seat controls the game, since the move clock only restarts then. The third timeout
    in a row hands the seat to the computer for the rest of the game. Returns whether it played.
    """
    # Under the lock the moves are played only if the game is still at ``ply``, i.e. at the very
    # position they were chosen for.
    if not plan:
        return False
    with transaction.atomic():
        game = locked(game)
        if not overdue(game, ply):
            return False
        state = game.current_state()
        seat = game.seats.select_related("user").get(index=state.controller())
        if seat.kind != Seat.Kind.HUMAN or seat.is_ai:
            return False  # a computer seat is ai_play's business
        if clock.deadline(game, seat.user_id) > timezone.now():
            return False  # the player was on vacation: the clock stood still meanwhile
        began = turn_start_ply(game.pk, seat.index)
        seat.timeouts_in_row += 1
        seat.save(update_fields=["timeouts_in_row"])
        for action in plan:
            result = submit(
                game=game,
                action=action,
                expected_ply=game.ply,
                key=owned_key(f"timeout:{game.ply + 1}", user=None, by_ai=True),
                user=None,  # recorded as the computer's move
                may_play=_still_theirs,
            )
            if result.duplicate:  # cannot happen under the lock; never loop on it
                break
            game = Game.objects.get(pk=game.pk)
        if seat.timeouts_in_row < TIMEOUTS_BEFORE_TAKEOVER:
            notify.told(kind="timeout", game=game, number=began, about=seat.index)
            return True
        seat.ai_takeover, seat.ai_level = True, TIMEOUT_LEVEL
        seat.save(update_fields=["ai_takeover", "ai_level"])
        # Everyone seated is told, the player whose seat it was first (games.notices).
        notify.told(kind="takeover", game=game, number=began, about=seat.index)
    return True
