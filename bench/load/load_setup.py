"""Django side of the live-games load test (bench/load/load.py drives it; bench/LOAD_RESULTS.md).

    .venv/bin/python bench/load/load_setup.py setup --games 100 --out bench/out/load_games.json
    .venv/bin/python bench/load/load_setup.py profile --moves 200

Run with the same environment as the servers (DEBUG=false, DATABASE_URL, REDIS_URL, ...).

``setup`` creates 2 × N users and N classic 2-player games between them through games.services
(classic mode: no hidden information, so what the panel shows is all a bot needs), plays each game
a random number of plies first (so that the run sees early, middle and late positions), and logs
every user in by creating a session server-side (no password, no allauth login form). It writes
the games, their seats and the session keys to a JSON file for bench/load/load.py.

``profile`` plays moves in this process through the Django test client, the same request the
browser sends (HTMX POST to ``act``, then the opponent's HTMX GET of the panel), with timers
wrapped around the steps of the write path and of the panel, and prints where the time goes.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path: drop it before importing
# anything else, so that no file of bench/ can ever shadow a library module.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    del sys.path[0]

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import secrets  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from importlib import import_module  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import (  # noqa: E402
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
)
from django.utils import timezone  # noqa: E402
from django.utils.crypto import get_random_string  # noqa: E402

from games import engine, services  # noqa: E402
from games.models import Game, Seat  # noqa: E402
from games.services import SeatSpec  # noqa: E402

User = get_user_model()
CSRF_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def make_users(count: int, tag: str) -> list:
    # No password (set_unusable_password): hashing one would cost ~0.3 s per user for nothing.
    return [
        User.objects.create_user(f"load{tag}-{i:04d}", f"load{tag}-{i:04d}@example.com", None)
        for i in range(count)
    ]


def session_for(user) -> str:
    """A logged-in session, as django.contrib.auth.login would store it."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = user._meta.pk.value_to_string(user)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def play_random(game: Game, users: dict[int, object], plies: int, rng: random.Random) -> Game:
    """Play up to ``plies`` random legal actions through the write path (stops at the end)."""
    for _ in range(plies):
        game.refresh_from_db()
        state = game.current_state()
        if state.over:
            break
        action = rng.choice(engine.legal_actions(state))
        services.action_submit(
            game=game,
            user=users[state.controller()],
            action=action,
            expected_ply=game.ply,
            key=secrets.token_urlsafe(12),
        )
    game.refresh_from_db()
    return game


def new_game(a, b) -> Game:
    game = services.game_create(
        creator=a,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username=b.username)],
    )
    services.game_join(game=game, user=b)
    game.refresh_from_db()
    return game


def setup(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    tag = secrets.token_hex(3)  # fresh names: the set-up can run again on the same database
    started = time.perf_counter()
    out: dict = {"csrf": get_random_string(32, CSRF_CHARS), "games": [], "nudge_games": []}
    for group, count in (("games", args.games), ("nudge_games", args.nudge_games)):
        for _ in range(count):
            a, b = make_users(2, f"{tag}{len(out['games']) + len(out['nudge_games'])}")
            game = new_game(a, b)
            plies = rng.randint(args.preplay_min, args.preplay_max) if group == "games" else 0
            game = play_random(game, {0: a, 1: b}, plies, rng)
            out[group].append(
                {
                    "id": game.public_id,
                    "ply": game.ply,
                    "over": game.status != Game.Status.ACTIVE,
                    "seats": [
                        {"seat": 0, "user": a.username, "session": session_for(a)},
                        {"seat": 1, "user": b.username, "session": session_for(b)},
                    ],
                }
            )
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1))
    plies = [g["ply"] for g in out["games"]]
    print(
        f"{len(out['games'])} games (+{len(out['nudge_games'])} for the nudge test), "
        f"{2 * (len(out['games']) + len(out['nudge_games']))} users, plies played before the run: "
        f"median {statistics.median(plies) if plies else 0}, max {max(plies, default=0)}; "
        f"{time.perf_counter() - started:.1f} s -> {args.out}"
    )


# -- the database floor ---------------------------------------------------------------------


