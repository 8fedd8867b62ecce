"""Read queries for views (STYLE.md): who may see a game, what they see, the lists."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, Prefetch, Q
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import engine
from games.models import Action, Game, Seat
from games.selectors import clock, seating


def game_for_viewer(public_id: str, user, *, token: str = "") -> tuple[Game, Seat | None]:
    """The game and the viewer's seat (None for spectators), or 404.

    A private game is visible to its seated and invited players, to staff, and to whoever holds
    its invite link; to anyone else it does not exist (404, not 403: no probing for ids).
    """
    game = (
        Game.objects.filter(public_id=public_id)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .first()
    )
    if game is None:
        raise Http404(_("no such game"))
    # All the seats in one query (2-4 rows): the viewer's seat, the invitation check and the
    # names at the table (seat_labels) all come from it.
    seats = list(game.seats.all())  # prefetched with their users: one query
    seat = None
    if user is not None and user.is_authenticated:
        mine = [s for s in seats if s.user_id == user.pk]
        seat = next((s for s in mine if s.kind == Seat.Kind.HUMAN), None)
        invited = any(s.kind == Seat.Kind.INVITED for s in mine)
        if seat is None and not invited and not user.is_staff:
            _require_public(game, token)
    else:
        _require_public(game, token)
    return game, seat


def game_to_move(public_id: str) -> Game:
    """The game a move is sent to, or 404: its id only (one light query; the write path locks
    and reads the row itself). Who may move is the write path's check, not a read."""
    game = Game.objects.only("pk", "public_id").filter(public_id=public_id).first()
    if game is None:
        raise Http404(_("no such game"))
    return game


@dataclass(frozen=True)
class SeatRow:
    """One seat as the game page shows it (plain data: presenters never see a model)."""

    index: int
    label: str
    missing: bool  # nobody sits here yet (an open, link or invited seat)


@dataclass(frozen=True)
class TableFacts:
    """The facts about a game and its reader that the game page's presenters need, read once
    here so that the presenters take plain data and never reach the database (issue #22)."""

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


def table_facts(game: Game, seat: Seat | None, user, token: str = "") -> TableFacts:
    """The game page's plain facts for ``user`` at ``seat`` (``token``: the invite link's)."""
    seats = sorted(_seats(game), key=lambda s: s.index)
    joinable = ""
    if game.status == Game.Status.OPEN and seat is None:
        # The write path's own rule (selectors.seating): never "Take a seat" where it would refuse.
        target = seating.seat_for_joiner(game, seats, user, token)
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
    )


def _require_public(game: Game, token: str) -> None:
    if game.visibility != Game.Visibility.PUBLIC and token != game.invite_token:
        raise Http404(_("no such game"))


def game_view(game: Game, seat: Seat | None) -> dict | None:
    """engine.view for the viewer: everything shown during play goes through it (R9)."""
    if game.state is None:
        return None
    state = engine.State.from_json(game.state)
    return engine.view(state, seat.index if seat is not None else None)


def my_games(user) -> dict[str, list[Game]]:
    """The viewer's games: their turn first, then waiting for others, then open, then finished."""
    games = list(
        Game.objects.for_user(user).select_related("created_by").prefetch_related("seats__user")
    )
    mine = {s.game_id: s.index for g in games for s in g.seats.all() if s.user_id == user.pk}
    groups: dict[str, list[Game]] = {"your_turn": [], "waiting": [], "open": [], "finished": []}
    for game in games:
        seats = list(game.seats.all())
        own = next((s for s in seats if s.user_id == user.pk), None)
        game.my_place = own.final_place if own is not None else None
        game.invited = own is not None and own.kind == Seat.Kind.INVITED
        game.winners = [s.label for s in seats if s.final_place == 1]
        game.when = game.finished_at or game.started_at or game.created_at
        game.when_label = (
            pgettext("game", "Finished")
            if game.finished_at
            else pgettext("game", "Started")
            if game.started_at
            else pgettext("game", "Created")
        )
        if game.status == Game.Status.ACTIVE:
            key = "your_turn" if game.to_move_seat == mine.get(game.pk) else "waiting"
            groups[key].append(game)
        elif game.status == Game.Status.OPEN:
            groups["open"].append(game)
        else:
            groups["finished"].append(game)
    groups["your_turn"].sort(key=lambda g: g.turn_started_at or g.created_at)
    groups["finished"].sort(key=lambda g: g.when, reverse=True)
    return groups


def game_by_public_id(public_id: str) -> Game | None:
    """The game, visible or not: for answering an invitation, which checks the seat itself
    (services.invitation_accept/decline) and says the same for a missing game."""
    return Game.objects.filter(public_id=public_id).select_related("created_by").first()


def invitations(user) -> list[Game]:
    """Games not started yet where ``user`` holds an invitation: the lobby's notices (not those
    from a player ``user`` blocked: a block is silent, seating.visible_invitations)."""
    games = list(
        Game.objects.filter(
            status=Game.Status.OPEN, seats__user=user, seats__kind=Seat.Kind.INVITED
        )
        .select_related("created_by")
        .prefetch_related("seats__user")
        .order_by("-created_at")
    )
    return seating.visible_invitations(user, games)


WATCH_LISTED = 20


def watchable_games():
    """Public games in play, the most recently moved first: the lobby's "watch" list."""
    return (
        Game.objects.filter(status=Game.Status.ACTIVE, visibility=Game.Visibility.PUBLIC)
        .order_by("-turn_started_at")
        .prefetch_related("seats__user")[:WATCH_LISTED]
    )


