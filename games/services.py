"""The one write path for games (STYLE.md habits 4–6).

Views, tasks and the admin call these functions; nothing else saves a Game, a Seat or an Action.
Each function is keyword-only, runs in one transaction, locks the game row when it changes the
game, and queues side effects (the AI's turn, later nudges and emails) with ``on_commit``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Block
from games import clock, engine, jobs, ratings, seating
from games.engine import IllegalAction, State
from games.models import Action, ChatMessage, Game, ModerationLog, Report, Seat
from games.turns import TIMEOUTS_BEFORE_TAKEOVER, turn_start_ply

User = get_user_model()


class GameError(Exception):
    """A refused request. ``status`` is the HTTP status a view answers with."""

    status = 400


class NotAllowed(GameError):
    status = 403


class Conflict(GameError):
    status = 409


class StalePly(Conflict):
    """The client saw an older position than the game's (STYLE.md habit 5)."""


class Refused(GameError):
    """The engine refused the action; the message names the rule."""


@dataclass(frozen=True)
class SubmitResult:
    ply: int
    duplicate: bool  # the idempotency key had been seen: this is the first answer again


# -- creating and joining -------------------------------------------------------------------


@dataclass(frozen=True)
class SeatSpec:
    """One seat of a new game: its ``Seat.Kind`` (HUMAN is the creator's own seat), the
    username to invite for INVITED, the computer's ``Seat.Level`` for AI."""

    kind: Seat.Kind
    username: str = ""
    level: str = ""


def game_create(
    *,
    creator,
    mode: str,
    players: int,
    scoring: str = "basic",
    seats: list[SeatSpec],
    deck_recipe: dict | None = None,
    shared_color: str = "",
    move_seconds: int = 24 * 3600,
    visibility: str = Game.Visibility.PUBLIC,
    seating: str = Game.Seating.CHOSEN,
    rated: bool = True,
) -> Game:
    """Open a game. ``seats`` lists every seat in order; exactly one is the creator's (HUMAN)."""
    if len(seats) != players:
        raise GameError(_("a %(players)s-player game has %(players)s seats") % {"players": players})
    unknown = next((s.kind for s in seats if s.kind not in Seat.Kind.values), None)
    if unknown is not None:
        raise GameError(
            _("unknown seat kind %(kind)r (one of %(kinds)s)")
            % {"kind": unknown, "kinds": ", ".join(Seat.Kind.values)}
        )
    if sum(1 for s in seats if s.kind == Seat.Kind.HUMAN) != 1:
        raise GameError(_("the creator takes exactly one seat"))
    if players != 3:
        shared_color = ""
    try:  # the engine checks the settings (recipe of 14 cards, colours) the same way records do
        settings = Game(
            mode=mode,
            players=players,
            scoring=scoring,
            shared_color=shared_color,
            deck_recipe=deck_recipe,
        ).engine_settings()
        engine.new_game(**settings, seed=0)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    with transaction.atomic():
        game = Game.objects.create(
            created_by=creator,
            mode=mode,
            players=players,
            scoring=scoring,
            shared_color=shared_color,
            deck_recipe=deck_recipe if mode == "shuffle" else None,
            move_seconds=move_seconds,
            visibility=visibility,
            seating=seating,
            rated=rated,
        )
        now = timezone.now()
        invited: list[int] = []
        for index, spec in enumerate(seats):
            seat = _seat_from_spec(Seat(game=game, index=index), spec, creator, now)
            if seat.kind == Seat.Kind.INVITED:
                invited.append(seat.user_id)
            try:
                with transaction.atomic():
                    seat.save()
            except IntegrityError:
                raise GameError(_("a player can take only one seat")) from None
        _start_if_full(game)
        _invitations_sent(game, invited)
    return game


