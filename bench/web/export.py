""" "Download my data" at 1,000 and 10,000 games: the time, memory, queries and size of one
player's zip (games.jobs.exports.write, the Celery task's body, in this process).

    .venv/bin/python bench/web/export.py [--database-url postgres://blokus@127.0.0.1:5432/NAME]
        [--sizes 1000,10000] [--fresh]

Creates the database if missing (``--fresh``: drops it first) and migrates it, then writes,
once per size, one player with that many games: 120 distinct games of every kind, played by the
engine with random legal actions (tests/support/bulk_games.py: classic and Shuffle, two to four
players, finished, in play, open and aborted; the player at seat 0), cloned under new ids up to
the size, with a chat line per game and a rating change per finished game. Then builds the
player's zip three times and prints a Markdown table: wall and CPU time (median), the peak of
Python's allocations during a fourth build (tracemalloc, whose own cost is not timed), the
queries, the zip's size and its games.
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

DISTINCT = 120
REPEAT = 3


def settings_env(database_url: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "false"  # no query log in memory: it would be counted as the build's
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    os.environ.setdefault("LOG_LEVEL", "WARNING")


def make_player(size: int):
    """The player with ``size`` games (made once: a player already there is kept)."""
    from django.db import transaction

    from accounts.models import User
    from games.models import Action, ChatMessage, Game, RatingChange, Seat
    from tests.support.bulk_games import bulk_games

    name = f"export{size}"
    player = User.objects.filter(username=name).first()
    if player is not None:
        return player
    with transaction.atomic():
        player = User.objects.create_user(name, f"{name}@example.com", "bench-password-1")
        others = [User.objects.get_or_create(username=f"export-opponent{i}")[0] for i in range(4)]
        models = bulk_games([player, *others], DISTINCT, seed=size, owner=player)
        ids = [g.pk for g in models]
        seats = list(Seat.objects.filter(game_id__in=ids))
        actions = list(Action.objects.filter(game_id__in=ids))
        templates = {g.pk: g for g in Game.objects.filter(pk__in=ids)}
        new_games = []
        for n in range(DISTINCT, size):
            source = templates[ids[n % DISTINCT]]
            clone = Game(
                **{
                    f.attname: getattr(source, f.attname)
                    for f in Game._meta.concrete_fields
                    if f.attname not in ("id", "public_id", "invite_token", "rematch_of_id")
                }
            )
            new_games.append((source.pk, clone))
        Game.objects.bulk_create([c for _s, c in new_games], batch_size=2000)
        by_game_seats, by_game_actions = {}, {}
        for s in seats:
            by_game_seats.setdefault(s.game_id, []).append(s)
        for a in actions:
            by_game_actions.setdefault(a.game_id, []).append(a)
        new_seats, new_actions, lines, changes = [], [], [], []
        for source_id, clone in new_games:
            for s in by_game_seats[source_id]:
                new_seats.append(
                    Seat(
                        game=clone,
                        **{
                            f.attname: getattr(s, f.attname)
                            for f in Seat._meta.concrete_fields
                            if f.attname not in ("id", "game_id")
                        },
                    )
                )
            for a in by_game_actions.get(source_id, []):
                new_actions.append(
                    Action(
                        game=clone,
                        **{
                            f.attname: getattr(a, f.attname)
                            for f in Action._meta.concrete_fields
                            if f.attname not in ("id", "game_id")
                        },
                    )
                )
        Seat.objects.bulk_create(new_seats, batch_size=5000)
        Action.objects.bulk_create(new_actions, batch_size=5000)
        for game in Game.objects.filter(seats__user=player).only("pk", "status", "mode"):
            lines.append(ChatMessage(game=game, user=player, text=f"good game {game.pk}"))
            if game.status == Game.Status.FINISHED:
                changes.append(
                    RatingChange(game=game, user=player, mode=game.mode, before=1000, after=1010)
                )
        ChatMessage.objects.bulk_create(lines, batch_size=5000)
        RatingChange.objects.bulk_create(changes, batch_size=5000)
    return player


def build(player, *, traced: bool = False) -> dict:
    """One build into a temporary folder. ``traced``: with tracemalloc on, for the peak of
    Python's allocations only (it slows Python down several times: its times are not kept)."""
    from django.db import connection

    from games.jobs import exports

    queries = [0]

    def count(execute, sql, params, many, context):
        queries[0] += 1
        return execute(sql, params, many, context)

    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "export.zip"
        if traced:
            tracemalloc.start()
        wall, cpu = time.perf_counter(), time.process_time()
        with connection.execute_wrapper(count):
            games = exports.write(player, target)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        peak = tracemalloc.get_traced_memory()[1] if traced else 0
        tracemalloc.stop()
        size = target.stat().st_size
    return {
        "wall": wall,
        "cpu": cpu,
        "peak": peak,
        "queries": queries[0],
        "size": size,
        "games": games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url", default="postgres://blokus:blokus@127.0.0.1:5432/blokus_bench_export"
    )
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--fresh", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    settings_env(args.database_url)
    from bench.web.history_pages import create_database

    create_database(args.database_url, args.fresh)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    rows = []
    for size in sizes:
        made = time.perf_counter()
        player = make_player(size)
        made = time.perf_counter() - made
        runs = [build(player) for _ in range(REPEAT)]
        peak = build(player, traced=True)["peak"]
        rows.append((made, runs, peak))
    print(f"Machine: {platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print()
    print("| games | build (wall, median) | CPU (median) | peak Python memory | queries | zip |")
    print("|---:|---:|---:|---:|---:|---:|")
    for _made, runs, peak in rows:
        wall = statistics.median(r["wall"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        peak = peak / 2**20
        print(
            f"| {runs[0]['games']:,} | {wall:.1f} s | {cpu:.1f} s | {peak:.1f} MiB | "
            f"{runs[0]['queries']:,} | {runs[0]['size'] / 2**20:.1f} MiB |"
        )


if __name__ == "__main__":
    main()
