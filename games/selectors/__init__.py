"""Read queries for views (STYLE.md): who may see a game, what they see, the lists."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.core.cache import cache
from django.db.models import Count, F, FilteredRelation, Prefetch, Q, Sum, prefetch_related_objects
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import engine
from games.models import UNLISTED, Action, Game, Seat
from games.selectors import clock, hot, seating


def game_for_viewer(public_id: str, user, *, token: str = "") -> tuple[Game, Seat | None]:
    """The game and the viewer's seat (None for spectators), or 404.

    A private game is visible to its seated and invited players, to staff, and to whoever holds
    its invite link; to anyone else it does not exist (404, not 403: no probing for ids).
    """
    game = hot.game_with_seats(public_id)  # the game, its seats and their users: one query
    if game is None:
        raise Http404(_("no such game"))
    # All the seats in one query (2-4 rows): the viewer's seat, the invitation check and the
    # names at the table (seat_labels) all come from it.
    seats = list(game.seats.all())  # prefetched with their users
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
    """The game a move is sent to, as a handle with its public id only: no query here, the write
    path locks the row by that id and reads it (``services.actions.locked``; no such game: its
    NotFound, a 404). Who may move is the write path's check, not a read."""
    return Game(public_id=public_id)


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
    takeback: tuple = ()  # the take back asked at this ply and its answers (unrated games)


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
        takeback=_takeback_facts(game),
    )


def _takeback_facts(game: Game) -> tuple:
    """The take back requests at the game's ply and their answers (part of what the panel shows,
    so part of its cache key through ``table_facts``); none in a rated game."""
    if game.rated or game.status != Game.Status.ACTIVE:
        return ()
    rows = game.takebacks.filter(at_ply=game.ply).values_list("pk", "status", "answers")
    return tuple(repr(row) for row in rows)


def _require_public(game: Game, token: str) -> None:
    if game.visibility != Game.Visibility.PUBLIC and token != game.invite_token:
        raise Http404(_("no such game"))


def game_view(game: Game, seat: Seat | None) -> dict | None:
    """engine.view for the viewer: everything shown during play goes through it (R9)."""
    if game.state is None:
        return None
    state = engine.State.from_json(game.state)
    return engine.view(state, seat.index if seat is not None else None)


# -- lists -----------------------------------------------------------------------------------

# The seats that let their user see a private game (game_for_viewer's rule): a player's own
# seat (the computer playing it or not) and an invitation not yet answered.
SEEING_KINDS = (Seat.Kind.HUMAN, Seat.Kind.INVITED)


def visible_to(rows, viewer, *, via: str = ""):
    """``rows`` (games, or rows with a game at ``via``: seats, rating changes) narrowed by
    game_for_viewer's rule, for every list that names a game (issue #24, G4): a public game, or
    a private one where ``viewer`` is seated or invited; staff see every game. (The invite link
    is not part of it: a list has no token.)

    The viewer's seat is a left join, one index probe (game and user) per row read, so that a
    page read through an index stops after a page. (An EXISTS in the OR
    let PostgreSQL hash every seat of the viewer first: 150 ms for a viewer with 100,000
    games.)"""
    if viewer is not None and viewer.is_authenticated and viewer.is_staff:
        return rows
    prefix = f"{via}__" if via else ""
    public = Q(**{f"{prefix}visibility": Game.Visibility.PUBLIC})
    if viewer is None or not viewer.is_authenticated:
        return rows.filter(public)
    seats = f"{prefix}seats"
    reader = FilteredRelation(
        seats, condition=Q(**{f"{seats}__user": viewer, f"{seats}__kind__in": SEEING_KINDS})
    )
    return rows.annotate(reader_seat=reader).filter(public | Q(reader_seat__isnull=False))


# The sections of My games before the finished games (a player's current games are few; the
# bound keeps a page bounded all the same) and the finished games shown per page.
CURRENT_LISTED = 100
HISTORY_PAGE = 25


@dataclass
class MyGames:
    """One page of My games: the player's turn first, then waiting for others, then not
    started yet (on the first page only), then a page of finished and cancelled games, newest
    first; ``older``: the cursor of the next page ("" on the last)."""

    your_turn: list[Game]
    waiting: list[Game]
    open: list[Game]
    finished: list[Game]
    older: str = ""
    first_page: bool = True


