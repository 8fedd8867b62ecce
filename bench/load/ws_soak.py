"""Long-lived websockets on the production layout: do game sockets stay open for minutes, idle
most of the time, and hear every nudge?

    .venv/bin/pip install websockets   # the bench's client (not a dependency of the site)
    .venv/bin/python bench/load/ws_soak.py [--minutes 10] [--sockets 200] [--every 3] \
        [--layer fixed|old]

It creates its own PostgreSQL database (``blokus_soak``, dropped and made again) with public
games, starts two daphne processes (DEBUG=false, the project's settings, Redis db 11), and opens
``--sockets`` anonymous spectator sockets spread over the games and both servers. Every
``--every`` seconds one game, picked at random, gets a move's nudge (``nudges.game_changed``,
what the write path sends on commit) from this process. Each client answers like static/js/live.js:
it pings every 25 s and expects a pong. At the end it reports sockets closed by the servers,
nudges lost (sent to a game and not heard by one of its sockets), unanswered pings, and nudge
latency (send to receipt, one clock: everything is on this machine). Everything stays on
loopback; it stops by itself after ``--minutes`` (bounded).

``--layer old`` runs the servers with the channel layer configured as before the fix
(``hosts: [REDIS_URL]``, redis-py's default 5 s socket timeout) to show the failure side by side.
Figures go to bench/out/ws_soak-<layer>.json and a summary to standard output.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench" / "out"
DB = "blokus_soak"
PORTS = (8101, 8102)
PING_EVERY = 25.0
PONG_WITHIN = 10.0


def server_env(layer: str) -> dict:
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": "http://127.0.0.1",
        "DATABASE_URL": f"postgres://blokus:blokus@127.0.0.1:5432/{DB}",
        "REDIS_URL": "redis://127.0.0.1:6379/11",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(ROOT),
    }
    env["SOAK_LAYER"] = layer
    return env


def old_layer_app():
    """config.asgi with the channel layer as it was configured before the fix."""
    import django
    from django.conf import settings

    django.setup()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [settings.REDIS_URL]},
        }
    }
    from config.asgi import application

    return application


def __getattr__(name: str):
    if name == "OLD_APP":  # daphne 'bench.load.ws_soak:OLD_APP'
        return old_layer_app()
    raise AttributeError(name)


# -- set-up ---------------------------------------------------------------------------------


def make_database(games: int) -> list[str]:
    subprocess.run(
        ["dropdb", "-h", "127.0.0.1", "-U", "blokus", "--if-exists", "--force", DB], check=True
    )
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "blokus", DB], check=True)
    env = server_env("fixed")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    code = f"""
import django; django.setup()
from django.contrib.auth import get_user_model
from games import services
from games.services import SeatSpec
from games.models import Seat
User = get_user_model()
a = User.objects.create_user("soak-a", "a@example.com", "x-password-123")
b = User.objects.create_user("soak-b", "b@example.com", "x-password-123")
ids = []
for _ in range({games}):
    g = services.game_create(creator=a, mode="classic", players=2,
                             seats=[SeatSpec(Seat.Kind.HUMAN),
                                    SeatSpec(Seat.Kind.INVITED, username="soak-b")])
    services.game_join(game=g, user=b)
    ids.append(g.public_id)
print(" ".join(ids))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout.split()


def start_servers(layer: str) -> list[subprocess.Popen]:
    app = "config.asgi:application" if layer == "fixed" else "bench.load.ws_soak:OLD_APP"
    OUT.mkdir(parents=True, exist_ok=True)
    servers = []
    for port in PORTS:
        log = open(OUT / f"ws_soak-{layer}-daphne-{port}.log", "w")  # noqa: SIM115
        servers.append(
            subprocess.Popen(
                [str(Path(sys.executable).parent / "daphne"), "--bind", "127.0.0.1",
                 "--port", str(port), "--proxy-headers", app],
                cwd=ROOT, env=server_env(layer), stdout=log, stderr=subprocess.STDOUT,
            )
        )  # fmt: skip
    time.sleep(4)
    return servers


# -- the clients ----------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.sent: dict[tuple[str, int], float] = {}
        self.heard: dict[tuple[str, int], list[float]] = {}
        self.server_closes: list[dict] = []
        self.reconnects = 0
        self.unanswered_pings = 0


