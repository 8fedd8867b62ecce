"""Fifty bot accounts playing each other through the API, against the same moves through the
game pages.

    .venv/bin/python bench/web/bots.py [--bots 50] [--seconds 60] [--warmup 10] [--think 0]
        [--paths api,pages] [--database-url postgres://blokus:blokus@127.0.0.1:5432/blokus_bots]
        [--redis-url redis://127.0.0.1:6379/14]

Everything stays on loopback. Set-up: create the PostgreSQL database if missing, migrate,
collectstatic, empty the Redis database of the run (its cache, channel layer and Celery queue),
then in Django (``SETUP`` below): ``--bots`` bot accounts (api.bots.bot_account_make) with a
``bot`` token each, as many people with a signed-in session, and for each pair of them
``--games-per-pair`` started classic two-player games (rated, seat 1 moving first), made through
games.services.

The site is the README's production layout: gunicorn (config.wsgi, cores + 1 sync workers) for
HTTP, daphne (config.asgi) for the API's streams and the websockets, one Celery worker; DEBUG
off, PostgreSQL, Redis.

Each path runs ``--warmup`` + ``--seconds`` (on servers started for it) with one client thread
per player, every player in one game at a time (the pair moves on to its next game when one
ends), thinking ``--think`` seconds on average before a move (none by default: the site is then
saturated, and the latencies are mostly the wait in gunicorn's queue):

- ``api``: each bot reads its game's stream (``/api/v1/stream/games/<id>``, daphne); at each
  ``game`` line that is its decision it picks a uniformly random legal action from the seat's
  view (games.ai.determinize, games.engine.legal_actions: no request) and posts it
  (``POST /api/v1/games/<id>/actions``, gunicorn, with the ply and a key). One request a move.
- ``pages``: each person holds the game's websocket (``/ws/games/<id>/``, daphne) as the page
  does; at each ``game.changed`` past the ply it shows it fetches the panel
  (``GET /games/<id>/panel/``, as live.js does) and, at its decision, posts a random placement
  of the panel's legal list through the page's form endpoint (``POST /games/<id>/act/``, htmx:
  204), then fetches its panel for the new ply, as the page does on ``HX-Trigger``. Three
  requests a move (the mover's POST and panel, the opponent's panel).

Measured over the last ``--seconds``: moves per second; the latency from sending a move's POST to
the opponent receiving its event (the stream's ``action`` line, the websocket's ``game.changed``;
both clients in this process, one clock); the POST's round trip; server CPU per move (user +
system time of gunicorn's processes, daphne, the Celery worker and PostgreSQL's backends of the
run, from /proc, over the window, divided by the moves); the machine's cores and load. The
clients (this process) share the machine's cores with the servers: their own CPU is reported too.
Prints the Markdown section for bench/RESULTS.md; every figure goes to bench/out/bots.json.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import platform
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.production import production_env, ready_database, sh, wait_port  # noqa: E402

OUT = ROOT / "bench" / "out"
BIN = Path(sys.executable).parent

SETUP = """
import json
import sys
import django
django.setup()
from importlib import import_module
from django.conf import settings
from django.contrib.auth import get_user_model, BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.middleware.csrf import _get_new_csrf_string
from api import tokens
from api.bots import bot_account_make
from games import services
from games.models import Seat
from games.services import SeatSpec

bots, per_pair, tag = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
User = get_user_model()

def user(name):
    return User.objects.create_user(name, f"{name}@example.invalid", None)

def session(user):
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = user._meta.pk.value_to_string(user)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key

def games(a, b):
    out = []
    for _ in range(per_pair):
        game = services.game_create(
            creator=a, mode="classic", players=2, rated=True,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username=b.username)],
        )
        services.game_join(game=game, user=b)
        out.append(game.public_id)
    return out

out = {"csrf": _get_new_csrf_string(), "api": [], "pages": []}
for i in range(0, bots, 2):
    a, b = user(f"{tag}-bot-{i}"), user(f"{tag}-bot-{i + 1}")
    for player in (a, b):
        bot_account_make(user=player, confirm=player.username)
    secrets_ = [tokens.token_issue(user=p, name="bench", scopes=["bot"]).secret for p in (a, b)]
    out["api"].append({"tokens": secrets_, "games": games(a, b)})
    a, b = user(f"{tag}-person-{i}"), user(f"{tag}-person-{i + 1}")
    out["pages"].append({"sessions": [session(a), session(b)], "games": games(a, b)})