def _seat_from_spec(seat: Seat, spec: SeatSpec, creator, now) -> Seat:
    """Fill one new seat as the creator asked (not saved): theirs, an invitation (to an active
    player who has not blocked them nor been blocked by them), a computer, or an open seat."""
    seat.kind = Seat.Kind(spec.kind)  # game_create checked it
    if spec.kind == Seat.Kind.HUMAN:
        seat.user, seat.joined_at = creator, now
    elif spec.kind == Seat.Kind.INVITED:
        invitee = User.objects.filter(username__iexact=spec.username, is_active=True).first()
        if invitee is None:
            raise GameError(_("there is no player called %(name)r") % {"name": spec.username})
        if invitee == creator:
            raise GameError(_("you already have a seat"))
        if Block.objects.filter(blocker=creator, blocked=invitee).exists():
            raise GameError(
                _("you have blocked %(name)s: unblock them to invite them") % {"name": invitee}
            )
        if Block.objects.filter(blocker=invitee, blocked=creator).exists():
            raise GameError(_("%(name)s does not take invitations from you") % {"name": invitee})
        seat.user = invitee
    elif spec.kind == Seat.Kind.AI:
        if spec.level not in Seat.Level.values:
            raise GameError(_("unknown computer level %(level)r") % {"level": spec.level})
        seat.ai_level, seat.joined_at = spec.level, now
    return seat  # OPEN and LINK: nobody sits there yet


def _invitations_sent(game: Game, user_ids: list[int]) -> None:
    """After commit: each invited player gets an email (as their preferences say: "never"
    silences it) and, if on the site, a notice on whatever page they are on. The lobby lists
    the invitation too (selectors.invitations), with Accept and Decline."""
    from games import live

    game_id, public_id = game.pk, game.public_id
    title = live.invited_title(game.created_by)
    for user_id in user_ids:
        transaction.on_commit(
            lambda u=user_id: jobs.queue("send_invite_email", game_id, u), robust=True
        )
        transaction.on_commit(lambda u=user_id: live.your_turn(u, public_id, title), robust=True)


def rematch_seats(game: Game, user) -> list[SeatSpec]:
    """The seats of a game like ``game`` for ``user``: their own seat again, the computers at
    their levels, every other player invited (a seat the computer took over goes back to its
    player, invited), and the seats nobody took open again."""
    specs = []
    for seat in game.seats.select_related("user").order_by("index"):
        if seat.user_id == user.pk and seat.kind == Seat.Kind.HUMAN:
            specs.append(SeatSpec(Seat.Kind.HUMAN))
        elif seat.kind == Seat.Kind.AI:
            specs.append(SeatSpec(Seat.Kind.AI, level=seat.ai_level))
        elif seat.user is not None and seat.kind in (Seat.Kind.HUMAN, Seat.Kind.INVITED):
            specs.append(SeatSpec(Seat.Kind.INVITED, username=seat.user.username))
        else:  # an open or link seat nobody took
            specs.append(SeatSpec(Seat.Kind(seat.kind)))
    return specs


def game_rematch(*, game: Game, user) -> Game:
    """The rematch of a finished game: the same players, seats and settings, the others
    invited. One rematch per game: if another player asked first, it is that game (``user`` is
    invited there and joins it)."""
    seat = seat_for(game, user)
    if seat is None:
        raise GameError(_("only the players of this game can ask for a rematch"))
    if game.status != Game.Status.FINISHED:
        raise GameError(_("a rematch can be asked for once the game is over"))
    with transaction.atomic():
        game = _locked(game)
        existing = Game.objects.filter(rematch_of=game).first()
        if existing is not None:
            mine = existing.seats.filter(user=user).first()
            if mine is not None and mine.kind == Seat.Kind.INVITED:
                game_join(game=existing, user=user)
            return existing
        rematch = game_create(
            creator=user,
            mode=game.mode,
            players=game.players,
            scoring=game.scoring,
            seats=rematch_seats(game, user),
            deck_recipe=game.deck_recipe,
            shared_color=game.shared_color,
            move_seconds=game.move_seconds,
            visibility=game.visibility,
            seating=game.seating,
            rated=game.rated,
        )
        rematch.rematch_of = game
        rematch.save(update_fields=["rematch_of"])
    return rematch


def _locked(game: Game) -> Game:
    return Game.objects.select_for_update().get(pk=game.pk)


def game_join(*, game: Game, user, token: str = "") -> Seat:
    """Take a seat: your invitation, an open seat, or (with the invite link) a link seat."""
    with transaction.atomic():
        game = _locked(game)
        if game.status != Game.Status.OPEN:
            raise Conflict(_("this game is no longer taking players"))
        seats = list(game.seats.all())
        if any(s.user_id == user.pk and s.kind == Seat.Kind.HUMAN for s in seats):
            raise Conflict(_("you already have a seat in this game"))
        seat = seating.seat_for_joiner(game, seats, user, token)
        if seat is None:
            raise NotAllowed(_("there is no seat here for you"))
        seat.kind, seat.user, seat.joined_at = Seat.Kind.HUMAN, user, timezone.now()
        seat.save()
        _start_if_full(game)
        _seats_changed(game)
    return seat