async def client(index: int, public_id: str, port: int, stats: Stats, stop: asyncio.Event):
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/games/{public_id}/"
    while not stop.is_set():
        try:
            async with websockets.connect(
                url, origin="http://127.0.0.1", ping_interval=None, close_timeout=2
            ) as ws:
                waiting_pong: float | None = None
                next_ping = time.monotonic() + random.uniform(0, PING_EVERY)
                while not stop.is_set():
                    timeout = max(0.05, next_ping - time.monotonic())
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=min(timeout, 1.0))
                    except TimeoutError:
                        now = time.monotonic()
                        if waiting_pong and now - waiting_pong > PONG_WITHIN:
                            stats.unanswered_pings += 1
                            waiting_pong = None
                        if now >= next_ping:
                            await ws.send(json.dumps({"type": "ping"}))
                            waiting_pong, next_ping = now, now + PING_EVERY
                        continue
                    message = json.loads(raw)
                    if message.get("type") == "pong":
                        waiting_pong = None
                    elif message.get("type") == "game.changed":
                        key = (public_id, message["ply"])
                        stats.heard.setdefault(key, []).append(time.time())
        except Exception as exc:  # the server closed us (or refused): note it, reconnect
            if stop.is_set():
                return
            code = getattr(getattr(exc, "rcvd", None), "code", None)
            stats.server_closes.append(
                {"client": index, "at": time.time(), "code": code, "error": type(exc).__name__}
            )
            stats.reconnects += 1
            await asyncio.sleep(1)


async def drive(games: list[str], args, stats: Stats) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.update(server_env(args.layer))
    import django

    django.setup()
    from games.live import nudges

    plies = dict.fromkeys(games, 0)
    stop = asyncio.Event()
    tasks = []
    for i in range(args.sockets):
        public_id = games[i % len(games)]
        port = PORTS[(i // len(games)) % len(PORTS)]
        tasks.append(asyncio.create_task(client(i, public_id, port, stats, stop)))
    await asyncio.sleep(5)  # every socket open
    deadline = time.monotonic() + args.minutes * 60
    rng = random.Random(args.seed)
    while time.monotonic() < deadline:
        public_id = rng.choice(games)
        plies[public_id] += 1
        stats.sent[(public_id, plies[public_id])] = time.time()
        await asyncio.to_thread(nudges.game_changed, public_id, plies[public_id])
        await asyncio.sleep(args.every)
    await asyncio.sleep(3)  # the last nudges arrive
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)


def report(games: list[str], args, stats: Stats, elapsed: float) -> dict:
    per_game = args.sockets // len(games)
    lost = 0
    latencies = []
    for key, at in stats.sent.items():
        heard = stats.heard.get(key, [])
        lost += max(per_game - len(heard), 0)
        latencies += [(t - at) * 1000 for t in heard]
    latencies.sort()

    def pct(p):
        return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))], 1)

    return {
        "layer": args.layer,
        "minutes": round(elapsed / 60, 1),
        "sockets": args.sockets,
        "servers": len(PORTS),
        "games": len(games),
        "nudges_sent": len(stats.sent),
        "deliveries_expected": len(stats.sent) * per_game,
        "deliveries_heard": sum(len(v) for v in stats.heard.values()),
        "nudges_lost": lost,
        "server_closes": len(stats.server_closes),
        "close_codes": sorted({str(c["code"]) for c in stats.server_closes}),
        "unanswered_pings": stats.unanswered_pings,
        "latency_ms": {"p50": pct(0.5), "p95": pct(0.95), "max": latencies[-1]}
        if latencies
        else None,
        "mean_latency_ms": round(statistics.mean(latencies), 1) if latencies else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--every", type=float, default=3.0, help="seconds between moves")
    parser.add_argument("--layer", choices=["fixed", "old"], default="fixed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.sockets % args.games:
        parser.error("--sockets must be a multiple of --games")
    games = make_database(args.games)
    servers = start_servers(args.layer)
    stats = Stats()
    started = time.monotonic()
    try:
        asyncio.run(drive(games, args, stats))
        result = report(games, args, stats, time.monotonic() - started)
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"ws_soak-{args.layer}.json").write_text(json.dumps(result, indent=2))
        print(json.dumps(result, indent=2), flush=True)
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    main()
