""" "Play now": a player asks for a game, the site seats them at a table that fits or opens one,
and starts the game when the table is full (or when the computer takes the empty seats).

How matching works (the help page says the same in players' words):

- A request names a mode, a number of players (2, 3, 4, or any), a time per move, rated or not,
  and how long its player will wait for others before the computer takes the empty seats
  (``FILL_CHOICES``; never is a choice).
- It is matched by the mode's rating as shown (games.services.ratings): the rating window of
  games.selectors.seeks, which widens with the wait. At once, the request takes a seat at the
  fullest forming table for the same settings where it fits every player's window and theirs
  fits it, with nobody who blocked it or whom it blocked; else it opens a table (a two-player
  table for "any", which a larger table may absorb later).
- Every ``MATCH_SWEEP_SECONDS`` the sweep (``sweep``, a Celery beat task) joins tables whose
  windows have grown to meet, oldest table first, each with the nearest tables that fit; and
  gives the empty seats of a table whose wait is over to the computer, at the level whose rating
  is nearest the table's mean (``computer_level``).
- A full table becomes a game at once: every player seated, the seats drawn at random (R2.6),
  the game public; a rated game with computer seats follows the rating rules for such games
  (games.services.ratings: farming).
- Choosing a table from the lobby ("Join") goes through the same checks, except that the
  joiner's own window does not narrow it: choosing the table is accepting its players.
- A bot account (games.models.is_bot) never sits with people at a rated table: a rated table is
  all people or all bots (``_fits``; the sweep joins only tables of the same kind). A rated game
  between a bot and a person is one a person chose: their challenge (games.services.games).

Safety under concurrency: a player has at most one waiting request (a partial unique index,
``seek_one_waiting``); a table's seats are counted and changed only under its row lock (asking
skips tables another request holds, ``SKIP LOCKED``, and opens its own instead of waiting);
the sweep locks the tables it changes the same way. Nobody is seated twice nor a table
overfilled, whatever the number of web processes and workers.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.live import nudges
from games.models import Game, Seat, Seek, SeekTable, bot_ids
from games.selectors import seating
from games.selectors import seeks as seek_reads
from games.services import notify, ratings
from games.services.errors import Conflict, GameError, NotAllowed, TooMany
from games.services.games import game_seated

# How long a player will wait before the computer takes the empty seats: seconds (None: never).
FILL_CHOICES = (120, 600, 3600, 24 * 3600, None)
# A table opened by a request for any number of players.
ANY_OPENS = 2
# Levels the computer fills with (Master is rated as Expert and thinks five times longer).
FILL_LEVELS = (Seat.Level.BEGINNER, Seat.Level.CASUAL, Seat.Level.EXPERT)


def computer_level(rating: float) -> str:
    """The computer level whose rating is nearest ``rating`` (the weaker one on a tie)."""
    return min(FILL_LEVELS, key=lambda level: abs(ratings.computer_rating(level) - rating))


def _check(mode: str, players: int, move_seconds: int, fill_after: int | None) -> None:
    if mode not in Game.Mode.values:
        raise GameError(
            _("unknown mode %(mode)r (one of %(modes)s)")
            % {"mode": mode, "modes": ", ".join(Game.Mode.values)}
        )
    if players not in (Seek.ANY_PLAYERS, 2, 3, 4):
        raise GameError(_("a game has 2, 3 or 4 players"))
    offered = [seconds for seconds, _label in Game.MOVE_TIMES]
    if move_seconds not in offered:
        raise GameError(_("that time per move is not one of the choices offered"))
    if fill_after not in FILL_CHOICES:
        raise GameError(_("that wait before the computer plays is not one of the choices"))


def _check_limits(user, now: datetime) -> None:
    cancelled = Seek.objects.filter(
        user=user, status=Seek.Status.CANCELLED, ended_at__gte=now - timedelta(hours=1)
    ).count()
    if cancelled >= settings.MATCH_CANCELS_PER_HOUR:
        raise TooMany(
            _(
                "you cancelled %(n)d requests in the last hour: wait a while before asking "
                "for a game again"
            )
            % {"n": cancelled}
        )


def seek_ask(
    *,
    user,
    mode: str,
    players: int,
    move_seconds: int,
    rated: bool,
    fill_after: int | None,
    table_id: int | None = None,
    now: datetime | None = None,
) -> Seek:
    """Ask for a game ("Play now"), or (``table_id``) take a seat at a table of the lobby's
    list. Seats the player at once; the game starts if the table is now full."""
    now = now or timezone.now()
    _check(mode, players, move_seconds, fill_after)
    _check_limits(user, now)
    rating = seek_reads.rating_of(user, mode)
    with transaction.atomic():
        if Seek.objects.filter(user=user, status=Seek.Status.WAITING).exists():
            raise Conflict(_("you are already looking for a game: cancel that request first"))
        seek = Seek(
            user=user,
            mode=mode,
            players=players,
            move_seconds=move_seconds,
            rated=rated,
            fill_after=fill_after,
            rating=rating,
            created_at=now,
        )
        try:
            with transaction.atomic():
                seek.save()
        except IntegrityError:  # a second request of the same player, at the same moment
            raise Conflict(
                _("you are already looking for a game: cancel that request first")
            ) from None
        if table_id is not None:
            table, seated = _chosen_table(seek, table_id, now)
        else:
            table, seated = _best_table(seek, now)
        seek.table = table
        seek.save(update_fields=["table"])
        seated.append(seek)
        changed = [s.user_id for s in seated]
        if len(seated) == table.players:
            _start(table, seated, now=now)
        _told(changed)
    return seek


def _directed(pairs: set[frozenset[int]]) -> set[tuple[int, int]]:
    """Blocked pairs both ways round, for the plan's inner loop (a tuple per look-up)."""
    return {(a, b) for pair in pairs for a in pair for b in pair if a != b}


