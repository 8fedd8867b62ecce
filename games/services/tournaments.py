"""Asynchronous tournaments: create, register, withdraw, and the rounds that run themselves.

A tournament opens for registration, starts by itself at its start time (or is cancelled for
want of players), creates each round's games at once, and starts the next round when the last
game of the round has ended: the time per move and the computer taking a timed-out seat make
every game end, so a slow player cannot stall it. The pairings and standings are games.pairing's
(Swiss by score, round robin by a schedule fixed at the start); seat 1 of each game moves first,
as the pairing decided (first moves balanced).

- Withdrawing before the start takes the name off the list; after it, the player's running game
  is resigned (R11), they are not paired again, and their results stand. In a round robin their
  later games are played by the computer in their seat with three or four players (the table
  keeps its size), and with two players their opponent has a bye.
- A Swiss accepts late joiners until the round its creator chose (with 0 points).
- A blocked pair is never paired (games.pairing leaves a player out with a bye rather).

Everything here runs under the tournament's row lock, so two workers finishing the last two
games of a round at the same moment start the next round once.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import jobs, pairing
from games.live import nudges
from games.models import Entry, Game, Tournament, TournamentTable, is_bot
from games.selectors import seating
from games.selectors import tournaments as reads
from games.services import notify
from games.services.errors import Conflict, GameError, NotAllowed, TooMany
from games.services.games import game_at_table
from games.services.resign import game_resign
from games.services.seeks import computer_level

User = get_user_model()

# Tournaments a player may have open (registering or in play) as creator at once.
MAX_OPEN_TOURNAMENTS = 3
MAX_ROUNDS = 15
MAX_PLAYERS = 256
MAX_ROUND_ROBIN = 24  # a round robin of more players takes too many rounds
# How long before the start the registered players are reminded.
REMIND_BEFORE = timedelta(hours=1)


def tournament_create(
    *,
    creator,
    name: str,
    format: str,
    mode: str,
    size: int,
    move_seconds: int,
    rounds: int = 5,
    double: bool = False,
    rated: bool = True,
    allow_bots: bool = False,
    min_players: int = 4,
    max_players: int = 32,
    starts_at: datetime,
    late_join_until: int = 0,
    now: datetime | None = None,
) -> Tournament:
    """Open a tournament; its creator is registered in it. ``allow_bots``: bot accounts may
    register too (tournament_register)."""
    now = now or timezone.now()
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise GameError(_("a tournament needs a name of at most 80 characters"))
    if format not in Tournament.Format.values:
        raise GameError(_("unknown format %(format)r") % {"format": format})
    if mode not in Game.Mode.values:
        raise GameError(_("unknown mode %(mode)r") % {"mode": mode})
    if size not in (2, 3, 4):
        raise GameError(_("a game has 2, 3 or 4 players"))
    if move_seconds not in [seconds for seconds, _label in Game.MOVE_TIMES]:
        raise GameError(_("that time per move is not one of the choices offered"))
    if format == Tournament.Format.SWISS and not 1 <= rounds <= MAX_ROUNDS:
        raise GameError(_("a Swiss has 1 to %(n)d rounds") % {"n": MAX_ROUNDS})
    most = MAX_ROUND_ROBIN if format == Tournament.Format.ROUND_ROBIN else MAX_PLAYERS
    if not size <= min_players <= max_players <= most:
        raise GameError(
            _(
                "the number of players must be at least %(size)d (a table) and at most %(most)d, "
                "the minimum no more than the maximum"
            )
            % {"size": size, "most": most}
        )
    if starts_at <= now:
        raise GameError(_("the start must be in the future"))
    if format != Tournament.Format.SWISS or not 0 <= late_join_until <= rounds:
        late_join_until = 0
    with transaction.atomic():
        open_ones = Tournament.objects.filter(
            created_by=creator,
            status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING],
        ).count()
        if open_ones >= MAX_OPEN_TOURNAMENTS:
            raise TooMany(
                _(
                    "you already run %(n)d tournaments that have not finished: wait until one "
                    "ends before creating another"
                )
                % {"n": open_ones}
            )
        tournament = Tournament.objects.create(
            name=name,
            created_by=creator,
            format=format,
            mode=mode,
            size=size,
            move_seconds=move_seconds,
            rounds=rounds,
            double=double and size == 2 and format == Tournament.Format.ROUND_ROBIN,
            rated=rated,
            allow_bots=allow_bots,
            min_players=min_players,
            max_players=max_players,
            starts_at=starts_at,
            late_join_until=late_join_until,
        )
        Entry.objects.create(tournament=tournament, user=creator, joined_at=now)
    return tournament


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def tournament_register(*, tournament: Tournament, user, now: datetime | None = None) -> Entry:
    """Register; in a Swiss in play, join late (from the next round, with 0 points) while the
    creator allows it."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament)
        if not tournament.allow_bots and is_bot(user):
            raise NotAllowed(_("this tournament is for people: it does not allow bot accounts"))
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None and entry.withdrawn_at is None:
            raise Conflict(_("you are already registered"))
        if entry is not None:
            raise Conflict(_("you withdrew from this tournament: you cannot come back"))
        count = Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()
        if tournament.status == Tournament.Status.REGISTRATION:
            joined_round = 1
        elif (
            tournament.status == Tournament.Status.RUNNING
            and tournament.format == Tournament.Format.SWISS
            and tournament.round < tournament.late_join_until
        ):
            joined_round = tournament.round + 1
        else:
            raise Conflict(_("this tournament no longer takes players"))
        if count >= tournament.max_players:
            raise Conflict(_("this tournament is full"))
        entry = Entry.objects.create(
            tournament=tournament, user=user, joined_at=now, joined_round=joined_round
        )
        _changed(tournament)
    return entry