def game_leave(*, game: Game, user) -> None:
    """Give up a seat before the start (the creator cancels the game instead)."""
    with transaction.atomic():
        game = _locked(game)
        if game.status != Game.Status.OPEN:
            raise Conflict(_("the game has started: seats can no longer be left"))
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(_("you have no seat in this game"))
        if user.pk == game.created_by_id:
            game.status = Game.Status.ABORTED
            game.abort_reason = "cancelled by its creator before the start"
            game.save(update_fields=["status", "abort_reason"])
            return
        if seat.kind == Seat.Kind.INVITED:  # declining an invitation opens the seat to the link
            seat.kind = Seat.Kind.LINK
        else:
            seat.kind = Seat.Kind.OPEN
        seat.user, seat.joined_at = None, None
        seat.save()
        _seats_changed(game)


def _invitation_held(game: Game, user) -> Seat:
    """The seat ``user`` is still invited to in the locked ``game``, or a refusal that says why.

    Someone never invited hears the same as for a game that does not exist, whatever the game's
    state: a private game's existence is not given away."""
    seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed(_("you have no invitation to this game (any more)"))
    if game.status == Game.Status.ABORTED:
        raise Conflict(_("this invitation is no longer open: the game was cancelled"))
    if seat.kind == Seat.Kind.HUMAN:
        raise Conflict(_("you have already accepted this invitation"))
    if game.status != Game.Status.OPEN or seat.kind != Seat.Kind.INVITED:
        raise Conflict(_("this invitation is no longer open: the game has started"))
    return seat


def invitation_accept(*, game: Game, user) -> Seat:
    """Take the seat ``user`` was invited to (game_join), and tell the creator.

    Only the invitation: a stale Accept (declined in another tab, the game cancelled or
    started) is refused and changes nothing, rather than taking some other open seat."""
    from games import live

    with transaction.atomic():
        game = _locked(game)
        _invitation_held(game, user)
        seat = game_join(game=game, user=user)
        creator_id, public_id = game.created_by_id, game.public_id
        title = live.accepted_title(user)
        transaction.on_commit(lambda: live.your_turn(creator_id, public_id, title), robust=True)
    return seat


def invitation_decline(*, game: Game, user) -> None:
    """Decline an invitation: the seat becomes a seat for the game's invite link.

    Not an open seat, and the game is not cancelled: the creator chose whom to play with, so
    the seat stays theirs to fill. They can pass the invite link (shown on the game's page with
    a Copy button) to someone else, or cancel the game. The creator sees the decline at once: a
    notice on whatever page they are on, and the seats of the game's page refreshed, where the
    invited name gives way to "Seat for the invite link". A stale Decline (accepted meanwhile,
    declined already, the game started or cancelled) is refused and changes nothing: it never
    takes a player out of a game they accepted.
    """
    from games import live

    with transaction.atomic():
        game = _locked(game)
        seat = _invitation_held(game, user)
        seat.kind, seat.user, seat.joined_at = Seat.Kind.LINK, None, None
        seat.save(update_fields=["kind", "user", "joined_at"])
        _seats_changed(game)
        creator_id, public_id = game.created_by_id, game.public_id
        title = live.declined_title(user)
        transaction.on_commit(lambda: live.your_turn(creator_id, public_id, title), robust=True)


def _seats_changed(game: Game) -> None:
    """After commit: the waiting room's pages refetch their seats (or the started game)."""
    from games import live

    public_id = game.public_id
    transaction.on_commit(lambda: live.seats_changed(public_id), robust=True)


