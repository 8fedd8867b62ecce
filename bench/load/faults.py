"""Faults on the production layout: do moves survive Redis and PostgreSQL blips, a worker killed
mid-turn, and bursts of duplicate and stale moves?

    .venv/bin/python bench/load/faults.py [--games 20] [--minutes 3]

Starts, on loopback only, gunicorn (2 workers, DEBUG=false), a Celery worker and beat on their own
PostgreSQL database (``blokus_faults``, made anew) and Redis db 13, with games of one player
against a Beginner computer. One thread per game plays the human's moves over HTTP with an
idempotency key each; every third move is sent twice at once (a double click) and then once more
with a stale ply. Meanwhile, at fixed times:

* the Redis connections of the site's own processes are killed (``CLIENT KILL`` of the clients on
  db 13; the server stays up);
* PostgreSQL terminates every backend of the database;
* the worker is SIGKILLed while computer turns are pending, and a new one starts 5 s later (as a
  supervisor would); the tasks it held come back only through the sweep
  (games.jobs.deadlines.sweep).

Websocket handshakes (one retry after a Redis restart): daphne serves ``/ws/`` beside gunicorn,
and a prober opens a game's websocket every 0.3 s for the whole run, and five in a row right
after each Redis fault (the first handshakes after a Redis blip meet the channel layer's dead
pooled connections). A handshake counts as accepted when daphne answers 101; the report counts
the others, overall and in those bursts.

At the end (after a settling time) it reports: moves answered 2xx and not in the database (lost),
moves recorded twice, responses 500 or worse, and the longest wait of a computer turn (from the
action before it to the computer's action), overall and after the worker was killed. Bounded: it
stops by itself. Results: bench/out/faults.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench" / "out"
DB = "blokus_faults"
PORT = 8201
WS_PORT = 8202
REDIS_DB = 13
BIN = Path(sys.executable).parent
SECRET = secrets.token_urlsafe(50)  # one key for every process: sessions made here must read there


def env() -> dict:
    return {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": SECRET,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SITE_URL": "http://127.0.0.1",
        "DATABASE_URL": f"postgres://blokus:blokus@127.0.0.1:5432/{DB}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
        "SECURE_SSL_REDIRECT": "false",
        "CELERY_TASK_DEFAULT_QUEUE": "faults",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(ROOT),
    }


def setup(games: int) -> list[dict]:
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "blokus", "--if-exists", "--force", DB])
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "blokus", DB], check=True)
    subprocess.run(["redis-cli", "-n", str(REDIS_DB), "flushdb"], check=True, capture_output=True)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env(), check=True
    )
    code = f"""
import json, django; django.setup()
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from games import services
from games.services import SeatSpec
from games.models import Seat
out = []
for n in range({games}):
    user = get_user_model().objects.create_user(
        f"fault{{n}}", f"f{{n}}@example.com", "x-pass-123456")
    game = services.game_create(creator=user, mode="classic", players=2,
                                seats=[SeatSpec(Seat.Kind.HUMAN),
                                       SeatSpec(Seat.Kind.AI, level="beginner")])
    s = SessionStore()
    s[SESSION_KEY] = str(user.pk)
    s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    s[HASH_SESSION_KEY] = user.get_session_auth_hash()
    s.create()
    out.append({{"game": game.public_id, "id": game.pk, "user": user.pk, "session": s.session_key}})
