"""The move path's server CPU, request by request, in-process.

    DEBUG=false DATABASE_URL=postgres://postgres@127.0.0.1:5432/blokus_load \\
      REDIS_URL=redis://127.0.0.1:6379/3 SECRET_KEY=x ALLOWED_HOSTS=127.0.0.1 \\
      SECURE_SSL_REDIRECT=false CELERY_TASK_ALWAYS_EAGER=false \\
      .venv/bin/python bench/web/move_cost.py [--games 20] [--preplay 12] [--profile 25]

Creates classic 2-player games (bench/load/load_setup.py's helpers), plays a few plies, then, as the
browser does, for each move: the mover's POST (the page's form: CSRF token, idempotency key,
htmx header) answered 204, the mover's panel GET for the new ply (its first view), the
opponent's panel GET (first view) and a second GET of it (a cached panel), a whole game page
GET (cached panel), and a spectator's whole game page (a first view: their panel is their
own). CPU is ``time.process_time`` (``--clock thread``: ``time.thread_time``, the
request's own thread, without the nudge loop's and the job publisher's work that runs beside
it after a POST) around each request through the Django test
client (the full middleware stack, sessions, auth, the production settings it runs with); the
database floor is the write path's database work alone (lock, update, insert) in the same
process. Prints medians and p95 in ms, and with ``--profile N`` the N heaviest functions of the
POSTs (cProfile, cumulative), or with ``--profile-what opponent`` of the opponent's first-view
panel GETs; ``--sampler`` profiles them with pyinstrument (sampling, no per-call overhead:
the shares as they are) instead.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import re
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project on the path
    sys.path.insert(0, str(ROOT))

from bench.load import load_setup  # noqa: E402  (sets Django up, before Django is imported)

# isort: split
from django.db import transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import engine  # noqa: E402
from games.models import Action, Game  # noqa: E402

HTMX = {"HTTP_HX_REQUEST": "true"}


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


CLOCK = time.process_time


def cpu(call, *args, **kwargs):
    start = CLOCK()
    result = call(*args, **kwargs)
    return result, (CLOCK() - start) * 1000


def floor_ms(game_ids: list[int], count: int) -> list[float]:
    out = []
    for i in range(count):
        out.append(cpu(_floor_once, game_ids[i % len(game_ids)], 2_000_000 + i)[1])
    Action.objects.filter(ply__gte=2_000_000).delete()
    return out


def _floor_once(game_id: int, offset: int) -> None:
    with transaction.atomic():
        game = Game.objects.select_for_update().only("pk", "ply").get(pk=game_id)
        Game.objects.filter(pk=game_id).update(turn_started_at=timezone.now())
        Action.objects.create(game_id=game_id, ply=game.ply + offset, seat=0, payload={}, events=[])


def make_profiler(args):
    """cProfile (``--profile N``), pyinstrument (``--sampler``: sampling, no per-call overhead,
    the real shares) or None; either has ``enable``/``disable``."""
    if args.sampler:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0001)
        profiler.enable, profiler.disable = profiler.start, profiler.stop
        return profiler
    return cProfile.Profile() if args.profile else None


def print_profile(profiler, args) -> None:
    if args.sampler:
        print(profiler.output_text(unicode=True, show_all=False, short_mode=False))
        return
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(args.profile_filter, args.profile)
    stats.sort_stats("tottime").print_stats(args.profile)
    print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--preplay", type=int, default=12)
    parser.add_argument("--moves", type=int, default=6, help="moves timed per game")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--profile", type=int, default=0)
    parser.add_argument(
        "--profile-what", choices=("post", "opponent", "cached"), default="post",
        help="profile the POSTs (default), the opponent's first-view or cached panel GETs",
    )  # fmt: skip
    parser.add_argument(
        "--profile-filter", default="", help="only functions whose path matches this regex"
    )
    parser.add_argument(
        "--clock",
        choices=("process", "thread"),
        default="process",
        help="CPU of the whole process (default) or of the request's thread only",
    )
    parser.add_argument(
        "--sampler",
        action="store_true",
        help="profile --profile-what with pyinstrument (sampling: the real shares) instead",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tag = f"mc{secrets.token_hex(3)}"
    figures: dict[str, list[float]] = {
        "move POST (204)": [],
        "mover's panel GET, first view": [],
        "opponent's panel GET, first view": [],
        "panel GET, cached": [],
        "game page GET, cached panel": [],
        "spectator's game page GET, first view": [],
    }
    global CLOCK
    CLOCK = time.thread_time if args.clock == "thread" else time.process_time
    profiler = make_profiler(args)
    ids = []
    for i in range(args.games):
        a, b = load_setup.make_users(2, f"{tag}{i}")
        game = load_setup.play_random(load_setup.new_game(a, b), {0: a, 1: b}, args.preplay, rng)
        ids.append(game.pk)
        clients = {}
        # A third player watching (the game is public): their whole game page is a first view
        # at every ply (a spectator's panel is its own cache entry).
        (watcher,) = load_setup.make_users(1, f"{tag}{i}w")
        spectator = Client(HTTP_HOST="127.0.0.1", enforce_csrf_checks=True)
        spectator.force_login(watcher)
        spectator.get("/")
        for seat, user in ((0, a), (1, b)):
            clients[seat] = Client(HTTP_HOST="127.0.0.1", enforce_csrf_checks=True)
            clients[seat].force_login(user)
            # Each test Client builds its own handler, and its first request loads the
            # middleware (WhiteNoise indexes every static file: ~80 ms), which a server does
            # once per process: that first request is not measured.
            clients[seat].get("/")
        for _ in range(args.moves):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            mover, other = clients[game.to_move_seat], clients[1 - game.to_move_seat]
            page = mover.get(f"/games/{game.public_id}/").content.decode()  # the form's token
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
            action = rng.choice(engine.legal_actions(game.current_state()))
            data = {
                "action": json.dumps(action),
                "ply": str(game.ply),
                "key": secrets.token_urlsafe(12),
                "csrfmiddlewaretoken": token,
            }
            url = f"/games/{game.public_id}/act/"
            profiling = profiler and args.profile_what == "post"
            if profiling:
                profiler.enable()
            response, ms = cpu(mover.post, url, data, **HTMX)
            if profiling:
                profiler.disable()
            assert response.status_code == 204, response.status_code
            figures["move POST (204)"].append(ms)
            panel = f"/games/{game.public_id}/panel/"
            figures["mover's panel GET, first view"].append(cpu(mover.get, panel, **HTMX)[1])
            profiling = profiler and args.profile_what == "opponent"
            if profiling:
                profiler.enable()
            figures["opponent's panel GET, first view"].append(cpu(other.get, panel, **HTMX)[1])
            if profiling:
                profiler.disable()
            profiling = profiler and args.profile_what == "cached"
            if profiling:
                profiler.enable()
            figures["panel GET, cached"].append(cpu(other.get, panel, **HTMX)[1])
            if profiling:
                profiler.disable()
            figures["game page GET, cached panel"].append(
                cpu(other.get, f"/games/{game.public_id}/")[1]
            )
            figures["spectator's game page GET, first view"].append(
                cpu(spectator.get, f"/games/{game.public_id}/")[1]
            )
    figures["database floor: lock + update + insert"] = floor_ms(ids, 200)
    print("| request | n | median ms CPU | p95 ms CPU |\n|---|---|---|---|")
    for name, values in figures.items():
        if values:
            print(
                f"| {name} | {len(values)} | {statistics.median(values):.1f} | {p95(values):.1f} |"
            )
    if profiler:
        print_profile(profiler, args)
    load_setup.close_pool()


if __name__ == "__main__":
    main()