print(json.dumps(out))
"""


# -- the processes ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_env(args: argparse.Namespace, http_port: int) -> dict[str, str]:
    return production_env(
        port=http_port,
        database_url=args.database_url,
        redis_url=args.redis_url,
        static_root=OUT / "bots_static",
        CELERY_TASK_ALWAYS_EAGER="false",
        PYTHONUNBUFFERED="1",
    )


def prepare(args: argparse.Namespace, env: dict) -> dict:
    import redis

    ready_database(env, sys.executable, fresh=True)  # a fresh run each time
    redis.Redis.from_url(args.redis_url).flushdb()
    tag = f"b{secrets.token_hex(3)}"
    setup_env = env | {"CELERY_TASK_ALWAYS_EAGER": "true"}  # nothing left queued by the set-up
    done = sh(
        [sys.executable, "-c", SETUP, str(args.bots), str(args.games_per_pair), tag],
        setup_env,
        capture_output=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def start_servers(env: dict, http_port: int, ws_port: int) -> dict[str, subprocess.Popen]:
    OUT.mkdir(parents=True, exist_ok=True)
    workers = (os.cpu_count() or 1) + 1
    commands = {
        "gunicorn": [
            str(BIN / "gunicorn"),
            "config.wsgi:application",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{http_port}",
            "--no-control-socket",
            "--backlog",
            "2048",
        ],
        "daphne": [
            str(BIN / "daphne"),
            "--bind",
            "127.0.0.1",
            "--port",
            str(ws_port),
            "config.asgi:application",
        ],
        "worker": [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "-l",
            "warning",
            "--concurrency",
            "1",
            "-Q",
            "celery,celery-notices",
        ],
    }
    procs = {
        name: subprocess.Popen(
            command,
            env=env,
            cwd=ROOT,
            stdout=(OUT / f"bots_{name}.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for name, command in commands.items()
    }
    wait_port(http_port)
    wait_port(ws_port)
    return procs


def stop(procs: dict[str, subprocess.Popen]) -> None:
    for proc in procs.values():
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs.values():
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def group_cpu(pgid: int) -> float:
    """User + system CPU seconds of every live process of a process group (a server and its
    workers: start_new_session made each server the leader of its own group)."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        fields = _stat(int(stat.parent.name))
        if fields and int(fields[2]) == pgid:
            ticks += sum(int(x) for x in fields[11:13])
    return ticks / os.sysconf("SC_CLK_TCK")


def postgres_cpu(database_url: str) -> float:
    """CPU seconds of PostgreSQL's backends connected to the run's database (the same machine)."""
    import psycopg

    dbname = database_url.rsplit("/", 1)[1]
    with psycopg.connect(database_url) as conn:
        pids = [
            r[0]
            for r in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (dbname,),
            )
        ]
    total = 0
    for pid in pids:
        fields = _stat(pid)
        if fields:
            total += sum(int(x) for x in fields[11:13])
    return total / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    times = os.times()
    return times.user + times.system


# -- what both paths record ------------------------------------------------------------------


@dataclass
class Record:
    """Moves posted and events received, with this process's clock (time.time)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    posts: dict[tuple[str, int], tuple[float, float]] = field(default_factory=dict)
    received: dict[tuple[str, int], float] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    games_over: int = 0

    def posted(self, game: str, ply: int, sent: float, back: float) -> None:
        with self.lock:
            self.posts[(game, ply)] = (sent, back)

    def got(self, game: str, ply: int) -> None:
        now = time.time()
        with self.lock:
            self.received.setdefault((game, ply), now)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] = self.errors.get(what, 0) + 1


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


THINK = [0.0]  # seconds a player thinks before a move, on average (--think)


def think(rng: random.Random, stop: threading.Event) -> None:
    """A player's time to move: uniform between half and one and a half times --think."""
    if THINK[0]:
        stop.wait(THINK[0] * rng.uniform(0.5, 1.5))


# -- the API path ------------------------------------------------------------------------------


class Api:
    """A bot's HTTP client: JSON requests on one kept-alive connection to gunicorn."""

    def __init__(self, http_port: int, token: str):
        self.port, self.token = http_port, token
        self.conn: http.client.HTTPConnection | None = None

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        return self.call("POST", path, body)

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request(
                    method,
                    "/api/v1" + path,
                    body=None if body is None else json.dumps(body),
                    headers={
                        "Authorization": f"Bearer {self.token}",
                        "Content-Type": "application/json",
                    },
                )
                answer = self.conn.getresponse()
                return answer.status, json.loads(answer.read() or b"{}")
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")


