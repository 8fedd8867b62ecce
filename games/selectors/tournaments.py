"""Tournament reads: the lists, a tournament's rounds and tables, its standings (games.pairing
computes them from the games' places), and what the pairing of the next round needs to know of
each player (score, first moves, who met whom)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils.translation import pgettext_lazy

from games import pairing
from games.models import Entry, Game, Rating, Seat, Tournament, TournamentTable, shown_rating


def ratings_of(user_ids: list[int], mode: str) -> dict[int, int]:
    """The players' ratings in ``mode`` as shown (a newcomer's 1000 when unrated)."""
    rows = Rating.objects.filter(user_id__in=user_ids, mode=mode).values_list(
        "user_id", "mu", "sigma"
    )
    return {user_id: shown_rating(mu, sigma) for user_id, mu, sigma in rows}


def table_users(table: TournamentTable) -> list[int]:
    if table.bye_user_id:
        return [table.bye_user_id]
    return list(
        table.game.seats.filter(kind=Seat.Kind.HUMAN)
        .order_by("index")
        .values_list("user_id", flat=True)
    )


@dataclass
class History:
    """What the games so far say of each player: the results, who sat first, who met whom."""

    size: int
    results: list[pairing.Result] = field(default_factory=list)
    byes: Counter = field(default_factory=Counter)
    met: Counter = field(default_factory=Counter)
    firsts: Counter = field(default_factory=Counter)
    games: Counter = field(default_factory=Counter)
    streaks: dict = field(default_factory=dict)  # user id -> list of bools (first?) by round
    ratings: dict = field(default_factory=dict)

    def points(self) -> dict[int, float]:
        out: Counter = Counter()
        for result in self.results:
            for user_id, points in zip(result.players, result.points, strict=True):
                out[user_id] += points
        for user_id, n in self.byes.items():
            out[user_id] += n * pairing.bye_points(self.size)
        return out

    def player(self, user_id: int) -> pairing.Player:
        record = self.streaks.get(user_id, [])
        streak = 0
        for first in reversed(record):
            if streak == 0:
                streak = 1 if first else -1
            elif (streak > 0) == first:
                streak += 1 if first else -1
            else:
                break
        return pairing.Player(
            id=user_id,
            score=self.points().get(user_id, 0.0),
            rating=self.ratings.get(user_id, 1000),
            firsts=self.firsts[user_id],
            games=self.games[user_id],
            streak=streak,
            byes=self.byes[user_id],
        )


def history(tournament: Tournament) -> History:
    """Every finished table of ``tournament`` read once (a game's places give its points,
    unless staff adjusted them)."""
    out = History(size=tournament.size)
    tables = list(
        TournamentTable.objects.filter(tournament=tournament)
        .select_related("game")
        .order_by("round", "pk")
    )
    seats = defaultdict(list)
    for seat in Seat.objects.filter(game__tournament_table__tournament=tournament).order_by(
        "index"
    ):
        seats[seat.game_id].append(seat)
    for table in tables:
        if table.bye_user_id:
            out.byes[table.bye_user_id] += 1
            continue
        game_seats = seats.get(table.game_id, [])
        humans = [s for s in game_seats if s.kind == Seat.Kind.HUMAN and s.user_id]
        for a in humans:
            for b in humans:
                if a.user_id < b.user_id:
                    out.met[frozenset((a.user_id, b.user_id))] += 1
            out.streaks.setdefault(a.user_id, []).append(a.index == 0)
            out.firsts[a.user_id] += a.index == 0
        if table.adjusted:
            users = [s.user_id for s in humans]
            points = tuple(float(table.adjusted.get(str(u), 0)) for u in users)
            out.results.append(pairing.Result(players=tuple(users), points=points))
            for user_id in users:
                out.games[user_id] += 1
            continue
        if table.game.status != Game.Status.FINISHED:
            continue
        places = [s.final_place or len(game_seats) for s in game_seats]
        points = pairing.table_points(places)
        by_seat = dict(zip([s.index for s in game_seats], points, strict=True))
        out.results.append(
            pairing.Result(
                players=tuple(s.user_id for s in humans),
                points=tuple(by_seat[s.index] for s in humans),
            )
        )
        for seat in humans:
            out.games[seat.user_id] += 1
    ids = list(tournament.entries.values_list("user_id", flat=True))
    out.ratings = ratings_of(ids, tournament.mode)
    return out


# The tiebreaks games.pairing names (it knows no languages), in the reader's.
TIEBREAK_WORDS = {
    "Buchholz": pgettext_lazy("tiebreak", "Buchholz"),
    "Sonneborn-Berger": pgettext_lazy("tiebreak", "Sonneborn-Berger"),
    "Opponents' points": pgettext_lazy("tiebreak", "Opponents' points"),
}


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    username: str
    points: float
    tiebreaks: tuple[float, ...]
    games: int
    byes: int
    withdrawn: bool


def standings(tournament: Tournament) -> tuple[list[str], list[StandingRow]]:
    """The tiebreaks' names, and every registered player's standing, best first."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user"))
    names = [str(TIEBREAK_WORDS.get(n, n)) for n in pairing.tiebreak_names(tournament.size)]
    if tournament.status == Tournament.Status.REGISTRATION:
        rows = [StandingRow(1, str(e.user), e.user.username, 0.0, (), 0, 0, False) for e in entries]
        return names, rows
    done = history(tournament)
    by_id = {e.user_id: e for e in entries}
    table = pairing.standings(list(by_id), done.results, dict(done.byes), size=tournament.size)
    rows = []
    for standing in table:
        entry = by_id[standing.id]
        rows.append(
            StandingRow(
                rank=standing.rank,
                name=str(entry.user),
                username=entry.user.username,
                points=standing.points,
                tiebreaks=standing.tiebreaks,
                games=standing.games,
                byes=standing.byes,
                withdrawn=entry.withdrawn_at is not None,
            )
        )
    return names, rows