def _start_if_full(game: Game) -> None:
    seats = list(game.seats.select_for_update().order_by("index"))
    if any(s.kind not in (Seat.Kind.HUMAN, Seat.Kind.AI) for s in seats):
        return
    if game.seating == Game.Seating.RANDOM:  # R2.6: seats drawn at random
        order = list(range(len(seats)))
        random.SystemRandom().shuffle(order)
        # Two passes so that the (game, index) constraint never sees a duplicate.
        for seat in seats:
            seat.index += 100
            seat.save(update_fields=["index"])
        for seat, index in zip(seats, order, strict=True):
            seat.index = index
            seat.save(update_fields=["index"])
    state = engine.new_game(**game.engine_settings())  # the seed comes from `secrets` (R3.2)
    game.seed, game.salt = state.seed, state.salt or ""
    game.state = state.to_json()
    game.status = Game.Status.ACTIVE
    game.to_move_seat = state.controller()
    game.started_at = game.turn_started_at = timezone.now()
    game.save()
    _after_change(game, state)


# -- playing --------------------------------------------------------------------------------


def game_state(game: Game) -> State:
    return State.from_json(game.state)


def initial_state(game: Game) -> State:
    """The position before the first action (the decks as the seed shuffled them)."""
    seed = game.seed
    if seed is not None and len(seed) != 64:  # an older game's integer seed, in decimal
        seed = int(seed)
    return engine.new_game(
        **game.engine_settings(),
        seed=seed,
        salt=game.salt or None,
    )


def seat_for(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user, kind=Seat.Kind.HUMAN).first()


def action_submit(
    *,
    game: Game,
    user=None,
    action: dict,
    expected_ply: int,
    key: str = "",
    by_ai: bool = False,
    on_behalf: bool = False,
) -> SubmitResult:
    """Play one action for the seat that controls the decision now.

    Locks the game row, so concurrent submissions are served one at a time: the first one moves
    the ply on and the others find a stale ``expected_ply`` (409) or their own idempotency key
    (the same answer again). The action row and the new snapshot commit together or not at all.
    ``by_ai`` plays for a computer seat; with ``on_behalf`` too, for a human seat whose time ran
    out (only ``turn_timeout`` does that: the action is recorded as the computer's).
    """
    key = _owned_key(key, user=user, by_ai=by_ai)
    with transaction.atomic():
        game = _locked(game)
        if key:
            done = Action.objects.filter(game=game, key=key).first()
            if done is not None:
                return SubmitResult(ply=done.ply, duplicate=True)
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("this game is not in play"))
        if expected_ply != game.ply:
            raise StalePly(
                _("the game has moved on (you saw move %(seen)s, it is at %(ply)s)")
                % {"seen": expected_ply, "ply": game.ply}
            )
        state = game_state(game)
        controller = state.controller()
        seat = game.seats.get(index=controller)
        if by_ai:
            if not (seat.is_ai or (on_behalf and seat.kind == Seat.Kind.HUMAN)):
                raise NotAllowed(_("it is not the computer's turn"))
        elif user is None or seat.user_id != user.pk or seat.kind != Seat.Kind.HUMAN:
            raise NotAllowed(_("it is not your turn"))
        elif seat.ai_takeover:
            raise NotAllowed(_("the computer plays this seat now"))
        try:
            new = engine.apply(state, action)
        except IllegalAction as exc:
            raise Refused(str(exc)) from None
        try:
            with transaction.atomic():
                Action.objects.create(
                    game=game,
                    ply=game.ply + 1,
                    seat=controller,
                    user=None if by_ai else user,
                    by_ai=by_ai,
                    payload=action,
                    events=new.events,
                    key=key,
                )
        except IntegrityError:  # the lock makes this unreachable; never a 500 if it happens
            raise Conflict(_("this move was already recorded")) from None
        game.ply += 1
        game.state = new.to_json()
        if new.controller() != controller or new.over:
            game.turn_started_at = timezone.now()
        game.to_move_seat = new.controller()
        if new.over:
            game.status = Game.Status.FINISHED
            game.finished_at = timezone.now()
            ratings.record_results(game, new)  # places, scores and ratings: once, here
        if not by_ai:
            seat.timeouts_in_row = 0
            seat.save(update_fields=["timeouts_in_row"])
        game.save()
        _after_change(game, new, turn_changed=new.controller() != controller)
    return SubmitResult(ply=game.ply, duplicate=False)


def _owned_key(key: str, *, user, by_ai: bool) -> str:
    """The idempotency key as stored: prefixed with whose it is (F1). A key answers only the
    sender that made it: a player's keys are ``u<id>:...``, the server's (the computer's turns,
    timeouts) ``srv:...``, so no client can send a key that passes for the server's or for
    another player's and make their move look done."""
    key = (key or "")[:48]
    if not key:
        return ""
    if by_ai:
        return f"srv:{key}"
    return f"u{user.pk if user is not None else 0}:{key}"