print(json.dumps(out))
"""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env(),
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


class Stack:
    def __init__(self):
        OUT.mkdir(parents=True, exist_ok=True)
        self.procs: dict[str, subprocess.Popen] = {}
        self.worker_n = 0

    def start(self, name: str, args: list[str]) -> None:
        log = open(OUT / f"faults-{name}.log", "w")  # noqa: SIM115
        self.procs[name] = subprocess.Popen(
            args, cwd=ROOT, env=env(), stdout=log, stderr=subprocess.STDOUT
        )

    def web(self) -> None:
        self.start("gunicorn", [str(BIN / "gunicorn"), "config.wsgi:application",
                                "--workers", "2", "--bind", f"127.0.0.1:{PORT}",
                                "--no-control-socket"])  # fmt: skip

    def daphne(self) -> None:
        self.start("daphne", [str(BIN / "daphne"), "--bind", "127.0.0.1", "--port", str(WS_PORT),
                              "--proxy-headers", "config.asgi:application"])  # fmt: skip

    def worker(self) -> None:
        self.worker_n += 1
        self.start(f"worker{self.worker_n}", [str(BIN / "celery"), "-A", "config", "worker",
                   "-Q", "faults,faults-notices", "--concurrency", "1", "-l", "warning",
                   "-n", f"faults{self.worker_n}@%h"])  # fmt: skip

    def beat(self) -> None:
        self.start("beat", [str(BIN / "celery"), "-A", "config", "beat", "-l", "warning",
                            "-s", str(OUT / "faults-beat-schedule")])  # fmt: skip

    def kill_worker(self) -> None:
        self.procs[f"worker{self.worker_n}"].send_signal(signal.SIGKILL)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


# -- the players ----------------------------------------------------------------------------


class Player(threading.Thread):
    def __init__(self, info: dict, results: list, lock: threading.Lock, stop: threading.Event):
        super().__init__(daemon=True)
        self.info, self.results, self.lock, self.stop = info, results, lock, stop
        self.csrf = ""
        self.rng = random.Random(info["id"])
        self.moves = 0

    def request(self, path: str, data: dict | None = None) -> int:
        url = f"http://127.0.0.1:{PORT}{path}"
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(url, data=body)
        req.add_header("Cookie", f"sessionid={self.info['session']}; csrftoken={self.csrf}")
        if data is not None:
            req.add_header("X-CSRFToken", self.csrf)
            req.add_header("HX-Request", "true")
        try:
            with urllib.request.urlopen(req, timeout=20) as response:
                response.read()
                return response.status
        except urllib.error.HTTPError as exc:
            return exc.code
        except OSError:
            return 0  # no answer at all (a connection refused or cut)

    def post(self, action: dict, ply: int, key: str, kind: str) -> None:
        started = time.time()
        status = self.request(
            f"/games/{self.info['game']}/act/",
            {"action": json.dumps(action), "ply": str(ply), "key": key},
        )
        with self.lock:
            self.results.append(
                {
                    "game": self.info["id"],
                    "key": key,
                    "ply": ply,
                    "kind": kind,
                    "status": status,
                    "at": started,
                }  # fmt: skip
            )

    def run(self) -> None:
        from games import engine
        from games.models import Game

        self.csrf = secrets.token_hex(16)  # Django accepts a 32-character token it did not set
        while not self.stop.is_set():
            try:
                game = Game.objects.get(pk=self.info["id"])
            except Exception:  # the database blipped under us too: try again
                time.sleep(0.5)
                continue
            if game.status != Game.Status.ACTIVE:
                return
            state = engine.State.from_json(game.state)
            if state.controller() != 0:
                time.sleep(0.2)
                continue
            action = self.rng.choice(engine.legal_actions(state))
            key = f"m{game.ply}-{secrets.token_hex(4)}"
            self.moves += 1
            if self.moves % 3 == 0:  # a double click, then a stale retry
                twins = [
                    threading.Thread(target=self.post, args=(action, game.ply, key, "double"))
                    for _ in range(2)
                ]
                for t in twins:
                    t.start()
                for t in twins:
                    t.join()
                self.post(action, game.ply, f"stale-{key}", "stale")
            else:
                self.post(action, game.ply, key, "move")
            time.sleep(self.rng.uniform(0.3, 1.0))


class HandshakeProber(threading.Thread):
    """Opens a game's websocket again and again (the handshake only: the status line tells)."""

    def __init__(self, info: dict, stop: threading.Event):
        super().__init__(daemon=True)
        self.info, self.stop = info, stop
        self.lock = threading.Lock()
        self.statuses: Counter = Counter()
        self.bursts: list[dict] = []

    def handshake(self) -> int:
        """daphne's status for one handshake: 101 accepted, 0 for no answer at all."""
        import base64
        import socket

        request = (
            f"GET /ws/games/{self.info['game']}/ HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{WS_PORT}\r\nOrigin: http://127.0.0.1:{WS_PORT}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            f"Cookie: sessionid={self.info['session']}\r\n\r\n"
        )
        try:
            with socket.create_connection(("127.0.0.1", WS_PORT), timeout=10) as conn:
                conn.sendall(request.encode())
                line = conn.makefile("rb").readline().decode("latin-1").split()
            return int(line[1]) if len(line) > 1 and line[1].isdigit() else 0
        except OSError:
            return 0

    def record(self, status: int) -> int:
        with self.lock:
            self.statuses[status] += 1
        return status

    def burst(self, fault: str, n: int = 5) -> None:
        """Right after a Redis fault: the first handshakes meet the dead pooled connections."""
        statuses = [self.record(self.handshake()) for _ in range(n)]
        self.bursts.append({"fault": fault, "statuses": statuses})

    def run(self) -> None:
        while not self.stop.is_set():
            self.record(self.handshake())
            time.sleep(0.3)


def kill_redis_clients() -> int:
    listing = subprocess.run(["redis-cli", "CLIENT", "LIST"], capture_output=True, text=True).stdout
    killed = 0
    for line in listing.splitlines():
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if fields.get("db") == str(REDIS_DB):
            subprocess.run(["redis-cli", "CLIENT", "KILL", "ID", fields["id"]], capture_output=True)
            killed += 1
    return killed