def _fits(
    seek: Seek,
    seated: list[Seek],
    now: datetime,
    *,
    chosen: bool = False,
    blocked: set[frozenset[int]] | None = None,
    bots: set[int] | None = None,
) -> bool:
    """Whether ``seek`` may sit with ``seated``: each rating inside the other's window (only
    theirs when the player chose the table), nobody blocked either way, people and bots not at
    one rated table. ``blocked`` and ``bots``: read once for every candidate table's players
    (else read here)."""
    ids = [seek.user_id, *(s.user_id for s in seated)]
    if bots is None:
        bots = bot_ids(ids)
    if seek.rated and len(bots & set(ids)) not in (0, len(set(ids))):
        return False  # people and bots never share a rated table
    if blocked is None:
        blocked = seating.blocked_pairs(ids)
    for other in seated:
        if frozenset((seek.user_id, other.user_id)) in blocked or other.user_id == seek.user_id:
            return False
        gap = abs(seek.rating - other.rating)
        theirs = seek_reads.half_width((now - other.created_at).total_seconds())
        mine = seek_reads.half_width((now - seek.created_at).total_seconds())
        if gap > theirs or (not chosen and gap > mine):
            return False
    return True


def _waiting_at(table: SeekTable) -> list[Seek]:
    return list(table.seeks.filter(status=Seek.Status.WAITING).order_by("created_at", "pk"))


