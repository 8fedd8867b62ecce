"""Take backs in unrated games (R11.3; BGA's and lichess's "takeback"): a player asks to take
back their last move until the next player acts; every other player still in the game accepts or
declines (a computer seat accepts at once). An accepted take back rebuilds the game from its first
position and the actions before the move, and marks the undone actions ``taken_back`` (kept on
file, out of the record: replays and exported records never show them, and a finished game's
record still verifies, games.engine.verify).

A move that drew cards may be taken back too (a setup draw R3.2, the draw that ends a turn R5.4):
the same seed and the same earlier actions rebuild the same piles, so
every card the move drew is back on top of its pile, in order, and its owner, who has seen it,
will draw it again. The other players are told so before they answer, without the card's name
(games.selectors.takebacks.drawn); nothing else of a pile's order is revealed (R9.3).

Refused (and nothing changes) in a rated game, once another seat has acted since, when the move
was the computer's (a timeout) or a resignation, and when a Draw 2 of the move drew cards: the
card it played was shown to everyone, so putting it back into the pile would tell the others
where it lies (R9.3). R11.3 speaks of a decision "whose turn ended with a draw", a card only its
owner has seen; a Draw 2's public card is the case it leaves open, settled here by R9.3
(games.selectors.takebacks.draw2_drew; the help page says so).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.live import nudges
from games.models import Action, Game, Seat, TakeBack
from games.selectors.takebacks import about_now, draw2_drew, last_move, pending, rebuilt
from games.services import notify
from games.services.actions import after_change, locked
from games.services.errors import Conflict, NotAllowed, Refused


def _answerers(game: Game, asker: int) -> list[Seat]:
    """The seats that answer: every other seat whose player has not resigned."""
    resigned = set(game.current_state().to_json()["resigned"])
    return [s for s in game.seats.all() if s.index != asker and s.index not in resigned]


def takeback_request(*, game: Game, user) -> TakeBack:
    """``user`` asks to take back their last move. Computer seats accept at once: with no
    player to ask, it is taken back here."""
    with transaction.atomic():
        game = locked(game)
        seat = game.seats.filter(user=user, kind=Seat.Kind.HUMAN).first() if user else None
        if seat is None:
            raise NotAllowed(_("only a player of this game can ask for a take back"))
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("this game is not in play"))
        if game.rated:
            raise Refused(_("take backs are for unrated games only"))
        move = last_move(game)
        if not move or move[-1].seat != seat.index:
            raise Refused(
                _("only your own last move can be taken back, until the next player acts")
            )
        if any(a.by_ai or a.user_id != user.pk for a in move):
            raise Refused(_("the computer played this move for you: it cannot be taken back"))
        if any("resign" in a.payload for a in move):
            raise Refused(_("a resignation cannot be taken back"))
        if draw2_drew(move):
            raise Refused(
                _(
                    "a Draw 2 of this move showed a card of your pile to everyone: taking the "
                    "move back would tell where that card lies (R9.3)"
                )
            )
        if about_now(game).exists():
            raise Conflict(_("a take back of this move has been asked for already"))
        before = rebuilt(game, move[0].ply)
        answerers = _answerers(game, seat.index)
        answers = {str(s.index): True for s in answerers if s.is_ai}
        # Requests left pending at this ply by an earlier position (a move lapsed them) close.
        TakeBack.objects.filter(game=game, at_ply=game.ply, status=TakeBack.Status.PENDING).update(
            status=TakeBack.Status.DECLINED, decided_at=timezone.now()
        )
        request = TakeBack.objects.create(
            game=game,
            seat=seat.index,
            user=user,
            from_ply=move[0].ply,
            at_ply=game.ply,
            answers=answers,
        )
        if all(answers.get(str(s.index)) for s in answerers):
            _take_back(game, request, before)
        else:
            _refetch(game)
            _tell(game, [s.user_id for s in answerers if not s.is_ai and s.user_id], user)
    return request


def takeback_answer(*, game: Game, user, accept: bool) -> TakeBack:
    """A player's answer to the take back waiting at the game's ply: one decline refuses it;
    when every other player has accepted, the move is taken back."""
    with transaction.atomic():
        game = locked(game)
        request = pending(game)
        if request is None:
            raise Conflict(_("there is no take back to answer (the game may have moved on)"))
        seat = game.seats.filter(user=user, kind=Seat.Kind.HUMAN).first() if user else None
        answerers = _answerers(game, request.seat)
        if seat is None or seat.index not in {s.index for s in answerers}:
            raise NotAllowed(_("only the other players answer a take back"))
        request.answers = {**request.answers, str(seat.index): bool(accept)}
        if not accept:
            request.status, request.decided_at = TakeBack.Status.DECLINED, timezone.now()
            request.save(update_fields=["answers", "status", "decided_at"])
            _refetch(game)
            notify.told(kind="takeback", game=game, number=request.pk, about=request.seat)
            return request
        request.save(update_fields=["answers"])
        if all(request.answers.get(str(s.index)) for s in answerers):
            _take_back(game, request, rebuilt(game, request.from_ply))
            notify.told(kind="takeback", game=game, number=request.pk, about=request.seat)
        else:
            _refetch(game)
    return request


def _take_back(game: Game, request: TakeBack, state: engine.State) -> None:
    Action.objects.filter(game=game, ply__gte=request.from_ply).update(taken_back=True)
    request.status, request.decided_at = TakeBack.Status.ACCEPTED, timezone.now()
    request.save(update_fields=["answers", "status", "decided_at"])
    game.ply = request.from_ply - 1
    game.state = state.to_json()
    game.to_move_seat = state.controller()
    game.turn_started_at = timezone.now()
    game.save()
    public_id, ply = game.public_id, game.ply
    # The ply goes back: pages must take a position older than the one they show.
    transaction.on_commit(lambda: nudges.game_reset(public_id, ply), robust=True)
    after_change(game, state, turn_changed=True)


def _refetch(game: Game) -> None:
    public_id = game.public_id
    transaction.on_commit(lambda: nudges.seats_changed(public_id), robust=True)


def _tell(game: Game, user_ids: list[int], asker) -> None:
    public_id = game.public_id
    title = nudges.takeback_title(asker)
    for user_id in user_ids:
        transaction.on_commit(lambda u=user_id: nudges.your_turn(u, public_id, title), robust=True)
