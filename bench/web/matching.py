""""Play now" measured: players arriving through the real services on PostgreSQL
(games.services.seeks), on a simulated clock.

    DATABASE_URL=postgres://blokus:blokus@127.0.0.1:5432/blokus_bench \\
      .venv/bin/python bench/web/matching.py arrivals --players 100 --minutes 10
    ... bench/web/matching.py arrivals --players 10000 --minutes 10
    ... bench/web/matching.py sweep --waiting 10000

``arrivals``: players with ratings (normal, mean 1000, sd 200) arrive at an even rate over the
given minutes, each asking for a game drawn from a mix of choices (mode, players, time per move,
rated, the wait before the computer); the sweep runs every MATCH_SWEEP_SECONDS of simulated
time, and the run goes on (no new arrivals) until every request has started or 2 simulated hours
have passed. It prints the simulated time from asking to a started game (p50, p95), the rating
spread among the people at each table (max - min), the share of games and seats the computer
filled, and the wall-clock cost of the asks and sweeps.

``sweep``: WAITING requests waiting at tables of their own (made directly in the database, spread
over every choice and over ratings 0-3000, so that windows just meet), then one sweep, timed in
its parts: reading and locking every forming table with its requests, planning (pure Python),
the table joins written, and the games started (each through game_seated).

The computer's turns and the emails the starts would queue are counted, not run: the
benchmark measures matching, not the computer's play (``games.jobs.queue`` is replaced).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "false")

from bench.load import load_setup  # noqa: E402,F401  (sets Django up, before Django is imported)

# isort: split
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import jobs  # noqa: E402
from games.models import Rating, Seek, SeekTable  # noqa: E402
from games.services import seeks  # noqa: E402

User = get_user_model()
QUEUED: list[str] = []


def _count(name, *args, **kwargs):
    QUEUED.append(name)


jobs.queue = _count
jobs.queue_later = lambda name, seconds, *a, **k: QUEUED.append(name)
jobs.queue_later_soon = lambda name, seconds, *a: QUEUED.append(name)

MODES = [("shuffle", 0.7), ("classic", 0.3)]
SIZES = [(2, 0.5), (3, 0.1), (4, 0.25), (Seek.ANY_PLAYERS, 0.15)]
TIMES = [(3600, 0.2), (12 * 3600, 0.1), (24 * 3600, 0.5), (3 * 24 * 3600, 0.15), (7 * 86400, 0.05)]
RATED = [(True, 0.8), (False, 0.2)]
FILLS = [(120, 0.4), (600, 0.2), (3600, 0.2), (None, 0.2)]


def pick(rng, weighted):
    values, weights = zip(*weighted, strict=True)
    return rng.choices(values, weights)[0]


def make_players(count: int, rng: random.Random, tag: str) -> list:
    """Users without passwords (bulk), each with a shuffle and a classic rating."""
    users = User.objects.bulk_create(
        [
            User(username=f"m{tag}-{i:05d}", email=f"m{tag}-{i:05d}@example.com", password="!")
            for i in range(count)
        ]
    )
    ratings = []
    sigma = 25 / 3
    for user in users:
        shown = max(0, round(rng.gauss(1000, 200)))
        mu = (shown - 1000) / 40 + 3 * sigma
        for mode in ("shuffle", "classic"):
            ratings.append(Rating(user=user, mode=mode, mu=mu, sigma=sigma, ordinal=mu - 3 * sigma))
    Rating.objects.bulk_create(ratings)
    return users


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def arrivals(args) -> None:
    rng = random.Random(args.seed)
    tag = f"{int(time.time())}"
    users = make_players(args.players, rng, tag)
    start = timezone.now()
    gap = args.minutes * 60 / args.players
    step = settings.MATCH_SWEEP_SECONDS
    ask_wall, sweep_wall = [], []
    asked_at = {}
    next_sweep = 0.0
    t = 0.0
    pending = list(users)
    horizon = args.minutes * 60 + 2 * 3600
    while t <= horizon:
        while pending and len(asked_at) * gap <= t:
            user = pending.pop(0)
            now = start + timedelta(seconds=len(asked_at) * gap)
            began = time.perf_counter()
            seeks.seek_ask(
                user=user,
                mode=pick(rng, MODES),
                players=pick(rng, SIZES),
                move_seconds=pick(rng, TIMES),
                rated=pick(rng, RATED),
                fill_after=pick(rng, FILLS),
                now=now,
            )
            ask_wall.append(time.perf_counter() - began)
            asked_at[user.pk] = now
        if t >= next_sweep:
            began = time.perf_counter()
            seeks.sweep(now=start + timedelta(seconds=t))
            sweep_wall.append(time.perf_counter() - began)
            next_sweep += step
        if (
            not pending
            and not Seek.objects.filter(status=Seek.Status.WAITING, user__in=users).exists()
        ):
            break
        t += min(step, gap) if pending else step
    report(users, asked_at, ask_wall, sweep_wall, args)


def report(users, asked_at, ask_wall, sweep_wall, args) -> None:
    ids = [u.pk for u in users]
    started = Seek.objects.filter(user_id__in=ids, status=Seek.Status.STARTED)
    waits = [(s.ended_at - s.created_at).total_seconds() for s in started]
    tables = SeekTable.objects.filter(seeks__user_id__in=ids, status=SeekTable.Status.STARTED)
    tables = tables.distinct()
    spreads, computer_games, computer_seats, seats = [], 0, 0, 0
    for table in tables:
        ratings = list(table.seeks.values_list("rating", flat=True))
        if len(ratings) > 1:
            spreads.append(max(ratings) - min(ratings))
        computer_games += table.computer_seats > 0
        computer_seats += table.computer_seats
        seats += table.players
    still = Seek.objects.filter(user_id__in=ids, status=Seek.Status.WAITING).count()
    print(f"players {len(ids)} over {args.minutes} simulated minutes (seed {args.seed})")
    print(f"  started {len(waits)}, still waiting after the run {still}")
    print(f"  wait to a started game: p50 {pct(waits, 0.5):.0f} s, p95 {pct(waits, 0.95):.0f} s")
    print(
        f"  rating spread at tables with 2+ people: p50 {pct(spreads, 0.5)}, "
        f"p95 {pct(spreads, 0.95)}, max {max(spreads, default=0)} ({len(spreads)} tables)"
    )
    total = tables.count()
    print(
        f"  computer-filled: {computer_games} of {total} games "
        f"({100 * computer_games / max(total, 1):.0f} %), "
        f"{computer_seats} of {seats} seats ({100 * computer_seats / max(seats, 1):.0f} %)"
    )
    print(
        f"  wall: ask p50 {1000 * statistics.median(ask_wall):.1f} ms, "
        f"p95 {1000 * pct(ask_wall, 0.95):.1f} ms; sweep p50 "
        f"{1000 * statistics.median(sweep_wall):.1f} ms, max {1000 * max(sweep_wall):.1f} ms "
        f"({len(sweep_wall)} sweeps)"
    )
    print(f"  tasks the starts queued (counted, not run): {len(QUEUED)}")


def sweep_once(args) -> None:
    rng = random.Random(args.seed)
    tag = f"s{int(time.time())}"
    users = make_players(args.waiting, rng, tag)
    now = timezone.now()
    choices = [
        (mode, size, seconds, rated)
        for mode in ("shuffle", "classic")
        for size in (2, 3, 4)
        for seconds, _w in TIMES
        for rated in (True, False)
    ]
    with transaction.atomic():
        tables, rows = [], []
        for i in range(len(users)):
            mode, size, seconds, rated = choices[i % len(choices)]
            tables.append(
                SeekTable(
                    mode=mode, players=size, move_seconds=seconds, rated=rated, created_at=now
                )
            )
        SeekTable.objects.bulk_create(tables)
        for user, table in zip(users, tables, strict=True):
            rows.append(
                Seek(
                    user=user,
                    mode=table.mode,
                    players=table.players,
                    move_seconds=table.move_seconds,
                    rated=table.rated,
                    fill_after=None,
                    rating=rng.randrange(0, 3000),
                    created_at=now - timedelta(seconds=rng.randrange(0, 60)),
                    table=table,
                )
            )
        Seek.objects.bulk_create(rows)
    waiting = Seek.objects.filter(status=Seek.Status.WAITING).count()
    parts = {}
    original_plan = seeks.plan

    def timed_plan(*a, **k):
        began = time.perf_counter()
        out = original_plan(*a, **k)
        parts["plan"] = time.perf_counter() - began
        return out

    seeks.plan = timed_plan
    original_start = seeks._start_table
    starts = []

    def timed_start(*a, **k):
        if "matching" not in parts:
            parts["matching"] = time.perf_counter() - began
        t0 = time.perf_counter()
        out = original_start(*a, **k)
        starts.append(time.perf_counter() - t0)
        return out

    seeks._start_table = timed_start
    if args.matching_only:  # the matching alone: the tables it fills are left unstarted
        seeks._start_table = lambda *a, **k: 0
    began = time.perf_counter()
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        seeks._start_table = lambda *a, **k: 0  # the matching alone
        profiler.enable()
        counts = seeks.sweep(now=now)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return
    counts = seeks.sweep(now=now)
    total = time.perf_counter() - began
    parts.setdefault("matching", total)
    print(f"one sweep over {waiting} waiting requests ({args.waiting} made by this run)")
    print(f"  counts: {counts}")
    print(
        f"  matching (lock and read every table, plan, write the joins): "
        f"{1000 * parts['matching']:.0f} ms, of which the plan {1000 * parts['plan']:.0f} ms"
    )
    if starts:
        print(
            f"  games started: {len(starts)} in {sum(starts):.1f} s "
            f"({1000 * statistics.median(starts):.1f} ms each, median)"
        )
    print(f"  the whole sweep: {total:.2f} s")
    # Leave the database as it was for the next run: the requests made here are cancelled
    # (those of tables left full and unstarted by --matching-only too).
    Seek.objects.filter(user__in=users, status=Seek.Status.WAITING).update(
        status=Seek.Status.CANCELLED, ended_at=now
    )
    SeekTable.objects.filter(status=SeekTable.Status.FORMING, seeks__user__in=users).update(
        status=SeekTable.Status.CANCELLED
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("arrivals")
    one.add_argument("--players", type=int, default=100)
    one.add_argument("--minutes", type=float, default=10)
    one.add_argument("--seed", type=int, default=1)
    two = sub.add_parser("sweep")
    two.add_argument("--waiting", type=int, default=10000)
    two.add_argument("--seed", type=int, default=1)
    two.add_argument("--profile", action="store_true", help="profile the matching (no starts)")
    two.add_argument(
        "--matching-only", action="store_true", help="time the matching, start no game"
    )
    args = parser.parse_args()
    if Seek.objects.filter(status=Seek.Status.WAITING).exists():
        # Requests left by an earlier, interrupted run would be matched with this run's.
        Seek.objects.filter(status=Seek.Status.WAITING).update(status=Seek.Status.CANCELLED)
        SeekTable.objects.filter(status=SeekTable.Status.FORMING).update(
            status=SeekTable.Status.CANCELLED
        )
    {"arrivals": arrivals, "sweep": sweep_once}[args.command](args)


if __name__ == "__main__":
    main()
