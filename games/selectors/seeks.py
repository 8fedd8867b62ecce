"""What "Play now" shows: a player's request and the table forming around it, and the lobby's
list of tables looking for players; and the one definition of the rating window that the matcher
(games.services.seeks) applies.

The rating window. A request looks for players rated within ``half_width`` of its own rating,
and the window widens the longer it waits: ``MATCH_WINDOW`` points either side at first, plus
``MATCH_WINDOW_GROWTH`` points a minute. Two requests fit when each lies in the other's window
(the narrower one decides); a table's window is what every player waiting at it accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Min, Q
from django.utils import timezone

from accounts.models import Block, blocked_ids
from games.models import Game, Rating, Seek, SeekTable, shown_rating


def half_width(waited_seconds: float) -> int:
    """How far from its own rating a request that waited this long looks (points)."""
    grown = settings.MATCH_WINDOW_GROWTH * max(0.0, waited_seconds) / 60
    return int(settings.MATCH_WINDOW + grown)


def window(rating: int, created_at: datetime, now: datetime) -> tuple[int, int]:
    """The ratings a request accepts now."""
    half = half_width((now - created_at).total_seconds())
    return rating - half, rating + half


def table_window(members, now: datetime) -> tuple[int, int]:
    """The ratings every one of ``members`` (Seek rows, or anything with ``rating`` and
    ``created_at``) accepts now."""
    windows = [window(m.rating, m.created_at, now) for m in members]
    return max(w[0] for w in windows), min(w[1] for w in windows)


def rating_of(user, mode: str) -> int:
    """The player's rating in ``mode`` as pages show it (a newcomer's 1000 if unrated)."""
    row = Rating.objects.filter(user=user, mode=mode).only("mu", "sigma").first()
    if row is None:
        return NEWCOMER_RATING
    return shown_rating(row.mu, row.sigma)


NEWCOMER_RATING = 1000


def waiting(user) -> Seek | None:
    """The player's request still waiting, with its table."""
    if not user.is_authenticated:
        return None
    return (
        Seek.objects.filter(user=user, status=Seek.Status.WAITING).select_related("table").first()
    )


def members(table: SeekTable) -> list[Seek]:
    """The players waiting at ``table``, first come first."""
    return list(
        table.seeks.filter(status=Seek.Status.WAITING)
        .select_related("user")
        .order_by("created_at", "pk")
    )


def fill_at(seats: list[Seek]) -> datetime | None:
    """When the computer takes the empty seats: the earliest any of the players asked for."""
    times = [
        s.created_at + timedelta(seconds=s.fill_after) for s in seats if s.fill_after is not None
    ]
    return min(times) if times else None


def started(user, since: datetime | None = None) -> Seek | None:
    """The player's latest request that became a game (after ``since``)."""
    found = Seek.objects.filter(user=user, status=Seek.Status.STARTED)
    if since is not None:
        found = found.filter(ended_at__gte=since)
    return found.select_related("table__game").order_by("-ended_at").first()


@dataclass(frozen=True)
class TableRow:
    """One table of the lobby's "Looking for players" list."""

    table_id: int
    mode: str
    mode_name: str
    players: int
    move_seconds: int
    rated: bool
    waiting: int  # players seated so far
    free: int
    low: int  # the ratings every player there accepts now
    high: int
    joinable: bool  # the viewer may take a seat (rating, blocks, not waiting already)
    mine: bool

    @property
    def move_time(self) -> str:
        return str(dict(Game.MOVE_TIMES)[self.move_seconds])


LOBBY_TABLES = 20  # tables shown; the page says how many more there are


def lobby_tables(user, *, now: datetime | None = None) -> tuple[list[TableRow], int]:
    """The tables looking for players, those the viewer may join first (nearest their rating
    first), then the others, oldest first; and how many there are in all."""
    now = now or timezone.now()
    forming = SeekTable.objects.filter(status=SeekTable.Status.FORMING)
    total = forming.count()
    if not total:
        return [], 0
    annotated = forming.annotate(
        waiting=Count("seeks", filter=Q(seeks__status=Seek.Status.WAITING)),
        first=Min("seeks__created_at", filter=Q(seeks__status=Seek.Status.WAITING)),
    ).filter(waiting__gt=0)
    # The viewer's own table, and the oldest ones (those nearest a start by the computer).
    mine_id = None
    own = waiting(user) if user.is_authenticated else None
    if own is not None:
        mine_id = own.table_id
    tables = list(annotated.order_by("first")[: LOBBY_TABLES * 5])
    seats = {}
    for seek in (
        Seek.objects.filter(table__in=tables, status=Seek.Status.WAITING)
        .only("table_id", "rating", "created_at", "user_id")
        .order_by("created_at")
    ):
        seats.setdefault(seek.table_id, []).append(seek)
    hidden = blocked_ids(user) if user.is_authenticated else set()
    blockers = _blockers(user, [s.user_id for group in seats.values() for s in group])
    mode_names = dict(Game.Mode.choices)
    rows = []
    for table in tables:
        group = seats.get(table.pk, [])
        if not group:
            continue
        low, high = table_window(group, now)
        mine = table.pk == mine_id
        joinable = False
        if user.is_authenticated and own is None:
            rating = rating_of(user, table.mode)
            joinable = (
                low <= rating <= high
                and not any(s.user_id in hidden or s.user_id in blockers for s in group)
                and user.pk not in {s.user_id for s in group}
            )
        rows.append(
            TableRow(
                table_id=table.pk,
                mode=table.mode,
                mode_name=str(mode_names[table.mode]),
                players=table.players,
                move_seconds=table.move_seconds,
                rated=table.rated,
                waiting=len(group),
                free=table.players - len(group),
                low=low,
                high=high,
                joinable=joinable,
                mine=mine,
            )
        )
    rows.sort(key=lambda r: (not r.mine, not r.joinable))
    return rows[:LOBBY_TABLES], total


def _blockers(user, user_ids: list[int]) -> set[int]:
    """Which of ``user_ids`` blocked ``user``."""
    if not user.is_authenticated or not user_ids:
        return set()
    return set(
        Block.objects.filter(blocker_id__in=user_ids, blocked=user).values_list(
            "blocker_id", flat=True
        )
    )