def stream_lines(port: int, path: str, token: str, stop: threading.Event):
    """The stream's events, one dict a line, until ``stop`` (checked at each line: keepalives
    come every 20 s) or the server ends it."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/api/v1" + path, headers={"Authorization": f"Bearer {token}"})
    answer = conn.getresponse()
    if answer.status != 200:
        raise RuntimeError(f"stream {path}: {answer.status} {answer.read()[:200]!r}")
    try:
        while not stop.is_set():
            raw = answer.readline()
            if not raw:
                return
            raw = raw.strip()
            if raw:
                yield json.loads(raw)
    finally:
        conn.close()


def random_action(view: dict, rng: random.Random) -> dict:
    from games import engine
    from games.ai.determinize import determinize

    state = determinize(view, rng)
    return rng.choice(engine.legal_actions(state))


def api_player(
    pair: dict, seat: int, ports: tuple[int, int], record: Record, stop: threading.Event, seed: int
) -> None:
    """One bot: its pair's games in turn, each played from its stream until it is over."""
    http_port, ws_port = ports
    token = pair["tokens"][seat]
    api = Api(http_port, token)
    rng = random.Random(seed)
    for game in pair["games"]:
        if stop.is_set():
            return
        decided = None
        try:
            for event in stream_lines(ws_port, f"/stream/games/{game}?since_ply=0", token, stop):
                kind = event.get("type")
                if kind == "action":
                    record.got(game, event["ply"])
                elif kind == "game":
                    if event["status"] in ("finished", "aborted"):
                        if seat == 0:
                            with record.lock:
                                record.games_over += 1
                        break
                    if event.get("your_decision") and event["ply"] != decided:
                        ply = decided = event["ply"]
                        think(rng, stop)
                        action = random_action(event["view"], rng)
                        body = {"action": action, "ply": ply, "key": f"b{ply}"}
                        sent = time.time()
                        status, answer = api.post(f"/games/{game}/actions", body)
                        back = time.time()
                        if status == 200:
                            record.posted(game, ply + 1, sent, back)
                        else:
                            record.error(f"POST {status} {answer.get('code', '')}")
                            decided = None
        except (OSError, http.client.HTTPException, RuntimeError) as exc:
            record.error(f"stream {type(exc).__name__}")
            time.sleep(0.5)


# -- the page path -----------------------------------------------------------------------------

PLY_RE = re.compile(r'<section id="game"[^>]*?data-ply="(\d+)"')
LIVE_RE = re.compile(r'<section id="game"[^>]*?data-live="')
KEY_RE = re.compile(r'name="key" value="([^"]+)"')
LEGAL_RE = re.compile(r'<script id="legal" type="application/json">(.*?)</script>', re.S)


class Page:
    """A person's page: the session's requests on one kept-alive connection to gunicorn."""

    def __init__(self, http_port: int, session: str, csrf: str):
        self.port = http_port
        self.cookie = f"sessionid={session}; csrftoken={csrf}"
        self.csrf = csrf
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: str = "") -> tuple[int, str]:
        headers = {"HX-Request": "true", "X-CSRFToken": self.csrf, "Cookie": self.cookie}
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request(method, path, body=body or None, headers=headers)
                answer = self.conn.getresponse()
                return answer.status, answer.read().decode()
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")


def page_player(
    pair: dict,
    seat: int,
    ports: tuple[int, int],
    csrf: str,
    record: Record,
    stop: threading.Event,
    seed: int,
) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    http_port, ws_port = ports
    page = Page(http_port, pair["sessions"][seat], csrf)
    rng = random.Random(seed)
    for game in pair["games"]:
        if stop.is_set():
            return
        panel_url, act_url = f"/games/{game}/panel/", f"/games/{game}/act/"
        try:
            with connect(
                f"ws://127.0.0.1:{ws_port}/ws/games/{game}/",
                additional_headers={"Cookie": page.cookie},
                origin="http://127.0.0.1",
                open_timeout=30,
            ) as ws:
                shown = -1
                over = False
                while not stop.is_set() and not over:
                    status, html = page.request("GET", panel_url)
                    found = PLY_RE.search(html)
                    if status != 200 or found is None:
                        record.error(f"panel {status}")
                        time.sleep(0.5)
                        continue
                    shown = int(found.group(1))
                    if LIVE_RE.search(html) is None:
                        over = True
                        if seat == 0:
                            with record.lock:
                                record.games_over += 1
                        break
                    legal = LEGAL_RE.search(html)
                    if legal is not None:  # its decision: a random placement, as the tray sends
                        think(rng, stop)
                        placements = json.loads(legal.group(1))["placements"]
                        piece = rng.choice(sorted(placements))
                        action = {"place": rng.choice(placements[piece])}
                        key = KEY_RE.search(html)
                        body = urllib.parse.urlencode(
                            {
                                "action": json.dumps(action),
                                "ply": shown,
                                "key": key.group(1) if key else "",
                            }
                        )
                        sent = time.time()
                        status, _html = page.request("POST", act_url, body)
                        back = time.time()
                        if status in (200, 204):
                            record.posted(game, shown + 1, sent, back)
                        else:
                            record.error(f"act {status}")
                        continue  # the panel for the new ply, as the page fetches it
                    # The opponent's turn: wait for the nudge past the ply shown.
                    while not stop.is_set():
                        try:
                            message = json.loads(ws.recv(timeout=20))
                        except TimeoutError:
                            break  # read the panel again (a nudge lost)
                        if message.get("type") in ("game.changed", "game.reset"):
                            ply = int(message.get("ply", 0))
                            record.got(game, ply)
                            if ply > shown:
                                break
        except (OSError, ConnectionClosed, http.client.HTTPException) as exc:
            record.error(f"ws {type(exc).__name__}")
            time.sleep(0.5)