def _best_table(seek: Seek, now: datetime) -> tuple[SeekTable, list[Seek]]:
    """The forming table ``seek`` fits best, locked (the fullest, then the oldest), or a new
    one."""
    candidates = SeekTable.objects.select_for_update(skip_locked=True).filter(
        status=SeekTable.Status.FORMING,
        mode=seek.mode,
        move_seconds=seek.move_seconds,
        rated=seek.rated,
    )
    if seek.players != Seek.ANY_PLAYERS:
        candidates = candidates.filter(players=seek.players)
    # Tables near the request's rating first: the others cannot take it yet.
    low, high = seek_reads.window(seek.rating, seek.created_at, now)
    best = None
    near = Seek.objects.filter(status=Seek.Status.WAITING, rating__gte=low, rating__lte=high)
    tables = list(candidates.filter(pk__in=near.values("table_id")).order_by("created_at")[:50])
    # The candidates' players, their blocks and bots: three queries for all the tables.
    at = defaultdict(list)
    for other in Seek.objects.filter(table__in=tables, status=Seek.Status.WAITING).order_by(
        "created_at", "pk"
    ):
        at[other.table_id].append(other)
    ids = [seek.user_id, *(s.user_id for group in at.values() for s in group)]
    blocked, bots = seating.blocked_pairs(ids), bot_ids(ids)
    for table in tables:
        seated = at[table.pk]
        free = table.players - len(seated)
        if free <= 0 or not seated or not _fits(seek, seated, now, blocked=blocked, bots=bots):
            continue
        if best is None or free < best[0]:
            best = (free, table, seated)
    if best is not None:
        return best[1], best[2]
    players = seek.players if seek.players != Seek.ANY_PLAYERS else ANY_OPENS
    table = SeekTable.objects.create(
        mode=seek.mode,
        players=players,
        move_seconds=seek.move_seconds,
        rated=seek.rated,
        created_at=now,
    )
    return table, []


def _chosen_table(seek: Seek, table_id: int, now: datetime) -> tuple[SeekTable, list[Seek]]:
    """The lobby's table ``table_id``, locked, if ``seek`` may sit there; else a refusal."""
    table = SeekTable.objects.select_for_update().filter(pk=table_id).first()
    if table is None or table.status != SeekTable.Status.FORMING:
        raise Conflict(_("this table is no longer looking for players"))
    seated = _waiting_at(table)
    if not seated or len(seated) >= table.players:
        raise Conflict(_("this table is no longer looking for players"))
    if not _fits(seek, seated, now, chosen=True):
        low, high = seek_reads.table_window(seated, now)
        if low <= seek.rating <= high:
            raise NotAllowed(_("there is no seat here for you"))  # a block: never said whose
        raise NotAllowed(
            _(
                "this table is looking for players rated %(low)d-%(high)d and your rating is "
                "%(rating)d: press Play now to be matched with players near your rating"
            )
            % {"low": low, "high": high, "rating": seek.rating}
        )
    return table, seated


def seek_cancel(*, user, now: datetime | None = None) -> None:
    """Stop waiting. Refused once the game has started (it is then a game like any other)."""
    now = now or timezone.now()
    with transaction.atomic():
        seek = Seek.objects.filter(user=user, status=Seek.Status.WAITING).first()
        if seek is None:
            raise Conflict(_("you are not looking for a game (it may have started)"))
        table = SeekTable.objects.select_for_update().get(pk=seek.table_id)
        seek.refresh_from_db(fields=["status"])
        if seek.status != Seek.Status.WAITING:  # the table started meanwhile
            raise Conflict(_("your game has started: it is in My games"))
        seek.status, seek.ended_at = Seek.Status.CANCELLED, now
        seek.save(update_fields=["status", "ended_at"])
        left = _waiting_at(table)
        if not left:
            table.status = SeekTable.Status.CANCELLED
            table.save(update_fields=["status"])
        _told([user.pk, *(s.user_id for s in left)])