def open_games(user=None):
    """Games taking players, without those where someone seated has blocked ``user``."""
    games = Game.objects.open_to_join()
    if user is not None and user.is_authenticated:
        games = games.exclude(seats__user__blocks_made__blocked=user)
    return games.select_related("created_by").prefetch_related("seats__user")


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


def seat_labels(game: Game) -> dict[int, str]:
    """The names at the table (from the seats ``game_for_viewer`` prefetched, if it did)."""
    return {s.index: s.label for s in _seats(game)}


def game_name(game: Game) -> str:
    """A game as its page names it, by its players and mode: "alice vs bob · Shuffle" (the
    random id stays in the URL). A player with two seats is named once; a seat nobody has
    taken yet by its kind, the computer by its level."""
    names: list[str] = []
    for seat in sorted(_seats(game), key=lambda s: s.index):
        if seat.kind == Seat.Kind.AI:
            name = _("Computer (%(level)s)") % {"level": seat.get_ai_level_display()}
        elif seat.user is not None:
            name = str(seat.user)
        else:
            name = seat.get_kind_display()
        if name not in names:
            names.append(name)
    players = names[0] if names else ""
    for name in names[1:]:
        players = _("%(first)s vs %(second)s") % {"first": players, "second": name}
    mode = (
        pgettext("mode", "Shuffle")
        if game.mode == Game.Mode.SHUFFLE
        else pgettext("mode", "Classic")
    )
    return _("%(players)s · %(mode)s") % {"players": players, "mode": mode}


def _seats(game: Game) -> list[Seat]:
    """The game's seats with their users: the ones ``game_for_viewer`` prefetched (a page's one
    seat query), else one query."""
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):
        return list(game.seats.all())
    return list(game.seats.select_related("user"))


def earlier_events(game: Game, limit: int = 200):
    """A callable giving the public events of the game's actions, newest first (run lazily: the
    page needs them only when the last action placed nothing)."""
    return lambda: (
        Action.objects.filter(game=game).order_by("-ply").values_list("events", flat=True)[:limit]
    )


def turn_log(game: Game) -> list[tuple[int, int, list]]:
    """(ply, seat, public events) of every action, in order: the move log's input."""
    return list(
        Action.objects.filter(game=game).order_by("ply").values_list("ply", "seat", "events")
    )


def turn_clock(game: Game) -> dict | None:
    """The running turn's clock: its deadline (vacations counted, selectors.clock) for a human's
    turn, or the end of their vacation while they are away; for a computer's, that it is
    thinking. None when no turn runs."""
    if game.status != Game.Status.ACTIVE or game.turn_started_at is None:
        return None
    per_move = dict(Game.MOVE_TIMES).get(game.move_seconds) or _("%(seconds)d s") % {
        "seconds": game.move_seconds
    }
    seats = _seats(game)
    seat = next((s for s in seats if s.index == game.to_move_seat), None)
    if seat is None or seat.is_ai:
        return {"computer": True, "per_move": per_move}
    due = clock.deadline(game, seat.user_id)
    user = seat.user
    if user is not None and user.on_vacation():
        # The clock stands still while the player is away (selectors.clock): no countdown, no
        # "the computer plays at the deadline", the end of the vacation instead.
        return {"computer": False, "per_move": per_move, "vacation_until": user.vacation_until}
    return {"computer": False, "per_move": per_move, "deadline": due}


def shuffle_verdict(game: Game) -> dict:
    """``engine.verify`` of a finished Shuffle game's full record (seed, salt, decks, actions)."""

    payloads = [a.payload for a in game.actions.order_by("ply")]
    return engine.verify(engine.make_record(game.initial_state(), payloads, reveal=True))


# -- profiles -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStats:
    played: int
    won: int
    # The mean of the player's final scores (basic: squares left, lower is better; advanced:
    # points, higher is better), None before the first finished game.
    average_score: float | None


def player_stats(user) -> PlayerStats:
    """Games played and won, and the average score, over the user's finished games.

    A seat the computer took over still counts for its player. Aborted games count for nothing.
    Places and scores were written once when each game finished (services.ratings.record_results,
    from the engine's final position: R8), so a profile view re-scores nothing.
    """
    totals = Seat.objects.filter(
        user=user,
        kind=Seat.Kind.HUMAN,
        game__status=Game.Status.FINISHED,
        final_place__isnull=False,
    ).aggregate(
        played=Count("pk"),
        # a shared first place is a win for each of its players
        won=Count("pk", filter=Q(final_place=1)),
        average=Avg("final_score"),
    )
    average = totals["average"]
    return PlayerStats(
        played=totals["played"],
        won=totals["won"],
        average_score=round(average, 1) if average is not None else None,
    )


RECENT_GAMES = 10


def recent_results(user, limit: int = RECENT_GAMES) -> list[dict]:
    """The player's last finished games, newest first: when, mode, the others at the table,
    their place and score (written once at the end, never re-scored here)."""
    seats = (
        Seat.objects.filter(user=user, game__status=Game.Status.FINISHED, final_place__isnull=False)
        .select_related("game")
        .prefetch_related("game__seats__user")
        .order_by("-game__finished_at", "-game__pk")[:limit]
    )
    out = []
    for seat in seats:
        game = seat.game
        others = [s.label for s in game.seats.all() if s.pk != seat.pk]
        out.append(
            {
                "game": game,
                "when": game.finished_at or game.started_at,
                "others": others,
                "place": seat.final_place,
                "score": seat.final_score,
                "won": seat.final_place == 1,
            }
        )
    return out