@dataclass(frozen=True)
class TableRow:
    round: int
    public_id: str  # "" for a bye
    seats: list[str]
    status: str
    bye: str


def rounds(tournament: Tournament) -> list[tuple[int, list[TableRow]]]:
    """Each round's tables, newest round first: who sits where (seat 1 moves first), and the
    game to open."""
    tables = list(
        TournamentTable.objects.filter(tournament=tournament)
        .select_related("game", "bye_user")
        .order_by("-round", "pk")
    )
    seats = defaultdict(list)
    for seat in (
        Seat.objects.filter(game__tournament_table__tournament=tournament)
        .select_related("user", "game")
        .order_by("index")
    ):
        seats[seat.game_id].append(seat.label)
    out: dict[int, list[TableRow]] = {}
    for table in tables:
        if table.bye_user_id:
            row = TableRow(table.round, "", [], "", str(table.bye_user))
        else:
            row = TableRow(
                table.round,
                table.game.public_id,
                seats.get(table.game_id, []),
                table.game.get_status_display(),
                "",
            )
        out.setdefault(table.round, []).append(row)
    return list(out.items())


def listing() -> dict[str, list[Tournament]]:
    """The tournaments page: those open for registration, in play, and recently finished."""
    base = Tournament.objects.annotate(
        players=Count("entries", filter=Q(entries__withdrawn_at__isnull=True))
    ).select_related("created_by")
    return {
        "registration": list(base.filter(status=Tournament.Status.REGISTRATION)[:50]),
        "running": list(base.filter(status=Tournament.Status.RUNNING)[:50]),
        "finished": list(
            base.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:20]
        ),
    }


def entry_of(tournament: Tournament, user) -> Entry | None:
    if not user.is_authenticated:
        return None
    return Entry.objects.filter(tournament=tournament, user=user).first()


def of_player(user) -> list[tuple[Tournament, Entry]]:
    """A profile's tournaments, newest first."""
    entries = (
        Entry.objects.filter(user=user)
        .select_related("tournament")
        .order_by("-tournament__starts_at")[:20]
    )
    return [(e.tournament, e) for e in entries]


def game_tags(game_ids: list[int]) -> dict[int, tuple[int, str, int]]:
    """For games of a list: game id -> (tournament id, its name, round), for those played in a
    tournament."""
    rows = TournamentTable.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "tournament_id", "tournament__name", "round"
    )
    return {game_id: (t_id, name, number) for game_id, t_id, name, number in rows}
