"""The pages that list a player's games, at 10, 1,000 and 100,000 finished games.

    .venv/bin/python bench/web/history_pages.py [--database-url postgres://blokus@127.0.0.1:5432/NAME]
        [--sizes 10,1000,100000] [--repeat 30] [--fresh]

Creates the database if missing (``--fresh``: drops it first) and migrates it, then writes with
COPY, once, one player per size with that many finished 2-player classic games (each with its
final state, two seats with places and scores, 10 actions and two rating changes; one game in
ten private), against 200 opponents who have ratings, plus the player's current games (three
waiting for them, two for others, one not started, one invitation). At 100,000 games that is
1.1 million actions. ANALYZE and VACUUM as a production database would have had.

Then times, in this process, through Django's WSGI handler (what gunicorn's sync workers
call: the whole middleware stack, sessions, templates, a pooled connection per request) with
production settings (DEBUG off, PostgreSQL through the pool, Redis cache if REDIS_URL is set):
My games' first page, a later page (the cursor half-way down the history), the lobby, the
profile read by a stranger (the visibility filter applies) and by its player, the
leaderboard, and the rating graph (``ratings.player_ratings``, the profile's charts, alone).
Wall time per request (server time: the queries' round trips included): median, p95 and best
of ``--repeat`` runs after 3 warm-up runs; in brackets the median CPU time of this process (the
Python side: less moved by the machine's load than the wall time); the queries per request
and the response size. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import random
import secrets
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

OPPONENTS = 200
ACTIONS_PER_GAME = 10
START = datetime(2020, 1, 1, tzinfo=UTC)


def settings_env(database_url: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "false"
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # a fresh key each run
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,testserver")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
    os.environ.setdefault("LOG_LEVEL", "WARNING")


def create_database(url: str, fresh: bool) -> None:
    import psycopg

    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists and fresh:
            conn.execute(f'DROP DATABASE "{name}"')
            exists = None
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def copy_rows(cursor, model, rows: list[dict]) -> None:
    """COPY ``rows`` (field attname -> value) into ``model``'s table; a concrete field a row
    leaves out gets the field's default (a field added to a model later needs no change here)."""
    fields = [f for f in model._meta.concrete_fields]
    defaults = {f.attname: f.get_default() for f in fields if f.has_default()}
    columns = ", ".join(f'"{f.column}"' for f in fields)
    with cursor.copy(f'COPY "{model._meta.db_table}" ({columns}) FROM STDIN') as copy:
        for row in rows:
            copy.write_row(
                [row[a] if a in row else defaults[a] for a in (f.attname for f in fields)]
            )


def next_id(cursor, model) -> int:
    cursor.execute(f'SELECT coalesce(max(id), 0) + 1 FROM "{model._meta.db_table}"')
    return cursor.fetchone()[0]


def reset_sequence(cursor, model) -> None:
    table = model._meta.db_table
    cursor.execute(
        f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), "
        f'(SELECT coalesce(max(id), 1) FROM "{table}"))'
    )


def final_state() -> tuple[dict, list[dict]]:
    """A classic 2-player game played to its end with random legal moves: its state and the
    first actions (the rows' payloads)."""
    from games import engine

    rng = random.Random(1)
    state = engine.new_game(mode="classic", players=2, seed=1)
    actions = []
    while not state.over:
        action = rng.choice(engine.legal_actions(state))
        actions.append(action)
        state = engine.apply(state, action)
    return state.to_json(), actions


