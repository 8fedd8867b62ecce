"""Creating, joining and leaving games, invitations and rematches (the write path, STYLE.md
habits 4-6): each function checks, then locks the game row and changes it in one transaction."""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, jobs, notices
from games.live import nudges
from games.models import Game, Seat, bot_ids, is_bot
from games.selectors import seating
from games.services import notify
from games.services.actions import after_change, locked, seat_for
from games.services.errors import Conflict, GameError, NotAllowed, TooMany

User = get_user_model()

# Nothing stops a script from opening games or inviting one player again and again
# (each invitation is an email). A player may have this many games waiting for players at once,
# and one invitee this many invitations from the same player waiting for an answer. Counted in
# the database, so the limits hold across processes and survive a Redis restart.
MAX_OPEN_GAMES = 10
MAX_PENDING_INVITATIONS = 3


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
        _check_limits(creator, seats)
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
        if rated and invited and is_bot(creator) and bot_ids(invited) != set(invited):
            # A rated game between a bot and a person is one the person chose: their challenge,
            # or a seat they took.
            raise NotAllowed(
                _(
                    "a bot account invites people to unrated games only: a person may "
                    "challenge the bot to a rated game"
                )
            )
        _start_if_full(game)
        _invitations_sent(game, invited)
    return game


def _check_limits(creator, seats: list[SeatSpec]) -> None:
    """Refuse a new game past the creator's limits, with a message that says which."""
    waiting = Game.objects.filter(created_by=creator, status=Game.Status.OPEN).count()
    if waiting >= MAX_OPEN_GAMES:
        raise TooMany(
            _(
                "you already have %(n)d games waiting for players: start or cancel one of them "
                "before opening another"
            )
            % {"n": waiting}
        )
    for spec in seats:
        if spec.kind != Seat.Kind.INVITED:
            continue
        pending = Seat.objects.filter(
            kind=Seat.Kind.INVITED,
            user__username__iexact=spec.username,
            game__created_by=creator,
            game__status=Game.Status.OPEN,
        ).count()
        if pending >= MAX_PENDING_INVITATIONS:
            raise TooMany(
                _(
                    "%(name)s already has %(n)d invitations from you waiting for an answer: "
                    "wait until they answer one"
                )
                % {"name": spec.username, "n": pending}
            )


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
        # Only the creator's own block is said; an invitee's block is silent (the invitation is
        # made and silenced: _invitations_sent, selectors.lists.lobby).
        if refusal := seating.invitation_refusal(creator, invitee):
            raise GameError(refusal)
        seat.user = invitee
    elif spec.kind == Seat.Kind.AI:
        if spec.level not in Seat.Level.values:
            raise GameError(_("unknown computer level %(level)r") % {"level": spec.level})
        seat.ai_level, seat.joined_at = spec.level, now
    return seat  # OPEN and LINK: nobody sits there yet


def _invitations_sent(game: Game, user_ids: list[int]) -> None:
    """After commit: each invited player the invitation's entry names (games.notices: not those
    who blocked the creator, who hear no word of it) gets an email (as their preferences say:
    "never" silences it), a notice on whatever page they are on, and one on their devices and
    webhook. The lobby lists the invitation too (selectors.lists.lobby), with Accept and
    Decline. The email keeps its own task (``send_invite_email``)."""
    if not user_ids:
        return
    game_id, public_id = game.pk, game.public_id
    title = nudges.invited_title(game.created_by)
    invited = notices.notice("invite").recipients(game, list(game.seats.all()), None)
    told = [seat.user_id for seat in invited]
    for user_id in told:
        transaction.on_commit(
            lambda u=user_id: jobs.queue("send_invite_email", game_id, u), robust=True
        )
        transaction.on_commit(lambda u=user_id: nudges.your_turn(u, public_id, title), robust=True)
    notify.devices_told(game_id=game_id, ply=notices.INVITE_NUMBER, user_ids=told, kind="invite")


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


def rotated(specs: list[SeatSpec]) -> list[SeatSpec]:
    """The seats moved one place round the table: seat 2's player sits at seat 1 (blue, and
    moves first, R2.6), seat 1's at the last seat. Over a run of rematches every player starts
    in turn."""
    return specs[1:] + specs[:1]