def my_games(user, *, before: str = "") -> MyGames:
    """A page of the viewer's games, read from the seat indexes (issue #25): the current games
    through seat_unsettled_idx, the history a page at a time by keyset (the games before the
    game ``before`` names by its public id, newest first) through seat_history_idx: the cost of
    a page does not grow with the history. No game's state is read. A cursor that names no game
    of the player's gives the first page."""
    mine = Seat.objects.filter(user=user)
    cursor = None
    if before:
        cursor = mine.filter(game__public_id=before).values_list("game_id", flat=True).first()
    history = Game.objects.listed().select_related("created_by")
    history = history.filter(status__in=[Game.Status.FINISHED, Game.Status.ABORTED])
    if cursor is None:
        history = history.filter(seats__user=user)
    else:
        # The cursor on both sides of the join (one filter: the same seat), so that PostgreSQL
        # starts both index reads at it (on one side only it read the games from the newest).
        history = history.filter(seats__user=user, seats__game_id__lt=cursor, pk__lt=cursor)
    finished = list(history.order_by("-pk")[: HISTORY_PAGE + 1])
    page = MyGames([], [], [], [], first_page=cursor is None)
    if len(finished) > HISTORY_PAGE:
        finished = finished[:HISTORY_PAGE]
        page.older = finished[-1].public_id
    current = []
    if page.first_page:
        seats = mine.unsettled().filter(game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        current = [s.game for s in _listed_seats(seats.order_by("-game_id"))[:CURRENT_LISTED]]
    _prefetch_seats(current + finished)
    for game in current + finished:
        _describe(game, user)
    for game in current:
        if game.status == Game.Status.ACTIVE:
            deciding = (
                game.my_seat.kind == Seat.Kind.HUMAN and game.to_move_seat == game.my_seat.index
            )
            (page.your_turn if deciding else page.waiting).append(game)
        else:
            page.open.append(game)
    page.your_turn.sort(key=lambda g: g.turn_started_at or g.created_at)
    page.finished = finished
    return page


def your_turn(user, *, limit: int) -> list[Game]:
    """The games waiting for ``user``'s decision, the longest waiting first: the lobby's list,
    one query through seat_unsettled_idx (the player's finished games are never read)."""
    return list(
        Game.objects.listed()
        .filter(
            status=Game.Status.ACTIVE,
            seats__user=user,
            seats__kind=Seat.Kind.HUMAN,
            seats__final_place__isnull=True,  # seat_unsettled_idx: see SeatQuerySet.unsettled
            to_move_seat=F("seats__index"),
        )
        .order_by("turn_started_at", "pk")[:limit]
    )


def _listed_seats(seats):
    """The seats with their games (no state) and the games' creators, in one query."""
    return seats.select_related("game", "game__created_by").defer(
        *(f"game__{name}" for name in UNLISTED)
    )


def _prefetch_seats(games: list[Game]) -> None:
    """Every game's seats with their players, in one query for the whole list."""
    prefetch_related_objects(games, Prefetch("seats", queryset=Seat.objects.select_related("user")))


def prefetch_seats(*lists: list[Game]) -> None:
    """The seats (with their players) of every game of several lists, in one query: the lobby's
    open games, invitations and games in play (read with ``seats=False``)."""
    _prefetch_seats([game for games in lists for game in games])


def _describe(game: Game, user) -> None:
    """What a list row says about the game from ``user``'s seat (among the prefetched seats):
    their place, whether they are invited, the winners, and the date that matters (finished,
    started or created)."""
    seats = list(game.seats.all())
    game.my_seat = next(s for s in seats if s.user_id == user.pk)
    game.my_place = game.my_seat.final_place
    game.invited = game.my_seat.kind == Seat.Kind.INVITED
    game.winners = [s.label for s in seats if s.final_place == 1]
    game.when = game.finished_at or game.started_at or game.created_at
    game.when_label = (
        pgettext("game", "Finished")
        if game.finished_at
        else pgettext("game", "Started")
        if game.started_at
        else pgettext("game", "Created")
    )


def game_by_public_id(public_id: str) -> Game | None:
    """The game, visible or not: for answering an invitation, which checks the seat itself
    (services.invitation_accept/decline) and says the same for a missing game."""
    return Game.objects.filter(public_id=public_id).select_related("created_by").first()


def invitations(user, *, seats: bool = True) -> list[Game]:
    """Games not started yet where ``user`` holds an invitation: the lobby's notices (not those
    from a player ``user`` blocked: a block is silent, seating.visible_invitations); one query
    through seat_unsettled_idx, and one for their seats (``seats`` False: the caller reads them,
    ``prefetch_seats``)."""
    games = list(
        Game.objects.listed()
        .filter(
            status=Game.Status.OPEN,
            seats__user=user,
            seats__kind=Seat.Kind.INVITED,
            seats__final_place__isnull=True,  # seat_unsettled_idx
        )
        .select_related("created_by")
        .order_by("-created_at")[:CURRENT_LISTED]
    )
    games = seating.visible_invitations(user, games)
    if seats:
        _prefetch_seats(games)
    return games


WATCH_LISTED = 20


def watchable_games(*, seats: bool = True):
    """Public games in play, the most recently moved first: the lobby's "watch" list (with their
    seats unless ``seats`` is False: the caller reads them, ``prefetch_seats``)."""
    games = (
        Game.objects.listed()
        .filter(status=Game.Status.ACTIVE, visibility=Game.Visibility.PUBLIC)
        .order_by("-turn_started_at")
    )
    if seats:
        games = games.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user"))
        )
    return games[:WATCH_LISTED]


