"""The lists that name games: the lobby (the player's turns, their invitations, the open games,
the games in play) and My games. Each row is plain data, read once here with exactly what its
template shows; no list reads a game's state, and every list's seats come in one query.

Who may see a listed game is ``access.visible_to``'s rule (the lobby lists only public games,
and the player's own).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from django.db.models import F, Prefetch, prefetch_related_objects
from django.utils.translation import gettext, pgettext

from games.models import BOT_RELATION, UNLISTED, Game, Seat, TournamentTable
from games.selectors import seating
from games.selectors.names import profile_path, seat_profile

# The sections of My games before the finished games (a player's current games are few; the
# bound keeps a page bounded all the same) and the finished games shown per page.
CURRENT_LISTED = 100
HISTORY_PAGE = 25
LOBBY_TURNS = 5  # the lobby's "Your turn": the longest waiting (My games lists them all)
OPEN_LISTED = 50  # the lobby's open games
WATCH_LISTED = 20  # the lobby's games in play


# -- rows ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnRow:
    """A game waiting for the player's decision (the lobby's "Your turn")."""

    public_id: str
    mode_name: str
    players: int
    ply: int
    # The other players (name, profile address or "" for the computer): "against bob".
    opponents: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class InvitationRow:
    """A game not started yet where the player holds an invitation (the lobby's notices)."""

    public_id: str
    mode_name: str
    players: int
    move_time: str  # the time per move, in words
    rated: bool
    creator: str
    creator_url: str  # the creator's profile
    seat_labels: tuple[str, ...]
    # Each seat's name and its player's profile address ("" for the computer): the names link.
    seat_links: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class OpenRow:
    """A public game taking players (the lobby's table of open games)."""

    public_id: str
    mode_name: str
    players: int
    scoring_name: str
    move_time: str
    creator: str
    creator_url: str  # the creator's profile
    seat_labels: tuple[str, ...]
    free: int  # its open seats
    mine: bool  # the reader has a seat in it
    # Each seat's name and its player's profile address ("" for the computer): the names link.
    seat_links: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class WatchRow:
    """A public game in play (the lobby's "Games in play")."""

    public_id: str
    mode_name: str
    players: int
    ply: int
    seat_labels: tuple[str, ...]
    mine: bool  # the reader plays in it: "Open", not "Watch"
    # Each seat's name and its player's profile address ("" for the computer): the names link.
    seat_links: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Lobby:
    your_turn: tuple[TurnRow, ...]
    invitations: tuple[InvitationRow, ...]
    open_games: tuple[OpenRow, ...]
    watch: tuple[WatchRow, ...]


@dataclass(frozen=True)
class CurrentRow:
    """A game of My games not finished: the player's turn, waiting for others, not started."""

    public_id: str
    when_label: str  # "Started" or "Created"
    when: datetime
    mode_name: str
    players: int
    ply: int
    seat_labels: tuple[str, ...]
    created_by_me: bool
    invite_token: str  # shown to its creator only (the template's rule)
    invited: bool  # the player holds an invitation to it, not a seat
    creator: str
    tournament: str = ""  # "Autumn cup, round 2" for a tournament's game
    # Each seat's name and its player's profile address ("" for the computer): the names link.
    seat_links: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class FinishedRow:
    """A finished (or aborted) game of the player's history, as its list row shows it
    (``presenters.game_list.finished_items`` writes it)."""

    public_id: str
    when_label: str
    when: datetime
    mode: str  # "classic" or "shuffle"
    mode_name: str
    players: int
    finished: bool  # False: aborted
    status_name: str
    my_place: int | None
    seat_labels: tuple[str, ...]
    winners: tuple[str, ...]
    pentobi: bool  # Pentobi can open its record (games/engine/blksgf.py)
    tournament: str = ""  # "Autumn cup, round 2" for a tournament's game
    # Each seat's name and its player's profile address ("" for the computer): the names link.
    seat_links: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class MyGames:
    """One page of My games: the player's turn first, then waiting for others, then not
    started yet (on the first page only), then a page of finished and cancelled games, newest
    first; ``older``: the cursor of the next page ("" on the last)."""

    your_turn: tuple[CurrentRow, ...]
    waiting: tuple[CurrentRow, ...]
    open: tuple[CurrentRow, ...]
    finished: tuple[FinishedRow, ...]
    older: str = ""
    first_page: bool = True


# -- the lobby -------------------------------------------------------------------------------


def lobby(user) -> Lobby:
    """The lobby's four lists for ``user`` (signed in or not): their turns (one query through
    seat_unsettled_idx), their invitations (one, and one for their blocks if there are any),
    the open games and the games in play (one each), and the seats of the last three in one
    query."""
    signed_in = user is not None and user.is_authenticated
    games = list(_open_games(user)[:OPEN_LISTED])
    turns, invited = [], []
    if signed_in:
        turns = _your_turn(user, limit=LOBBY_TURNS)
        invited = _invitations(user)
    watch = list(
        Game.objects.listed()
        .filter(status=Game.Status.ACTIVE, visibility=Game.Visibility.PUBLIC)
        .order_by("-turn_started_at")[:WATCH_LISTED]
    )
    prefetch_seats(games + invited + watch + turns)
    me = user.pk if signed_in else None
    return Lobby(
        your_turn=tuple(_turn_row(game, me) for game in turns),
        invitations=tuple(_invitation_row(game) for game in invited),
        open_games=tuple(_open_row(game, me) for game in games),
        watch=tuple(_watch_row(game, me) for game in watch),
    )


def your_turn(user, *, limit: int) -> tuple[TurnRow, ...]:
    """The games waiting for ``user``'s decision, the longest waiting first: the lobby's list,
    one query through seat_unsettled_idx (the player's finished games are never read), and
    one for their seats."""
    games = _your_turn(user, limit=limit)
    prefetch_seats(games)
    return tuple(_turn_row(game, user.pk) for game in games)


def _your_turn(user, *, limit: int) -> list[Game]:
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


def _invitations(user) -> list[Game]:
    """Games not started yet where ``user`` holds an invitation, newest first (not those from a
    player ``user`` blocked: a block is silent, seating.visible_invitations); one query through
    seat_unsettled_idx."""
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
    return seating.visible_invitations(user, games)


def _open_games(user):
    """Games taking players, without those where someone seated has blocked ``user``."""
    games = Game.objects.open_to_join().listed()
    if user is not None and user.is_authenticated:
        games = games.exclude(seats__user__blocks_made__blocked=user)
    return games.select_related("created_by")


def _turn_row(game: Game, me: int | None) -> TurnRow:
    return TurnRow(
        game.public_id,
        str(game.get_mode_display()),
        game.players,
        game.ply,
        opponents=tuple(
            (str(s.label), seat_profile(s)) for s in game.seats.all() if s.user_id != me
        ),
    )


def _invitation_row(game: Game) -> InvitationRow:
    return InvitationRow(
        public_id=game.public_id,
        mode_name=str(game.get_mode_display()),
        players=game.players,
        move_time=str(game.get_move_seconds_display()),
        rated=game.rated,
        creator=str(game.created_by),
        creator_url=profile_path(game.created_by),
        seat_labels=_labels(game),
        seat_links=_links(game),
    )


def _open_row(game: Game, me: int | None) -> OpenRow:
    seats = list(game.seats.all())
    return OpenRow(
        public_id=game.public_id,
        mode_name=str(game.get_mode_display()),
        players=game.players,
        scoring_name=str(game.get_scoring_display()),
        move_time=str(game.get_move_seconds_display()),
        creator=str(game.created_by),
        creator_url=profile_path(game.created_by),
        seat_labels=_labels(game),
        seat_links=_links(game),
        free=sum(1 for s in seats if s.kind == Seat.Kind.OPEN),
        mine=me is not None and any(s.user_id == me for s in seats),
    )


def _watch_row(game: Game, me: int | None) -> WatchRow:
    return WatchRow(
        public_id=game.public_id,
        mode_name=str(game.get_mode_display()),
        players=game.players,
        ply=game.ply,
        seat_labels=_labels(game),
        seat_links=_links(game),
        mine=me is not None and any(s.user_id == me for s in game.seats.all()),
    )


# -- My games --------------------------------------------------------------------------------


def my_games(user, *, before: str = "") -> MyGames:
    """A page of the viewer's games, read from the seat indexes: the current games through
    seat_unsettled_idx, the history a page at a time by keyset (the games before the game
    ``before`` names by its public id, newest first) through seat_history_idx: the cost of a
    page does not grow with the history. No game's state is read. A cursor that names no game
    of the player's gives the first page."""
    mine = Seat.objects.filter(user=user)
    cursor = None
    if before:
        cursor = mine.filter(game__public_id=before).values_list("game_id", flat=True).first()
    # The current games before the history: a game that ends between the two reads is then in
    # both for a moment (the next read settles it), never in neither.
    current = []
    if cursor is None:
        seats = mine.unsettled().filter(game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        current = [s.game for s in listed_seats(seats.order_by("-game_id"))[:CURRENT_LISTED]]
    history = Game.objects.listed().select_related("created_by")
    history = history.filter(status__in=[Game.Status.FINISHED, Game.Status.ABORTED])
    if cursor is None:
        history = history.filter(seats__user=user)
    else:
        # The cursor on both sides of the join (one filter: the same seat), so that PostgreSQL
        # starts both index reads at it (on one side only it read the games from the newest).
        history = history.filter(seats__user=user, seats__game_id__lt=cursor, pk__lt=cursor)
    finished = list(history.order_by("-pk")[: HISTORY_PAGE + 1])
    older = ""
    if len(finished) > HISTORY_PAGE:
        finished = finished[:HISTORY_PAGE]
        older = finished[-1].public_id
    prefetch_seats(current + finished)
    tags = tournament_tags([g.pk for g in current + finished])
    your_turn, waiting, not_started = [], [], []
    for game in current:
        seat = _seat_of(game, user)
        row = replace(_current_row(game, seat, user), tournament=tags.get(game.pk, ""))
        if game.status != Game.Status.ACTIVE:
            not_started.append(row)
        elif seat.kind == Seat.Kind.HUMAN and game.to_move_seat == seat.index:
            your_turn.append((game.turn_started_at or game.created_at, row))
        else:
            waiting.append(row)
    your_turn.sort(key=lambda pair: pair[0])  # the longest waiting first
    return MyGames(
        your_turn=tuple(row for _when, row in your_turn),
        waiting=tuple(waiting),
        open=tuple(not_started),
        finished=tuple(
            replace(_finished_row(game, _seat_of(game, user)), tournament=tags.get(game.pk, ""))
            for game in finished
        ),
        older=older,
        first_page=cursor is None,
    )


def _seat_of(game: Game, user) -> Seat:
    """``user``'s seat at ``game`` (among its prefetched seats)."""
    return next(s for s in game.seats.all() if s.user_id == user.pk)


def _when(game: Game) -> tuple[datetime, str]:
    """The date that matters in a list (finished, started or created) and its word."""
    if game.finished_at:
        return game.finished_at, pgettext("game", "Finished")
    if game.started_at:
        return game.started_at, pgettext("game", "Started")
    return game.created_at, pgettext("game", "Created")


def _current_row(game: Game, seat: Seat, user) -> CurrentRow:
    when, when_label = _when(game)
    return CurrentRow(
        public_id=game.public_id,
        when_label=when_label,
        when=when,
        mode_name=str(game.get_mode_display()),
        players=game.players,
        ply=game.ply,
        seat_labels=_labels(game),
        seat_links=_links(game),
        created_by_me=game.created_by_id == user.pk,
        invite_token=game.invite_token,
        invited=seat.kind == Seat.Kind.INVITED,
        creator=str(game.created_by),
    )


def _finished_row(game: Game, seat: Seat) -> FinishedRow:
    when, when_label = _when(game)
    pentobi = game.mode == Game.Mode.CLASSIC and (
        game.players != 3 or not game.shared_color or game.shared_color == "green"
    )  # Pentobi shares only green in a three-player game (games/engine/blksgf.py)
    return FinishedRow(
        public_id=game.public_id,
        when_label=str(when_label),
        when=when,
        mode=game.mode,
        mode_name=str(game.get_mode_display()),
        players=game.players,
        finished=game.status == Game.Status.FINISHED,
        status_name=str(game.get_status_display()),
        my_place=seat.final_place,
        seat_labels=_labels(game),
        seat_links=_links(game),
        winners=tuple(str(s.label) for s in game.seats.all() if s.final_place == 1),
        pentobi=pentobi,
    )


# -- reads shared by the lists ----------------------------------------------------------------


def listed_seats(seats):
    """The seats with their games (no state) and the games' creators, in one query."""
    return seats.select_related("game", "game__created_by").defer(
        *(f"game__{name}" for name in UNLISTED)
    )


def prefetch_seats(games: list[Game]) -> None:
    """Every game's seats with their players, in one query for the whole list (read by the
    selectors that write the rows, never handed on)."""
    # The players' bot accounts too (a left join on its unique user): their labels say "bot".
    seats = Seat.objects.select_related("user", f"user__{BOT_RELATION}")
    prefetch_related_objects(games, Prefetch("seats", queryset=seats))


def _labels(game: Game) -> tuple[str, ...]:
    return tuple(str(s.label) for s in game.seats.all())


def _links(game: Game) -> tuple[tuple[str, str], ...]:
    """Each seat's name with its player's profile address ("" for the computer)."""
    return tuple((str(s.label), seat_profile(s)) for s in game.seats.all())


def tournament_tags(game_ids: list[int]) -> dict[int, str]:
    """game id -> "Autumn cup, round 2", for the games of ``game_ids`` played in a tournament
    (one query; none for an empty list)."""
    if not game_ids:
        return {}
    rows = TournamentTable.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "tournament__name", "round"
    )
    return {
        game_id: gettext("%(tournament)s, round %(round)d") % {"tournament": name, "round": number}
        for game_id, name, number in rows
    }