def floor(args: argparse.Namespace) -> None:
    """What the database allows a move: ``--threads`` threads, each on a game of its own, loop on
    the write path's database work alone (lock the game row, update it, insert an action, commit)
    through Django's ORM for ``--seconds``; prints the transactions per second as JSON. The load
    run's moves/s is read against this figure, measured in the same run on the same database."""
    import threading

    from django.db import connection, transaction

    from games.models import Action

    games = list(
        Game.objects.filter(status=Game.Status.ACTIVE).values_list("pk", flat=True)[: args.threads]
    )
    if len(games) < args.threads:
        raise SystemExit(f"floor: {len(games)} active games, {args.threads} threads asked")
    counts = [0] * args.threads
    stop_at = time.perf_counter() + args.seconds

    def loop(i: int) -> None:
        game_id = games[i]
        try:
            while time.perf_counter() < stop_at:
                with transaction.atomic():
                    game = Game.objects.select_for_update().only("pk", "ply").get(pk=game_id)
                    ply = game.ply + 1_000_000 + counts[i]  # apart from the game's real plies
                    Game.objects.filter(pk=game_id).update(turn_started_at=timezone.now())
                    Action.objects.create(
                        game_id=game_id, ply=ply, seat=0, payload={}, events=[], key=""
                    )
                counts[i] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(args.threads)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    Action.objects.filter(ply__gte=1_000_000).delete()
    print(
        json.dumps(
            {
                "threads": args.threads,
                "seconds": round(seconds, 2),
                "transactions": sum(counts),
                "tx_per_s": round(sum(counts) / seconds, 1),
            }
        )
    )


# -- profile --------------------------------------------------------------------------------

CURRENT: dict[str, float] = defaultdict(float)  # label -> wall seconds in this request
CPU: dict[str, float] = defaultdict(float)  # label -> process CPU seconds in this request


def timed(owner, name: str, label: str) -> None:
    """Wrap owner.name so that every call adds its wall time to CURRENT[label]."""
    inner = getattr(owner, name)

    def wrapper(*args, **kwargs):
        t, c = time.perf_counter(), time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            CURRENT[label] += time.perf_counter() - t
            CPU[label] += time.process_time() - c

    setattr(owner, name, wrapper)


def install_timers() -> None:
    from django.db.models import Model

    from games.engine import State
    from games.jobs import tasks
    from games.live import nudges
    from games.presenters import board as board_presenter
    from games.presenters import game as game_presenter
    from games.selectors import table
    from games.views import game as game_view

    # The write path (games.services.action_submit) and what runs when its transaction commits.
    timed(services, "action_submit", "submit: total (incl. commit + on_commit)")
    timed(services, "_locked", "submit: lock the game row (SELECT ... FOR UPDATE)")
    timed(State, "from_json", "State.from_json (snapshot -> State)")
    timed(engine, "apply", "engine.apply")
    timed(State, "to_json", "State.to_json (new snapshot)")
    timed(services, "_after_change", "submit: _after_change (seat query, queue on_commit)")
    timed(nudges, "game_changed", "on_commit: nudge game-<id> (group_send)")
    timed(nudges, "your_turn", "on_commit: your-turn notice user-<id> (group_send)")
    timed(tasks.send_turn_email, "delay", "on_commit: queue send_turn_email (Celery publish)")
    timed(Model, "save", "Model.save (Game snapshot, Seat, Action rows)")
    # The panel rendered as the answer to the POST and as the opponent's refresh.
    timed(game_view, "_cached_panel", "panel: _cached_panel (cache look-up, render on a miss)")
    timed(table, "seat_snapshot", "panel: selectors.table.seat_snapshot (view + table)")
    timed(engine, "table", "panel: engine.table (order, anchors, score, legal, outlooks)")
    timed(engine, "view", "panel: engine.view")
    timed(game_presenter, "playing", "panel: presenter.playing (all of it)")
    timed(board_presenter, "board_html", "panel: board_html (the table board's 400 cells)")
    timed(game_view, "render_to_string", "panel: template render")


def use_layer(layer: str) -> None:
    """pubsub: channels_redis's RedisPubSubChannelLayer instead of the settings' RedisChannelLayer
    (a group_send is one PUBLISH; each server process receives it once and fans it out)."""
    if layer == "pubsub":
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [settings.REDIS_URL]},
            }
        }