def game_rematch(*, game: Game, user) -> Game:
    """The rematch of a finished game: the same players and settings, the others invited, the
    seats rotated by one (``rotated``) so that another player moves first. One rematch per game:
    if another player asked first, it is that game (``user`` is invited there and joins it).
    With seats drawn at random the draw decides anyway."""
    seat = seat_for(game, user)
    if seat is None:
        raise GameError(_("only the players of this game can ask for a rematch"))
    if game.status != Game.Status.FINISHED:
        raise GameError(_("a rematch can be asked for once the game is over"))
    with transaction.atomic():
        game = locked(game)
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
            seats=rotated(rematch_seats(game, user)),
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


def game_join(*, game: Game, user, token: str = "") -> Seat:
    """Take a seat: your invitation, an open seat, or (with the invite link) a link seat."""
    with transaction.atomic():
        game = locked(game)
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
        game = locked(game)
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
    with transaction.atomic():
        game = locked(game)
        _invitation_held(game, user)
        seat = game_join(game=game, user=user)
        creator_id, public_id = game.created_by_id, game.public_id
        title = nudges.accepted_title(user)
        transaction.on_commit(lambda: nudges.your_turn(creator_id, public_id, title), robust=True)
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
    with transaction.atomic():
        game = locked(game)
        seat = _invitation_held(game, user)
        seat.kind, seat.user, seat.joined_at = Seat.Kind.LINK, None, None
        seat.save(update_fields=["kind", "user", "joined_at"])
        _seats_changed(game)
        creator_id, public_id = game.created_by_id, game.public_id
        title = nudges.declined_title(user)
        transaction.on_commit(lambda: nudges.your_turn(creator_id, public_id, title), robust=True)


def _seats_changed(game: Game) -> None:
    """After commit: the waiting room's pages refetch their seats (or the started game)."""
    public_id = game.public_id
    transaction.on_commit(lambda: nudges.seats_changed(public_id), robust=True)


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
    after_change(game, state)


def game_seated(
    *, users: list, levels: list[str], mode: str, players: int, move_seconds: int, rated: bool
) -> Game:
    """A game whose players were matched ("Play now", games.services.seeks): every seat taken
    at once (``users``, then the computer at ``levels``), the seats drawn at random as the game
    starts (R2.6: nobody chose to move first), public, and started. Call inside a transaction."""
    if len(users) + len(levels) != players or not users:
        raise GameError(_("a %(players)s-player game has %(players)s seats") % {"players": players})
    return game_at_table(
        seats=[*users, *levels],
        mode=mode,
        move_seconds=move_seconds,
        rated=rated,
        seating=Game.Seating.RANDOM,
    )


def game_at_table(
    *, seats: list, mode: str, move_seconds: int, rated: bool, seating: str = Game.Seating.CHOSEN
) -> Game:
    """A game with every seat taken, started: ``seats`` in seat order, each a player or the
    computer's level (a string); the first player (a user) is its creator. With CHOSEN seating
    seat 1 moves first (a tournament's pairing decides who); RANDOM draws the order (R2.6).
    Public. Call inside a transaction."""
    users = [s for s in seats if not isinstance(s, str)]
    if not users or len(seats) not in (2, 3, 4):
        raise GameError(_("a game has 2, 3 or 4 players"))
    now = timezone.now()
    game = Game.objects.create(
        created_by=users[0],
        mode=mode,
        players=len(seats),
        move_seconds=move_seconds,
        visibility=Game.Visibility.PUBLIC,
        seating=seating,
        rated=rated,
    )
    rows = []
    for index, who in enumerate(seats):
        if isinstance(who, str):
            rows.append(
                Seat(game=game, index=index, kind=Seat.Kind.AI, ai_level=who, joined_at=now)
            )
        else:
            rows.append(Seat(game=game, index=index, kind=Seat.Kind.HUMAN, user=who, joined_at=now))
    Seat.objects.bulk_create(rows)
    _start_if_full(game)
    return game
