"""Plain-HTTP throughput of the web processes: gunicorn (WSGI, sync workers) against ASGI servers
(daphne, gunicorn's own asgi worker) serving the same Django project with production settings.

    .venv/bin/python bench/web/server_cost.py [--seconds 10] [--connections 1,8,32] [--servers ...]
        [--database-url postgres://postgres@127.0.0.1:5432/blokus_bench]
        [--redis-url redis://127.0.0.1:6379/15]

Everything stays on loopback. Set-up: create the database if missing (PostgreSQL), migrate,
collectstatic, create two users and a started game between them through games.services, and a
logged-in session for one of them. Then, for each server: start it, warm up, and drive GET
requests with wrk (Debian package `wrk`; a small threaded Python client when it is missing)
for `--seconds` at each connection count, against
  - the home page (anonymous: the open games list),
  - the game page as the player to move (session, seat view, legal actions for the panel).
Each ASGI server is also checked to accept a websocket and deliver a nudge sent from another
process through the channel layer. Prints a Markdown report; raw figures go to bench/out/http.json.
Settings are production's: DEBUG=false, the proxy header (BEHIND_PROXY=true, wrk sends
X-Forwarded-Proto: https so that nothing is redirected), the PostgreSQL pool, WhiteNoise.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import platform
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from http.client import HTTPConnection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench" / "out"
BIN = Path(sys.executable).parent

# name -> (label, command with {port})
SERVERS = {
    "gunicorn-sync": (
        "gunicorn, WSGI, 2 sync workers",
        "{bin}/gunicorn config.wsgi:application --workers 2 --worker-class sync "
        "--bind 127.0.0.1:{port} --no-control-socket",
    ),
    # gunicorn's usual advice for sync workers: while one waits for PostgreSQL, another computes.
    "gunicorn-sync-5": (
        "gunicorn, WSGI, 5 sync workers",
        "{bin}/gunicorn config.wsgi:application --workers 5 --worker-class sync "
        "--bind 127.0.0.1:{port} --no-control-socket",
    ),
    "daphne": (
        "daphne, ASGI, 1 process",
        "{bin}/daphne --bind 127.0.0.1 --port {port} config.asgi:application",
    ),
    "gunicorn-asgi": (
        "gunicorn, ASGI, 2 asgi workers",
        "{bin}/gunicorn config.asgi:application --workers 2 --worker-class asgi "
        "--bind 127.0.0.1:{port} --no-control-socket",
    ),
}

SETUP = """
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from games import services
from games.services import SeatSpec
from games.models import Seat

User = get_user_model()
def user(name):
    found = User.objects.filter(username=name).first()
    return found or User.objects.create_user(name, f"{name}@example.com", f"{name}-bench-1")
alice, bob = user("bench-alice"), user("bench-bob")
game = services.game_create(
    creator=alice, mode="shuffle", players=2,
    seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bench-bob")],
)
services.game_join(game=game, user=bob)
game.refresh_from_db()
mover = alice if services.seat_for(game, alice).index == game.to_move_seat else bob
client = Client()
client.force_login(mover)
print(json.dumps({"game": game.public_id, "session": client.cookies["sessionid"].value}))
"""

NUDGE = """
import sys
import django
django.setup()
from games.live import nudges
nudges.game_changed(sys.argv[1], 4242)
"""


def run_env(args: argparse.Namespace) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "BEHIND_PROXY": "true",
        "DATABASE_URL": args.database_url,
        "STATIC_ROOT": str(OUT / "static"),
        # Tasks run in-process during the set-up: nothing is left queued in the broker.
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "PYTHONUNBUFFERED": "1",
    }
    if args.redis_url:
        env["REDIS_URL"] = args.redis_url
    return env


def ensure_database(url: str) -> None:
    if not url.startswith(("postgres://", "postgresql://")):
        return
    import psycopg
    from psycopg import sql

    name = url.rsplit("/", 1)[1].split("?")[0]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
            print(f"created database {name}", file=sys.stderr)


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        sys.exit(f"{' '.join(args[:2])} failed:\n{done.stderr}")
    return done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(name: str, env: dict) -> tuple[subprocess.Popen, int]:
    port = free_port()
    command = SERVERS[name][1].format(bin=BIN, port=port).split()
    log = open(OUT / f"{name}.log", "w")  # noqa: SIM115 (closed with the process)
    proc = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"{name} exited with {proc.returncode}: see {log.name}")
        try:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/", headers={"X-Forwarded-Proto": "https"}
            )
            with urllib.request.urlopen(request, timeout=2) as response:
                if response.status == 200:
                    return proc, port
        except OSError:
            time.sleep(0.3)
    stop(proc)
    sys.exit(f"{name} did not answer within 60 s: see {log.name}")


def stop(proc: subprocess.Popen) -> None:
    # The server's own process group (start_new_session): its workers go with it.
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def cpu_seconds(group: int) -> float:
    """CPU time (user + system) used so far by every process of a server's process group.

    Requests per second depend on whatever else runs on the machine; the server's CPU time per
    request does not (much), so the report gives both."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        if int(fields[2]) == group:  # pgrp
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