def fixed_wsgi_app(layer: str = "core"):
    """gunicorn 'bench.load.load_setup:fixed_wsgi_app("pubsub")' (load.py run --ws pubsub): the
    project's WSGI application with another channel layer, set up in each worker."""
    from django.core.wsgi import get_wsgi_application

    use_layer(layer)
    return get_wsgi_application()


def async_consumer_asgi_app():
    """config.asgi's application with GameConsumer replaced by an async twin (the suggestion
    of LOAD_RESULTS.md): a nudge is forwarded on daphne's event loop, without the hop to a
    worker thread (and Django's connection check around it) that a sync consumer's handler
    takes. daphne 'bench.load.load_setup:ASYNC_CONSUMER_APP' (load.py run --ws async)."""
    from channels.auth import AuthMiddlewareStack
    from channels.db import database_sync_to_async
    from channels.generic.websocket import AsyncJsonWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from channels.security.websocket import AllowedHostsOriginValidator
    from django.core.asgi import get_asgi_application
    from django.http import Http404
    from django.urls import path

    from games.live import consumers, nudges
    from games.selectors.access import game_for_viewer

    class AsyncGameConsumer(AsyncJsonWebsocketConsumer):
        group = None

        async def connect(self):
            public_id = self.scope["url_route"]["kwargs"]["public_id"]
            try:
                viewed = await database_sync_to_async(game_for_viewer)(
                    public_id, self.scope.get("user")
                )
            except Http404:
                await self.close(code=4404)
                return
            self.group = nudges.game_group(viewed.game.public_id)
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()

        async def disconnect(self, code):
            if self.group:
                await self.channel_layer.group_discard(self.group, self.channel_name)

        async def receive_json(self, content, **kwargs):
            pass

        async def game_changed(self, event):
            await self.send_json({"type": "game.changed", "ply": event["ply"]})

    http = get_asgi_application()
    patterns = [
        path("ws/games/<str:public_id>/", AsyncGameConsumer.as_asgi()),
        path("ws/me/", consumers.UserConsumer.as_asgi()),
    ]
    return ProtocolTypeRouter(
        {
            "http": http,
            "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(patterns))),
        }
    )


def __getattr__(name: str):
    # daphne takes "module:attribute": build the variant application only when asked for.
    if name == "ASYNC_CONSUMER_APP":
        return async_consumer_asgi_app()
    if name == "PUBSUB_APP":  # the project's consumers on the pub/sub channel layer
        use_layer("pubsub")
        from config.asgi import application

        return application
    raise AttributeError(name)