def make_data(sizes: list[int]) -> dict[int, str]:
    """Write the players and their games (once per size: a player already there is kept)."""
    from django.db import connection, transaction

    from accounts.models import User
    from games.models import Action, Game, Rating, RatingChange, Seat

    players = {}
    opponents = list(User.objects.filter(username__startswith="opp").order_by("pk"))
    if not opponents:
        users = []
        for i in range(OPPONENTS):
            user = User(username=f"opp{i:03d}", email=f"opp{i}@example.com")
            user.set_unusable_password()
            users.append(user)
        opponents = User.objects.bulk_create(users)
        Rating.objects.bulk_create(
            Rating(user=u, mode="classic", mu=25 + i % 13, sigma=3, ordinal=16 + i % 13, games=40)
            for i, u in enumerate(opponents)
        )
    state, actions = final_state()
    state_json = json.dumps(state)
    payloads = [json.dumps(a) for a in actions[:ACTIONS_PER_GAME]]
    for size in sizes:
        name = f"hist{size}"
        players[size] = name
        if User.objects.filter(username=name).exists():
            continue
        started = time.perf_counter()
        player = User(username=name, email=f"{name}@example.com")
        player.set_unusable_password()
        player.save()
        Rating.objects.create(user=player, mode="classic", mu=30, sigma=2, ordinal=24, games=size)
        with transaction.atomic(), connection.cursor() as cursor:
            raw = cursor.cursor  # psycopg's own cursor, for COPY
            game_id, seat_id = next_id(cursor, Game), next_id(cursor, Seat)
            action_id, change_id = next_id(cursor, Action), next_id(cursor, RatingChange)
            games, seats, moves, changes = [], [], [], []
            for i in range(size):
                gid = game_id + i
                opponent = opponents[i % OPPONENTS]
                begun = START + timedelta(minutes=30 * i)
                ended = begun + timedelta(minutes=25)
                games.append(
                    game_row(gid, player.pk, begun, ended, state_json, private=i % 10 == 9)
                )
                won = i % 3 != 0
                for index, (user, place) in enumerate(
                    ((player, 1 if won else 2), (opponent, 2 if won else 1))
                ):
                    seats.append(seat_row(seat_id, gid, index, user.pk, place, begun))
                    seat_id += 1
                    before = 1000 + (i % 50) * (1 if index == 0 else -1)
                    changes.append(
                        {
                            "id": change_id,
                            "game_id": gid,
                            "user_id": user.pk,
                            "mode": "classic",
                            "before": before,
                            "after": before + (8 if place == 1 else -8),
                            "created_at": ended,
                        }
                    )
                    change_id += 1
                for ply, payload in enumerate(payloads, start=1):
                    moves.append(
                        {
                            "id": action_id,
                            "game_id": gid,
                            "ply": ply,
                            "seat": (ply - 1) % 2,
                            "user_id": (player if ply % 2 else opponent).pk,
                            "by_ai": False,
                            "payload": payload,
                            "events": "[]",
                            "key": "",
                            "created_at": begun + timedelta(seconds=ply),
                        }
                    )
                    action_id += 1
            copy_rows(raw, Game, games)
            copy_rows(raw, Seat, seats)
            copy_rows(raw, Action, moves)
            copy_rows(raw, RatingChange, changes)
            for model in (Game, Seat, Action, RatingChange):
                reset_sequence(cursor, model)
        current_games(player, opponents, state_json)
        print(
            f"{name}: {size} games, {size * ACTIONS_PER_GAME} actions written in "
            f"{time.perf_counter() - started:.1f} s",
            file=sys.stderr,
        )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return players


def game_row(gid, creator, begun, ended, state_json, *, private=False, **changes) -> dict:
    from games.models import new_invite_token, new_public_id

    row = {
        "id": gid,
        "public_id": new_public_id(),
        "created_by_id": creator,
        "status": "finished",
        "mode": "classic",
        "players": 2,
        "scoring": "basic",
        "shared_color": "",
        "deck_recipe": None,
        "move_seconds": 86400,
        "visibility": "private" if private else "public",
        "seating": "chosen",
        "invite_token": new_invite_token(),
        "seed": None,
        "salt": "",
        "state": state_json,
        "ply": 66,
        "to_move_seat": None,
        "created_at": begun,
        "started_at": begun,
        "finished_at": ended,
        "turn_started_at": None,
        "abort_reason": "",
        "rated": True,
        "rematch_of_id": None,
    }
    row.update(changes)
    return row


def seat_row(sid, gid, index, user, place, begun, *, kind="human") -> dict:
    return {
        "id": sid,
        "game_id": gid,
        "index": index,
        "kind": kind,
        "user_id": user,
        "ai_level": "",
        "ai_takeover": False,
        "timeouts_in_row": 0,
        "joined_at": begun,
        "final_place": place,
        "final_score": None if place is None else 10 * place,
    }


def current_games(player, opponents, state_json) -> None:
    """Three games waiting for the player's move, two for the opponent's, one not started and
    an invitation: what the lobby and My games' first sections list."""
    from games.models import Game, Seat

    now = datetime.now(UTC)
    for i in range(7):
        opponent = opponents[i]
        kind = ["turn"] * 3 + ["waiting"] * 2 + ["open", "invited"]
        kind = kind[i]
        active = kind in ("turn", "waiting")
        game = Game.objects.create(
            created_by=opponent if kind == "invited" else player,
            status="active" if active else "open",
            mode="classic",
            players=2,
            state=json.loads(state_json) if active else None,
            ply=20 if active else 0,
            to_move_seat=(0 if kind == "turn" else 1) if active else None,
            started_at=now if active else None,
            turn_started_at=now - timedelta(hours=i) if active else None,
        )
        mine, theirs = (1, 0) if kind == "invited" else (0, 1)
        Seat.objects.create(
            game=game, index=mine, kind="invited" if kind == "invited" else "human", user=player
        )
        Seat.objects.create(
            game=game,
            index=theirs,
            kind="open" if kind == "open" else "human",
            user=None if kind == "open" else opponent,
        )