def tournament_withdraw(*, tournament: Tournament, user, now: datetime | None = None) -> None:
    """Leave: before the start the name goes off the list; after it, the running game is
    resigned (R11), no further pairing, the results stand."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament)
        entry = Entry.objects.filter(
            tournament=tournament, user=user, withdrawn_at__isnull=True
        ).first()
        if entry is None:
            raise NotAllowed(_("you are not registered in this tournament"))
        if tournament.status == Tournament.Status.REGISTRATION:
            entry.delete()
            _changed(tournament)
            return
        if tournament.status != Tournament.Status.RUNNING:
            raise Conflict(_("this tournament is over"))
        entry.withdrawn_at = now
        entry.save(update_fields=["withdrawn_at"])
        running = Game.objects.filter(
            tournament_table__tournament=tournament,
            status=Game.Status.ACTIVE,
            seats__user=user,
        )
        games = list(running)
        _changed(tournament)
    for game in games:  # each in its own transaction, as a player's Resign is
        with contextlib.suppress(GameError):  # already over, or out of it: nothing to resign
            game_resign(game=game, user=user)
    transaction.on_commit(lambda: jobs.queue("tournament_advance", tournament.pk), robust=True)


def tournament_cancel(*, tournament: Tournament, reason: str) -> None:
    """Stop it (staff, or too few players at the start): running games go on as ordinary
    games; nothing more is paired."""
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise Conflict(_("this tournament is already over"))
        tournament.status = Tournament.Status.CANCELLED
        tournament.cancel_reason = reason[:200]
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "cancel_reason", "finished_at"])
        _changed(tournament)


def tournament_remove(*, tournament: Tournament, user, reason: str) -> None:
    """Staff remove a player: a withdrawal, with the reason kept."""
    entry = Entry.objects.filter(tournament=tournament, user=user).first()
    if entry is None:
        raise NotAllowed(_("%(name)s is not registered") % {"name": user})
    if tournament.status == Tournament.Status.REGISTRATION:
        entry.delete()
        _changed(tournament)
        return
    Entry.objects.filter(pk=entry.pk).update(removed_reason=reason[:200])
    tournament_withdraw(tournament=tournament, user=user)


def table_adjust(*, table: TournamentTable, points: dict[int, float]) -> None:
    """Staff set a table's points (user id -> points), instead of what its game gave."""
    users = set(reads.table_users(table))
    if set(points) != users:
        raise GameError(_("give points for exactly the players of that table"))
    if any(p < 0 or p > table.tournament.size - 1 for p in points.values()):
        raise GameError(_("points are between 0 and the table's size less one"))
    with transaction.atomic():
        TournamentTable.objects.filter(pk=table.pk).update(
            adjusted={str(k): v for k, v in points.items()}
        )
        _changed(table.tournament)


# -- the rounds --------------------------------------------------------------------------------


def start_due(*, now: datetime | None = None) -> dict[str, int]:
    """The beat's sweep: remind players of tournaments starting soon, start those whose time
    has come (or cancel them for want of players), and advance rounds whose games all ended
    (a safety net: a game's end queues its advance itself)."""
    now = now or timezone.now()
    counts = Counter()
    soon = Tournament.objects.filter(
        status=Tournament.Status.REGISTRATION,
        reminded=False,
        starts_at__lte=now + REMIND_BEFORE,
        starts_at__gt=now,
    )
    for tournament in soon:
        if Tournament.objects.filter(pk=tournament.pk, reminded=False).update(reminded=True):
            for user_id in tournament.entries.values_list("user_id", flat=True):
                jobs.queue("send_tournament_reminder", tournament.pk, user_id)
            counts["reminded"] += 1
    for pk in Tournament.objects.filter(
        status=Tournament.Status.REGISTRATION, starts_at__lte=now
    ).values_list("pk", flat=True):
        counts[tournament_start(pk, now=now)] += 1
    for pk in Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list(
        "pk", flat=True
    ):
        if tournament_advance(pk, now=now):
            counts["advanced"] += 1
    return dict(counts)