def _start(table: SeekTable, seated: list[Seek], *, now: datetime, level: str = "") -> Game:
    """The locked ``table`` becomes a game: its players seated, the empty seats the computer's
    at ``level``."""
    empty = table.players - len(seated)
    levels = [level] * empty
    game = game_seated(
        users=[s.user for s in seated],
        levels=levels,
        mode=table.mode,
        players=table.players,
        move_seconds=table.move_seconds,
        rated=table.rated,
    )
    table.status, table.game = SeekTable.Status.STARTED, game
    table.computer_seats, table.level = empty, level if empty else ""
    table.save(update_fields=["status", "game", "computer_seats", "level"])
    Seek.objects.filter(pk__in=[s.pk for s in seated]).update(
        status=Seek.Status.STARTED, ended_at=now
    )
    for seek in seated:
        seek.status, seek.ended_at = Seek.Status.STARTED, now
    # Those who waited long may have left the page: a device or an email tells them
    # (games.notices, "matched"); the page tells everyone at once.
    notify.told(kind="matched", game=game, number=0)
    title = nudges.matched_title(game)
    for seek in seated:
        transaction.on_commit(
            lambda s=seek: nudges.seek_changed(s.user_id, game.public_id, title), robust=True
        )
    return game


def _told(user_ids: list[int]) -> None:
    """After commit: the players' Play now pages and every lobby refetch."""
    ids = sorted(set(user_ids))
    transaction.on_commit(lambda: nudges.seeks_changed(ids), robust=True)
    transaction.on_commit(nudges.lobby_changed, robust=True)


# -- the sweep ------------------------------------------------------------------------------


@dataclass
class _Seat:
    seek_id: int
    user_id: int
    rating: int
    created: float  # a timestamp
    players: int
    fill_after: int | None
    reach: int = 0  # the half-width of its window at the sweep's time


@dataclass
class _Table:
    table_id: int
    key: tuple
    players: int
    created: float
    seats: list[_Seat] = field(default_factory=list)
    gone: bool = False  # merged into another table, or starting
    # Every player here asked for any number of players: any table size will do.
    flexible: bool = True
    centre: float = 0.0  # the mean rating of its players
    spread: int = 0  # the highest rating there less the lowest

    def settle(self) -> None:
        """Its summary figures again, after its players changed."""
        ratings = [s.rating for s in self.seats]
        self.flexible = all(s.players == Seek.ANY_PLAYERS for s in self.seats)
        self.centre = sum(ratings) / len(ratings) if ratings else 0.0
        self.spread = max(ratings) - min(ratings) if ratings else 0

    def fill_at(self) -> float | None:
        times = [s.created + s.fill_after for s in self.seats if s.fill_after is not None]
        return min(times) if times else None


# Neighbours (by rating) a table looks at on each side for a table to join with.
NEIGHBOURS = 24


@dataclass
class Plan:
    """What a sweep does: the tables to join (``moves``: absorbed -> kept), the size a kept
    flexible table takes, and the tables to start (full) or to fill with the computer."""

    moves: dict[int, int] = field(default_factory=dict)
    sizes: dict[int, int] = field(default_factory=dict)
    full: list[int] = field(default_factory=list)
    fill: list[int] = field(default_factory=list)


def plan(tables: list[_Table], blocked: set[tuple[int, int]], now: float) -> Plan:
    """The sweep's decisions over an in-memory picture of every forming table (pure: the
    benchmark times it on 10,000 requests)."""
    out = Plan()
    groups: dict[tuple, list[_Table]] = defaultdict(list)
    for table in tables:
        if table.seats:
            for seat in table.seats:
                seat.reach = seek_reads.half_width(now - seat.created)
            table.settle()
            groups[table.key].append(table)
    for group in groups.values():
        by_rating = sorted(group, key=lambda t: t.centre)
        centres = [t.centre for t in by_rating]
        widest = max(t.spread for t in group)
        for target in sorted(group, key=lambda t: t.created):
            if target.gone:
                continue
            while len(target.seats) < target.players or target.flexible:
                other = _nearest_fit(target, by_rating, centres, blocked, now, widest)
                if other is None:
                    break
                if target.flexible and not other.flexible:
                    target.players = other.players
                    out.sizes[target.table_id] = other.players
                target.seats.extend(other.seats)
                target.settle()
                widest = max(widest, target.spread)
                other.gone = True
                out.moves[other.table_id] = target.table_id
                if len(target.seats) >= target.players:
                    break
            if len(target.seats) >= target.players:
                out.full.append(target.table_id)
                target.gone = True  # starts now: nothing more joins it
        for table in group:
            if table.gone:
                continue
            fill_at = table.fill_at()
            if fill_at is not None and fill_at <= now:
                out.fill.append(table.table_id)
    return out