def warm(setup: dict, http_port: int) -> None:
    """Every gunicorn worker's first requests import the API and the pages' code: a few of each
    before anything is counted (and the clients' own engine and determinization imported)."""
    import games.ai.determinize  # noqa: F401

    api = Api(http_port, setup["api"][0]["tokens"][0])
    page = Page(http_port, setup["pages"][0]["sessions"][0], setup["csrf"])
    game = setup["pages"][0]["games"][0]
    for _ in range(4 * ((os.cpu_count() or 1) + 1)):
        api.conn = None  # a new connection: another worker may take it
        api.call("GET", "/me")
        page.conn = None
        page.request("GET", f"/games/{game}/panel/")


# -- a run ---------------------------------------------------------------------------------------


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def run_path(path: str, setup: dict, args, ports, procs) -> dict:
    record = Record()
    stop_event = threading.Event()
    threads = []
    for p, pair in enumerate(setup[path]):
        for seat in (0, 1):
            if path == "api":
                target, extra = api_player, ()
            else:
                target, extra = page_player, (setup["csrf"],)
            thread = threading.Thread(
                target=target,
                args=(pair, seat, ports, *extra, record, stop_event, p * 2 + seat),
                daemon=True,
            )
            threads.append(thread)
    for thread in threads:
        thread.start()
    time.sleep(args.warmup)
    load_before = load()
    cpu0 = {name: group_cpu(proc.pid) for name, proc in procs.items()}
    pg0, own0 = postgres_cpu(args.database_url), own_cpu()
    t0 = time.time()
    samples = []
    while time.time() - t0 < args.seconds:
        time.sleep(min(10, args.seconds - (time.time() - t0)))
        samples.append(load()[0])
    t1 = time.time()
    cpu1 = {name: group_cpu(proc.pid) for name, proc in procs.items()}
    pg1, own1 = postgres_cpu(args.database_url), own_cpu()
    stop_event.set()
    for thread in threads:
        thread.join(timeout=25)

    with record.lock:
        in_window = {k: v for k, v in record.posts.items() if t0 <= v[0] < t1}
        latencies = [
            (record.received[k] - sent) * 1000
            for k, (sent, _back) in in_window.items()
            if k in record.received
        ]
        round_trips = [(back - sent) * 1000 for sent, back in in_window.values()]
        errors = dict(record.errors)
        over = record.games_over
    moves = len(in_window)
    cpu = {name: cpu1[name] - cpu0[name] for name in procs}
    cpu["postgres"] = pg1 - pg0
    per_move = {name: (value / moves * 1000 if moves else None) for name, value in cpu.items()}
    servers = sum(v for k, v in cpu.items() if k != "postgres")
    return {
        "path": path,
        "players": len(threads),
        "seconds": round(t1 - t0, 1),
        "moves": moves,
        "moves_per_s": round(moves / (t1 - t0), 2),
        "latency_ms": {
            "p50": pct(latencies, 50),
            "p95": pct(latencies, 95),
            "n": len(latencies),
        },
        "post_ms": {"p50": pct(round_trips, 50), "p95": pct(round_trips, 95)},
        "cpu_s": {k: round(v, 2) for k, v in cpu.items()},
        "cpu_ms_per_move": {
            k: (round(v, 2) if v is not None else None) for k, v in per_move.items()
        },
        "servers_ms_per_move": round(servers / moves * 1000, 2) if moves else None,
        "clients_cpu_s": round(own1 - own0, 2),
        "games_over": over,
        "errors": errors,
        "load_before": load_before,
        "load_samples": samples,
    }


