"""Playing: one shared apply for every caller, and a named entry per caller (STYLE.md habit
20): ``action_submit`` for a player's move, ``computer_submit`` for the computer's seat, and
``games.services.timeouts.turn_timeout`` for a turn whose time ran out. Each entry checks its own
caller; the lock, the engine, the append and the side effects are the same for all.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, jobs
from games.engine import IllegalAction, State
from games.live import nudges
from games.models import Action, Game, Seat, TournamentTable
from games.selectors import hot
from games.services import notify, ratings
from games.services.errors import Conflict, NotAllowed, NotFound, Refused, StalePly

# The fields of the game row a move changes (the rest is written once, at creation or start).
CHANGED_BY_A_MOVE = ["ply", "state", "turn_started_at", "to_move_seat", "status", "finished_at"]


@dataclass(frozen=True)
class SubmitResult:
    ply: int
    duplicate: bool  # the idempotency key had been seen: this is the first answer again


def locked(game: Game) -> Game:
    """``game``'s row again, locked until the transaction ends (STYLE.md habit 5). A handle
    with only a ``public_id`` (``selectors.game_to_move``: the move path reads nothing before
    the lock) is looked up by it, and NotFound if there is no such game."""
    if game.pk is None:
        found = hot.locked_game(public_id=game.public_id)
        if found is None:
            raise NotFound(_("no such game"))
        return found
    found = hot.locked_game(pk=game.pk)
    if found is None:
        raise Game.DoesNotExist(f"game {game.pk} is gone")
    return found


def seat_for(game: Game, user) -> Seat | None:
    """The seat ``user`` plays in ``game`` (None for a visitor, a spectator or an invitee)."""
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user, kind=Seat.Kind.HUMAN).first()


def action_submit(
    *, game: Game, user, action: dict, expected_ply: int, key: str = ""
) -> SubmitResult:
    """A player's move: ``user`` must hold the seat that decides now, and the computer must not
    have taken that seat over. A move of their own resets the seat's timeouts in a row."""

    def may_play(seat: Seat) -> None:
        if user is None or seat.user_id != user.pk or seat.kind != Seat.Kind.HUMAN:
            raise NotAllowed(_("it is not your turn"))
        if seat.ai_takeover:
            raise NotAllowed(_("the computer plays this seat now"))

    return submit(
        game=game,
        action=action,
        expected_ply=expected_ply,
        key=owned_key(key, user=user, by_ai=False),
        user=user,
        may_play=may_play,
    )


def computer_submit(*, game: Game, action: dict, expected_ply: int, key: str) -> SubmitResult:
    """The computer's move for a computer seat (or a seat it took over): games.jobs asks the AI
    for ``action`` outside any lock and sends it here."""

    def may_play(seat: Seat) -> None:
        if not seat.is_ai:
            raise NotAllowed(_("it is not the computer's turn"))

    return submit(
        game=game,
        action=action,
        expected_ply=expected_ply,
        key=owned_key(key, user=None, by_ai=True),
        user=None,
        may_play=may_play,
    )


def submit(
    *, game: Game, action: dict, expected_ply: int, key: str, user, may_play
) -> SubmitResult:
    """The one apply that every entry shares: play ``action`` for the seat that controls the
    decision now, if ``may_play(seat)`` lets the caller (it raises NotAllowed otherwise).

    Locks the game row, so concurrent submissions are served one at a time: the first one moves
    the ply on and the others find a stale ``expected_ply`` (409) or their own idempotency key
    (the same answer again). The action row and the new snapshot commit together or not at all.
    ``user`` None records the action as the computer's.
    """
    by_ai = user is None
    with transaction.atomic():
        # One read, the cheapest a move can make: the game's row locked, with its seats, their
        # players and what the turn notice needs (notify.devices_told).
        found = hot.locked_with_seats(game.public_id)
        if found is None:
            raise NotFound(_("no such game"))
        game, seat_rows = found
        # A retry, or a page shown again with the key of a move it already made, comes with a
        # ply the game has left: only then is the key looked up. At the game's own ply a key
        # used before can only be an old move's: the insert's unique key refuses it (record).
        if key and expected_ply != game.ply:
            done = Action.objects.filter(game=game, key=key).only("ply", "payload").first()
            if done is not None and done.payload == action:
                return SubmitResult(ply=done.ply, duplicate=True)  # a retry: the same answer
            if done is not None:
                # The key came back with another move: a page shown again from the browser's
                # cache (Back, a sleeping tab) still carries the key its first move used.
                # Answering it as a retry would drop this click without a word.
                raise StalePly(
                    _("the game has moved on (you saw move %(seen)s, it is at %(ply)s)")
                    % {"seen": expected_ply, "ply": game.ply}
                )
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("this game is not in play"))
        if expected_ply != game.ply:
            raise StalePly(
                _("the game has moved on (you saw move %(seen)s, it is at %(ply)s)")
                % {"seen": expected_ply, "ply": game.ply}
            )
        state = game.current_state()
        controller = state.controller()
        seats = {s.index: s for s in seat_rows}
        seat = seats[controller]
        may_play(seat)
        try:
            new = engine.apply(state, action)
        except IllegalAction as exc:
            raise Refused(str(exc)) from None
        record(game, new, seat=controller, user=user, action=action, key=key, seats=seats.values())
        if not by_ai and seat.timeouts_in_row:
            seat.timeouts_in_row = 0
            seat.save(update_fields=["timeouts_in_row"])
        game.save(update_fields=CHANGED_BY_A_MOVE)
        after_change(game, new, turn_changed=new.controller() != controller, seats=seats)
    return SubmitResult(ply=game.ply, duplicate=False)