def _nearest_fit(target, by_rating, centres, blocked, now, widest: int) -> _Table | None:
    """The nearest table (by mean rating) whose players may all sit with ``target``'s: a scan
    outwards on each side of the target's place in ``by_rating``, which stops at the first
    table too far to fit (the list is in order of rating) or after NEIGHBOURS tables.
    ``widest``: no table of the group spreads its ratings wider than this."""
    free = target.players - len(target.seats)
    start = bisect.bisect_left(centres, target.centre)
    # No player of a table whose mean is further than this from the target's can fit with the
    # target's players: the narrower window decides a pair, the target's widest reaches this
    # far from its own rating, and a rating is within its table's spread of the table's mean.
    reach = max(s.reach for s in target.seats) + target.spread + widest
    best, best_gap = None, None
    for step, stop in ((-1, -1), (1, len(by_rating))):
        index, looked = (start - 1 if step < 0 else start), 0
        while index != stop and looked < NEIGHBOURS:
            other = by_rating[index]
            index += step
            looked += 1
            if abs(centres[index - step] - target.centre) > reach:
                break  # every table further on this side is further still
            if other is target or other.gone:
                continue
            if target.flexible and not other.flexible:
                room = other.players - len(target.seats)
            elif other.flexible or other.players == target.players:
                room = free
            else:
                continue
            if len(other.seats) > room or room <= 0:
                continue
            if not _all_fit(target.seats, other.seats, blocked, now):
                continue
            gap = abs(other.centre - target.centre)
            if best is None or gap < best_gap:
                best, best_gap = other, gap
    return best


def _all_fit(ours: list[_Seat], theirs: list[_Seat], blocked, now: float) -> bool:
    for a in ours:
        for b in theirs:
            if (a.user_id, b.user_id) in blocked or a.user_id == b.user_id:
                return False
            if abs(a.rating - b.rating) > min(a.reach, b.reach):
                return False
    return True


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Join the tables whose windows now meet, and give the computer the empty seats of those
    whose wait is over. Returns counts (for logs, the benchmark and tests)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = list(
            SeekTable.objects.select_for_update(skip_locked=True)
            .filter(status=SeekTable.Status.FORMING)
            .values_list("pk", "mode", "move_seconds", "rated", "players", "created_at")
        )
        tables = {
            pk: _Table(pk, (mode, seconds, rated), players, created.timestamp())
            for pk, mode, seconds, rated, players, created in locked
        }
        # Every waiting request (a join, not a list of ten thousand ids); those at a table another
        # sweep holds are left to it.
        waiting = Seek.objects.filter(
            status=Seek.Status.WAITING, table__status=SeekTable.Status.FORMING
        )
        rows = waiting.values_list(
            "pk", "table_id", "user_id", "rating", "created_at", "players", "fill_after"
        )
        for pk, table_id, user_id, rating, created, players, fill_after in rows:
            if table_id in tables:
                tables[table_id].seats.append(
                    _Seat(pk, user_id, rating, created.timestamp(), players, fill_after)
                )
        user_ids = [s.user_id for t in tables.values() for s in t.seats]
        # A rated table is all people or all bots (``_fits``): its kind joins its key, so that
        # the plan never puts the two at one rated table.
        bots = bot_ids(waiting.values("user_id")) if user_ids else set()
        for table in tables.values():
            if table.key[2] and table.seats:
                table.key += (table.seats[0].user_id in bots,)
        users = waiting.values("user_id")
        blocked = _directed(seating.blocked_pairs(users)) if user_ids else set()
        # Tables nobody waits at any more (a player made inactive) are closed.
        empty = [pk for pk, t in tables.items() if not t.seats]
        sizes = {pk: len(t.seats) for pk, t in tables.items()}  # the plan extends the kept ones
        decided = plan(list(tables.values()), blocked, now.timestamp())
        _move_seats(_final(decided.moves))
        for pk, size in decided.sizes.items():
            SeekTable.objects.filter(pk=pk).update(players=size)
        _close_tables([*decided.moves, *empty])
        touched = {s.user_id for pk in set(decided.moves.values()) for s in tables[pk].seats}
        _told(list(touched))
    started = 0
    for pk in decided.full:
        started += _start_table(pk, now=now)
    filled = 0
    for pk in decided.fill:
        filled += _start_table(pk, now=now, fill=True)
    return {
        "tables": len(tables),
        "waiting": len(user_ids),
        "joined": len(decided.moves),
        "moved": sum(sizes[pk] for pk in decided.moves),
        "started": started,
        "filled": filled,
    }