def machine() -> dict:
    model = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return {
        "cores": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "kernel": platform.release(),
        "commit": commit,
        "load_at_start": load(),
    }


def fmt(value, digits=1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def think_words(seconds: float) -> str:
    if not seconds:
        return "no thinking time (the site saturated: the latencies are mostly queueing)"
    return f"{seconds:g} s of thinking before each move on average"


def markdown(report: dict) -> str:
    m = report["machine"]
    a = report["args"]
    lines = [
        f"## {a['bots']} bots through the API against the pages (`bench/web/bots.py`), "
        f"{report['date']}",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores shared with other work (load average "
        f"{' / '.join(str(x) for x in m['load_at_start'])} at the start), Python {m['python']}, "
        f"commit {m['commit']}. Production layout: gunicorn ({m['cores'] + 1} sync workers) for "
        "HTTP, daphne for the streams and websockets, one Celery worker; DEBUG off, PostgreSQL, "
        f"Redis. {a['bots']} players a path, {a['bots'] // 2} games at a time (classic, two "
        f"players, rated), random legal moves, "
        f"{think_words(a.get('think', 0))}; {a['warmup']} s of warm-up, "
        f"then {a['seconds']} s counted.",
        "",
        "| path | moves/s | move → opponent's event p50 / p95 (ms) | POST p50 / p95 (ms) "
        "| server CPU per move (ms): gunicorn + daphne + worker = sum; PostgreSQL "
        "| clients' CPU (s) | load during | errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in report["runs"]:
        c = r["cpu_ms_per_move"]
        label = {"api": "API (stream + POST)", "pages": "pages (websocket + panel + act)"}
        errors = ", ".join(f"{k}: {v}" for k, v in r["errors"].items()) or "none"
        lines.append(
            f"| {label[r['path']]} | {r['moves_per_s']:.1f} ({r['moves']} moves) "
            f"| {fmt(r['latency_ms']['p50'], 0)} / {fmt(r['latency_ms']['p95'], 0)} "
            f"| {fmt(r['post_ms']['p50'], 0)} / {fmt(r['post_ms']['p95'], 0)} "
            f"| {fmt(c['gunicorn'])} + {fmt(c['daphne'])} + {fmt(c['worker'])} = "
            f"{fmt(r['servers_ms_per_move'])}; {fmt(c['postgres'])} "
            f"| {r['clients_cpu_s']:.0f} "
            f"| {min(r['load_samples'] or [0]):.1f}–{max(r['load_samples'] or [0]):.1f} "
            f"| {errors} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--bots", type=int, default=50, help="players a path (even): bots / 2 games")
    p.add_argument("--seconds", type=float, default=60, help="counted, per path")
    p.add_argument("--warmup", type=float, default=10)
    p.add_argument(
        "--think", type=float, default=0.0, help="seconds before each move, on average (0: none)"
    )
    p.add_argument("--games-per-pair", type=int, default=6, help="games made for each pair")
    p.add_argument("--paths", default="api,pages", help="api, pages or both, in that order")
    p.add_argument(
        "--database-url", default="postgres://blokus:blokus@127.0.0.1:5432/blokus_bots_bench"
    )
    p.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    p.add_argument("--json", default=str(OUT / "bots.json"))
    args = p.parse_args(argv)
    if args.bots < 2 or args.bots % 2:
        p.error("--bots must be even")
    THINK[0] = args.think
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    OUT.mkdir(parents=True, exist_ok=True)
    http_port, ws_port = free_port(), free_port()
    env = run_env(args, http_port)
    report = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": machine(),
        "args": vars(args),
        "runs": [],
    }
    print(f"set-up: {args.bots} bots and {args.bots} people ...", file=sys.stderr)
    setup = prepare(args, env)
    for path in args.paths.split(","):
        # Servers of its own for each path: no task queued by one path runs in the other's
        # window, no connection or cache of one is warm for the other.
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()  # the queue and the cache: empty
        procs = start_servers(env, http_port, ws_port)
        try:
            warm(setup, http_port)
            print(f"{path}: {args.warmup:.0f} s + {args.seconds:.0f} s ...", file=sys.stderr)
            run = run_path(path, setup, args, (http_port, ws_port), procs)
            print(json.dumps(run), file=sys.stderr)
            report["runs"].append(run)
        finally:
            stop(procs)
    Path(args.json).write_text(json.dumps(report, indent=2))
    text = markdown(report)
    Path(args.json).with_suffix(".md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