def _after_change(game: Game, state: State, *, turn_changed: bool = True) -> None:
    """Side effects of a committed change (STYLE.md habit 6): a nudge to every page watching the
    game, a turn notice to the player who decides next, or the computer's turn. A rolled-back
    change queues nothing."""
    from games import live

    game_id, public_id, ply = game.pk, game.public_id, game.ply
    # F3: every side effect is robust: Redis down (the channel layer, the broker) must never turn
    # a committed move into an error. Django logs a failed hook and runs the next; a lost
    # computer turn is queued again by the sweep (games.deadlines.sweep, within a minute), a
    # lost nudge is made up by the pages' keepalive and resync (static/js/live.js).
    transaction.on_commit(lambda: live.game_changed(public_id, ply), robust=True)
    if state.over:
        return
    seat = game.seats.select_related("user").get(index=state.controller())
    if seat.is_ai:
        transaction.on_commit(lambda: jobs.queue("ai_play", game_id, ply), robust=True)
    elif seat.user_id is not None and turn_changed:
        user_id, title = seat.user_id, live.turn_title(game)
        transaction.on_commit(lambda: live.your_turn(user_id, public_id, title), robust=True)
        if seat.user.email_turns == User.EmailTurns.EVERY:
            # ``ply`` is where this turn begins: the task sends nothing once it has been played.
            # Robust: a mail server that is down must not turn a committed move into an error.
            transaction.on_commit(
                lambda: jobs.queue("send_turn_email", game_id, ply, user_id, "turn"),
                robust=True,
            )


# -- deadlines ------------------------------------------------------------------------------

TIMEOUT_LEVEL = Seat.Level.CASUAL  # plays timed-out turns and taken-over seats


def _overdue(game: Game, ply: int) -> bool:
    return (
        game.status == Game.Status.ACTIVE
        and game.ply == ply
        and game.turn_started_at is not None
        and game.turn_started_at + timedelta(seconds=game.move_seconds) <= timezone.now()
    )


def _timeout_plan(game: Game, ply: int) -> list[dict]:
    """The rest of the overdue seat's turn as the computer would play it, chosen from the
    position at ``ply`` without any lock: every decision until another seat controls."""
    from games.ai import choose_action

    game = Game.objects.get(pk=game.pk)
    if not _overdue(game, ply):
        return []
    state = game_state(game)
    controller, plan = state.controller(), []
    while not state.over and state.controller() == controller:
        action = choose_action(state, level=TIMEOUT_LEVEL, seed=game.pk * 100003 + ply + len(plan))
        plan.append(action)
        state = engine.apply(state, action)
    return plan


def turn_timeout(*, game: Game, ply: int) -> bool:
    """The computer plays an overdue turn for its human player (games.deadlines finds them).

    Re-checks under the game's lock that the turn is still overdue at ``ply`` (a move that came
    in meanwhile wins), then plays the whole rest of the seat's turn: every decision until
    another seat controls the game, since the move clock only restarts then. The third timeout
    in a row hands the seat to the computer for the rest of the game. Returns whether it played.
    """

    # The computer chooses the moves before the lock is taken (as ai_play does): a slow choice
    # never holds the game's row. Under the lock they are played only if the game is still at
    # ``ply``, i.e. at the very position they were chosen for.
    plan = _timeout_plan(game, ply)
    if not plan:
        return False
    with transaction.atomic():
        game = _locked(game)
        if not _overdue(game, ply):
            return False
        state = game_state(game)
        seat = game.seats.select_related("user").get(index=state.controller())
        if seat.kind != Seat.Kind.HUMAN or seat.is_ai:
            return False  # a computer seat is ai_play's business
        if clock.deadline(game, seat.user_id) > timezone.now():
            return False  # the player was on vacation: the clock stood still meanwhile
        began = turn_start_ply(game.pk, seat.index)
        seat.timeouts_in_row += 1
        seat.save(update_fields=["timeouts_in_row"])
        for action in plan:
            result = action_submit(
                game=game,
                action=action,
                expected_ply=game.ply,
                key=f"timeout:{game.ply + 1}",
                by_ai=True,
                on_behalf=True,
            )
            if result.duplicate:  # cannot happen under the lock; never loop on it
                break
            game = Game.objects.get(pk=game.pk)
        game_id, user_id = game.pk, seat.user_id
        if seat.timeouts_in_row < TIMEOUTS_BEFORE_TAKEOVER:
            transaction.on_commit(
                lambda: jobs.queue("send_turn_email", game_id, began, user_id, "timeout"),
                robust=True,
            )
            return True
        seat.ai_takeover, seat.ai_level = True, TIMEOUT_LEVEL
        seat.save(update_fields=["ai_takeover", "ai_level"])
        # Everyone seated is told, the player whose seat it was first.
        told = [user_id] + [
            s.user_id
            for s in game.seats.filter(kind=Seat.Kind.HUMAN).exclude(pk=seat.pk)
            if s.user_id is not None
        ]
        about = seat.index
        for recipient in told:
            transaction.on_commit(
                lambda recipient=recipient: jobs.queue(
                    "send_turn_email", game_id, began, recipient, "takeover", about=about
                ),
                robust=True,
            )
    return True