def time_pages(players: dict[int, str], repeat: int) -> list[dict]:
    """Each page through Django's WSGI handler (what gunicorn's sync workers call: the whole
    middleware stack, a pooled connection per request), in this process, with a signed-in
    session cookie; the queries are counted in one more run (counting slows a run down)."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection
    from django.test import Client, RequestFactory
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from games.models import Seat
    from games.services import ratings

    handler, factory = WSGIHandler(), RequestFactory()

    def session(user) -> str:
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value

    def get(path: str, cookie: str) -> bytes:
        environ = factory.get(path, HTTP_COOKIE=f"sessionid={cookie}").environ
        status = []
        result = handler(environ, lambda code, headers, exc_info=None: status.append(code))
        try:
            body = b"".join(result)
        finally:
            result.close()  # as the server does: request_finished, the connection back to the pool
        assert status[0].startswith("200"), (path, status)
        return body

    stranger = User.objects.get(username="opp199")
    # (the code before private games left every list took no reader: bench/RESULTS.md's
    # "before" column)
    viewer = [stranger] if "viewer" in inspect.signature(ratings.player_ratings).parameters else []
    rows = []
    for size, name in players.items():
        player = User.objects.get(username=name)
        mine, other = session(player), session(stranger)
        history = Seat.objects.filter(user=player, game__status="finished").order_by("-game_id")
        half = history.values_list("game__public_id", flat=True)[size // 2]
        pages = [
            ("My games, first page", mine, "/games/mine/"),
            ("My games, a later page", mine, f"/games/mine/?before={half}"),
            ("lobby", mine, "/"),
            ("profile (read by a stranger)", other, f"/players/{name}/"),
            ("profile (read by its player)", mine, f"/players/{name}/"),
            ("leaderboard", mine, "/leaderboard/?mode=classic"),
            ("rating graph (player_ratings)", None, player),
        ]
        for label, cookie, target in pages:

            def run(cookie=cookie, target=target) -> int:
                if cookie is None:
                    ratings.player_ratings(target, *viewer)
                    return 0
                return len(get(target, cookie))

            for _ in range(3):
                size_bytes = run()
            times, cpu = [], []
            for _ in range(repeat):
                started, cpu_started = time.perf_counter(), time.process_time()
                run()
                times.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - cpu_started) * 1000)
            with CaptureQueriesContext(connection) as captured:
                run()
            rows.append(
                {
                    "size": size,
                    "page": label,
                    "median": statistics.median(times),
                    "p95": sorted(times)[max(0, int(len(times) * 0.95) - 1)],
                    "min": min(times),
                    "cpu": statistics.median(cpu),
                    "queries": len(captured),
                    "bytes": size_bytes,
                }
            )
            print(f"{size:>7} {label:<32} {rows[-1]['median']:6.1f} ms", file=sys.stderr)
    return rows


def report(rows: list[dict], sizes: list[int], load: str) -> str:
    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, {platform.system()}; load average {load}.",
        "",
        "| page | " + " | ".join(f"{s:,} games: median / p95" for s in sizes) + " | queries |",
        "|---|" + "---|" * len(sizes) + "---|",
    ]
    for page in dict.fromkeys(r["page"] for r in rows):
        cells = []
        queries = set()
        for size in sizes:
            row = next(r for r in rows if r["page"] == page and r["size"] == size)
            cells.append(
                f"{row['median']:.1f} / {row['p95']:.1f} / {row['min']:.1f} ms ({row['cpu']:.1f})"
            )
            queries.add(str(row["queries"]))
        lines.append(f"| {page} | " + " | ".join(cells) + f" | {' / '.join(sorted(queries))} |")
    lines.append("")
    lines.append(
        "Response sizes: "
        + "; ".join(
            f"{r['page']} {r['bytes'] / 1024:.1f} KB"
            for r in rows
            if r["size"] == sizes[-1] and r["bytes"]
        )
        + f" (at {sizes[-1]:,} games)."
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url", default="postgres://blokus@127.0.0.1:5432/blokus_histbench"
    )
    parser.add_argument("--sizes", default="10,1000,100000")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--fresh", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    settings_env(args.database_url)
    create_database(args.database_url, args.fresh)

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # the manifest (out/static)
    players = make_data(sizes)
    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    rows = time_pages(players, args.repeat)
    load_after = " ".join(f"{v:.2f}" for v in os.getloadavg())
    print(report(rows, sizes, f"{load} before, {load_after} after"))


if __name__ == "__main__":
    main()
