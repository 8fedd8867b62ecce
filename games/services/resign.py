"""Resigning (BGA's "Concede", lichess's "Resign"): a player's entry to the write path that may
come at any time, not only on their turn. What a resignation does to the game is the engine's
rule (games.engine.rules.resign): in a two-player game the other player wins at once; with three
or four the resigner's colours stop and the others play on. It is one action of the game's record
(``{"resign": "<colour>"}``), so replays and records tell it like any move, and a rated game rates
the resigner's place (below every player who did not resign) when it ends.

The computer never resigns: only the seat's own player can, from the game page.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games import engine
from games.engine import IllegalAction
from games.models import Game, Seat
from games.services import notify
from games.services.actions import after_change, locked, record
from games.services.errors import Conflict, NotAllowed, Refused


def game_resign(*, game: Game, user) -> Game:
    """``user`` resigns from ``game``. Refused (changing nothing) for someone without a seat,
    a game not in play, or a player who has resigned already (the engine names the rule)."""
    with transaction.atomic():
        game = locked(game)
        seat = game.seats.filter(user=user, kind=Seat.Kind.HUMAN).first() if user else None
        if seat is None:
            raise NotAllowed(_("only a player of this game can resign"))
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("this game is not in play"))
        state = game.current_state()
        before = state.controller()
        action = {"resign": state_colour(state, seat.index)}
        try:
            new = engine.apply(state, action)
        except IllegalAction as exc:
            raise Refused(str(exc)) from None
        # Out of turn when the seat deciding stays the same (and it was not the resigner's).
        out = before != seat.index and new.controller() == before
        record(game, new, seat=seat.index, user=user, action=action, out_of_turn=out)
        game.save()
        after_change(game, new, turn_changed=new.controller() != before)
        notify.told(kind="resigned", game=game, number=game.ply, about=seat.index)
    return game


def state_colour(state, seat: int) -> str:
    """The colour that names ``seat`` in a resignation: its first own colour (R2.5)."""
    return engine.COLOURS[state.seat_colours(seat)[0]]