def terminate_backends() -> int:
    sql = (
        f"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        f"WHERE datname = '{DB}' AND pid <> pg_backend_pid()"
    )
    done = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "blokus", "-d", "postgres", "-tAc", sql],
        capture_output=True, text=True,
    )  # fmt: skip
    return int(done.stdout.strip() or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--settle", type=float, default=90, help="seconds after the last fault")
    args = parser.parse_args()
    os.environ.update(env())
    # This process's threads each keep a connection of their own; no pool to run dry.
    os.environ["DATABASE_POOL"] = "false"
    sys.path.insert(0, str(ROOT))
    infos = setup(args.games)
    import django

    django.setup()
    from games.models import Action

    stack = Stack()
    stack.web()
    stack.daphne()
    stack.worker()
    stack.beat()
    time.sleep(6)
    results: list = []
    lock, stop = threading.Lock(), threading.Event()
    players = [Player(info, results, lock, stop) for info in infos]
    for player in players:
        player.start()
    prober = HandshakeProber(infos[0], stop)
    prober.start()
    began = time.time()
    total = args.minutes * 60
    faults = []
    plan = [
        (0.2 * total, "worker", stack.kill_worker),
        (0.4 * total, "redis", kill_redis_clients),
        (0.6 * total, "postgres", terminate_backends),
        (0.8 * total, "redis+postgres", lambda: (kill_redis_clients(), terminate_backends())),
    ]
    for at, name, fault in plan:
        time.sleep(max(0.0, began + at - time.time()))
        faults.append({"fault": name, "at": time.time(), "detail": str(fault())})
        if "redis" in name:
            prober.burst(name)
        if name == "worker":
            time.sleep(5)
            stack.worker()
    time.sleep(max(0.0, began + total - time.time()))
    stop.set()
    for player in players:
        player.join(timeout=30)
    prober.join(timeout=30)
    time.sleep(args.settle)  # lost computer turns are swept up meanwhile

    actions = list(
        Action.objects.order_by("game_id", "ply").values(
            "game_id", "ply", "key", "by_ai", "created_at"
        )
    )
    stack.stop()
    keys = {}  # a player's key as sent -> its actions (the stored key is "u<id>:<key>")
    for a in actions:
        if a["key"].startswith("u"):
            keys.setdefault(a["key"].split(":", 1)[1], []).append(a)
    answered = [r for r in results if r["kind"] != "stale" and 200 <= r["status"] < 300]
    lost = [r for r in answered if r["key"] not in keys]
    twice = [k for k, v in keys.items() if len(v) > 1]
    errors = [r for r in results if r["status"] >= 500 or r["status"] == 0]
    stale_applied = [r for r in results if r["kind"] == "stale" and r["key"] in keys]
    waits, after_kill = [], []
    killed_at = next(f["at"] for f in faults if f["fault"] == "worker")
    previous = {}
    for a in actions:
        prev = previous.get(a["game_id"])
        if a["by_ai"] and prev is not None and not prev["by_ai"]:
            wait = (a["created_at"] - prev["created_at"]).total_seconds()
            waits.append(wait)
            if prev["created_at"].timestamp() >= killed_at - 30:
                after_kill.append(wait)
        previous[a["game_id"]] = a
    pending = []
    from games import engine
    from games.models import Game

    for game in Game.objects.filter(status=Game.Status.ACTIVE):
        if engine.State.from_json(game.state).controller() == 1:
            pending.append(game.public_id)
    report = {
        "games": args.games,
        "minutes": args.minutes,
        "requests": len(results),
        "moves_answered_2xx": len(answered),
        "moves_lost": len(lost),
        "moves_applied_twice": len(twice),
        "stale_moves_applied": len(stale_applied),
        "responses_500_or_no_answer": len(errors),
        "statuses": {str(s): n for s, n in sorted(Counter(r["status"] for r in results).items())},
        "computer_turns": len(waits),
        "longest_computer_wait_s": round(max(waits), 1) if waits else None,
        "longest_computer_wait_after_worker_kill_s": (
            round(max(after_kill), 1) if after_kill else None
        ),
        "computer_turns_still_pending_at_end": len(pending),
        "websocket_handshakes": sum(prober.statuses.values()),
        "websocket_handshakes_refused": sum(
            n for status, n in prober.statuses.items() if status != 101
        ),
        "websocket_statuses": {str(s): n for s, n in sorted(prober.statuses.items())},
        "websocket_handshakes_right_after_redis_faults": prober.bursts,
        "faults": [{k: v for k, v in f.items() if k != "at"} for f in faults],
    }  # fmt: skip
    (OUT / "faults.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