def _final(moves: dict[int, int]) -> dict[int, int]:
    """Each absorbed table -> the table its players end at (a table that absorbed others may
    itself have been absorbed later in the same plan)."""
    out = {}
    for absorbed in moves:
        kept = moves[absorbed]
        while kept in moves:
            kept = moves[kept]
        out[absorbed] = kept
    return out


def _close_tables(pks: list[int]) -> None:
    """The tables whose players moved on (or left) are closed: one statement with an array on
    PostgreSQL (thousands of ids as parameters cost more to send than to apply)."""
    if not pks:
        return
    if connection.vendor == "postgresql":
        table = SeekTable._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f'UPDATE "{table}" SET "status" = %s WHERE "id" = ANY(%s::bigint[])',
                [SeekTable.Status.CANCELLED, pks],
            )
        return
    SeekTable.objects.filter(pk__in=pks).update(status=SeekTable.Status.CANCELLED)


def _move_seats(moves: dict[int, int]) -> None:
    """The waiting requests of each absorbed table to the table that keeps them: one statement
    on PostgreSQL (an UPDATE joined with the pairs), a statement per table elsewhere."""
    if not moves:
        return
    if connection.vendor == "postgresql":
        seek, column = Seek._meta.db_table, Seek._meta.get_field("table").column
        with connection.cursor() as cursor:
            cursor.execute(
                f'UPDATE "{seek}" SET "{column}" = m.kept'
                f" FROM unnest(%s::bigint[], %s::bigint[]) AS m(absorbed, kept)"
                f' WHERE "{seek}"."{column}" = m.absorbed AND "{seek}"."status" = %s',
                [list(moves), list(moves.values()), Seek.Status.WAITING],
            )
        return
    for absorbed, kept in moves.items():
        Seek.objects.filter(table_id=absorbed, status=Seek.Status.WAITING).update(table_id=kept)


def _start_table(pk: int, *, now: datetime, fill: bool = False) -> int:
    """Start table ``pk`` in a transaction of its own: full, or (``fill``) with the computer in
    its empty seats. 0 if a request changed it meanwhile (the next sweep looks again)."""
    with transaction.atomic():
        table = SeekTable.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
        if table is None or table.status != SeekTable.Status.FORMING:
            return 0
        seated = list(
            table.seeks.filter(status=Seek.Status.WAITING)
            .select_related("user")
            .order_by("created_at", "pk")
        )
        if not seated:
            return 0
        if len(seated) > table.players:  # never: the locks keep it; refuse rather than overfill
            raise GameError(f"table {pk} holds {len(seated)} players for {table.players} seats")
        if len(seated) == table.players:
            _start(table, seated, now=now)
            return 1
        if not fill:
            return 0
        due = seek_reads.fill_at(seated)
        if due is None or due > now:
            return 0
        mean = sum(s.rating for s in seated) / len(seated)
        _start(table, seated, now=now, level=computer_level(mean))
        return 1