# -- moderation -----------------------------------------------------------------------------


def _log(staff, action: str, target: str, reason: str) -> None:
    if not reason.strip():
        raise GameError("a moderation action needs a reason")
    ModerationLog.objects.create(staff=staff, action=action, target=target[:200], reason=reason)


def game_abort(*, game: Game, staff, reason: str) -> None:
    with transaction.atomic():
        game = _locked(game)
        if game.is_over:
            raise Conflict(_("the game is already over"))
        game.status = Game.Status.ABORTED
        game.to_move_seat = None
        game.abort_reason = reason[:200]
        game.finished_at = timezone.now()
        game.save()
        _log(staff, "abort game", str(game), reason)


def seat_hand_to_ai(*, seat: Seat, staff, reason: str, level: str = Seat.Level.CASUAL) -> None:
    """The computer plays a player's seat from now on. Refused for a seat with no player (an
    empty seat has no one to replace), a game that is over, and a seat the computer plays."""
    if level not in Seat.Level.values:
        raise GameError(f"no computer level {level!r}")
    with transaction.atomic():
        game = _locked(seat.game)
        seat = game.seats.get(pk=seat.pk)
        if seat.kind != Seat.Kind.HUMAN:
            raise Conflict(_("it is not a player's seat"))
        if game.is_over:
            raise Conflict(_("the game is over"))
        if seat.is_ai:
            raise Conflict(_("the computer already plays this seat"))
        seat.ai_takeover, seat.ai_level = True, level
        seat.save(update_fields=["ai_takeover", "ai_level"])
        _log(staff, "hand seat to AI", f"{game} seat {seat.index + 1} ({seat.user})", reason)
        if game.status == Game.Status.ACTIVE:
            _after_change(game, game_state(game))


def user_deactivate(*, user, staff, reason: str) -> None:
    """Refused for the staff member themself and for an inactive account."""
    if user.pk == staff.pk:
        raise NotAllowed(_("you can't deactivate yourself"))
    with transaction.atomic():
        user = type(user).objects.select_for_update().get(pk=user.pk)
        if not user.is_active:
            raise Conflict(_("%(name)s is already inactive") % {"name": user.username})
        user.is_active = False
        user.save(update_fields=["is_active"])
        _log(staff, "deactivate user", user.username, reason)


def chat_hide(*, message: ChatMessage, staff, reason: str) -> None:
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().get(pk=message.pk)
        if message.hidden:
            raise Conflict(_("message #%(id)s is already hidden") % {"id": message.pk})
        message.hidden = True
        message.save(update_fields=["hidden"])
        _log(
            staff,
            "hide chat message",
            f"#{message.pk} by {message.user}: {message.text[:80]}",
            reason,
        )


def report_resolve(*, report: Report, staff, status: str, reason: str) -> None:
    if status not in (Report.Status.RESOLVED, Report.Status.DISMISSED):
        raise GameError(f"a report is closed as resolved or dismissed, not {status!r}")
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        if report.status != Report.Status.OPEN:
            raise Conflict(
                _("report #%(id)s is already %(status)s")
                % {"id": report.pk, "status": report.get_status_display()}
            )
        report.status = status
        report.save(update_fields=["status"])
        _log(staff, f"report {status}", str(report), reason)