def record(
    game: Game,
    new: State,
    *,
    seat: int,
    user,
    action: dict,
    key: str = "",
    out_of_turn=False,
    seats=None,
) -> None:
    """Append ``action`` (sent by ``seat``; ``user`` None: the computer) to the locked ``game``
    and move its snapshot, clock and status to ``new``; the caller saves the game. Shared by
    every write that plays an engine action (a move, a resignation: games.services.resign).
    ``seats`` (every Seat with its user), where the caller read them under the lock, spare the
    end of the game a query."""
    controller = game.to_move_seat
    try:
        # No savepoint: a failed insert ends this transaction through the Conflict raised.
        Action.objects.create(
            game=game,
            ply=game.ply + 1,
            seat=seat,
            user=user,
            by_ai=user is None,
            payload=action,
            events=new.events,
            key=key,
            out_of_turn=out_of_turn,
        )
    except IntegrityError as exc:
        if _constraint(exc) == "action_unique_key":
            # The key of an earlier move, sent again at the game's ply (a page shown again from
            # the browser's cache), or of a move taken back since (its request sent again: the
            # key stays spent, games/models.py): nothing was written (the transaction ends here).
            raise StalePly(
                _("the game has moved on (you saw move %(seen)s, it is at %(ply)s)")
                % {"seen": game.ply, "ply": game.ply}
            ) from None
        # The lock makes this unreachable; never a 500 if it happens.
        raise Conflict(_("this move was already recorded")) from None
    game.ply += 1
    game.state = new.to_json()
    if new.controller() != controller or new.over:
        game.turn_started_at = timezone.now()
    game.to_move_seat = new.controller()
    if new.over:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        ratings.record_results(game, new, seats=seats)  # places, scores, ratings: once, here


def _constraint(exc: IntegrityError) -> str:
    """The name of the constraint a failed insert broke: PostgreSQL's diagnostics, or, on SQLite
    (the embedded default), read from its message ("UNIQUE constraint failed: ...key")."""
    diag = getattr(exc.__cause__, "diag", None)
    name = getattr(diag, "constraint_name", None)
    if name:
        return name
    return "action_unique_key" if str(exc).endswith("games_action.key") else ""


def owned_key(key: str, *, user, by_ai: bool) -> str:
    """The idempotency key as stored: prefixed with whose it is. A key answers only the
    sender that made it: a player's keys are ``u<id>:...``, the server's (the computer's turns,
    timeouts) ``srv:...``, so no client can send a key that passes for the server's or for
    another player's and make their move look done."""
    key = (key or "")[:48]
    if not key:
        return ""
    if by_ai:
        return f"srv:{key}"
    return f"u{user.pk if user is not None else 0}:{key}"


def after_change(
    game: Game, state: State, *, turn_changed: bool = True, seats: dict[int, Seat] | None = None
) -> None:
    """Side effects of a committed change (STYLE.md habit 6): a nudge to every page watching the
    game, a turn notice to the player who decides next, or the computer's turn. A rolled-back
    change queues nothing. ``seats`` (index -> Seat with its user) spares a query when the
    caller has read them."""
    game_id, public_id, ply = game.pk, game.public_id, game.ply
    # Every side effect is robust: Redis down (the channel layer, the broker) must never turn
    # a committed move into an error. Django logs a failed hook and runs the next; a lost
    # computer turn is queued again by the sweep (games.jobs.deadlines.sweep, within a minute), a
    # lost nudge is made up by the pages' keepalive and resync (static/js/live.js).
    transaction.on_commit(lambda: nudges.game_changed(public_id, ply), robust=True)
    at_table = list(seats.values()) if seats is not None else None
    if state.over:
        notify.told(kind="over", game=game, number=ply, seats=at_table)
        tournament_moves_on(game)
        return
    if seats is not None:
        seat = seats[state.controller()]
    else:
        at_table = list(game.seats.select_related("user"))
        seat = next(s for s in at_table if s.index == state.controller())
    if seat.is_ai:
        transaction.on_commit(lambda: jobs.queue("ai_play", game_id, ply), robust=True)
    elif seat.user_id is not None and turn_changed:
        user_id, title = seat.user_id, nudges.turn_title(game, at_table)
        language = seat.user.email_language()
        transaction.on_commit(
            lambda: nudges.your_turn(user_id, public_id, title, language), robust=True
        )
        # ``ply`` is where this turn begins: the tasks send nothing once it has been played.
        # Robust (notify): a mail server that is down must not turn a committed move into an
        # error.
        notify.told(kind="turn", game=game, number=ply, about=seat.index, seats=at_table)


def tournament_moves_on(game: Game) -> None:
    """A tournament game ended: its tournament may start the next round (a task: the round's
    games are created outside this move's transaction)."""
    tournament_id = (
        TournamentTable.objects.filter(game_id=game.pk)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        transaction.on_commit(lambda: jobs.queue("tournament_advance", tournament_id), robust=True)
        transaction.on_commit(lambda: nudges.tournament_changed(tournament_id), robust=True)