def profile(args: argparse.Namespace) -> None:
    import cProfile
    import pstats

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    rng = random.Random(args.seed)
    install_timers()
    tag = secrets.token_hex(3)
    games = []
    for i in range(args.games):
        a, b = make_users(2, f"p{tag}{i}")
        game = play_random(new_game(a, b), {0: a, 1: b}, args.preplay, rng)
        clients = {}
        for seat, user in ((0, a), (1, b)):
            client = Client(HTTP_HX_REQUEST="true", HTTP_HOST="127.0.0.1")
            client.force_login(user)
            clients[seat] = client
        games.append((game, clients))
    kinds = ("act", "panel")
    wall = {k: defaultdict(list) for k in kinds}  # kind -> label -> seconds per request
    cpu = {k: defaultdict(list) for k in kinds}
    total = {k: [] for k in kinds}
    total_cpu = {k: [] for k in kinds}
    query_count = {k: [] for k in kinds}
    profiler = cProfile.Profile() if args.cprofile else None
    moves = 0
    while moves < args.moves and games:
        game, clients = games[moves % len(games)]
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            games.remove((game, clients))
            continue
        mover = game.to_move_seat
        # The mover's panel (not timed: the bot already holds it), then its POST, then the
        # opponent's refresh after the nudge: the two requests a move costs the server.
        page = clients[mover].get(f"/games/{game.public_id}/panel/").content.decode()
        legal = json.loads(
            page.split('<script id="legal" type="application/json">')[1].split("</script>")[0]
        )
        piece = rng.choice(sorted(legal["placements"]))
        action = {"place": rng.choice(legal["placements"][piece])}
        url = f"/games/{game.public_id}"
        data = {"action": json.dumps(action), "ply": game.ply, "key": secrets.token_hex(8)}
        for kind in kinds:
            CURRENT.clear()
            CPU.clear()
            if profiler is not None:
                profiler.enable()
            t, c = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as queries:
                if kind == "act":
                    response = clients[mover].post(f"{url}/act/", data)
                else:
                    response = clients[1 - mover].get(f"{url}/panel/")
            elapsed, used = time.perf_counter() - t, time.process_time() - c
            query_count[kind].append(len(queries))
            if profiler is not None:
                profiler.disable()
            assert response.status_code == 200, (kind, response.status_code)
            total[kind].append(elapsed)
            total_cpu[kind].append(used)
            for label in CURRENT:
                wall[kind][label].append(CURRENT[label])
                cpu[kind][label].append(CPU[label])
        moves += 1
    print(
        f"{moves} moves in classic 2-player games ({args.preplay} plies played before), "
        f"DEBUG={settings.DEBUG}, {settings.DATABASES['default']['ENGINE']}; in-process "
        "(django.test.Client, HX-Request), load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    titles = {"act": "POST act (the move)", "panel": "GET panel (the opponent's refresh)"}
    for kind in kinds:
        n = len(total[kind])
        print(
            f"\n{titles[kind]}: wall median {statistics.median(total[kind]) * 1000:.1f} ms "
            f"(mean {statistics.fmean(total[kind]) * 1000:.1f}), process CPU mean "
            f"{statistics.fmean(total_cpu[kind]) * 1000:.1f} ms, SQL queries "
            f"{statistics.median(query_count[kind]):.0f} (median)"
        )
        print("  wall ms  CPU ms   (mean per request; timers nest, see the labels)")
        for label in sorted(wall[kind], key=lambda k: -sum(wall[kind][k])):
            w, c = sum(wall[kind][label]) / n * 1000, sum(cpu[kind][label]) / n * 1000
            print(f"  {w:7.2f}  {c:7.2f}  {label}")
    if profiler is not None:
        print("\ncProfile of both requests, top functions by own time:")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.cprofile)


def send_nudges(args: argparse.Namespace) -> None:
    """Call nudges.game_changed() as the write path's on_commit does, and print when each
    call began and returned (epoch seconds): bench/load/load.py times the clients' receipts."""
    import asyncio
    import threading

    from channels.layers import get_channel_layer

    from games.live import nudges

    use_layer(args.layer)
    send = nudges.game_changed
    if args.persistent_loop:  # one event loop for the process: the layer keeps its connection
        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, daemon=True).start()
        layer = get_channel_layer()

        def send(public_id, ply):
            message = {"type": "game.changed", "ply": ply}
            group = nudges.game_group(public_id)
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result()

    sent = []
    for i in range(args.count):
        ply = 1_000_000 + i  # no real ply: the clients only note when it arrives
        t = time.time()
        send(args.game, ply)
        sent.append([ply, t, time.time()])
        time.sleep(args.interval)
    print(json.dumps(sent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("setup")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--nudge-games", type=int, default=1)
    p.add_argument("--preplay-min", type=int, default=0)
    p.add_argument("--preplay-max", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=str(ROOT / "bench" / "out" / "load_games.json"))
    p = sub.add_parser("profile")
    p.add_argument("--moves", type=int, default=200)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--preplay", type=int, default=16)
    p.add_argument("--seed", type=int, default=2)
    p.add_argument("--cprofile", type=int, default=0, help="print this many cProfile rows")
    p = sub.add_parser("floor")
    p.add_argument("--threads", type=int, default=16)
    p.add_argument("--seconds", type=float, default=10)
    p = sub.add_parser("send-nudges")
    p.add_argument("--game", required=True)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--interval", type=float, default=0.02)
    p.add_argument("--persistent-loop", action="store_true")
    p.add_argument("--layer", choices=["core", "pubsub"], default="core")
    args = parser.parse_args()
    commands = {"setup": setup, "profile": profile, "floor": floor, "send-nudges": send_nudges}
    commands[args.command](args)
    close_pool()


def close_pool() -> None:
    """Stop psycopg_pool's threads now (otherwise each waits 5 s at exit)."""
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        if getattr(conn, "pool", None) is not None:
            conn.close_pool()


if __name__ == "__main__":
    main()