def open_games(user=None, *, seats: bool = True):
    """Games taking players, without those where someone seated has blocked ``user`` (with their
    seats unless ``seats`` is False: the caller reads them, ``prefetch_seats``)."""
    games = Game.objects.open_to_join().listed()
    if user is not None and user.is_authenticated:
        games = games.exclude(seats__user__blocks_made__blocked=user)
    games = games.select_related("created_by")
    if seats:
        games = games.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user"))
        )
    return games


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


def game_name(game: Game, seats: list[Seat] | None = None) -> str:
    """A game as its page names it, by its players and mode: "alice vs bob · Shuffle" (the
    random id stays in the URL). A player with two seats is named once; a seat nobody has
    taken yet by its kind, the computer by its level. ``seats`` (with their users) spares the
    query where the caller has them. The notices and the emails name a game the same way."""
    names: list[str] = []
    for seat in sorted(seats if seats is not None else _seats(game), key=lambda s: s.index):
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
    return hot.turn_log(game)


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
    user = seat.user
    due = clock.deadline(game, seat.user_id, last_vacation_end=user and user.vacation_until)
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


# A finished game's transaction commits within this long of its finished_at: the counts of
# player_stats look this far back past their last count (and skip the games counted then).
STATS_MARGIN = timedelta(minutes=2)


def player_stats(user) -> PlayerStats:
    """Games played and won, and the average score, over the user's finished games.

    A seat the computer took over still counts for its player. Aborted games count for nothing.
    Places and scores were written once when each game finished (services.ratings.record_results,
    from the engine's final position: R8), so a profile view re-scores nothing.

    The sums are kept in the cache with the time they were counted to: a view counts only the
    player's games finished since (through game_finished_idx), so that a profile costs the same
    after 10 games or 100,000 (issue #25); a missing entry (a first view, an emptied cache)
    counts everything once, from seat_results_idx alone. A game finished just before the last
    count might have committed after it: the count looks STATS_MARGIN further back and skips
    the games it counted then.
    """
    key = f"player-stats:{user.pk}:{user.date_joined.timestamp():.6f}"
    known = cache.get(key)
    cut = timezone.now() - STATS_MARGIN
    # A seat has a place once its game has finished (record_results, in the transaction that
    # finishes it; a finished game is never aborted).
    settled = Seat.objects.filter(user=user, kind=Seat.Kind.HUMAN, final_place__isnull=False)
    finished = Game.objects.filter(status=Game.Status.FINISHED)  # game_finished_idx
    if known is None:
        # The first count: the sums of the games finished before the cut from seat_results_idx
        # alone, then the games finished since, one by one as later counts read them.
        since = cut
        recent_ids = finished.filter(finished_at__gt=cut).values("pk")
        totals = settled.exclude(game_id__in=recent_ids).aggregate(
            played=Count("pk"),
            # a shared first place is a win for each of its players
            won=Count("pk", filter=Q(final_place=1)),
            scored=Count("final_score"),
            total=Sum("final_score"),
        )
        sums = {name: value or 0 for name, value in totals.items()}
        counted = {}
    else:
        since = known["cut"]
        sums = {name: known[name] for name in ("played", "won", "scored", "total")}
        counted = known["recent"]
    recent = {game_id: when for game_id, when in counted.items() if when > cut}
    window = settled.filter(game__in=finished.filter(finished_at__gt=since))
    for game_id, when, place, score in window.values_list(
        "game_id", "game__finished_at", "final_place", "final_score"
    ):
        if game_id in counted:
            continue
        sums["played"] += 1
        sums["won"] += place == 1
        if score is not None:
            sums["scored"] += 1
            sums["total"] += score
        if when > cut:
            recent[game_id] = when  # the next count skips it
    cache.set(key, {**sums, "cut": cut, "recent": recent}, timeout=None)
    average = sums["total"] / sums["scored"] if sums["scored"] else None
    return PlayerStats(
        played=sums["played"],
        won=sums["won"],
        average_score=round(average, 1) if average is not None else None,
    )


RECENT_GAMES = 10


def recent_results(user, viewer, limit: int = RECENT_GAMES) -> list[dict]:
    """The player's last finished games that ``viewer`` may see (visible_to), newest first:
    when, mode, the others at the table, their place and score (written once at the end, never
    re-scored here). Read backwards through seat_history_idx, a page's worth whatever the
    history; no game's state."""
    seats = list(
        _listed_seats(
            visible_to(
                Seat.objects.filter(
                    user=user, game__status=Game.Status.FINISHED, final_place__isnull=False
                ),
                viewer,
                via="game",
            ).order_by("-game_id")
        )[:limit]
    )
    _prefetch_seats([seat.game for seat in seats])
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