# -- load generation -----------------------------------------------------------------------

UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * UNITS_MS[unit]


# Counts the responses by status (wrk itself only says how many were not 2xx/3xx).
STATUS_LUA = """
statuses = ""
local counts = {}
response = function(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
  local parts = {}
  for code, n in pairs(counts) do parts[#parts + 1] = code .. "=" .. n end
  statuses = table.concat(parts, " ")
end
"""
STATUS_DONE = """
local threads = {}
setup = function(thread) threads[#threads + 1] = thread end
done = function(summary, latency, requests)
  for _, thread in ipairs(threads) do io.write("statuses: ", thread:get("statuses"), "\\n") end
end
"""


def wrk(url: str, connections: int, seconds: int, headers: dict) -> dict:
    script = OUT / "statuses.lua"
    script.write_text(STATUS_LUA + STATUS_DONE)
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    command += ["-s", str(script)]
    for key, value in headers.items():
        command += ["-H", f"{key}: {value}"]
    out = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": _ms(re.search(r"\s50%\s+(\S+)", out).group(1)),
        "p99": _ms(re.search(r"\s99%\s+(\S+)", out).group(1)),
        "requests": requests,
        "bad": int(bad.group(1)) if bad else 0,
        "errors": errors.group(1).strip() if errors else "",
        "statuses": " ".join(re.findall(r"statuses: (.*)", out)),
    }


def threaded(url: str, connections: int, seconds: int, headers: dict) -> dict:
    """Fallback when wrk is missing: one keep-alive HTTP connection per thread."""
    host, port, path = re.fullmatch(r"http://([^:/]+):(\d+)(/.*)", url).groups()
    latencies: list[float] = []
    bad = [0]
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def worker() -> None:
        conn = HTTPConnection(host, int(port), timeout=10)
        mine = []
        while time.monotonic() < deadline:
            began = time.perf_counter()
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            mine.append((time.perf_counter() - began) * 1000)
            if response.status >= 400:
                bad[0] += 1
            if response.will_close:
                conn.close()
                conn = HTTPConnection(host, int(port), timeout=10)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - began
    cuts = statistics.quantiles(latencies, n=100)
    return {
        "rps": len(latencies) / elapsed,
        "p50": cuts[49],
        "p99": cuts[98],
        "requests": len(latencies),
        "bad": bad[0],
        "errors": "",
        "statuses": "",
    }


# -- websocket check -----------------------------------------------------------------------


def websocket_nudge(port: int, path: str, public_id: str, env: dict) -> str:
    """Open a websocket, send a nudge from another process, read it: "ok" or what went wrong."""
    key = base64.b64encode(os.urandom(16)).decode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nOrigin: https://127.0.0.1:{port}\r\n"
                "X-Forwarded-Proto: https\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                return "closed during the handshake"
            head += chunk
        status = head.split(b"\r\n", 1)[0].decode()
        if " 101 " not in status + " ":
            return status
        rest = head.split(b"\r\n\r\n", 1)[1]
        time.sleep(0.5)  # the consumer joins its group after accepting
        subprocess.run([sys.executable, "-c", NUDGE, public_id], cwd=ROOT, env=env, check=True)
        while len(rest) < 2 or len(rest) < 2 + (rest[1] & 0x7F):
            chunk = sock.recv(4096)
            if not chunk:
                return "closed before the nudge"
            rest += chunk
        message = json.loads(rest[2 : 2 + (rest[1] & 0x7F)])
        return "ok" if message == {"type": "game.changed", "ply": 4242} else repr(message)