def tournament_start(pk: int, *, now: datetime | None = None) -> str:
    """Start tournament ``pk`` if its time has come: round 1, or cancelled for want of
    players. Returns what happened."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=pk)
        if tournament.status != Tournament.Status.REGISTRATION or tournament.starts_at > now:
            return "waiting"
        ids = list(
            tournament.entries.filter(withdrawn_at__isnull=True)
            .order_by("joined_at", "pk")
            .values_list("user_id", flat=True)
        )
        if len(ids) < tournament.min_players:
            tournament.status = Tournament.Status.CANCELLED
            tournament.cancel_reason = (
                f"not enough players: {len(ids)} registered, {tournament.min_players} needed"
            )
            tournament.finished_at = now
            tournament.save(update_fields=["status", "cancel_reason", "finished_at"])
            _changed(tournament)
            return "cancelled"
        tournament.status = Tournament.Status.RUNNING
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            schedule = pairing.round_robin(
                ids,
                size=tournament.size,
                double=tournament.double,
                blocked=seating.blocked_pairs(ids),
            )
            tournament.schedule = [
                {"tables": [list(t) for t in r.tables], "byes": list(r.byes)} for r in schedule
            ]
            tournament.rounds = len(schedule)
        tournament.save(update_fields=["status", "schedule", "rounds"])
        _start_round(tournament, 1, now=now)
    return "started"


def tournament_advance(pk: int, *, now: datetime | None = None) -> bool:
    """Once every game of the round in play has ended: the next round, or the end. True if it
    moved on."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=pk)
        if tournament.status != Tournament.Status.RUNNING:
            return False
        if Game.objects.filter(
            tournament_table__tournament=tournament,
            tournament_table__round=tournament.round,
            status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
        ).exists():
            return False
        active = _active_ids(tournament, tournament.round + 1)
        if tournament.round >= tournament.rounds or len(active) < tournament.size:
            tournament.status = Tournament.Status.FINISHED
            tournament.finished_at = now
            tournament.save(update_fields=["status", "finished_at"])
            _changed(tournament)
            return True
        _start_round(tournament, tournament.round + 1, now=now)
    return True


def _active_ids(tournament: Tournament, round_number: int) -> list[int]:
    return list(
        tournament.entries.filter(withdrawn_at__isnull=True, joined_round__lte=round_number)
        .order_by("joined_at", "pk")
        .values_list("user_id", flat=True)
    )


def _start_round(tournament: Tournament, number: int, *, now: datetime) -> None:
    """Create round ``number``'s games (and byes) of the locked ``tournament``."""
    active = _active_ids(tournament, number)
    if tournament.format == Tournament.Format.SWISS:
        history = reads.history(tournament)
        players = [history.player(user_id) for user_id in active]
        plan = pairing.swiss(
            players, size=tournament.size, met=history.met, blocked=seating.blocked_pairs(active)
        )
        tables, byes = [list(t) for t in plan.tables], list(plan.byes)
    else:
        planned = tournament.schedule[number - 1]
        still = set(active)
        tables, byes = [], [u for u in planned["byes"] if u in still]
        for table in planned["tables"]:
            playing = [u for u in table if u in still]
            if len(playing) == len(table):
                tables.append(table)
            elif tournament.size == 2 or len(playing) < 2:
                byes += playing  # the opponent withdrew: a bye
            else:  # the computer plays the withdrawn player's seat
                tables.append([u if u in still else None for u in table])
    users = {u.pk: u for u in User.objects.filter(pk__in=[u for t in tables for u in t if u])}
    ratings = reads.ratings_of(list(users), tournament.mode)
    for table in tables:
        humans = [ratings.get(u, 1000) for u in table if u]
        level = computer_level(sum(humans) / len(humans))
        seats = [users[u] if u else level for u in table]
        game = game_at_table(
            seats=seats,
            mode=tournament.mode,
            move_seconds=tournament.move_seconds,
            rated=tournament.rated,
        )
        TournamentTable.objects.create(tournament=tournament, round=number, game=game)
        notify.told(kind="round", game=game, number=0)
        title = nudges.round_title(tournament.name, number, game)
        for user_id in [u for u in table if u]:
            transaction.on_commit(
                lambda u=user_id, g=game.public_id, t=title: nudges.your_turn(u, g, t),
                robust=True,
            )
    for user_id in byes:
        TournamentTable.objects.create(tournament=tournament, round=number, bye_user_id=user_id)
    tournament.round, tournament.round_started_at = number, now
    tournament.save(update_fields=["round", "round_started_at"])
    _changed(tournament)
    if not tables:  # a round of byes only (everyone else withdrew): on to the next
        transaction.on_commit(lambda: jobs.queue("tournament_advance", tournament.pk), robust=True)


def _changed(tournament: Tournament) -> None:
    pk = tournament.pk
    transaction.on_commit(lambda: nudges.tournament_changed(pk), robust=True)