# -- report --------------------------------------------------------------------------------


def machine() -> dict:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu": model, "python": platform.python_version()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", default="1,8,32")
    parser.add_argument("--servers", default=",".join(SERVERS))
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/blokus_bench")
    # A Redis database of its own: cache keys and channel groups stay out of the site's.
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/15")
    parser.add_argument("--generator", choices=["wrk", "threads"], default=None)
    args = parser.parse_args()
    connections = [int(c) for c in args.connections.split(",")]
    servers = args.servers.split(",")
    generator = args.generator or ("wrk" if shutil.which("wrk") else "threads")
    drive = wrk if generator == "wrk" else threaded

    OUT.mkdir(parents=True, exist_ok=True)
    env = run_env(args)
    ensure_database(args.database_url)
    manage(env, "manage.py", "migrate", "--verbosity", "0")
    manage(env, "manage.py", "collectstatic", "--noinput", "--verbosity", "0")
    fixture = json.loads(manage(env, "-c", SETUP))
    pages = {
        "home (anonymous)": ("/", {}),
        "game page (player to move)": (
            f"/games/{fixture['game']}/",
            {"Cookie": f"sessionid={fixture['session']}"},
        ),
    }

    results = []
    load_before = os.getloadavg()
    for name in servers:
        proc, port = start(name, env)
        try:
            ws = "n/a (WSGI)"
            if not args.redis_url:
                ws = "not checked (a nudge from another process needs Redis)"
            elif "asgi" in name or name == "daphne":
                ws = websocket_nudge(port, f"/ws/games/{fixture['game']}/", fixture["game"], env)
            for page, (path, extra) in pages.items():
                url = f"http://127.0.0.1:{port}{path}"
                headers = {"X-Forwarded-Proto": "https", **extra}
                drive(url, 4, 2, headers)  # warm-up: imports, pool, template caches
                for c in connections:
                    cpu = cpu_seconds(proc.pid)
                    figures = drive(url, c, args.seconds, headers)
                    cpu = cpu_seconds(proc.pid) - cpu
                    figures["cpu_ms"] = 1000 * cpu / max(figures["requests"], 1)
                    results.append({"server": name, "page": page, "connections": c, **figures})
                    print(f"{name:14} {page:28} c={c:<3} {figures}", file=sys.stderr)
        finally:
            stop(proc)
        results.append({"server": name, "websocket": ws})

    info = {
        **machine(),
        "generator": generator,
        "seconds": args.seconds,
        "database": args.database_url.split("://")[0],
        "redis": bool(args.redis_url),
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "results": results,
    }
    (OUT / "http.json").write_text(json.dumps(info, indent=2))
    print(report(info))


def report(info: dict) -> str:
    lines = [
        f"Machine: {info['cpu']}, {info['cpus']} CPUs, Python {info['python']}, Linux. "
        f"Load generator: {info['generator']} (1 thread, on the same machine), "
        f"{info['seconds']} s per cell; database {info['database']}"
        + (", Redis cache and channel layer" if info["redis"] else "")
        + ". Load average before/after: "
        + " / ".join(f"{a[0]:.1f}" for a in (info["load_before"], info["load_after"]))
        + ".",
        "",
        "| server | page | connections | requests/s | p50 ms | p99 ms | server CPU ms/request "
        "| errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in info["results"]:
        if "page" not in r:
            continue
        label = SERVERS[r["server"]][0]
        errors = r["bad"] + (1 if r["errors"] else 0)
        lines.append(
            f"| {label} | {r['page']} | {r['connections']} | {r['rps']:.0f} | "
            f"{r['p50']:.1f} | {r['p99']:.1f} | {r['cpu_ms']:.1f} | {errors or ''} |"
        )
    lines.append("")
    for r in info["results"]:
        if "websocket" in r:
            lines.append(f"- {SERVERS[r['server']][0]}: websocket + nudge: {r['websocket']}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
