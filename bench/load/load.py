"""Live games under load: many 2-player games whose bots play each other over HTTP, as browsers do.
The runner: it prepares the services, starts the servers, runs locust and the nudge test, and
writes the results.

    .venv/bin/python bench/load/load.py run [--games 100] [--seconds 60] [--warmup 10]
        [--think 0 --think 10-30 ...] [--nudge-moves 200] [--workers 3] [--threads 0]
    .venv/bin/python bench/load/load.py nudge --setup FILE --http URL --ws URL   (nudge test alone)
    .venv/bin/python bench/load/load_report.py bench/out/load_sync.json      (its tables again)

The bench is three files: this runner; bench/load/load_locust.py, the bots (what `run` hands to
`locust -f`); bench/load/load_report.py, the figures and their markdown. bench/load/load_setup.py
creates the games and sessions inside Django.

Needs locust (`.venv/bin/pip install locust`; not in requirements.txt) and websocket-client
(installed with locust). Everything stays on loopback; results and logs go to bench/out/load*.

`run` does it all, then stops every process it started:
  1. creates the PostgreSQL database (default postgres://postgres@127.0.0.1:5432/blokus_load) if
     missing, migrates it, collects the static files (to bench/out/load_static) and empties Redis
     database 3 (the channel layer, cache and Celery queue of the run; nothing consumes the queue:
     no Celery worker is needed when both seats are humans);
  2. starts the web processes as the README's "Running in production" describes them: gunicorn
     (config.wsgi, sync workers, cores + 1) for HTTP and daphne (config.asgi) for /ws/, with
     production settings (DEBUG=false, the PostgreSQL pool, Redis) over plain HTTP
     (SECURE_SSL_REDIRECT=false; the bots send the cookies by hand);
  3. for each --think value: bench/load/load_setup.py creates the games (classic mode, played a
     random 0-40 plies first) and the players' sessions, then locust runs 2 bots per game
     (headless, for warmup + seconds; only the last `seconds` are counted);
  4. the nudge test on an idle server: 4 websocket clients on one game (its 2 players and 2
     spectators) while a driver plays its moves over HTTP, one at a time;
  5. writes bench/out/load_<tag><ws>.json (every figure) and .md (the tables).

Run as a script, this file's folder (bench/load/) comes first on the import path: that is how it
finds load_report, and no module of bench/ is named like a standard or installed one (a test checks
it). This module imports only the standard library at its top, so that bench/load/load_locust.py
can import the page reading below without starting anything.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from load_report import machine, markdown, nudge_figures, run_figures, summary

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after this folder: load_report and the others stay first

from bench.production import production_env, ready_database, sh, wait_port  # noqa: E402

OUT = ROOT / "bench" / "out"
BIN = Path(sys.executable).parent

# -- the panel, as a client reads it (the bots of load_locust.py and the nudge test) ----

PLY_RE = re.compile(r'<section id="game"[^>]*?data-ply="(\d+)"')
LIVE_RE = re.compile(r'<section id="game"[^>]*?data-live="')
KEY_RE = re.compile(r'name="key" value="([^"]+)"')
LEGAL_RE = re.compile(r'<script id="legal" type="application/json">(.*?)</script>', re.S)


@dataclass
class Panel:
    ply: int
    active: bool  # the game is in play (the section carries data-live)
    key: str  # the idempotency key the page would send
    legal: dict | None  # the deciding seat's placements: {"step", "placements": {piece: [...]}}


def parse_panel(html: str) -> Panel:
    ply = PLY_RE.search(html)
    if ply is None:
        raise ValueError("no <section id=game data-ply=...> in the answer")
    legal = LEGAL_RE.search(html)
    key = KEY_RE.search(html)
    return Panel(
        ply=int(ply.group(1)),
        active=LIVE_RE.search(html) is not None,
        key=key.group(1) if key else "",
        legal=json.loads(legal.group(1)) if legal else None,
    )


def choose(legal: dict, rng: random.Random) -> dict:
    """A random legal placement: a piece, then one of its placements (classic mode only has
    placement steps; the engine passes by itself when a colour has none)."""
    placements = legal["placements"]
    piece = rng.choice(sorted(placements))
    return {"place": rng.choice(placements[piece])}


# -- the nudge test (plain threads: no locust, no gevent) -----------------------------------


def nudge_test(setup: dict, http_base: str, ws_base: str, moves: int, pause: float) -> dict:
    """4 websocket clients on one game (both players, 2 anonymous spectators); a driver plays
    the game's moves one at a time over HTTP and waits for the 4 nudges before the next one.
    Returns, per move, the POST's send and return times and each client's receipt time (epoch
    seconds); created_at() adds the Action row's created_at (set inside the write transaction,
    just before the commit)."""
    rows: list[dict] = []
    rng = random.Random(7)
    for game in setup["nudge_games"]:
        if len(rows) >= moves:
            break
        rows += _nudge_game(game, setup["csrf"], http_base, ws_base, moves - len(rows), pause, rng)
    return {"rows": rows}


class _Clients:
    """Websocket clients on one game, each in a process of its own (so that one client's
    handling never delays another's receipt time), noting when each nudge arrives."""

    def __init__(self, url: str, headers: list[list[str]]):
        self.received: dict[int, dict[int, float]] = {}  # ply -> client -> epoch seconds
        self.lock = threading.Condition()
        self.procs = []
        for client, header in enumerate(headers):
            proc = subprocess.Popen(
                [sys.executable, __file__, "listen", url, json.dumps(header)],
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            )
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError(f"websocket client {client} could not connect to {url}")
            self.procs.append(proc)
            threading.Thread(target=self._read, args=(proc, client), daemon=True).start()

    def _read(self, proc, client: int) -> None:
        for line in proc.stdout:
            ply, t = line.split()
            with self.lock:
                self.received.setdefault(int(ply), {})[client] = float(t)
                self.lock.notify_all()

    def wait(self, ply: int, timeout: float = 5) -> dict[int, float]:
        count = len(self.procs)
        with self.lock:
            self.lock.wait_for(lambda: len(self.received.get(ply, {})) == count, timeout)
            return dict(self.received.get(ply, {}))

    def close(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            proc.wait()


def cmd_listen(args: argparse.Namespace) -> None:
    """One websocket client: prints "ready", then "<ply> <epoch seconds>" for every nudge."""
    import websocket

    ws = websocket.create_connection(
        args.url, header=json.loads(args.header), origin="http://127.0.0.1"
    )
    print("ready", flush=True)
    while True:
        message = ws.recv()
        t = time.time()
        if not message:
            return
        data = json.loads(message)
        if data.get("type") == "game.changed":
            print(data["ply"], repr(t), flush=True)


def _nudge_game(game, csrf, http_base, ws_base, moves, pause, rng) -> list[dict]:
    import http.client
    from urllib.parse import urlencode

    host, port = http_base.split("//")[1].split(":")
    cookies = {s["seat"]: f"sessionid={s['session']}; csrftoken={csrf}" for s in game["seats"]}
    # Both players (signed in) and two anonymous spectators (the game is public).
    clients = _Clients(
        f"{ws_base}/ws/games/{game['id']}/",
        [[f"Cookie: {cookies[0]}"], [f"Cookie: {cookies[1]}"], [], []],
    )

    def request(method: str, path: str, seat: int, body: str = "") -> tuple[int, str]:
        conn = http.client.HTTPConnection(host, int(port), timeout=60)
        headers = {"HX-Request": "true", "X-CSRFToken": csrf, "Cookie": cookies[seat]}
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body or None, headers=headers)
        answer = conn.getresponse()
        text = answer.read().decode()
        conn.close()
        return answer.status, text

    panel_url, act_url = f"/games/{game['id']}/panel/", f"/games/{game['id']}/act/"
    rows: list[dict] = []
    seat = 0
    panel = parse_panel(request("GET", panel_url, seat)[1])
    if panel.legal is None:
        seat = 1
        panel = parse_panel(request("GET", panel_url, seat)[1])
    while panel.active and panel.legal is not None and len(rows) < moves:
        time.sleep(pause)
        action = choose(panel.legal, rng)
        body = urlencode({"action": json.dumps(action), "ply": panel.ply, "key": panel.key})
        t_send = time.time()
        status, text = request("POST", act_url, seat, body)
        t_return = time.time()
        if status not in (200, 204):
            raise RuntimeError(f"POST act answered {status}")
        if status == 204:  # the move's small answer: the page then fetches its panel
            text = request("GET", panel_url, seat)[1]
        after = parse_panel(text)
        got = clients.wait(after.ply)
        rows.append(
            {
                "game": game["id"],
                "ply": after.ply,
                "send": t_send,
                "return": t_return,
                "clients": got,
            }
        )
        if after.legal is not None or not after.active:
            panel = after  # the same seat again (the other one passed), or the end
        else:
            seat = 1 - seat
            panel = parse_panel(request("GET", panel_url, seat)[1])
    clients.close()
    return rows


def layer_test(
    setup: dict, ws_base: str, env: dict, count: int, persistent: bool, layer: str
) -> dict:
    """The channel layer and daphne alone: 4 clients on one game, and a Django process that calls
    live.game_changed() `count` times (or, with `persistent`, the same group_send on an
    event loop that lives as long as the process, the fix suggested in LOAD_RESULTS.md)."""
    game = setup["nudge_games"][0]
    cookies = [f"sessionid={s['session']}; csrftoken={setup['csrf']}" for s in game["seats"]]
    clients = _Clients(
        f"{ws_base}/ws/games/{game['id']}/",
        [[f"Cookie: {cookies[0]}"], [f"Cookie: {cookies[1]}"], [], []],
    )
    # --game=ID: a public id may begin with "-"
    cmd = [str(BIN / "python"), "bench/load/load_setup.py", "send-nudges", f"--game={game['id']}"]
    cmd += ["--count", str(count)] + (["--persistent-loop"] if persistent else [])
    cmd += ["--layer", layer]
    sent = json.loads(sh(cmd, env, capture_output=True).stdout.splitlines()[-1])
    after_call, after_return = [], []
    missing = 0
    for ply, t_call, t_return in sent:
        got = clients.wait(ply, timeout=2)
        missing += 4 - len(got)
        after_call += [(t - t_call) * 1000 for t in got.values()]
        after_return += [(t - t_return) * 1000 for t in got.values()]
    clients.close()
    return {
        "sends": len(sent),
        "missing_nudges": missing,
        "send_call_ms": summary([(r - c) * 1000 for _, c, r in sent]),
        "receipt_after_send_call_ms": summary(after_call),
        "receipt_after_send_returned_ms": summary(after_return),
    }


def created_at(database_url: str, rows: list[dict]) -> None:
    """Add each move's Action.created_at (epoch seconds) to its row."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        for row in rows:
            found = conn.execute(
                "SELECT extract(epoch FROM a.created_at) FROM games_action a "
                "JOIN games_game g ON g.id = a.game_id WHERE g.public_id = %s AND a.ply = %s",
                (row["game"], row["ply"]),
            ).fetchone()
            row["created"] = float(found[0]) if found else None


# -- processes and CPU ----------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its reaped children (clock ticks -> seconds)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def tree(pid: int) -> list[int]:
    """pid and its live descendants."""
    out = [pid]
    for child in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = child.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out += tree(int(child.parent.name))
    return out


def tree_cpu(pid: int) -> float:
    return sum(cpu_seconds(p) for p in tree(pid))


def pg_backends_cpu(database_url: str, dbname: str) -> float:
    import psycopg

    with psycopg.connect(database_url) as conn:
        pids = [
            r[0]
            for r in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (dbname,),
            )
        ]
    return sum(cpu_seconds(p) for p in pids)


def run_env(args: argparse.Namespace) -> dict[str, str]:
    return production_env(
        port=args.http_port,
        database_url=args.database_url,
        redis_url=args.redis_url,
        static_root=OUT / "load_static",
    )


def prepare(args: argparse.Namespace, env: dict) -> None:
    import redis

    ready_database(env, str(BIN / "python"))
    redis.Redis.from_url(args.redis_url).flushdb()


def start_servers(args: argparse.Namespace, env: dict) -> dict[str, subprocess.Popen]:
    OUT.mkdir(parents=True, exist_ok=True)
    logs = {name: OUT / f"load_{name}.log" for name in ("gunicorn", "daphne")}
    access = OUT / "load_access.log"
    access.write_text("")
    app = "config.wsgi:application"
    if args.ws == "pubsub":
        # The same project with the other channel layer, per worker. bench/ is a namespace
        # package from the working directory.
        app = 'bench.load.load_setup:fixed_wsgi_app("pubsub")'
    procs = {
        "gunicorn": subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                app,
                "--workers",
                str(args.workers),
                *(
                    ["--worker-class", "gthread", "--threads", str(args.threads)]
                    if args.threads
                    else []
                ),
                "--bind",
                f"127.0.0.1:{args.http_port}",
                "--no-control-socket",
                "--backlog",
                "2048",
                "--access-logfile",
                str(access),
                # request line, status, microseconds from reading the request to the answer
                "--access-logformat",
                "%(t)s %(m)s %(U)s %(s)s %(D)s",
            ],
            env=env,
            cwd=ROOT,
            stdout=logs["gunicorn"].open("w"),
            stderr=subprocess.STDOUT,
        ),
        "daphne": subprocess.Popen(
            [
                str(BIN / "daphne"),
                "--bind",
                "127.0.0.1",
                "--port",
                str(args.ws_port),
                {
                    "sync": "config.asgi:application",
                    "async": "bench.load.load_setup:ASYNC_CONSUMER_APP",
                    "pubsub": "bench.load.load_setup:PUBSUB_APP",
                }[args.ws],
            ],
            env=env,
            cwd=ROOT,
            stdout=logs["daphne"].open("w"),
            stderr=subprocess.STDOUT,
        ),
    }
    wait_port(args.http_port)
    wait_port(args.ws_port)
    time.sleep(2)  # gunicorn's workers import Django after the master binds
    return procs


def stop(procs: dict[str, subprocess.Popen]) -> None:
    for proc in procs.values():
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs.values():
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def load_run(args, env, procs, think: str, label: str) -> dict:
    setup_file = OUT / f"load_games_{label}.json"
    sh(
        [
            str(BIN / "python"),
            "bench/load/load_setup.py",
            "setup",
            "--games",
            str(args.games),
            "--nudge-games",
            "0",
            "--preplay-max",
            str(args.preplay_max),
            "--seed",
            str(args.seed),
            "--out",
            str(setup_file),
        ],
        env,
    )
    raw_file = OUT / f"load_raw_{label}.json"
    lenv = {
        **env,
        "LOAD_SETUP": str(setup_file),
        "LOAD_WS": f"ws://127.0.0.1:{args.ws_port}",
        "LOAD_THINK": think if "-" in think else f"{think}-{think}",
        "LOAD_WARMUP": str(args.warmup),
        "LOAD_SECONDS": str(args.seconds),
        "LOAD_RAW": str(raw_file),
    }
    users = 2 * args.games
    cmd = [
        args.locust or str(BIN / "locust"),
        "-f",
        "bench/load/load_locust.py",
        "--headless",
        "-u",
        str(users),
        "-r",
        str(max(users // 4, 1)),
        "-t",
        f"{args.warmup + args.seconds}s",
        "--host",
        f"http://127.0.0.1:{args.http_port}",
        "--only-summary",
        "--csv",
        str(OUT / f"load_{label}"),
        "--stop-timeout",
        "10",
        "--loglevel",
        "WARNING",
    ]
    load_before = os.getloadavg()
    with open(OUT / f"load_locust_{label}.log", "w") as log:
        locust = subprocess.Popen(cmd, env=lenv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        # The load is measured between warmup and warmup + seconds; the CPU over the same span.
        time.sleep(args.warmup)
        mid = {name: tree_cpu(p.pid) for name, p in procs.items()}
        locust_mid = tree_cpu(locust.pid)
        pg_mid = pg_backends_cpu(args.database_url, args.database_url.rsplit("/", 1)[1])
        time.sleep(args.seconds)
        after = {name: tree_cpu(p.pid) for name, p in procs.items()}
        locust_after = tree_cpu(locust.pid)
        pg_after = pg_backends_cpu(args.database_url, args.database_url.rsplit("/", 1)[1])
        load_after = os.getloadavg()
        locust.wait(timeout=120)
    cpu = {name: after[name] - mid[name] for name in after}
    cpu["locust"] = locust_after - locust_mid
    cpu["postgres (this database's backends)"] = pg_after - pg_mid
    context = {
        "label": label,
        "think_s": think,
        "games": args.games,
        "bots": users,
        "seconds": args.seconds,
        "loadavg_before": load_before,
        "loadavg_after": load_after,
        "locust_exit": locust.returncode,
    }
    raw = json.loads(raw_file.read_text())  # written by the bots when the test stopped
    return run_figures(raw, OUT / "load_access.log", cpu, context)


def cmd_run(args: argparse.Namespace) -> None:
    env = run_env(args)
    prepare(args, env)
    results = {"machine": machine(), "args": vars(args), "runs": []}
    procs = start_servers(args, env)
    try:
        thinks = [] if args.think == ["none"] else (args.think or ["0"])  # none: nudges only
        for i, think in enumerate(thinks):
            label = f"{args.tag}think{think}-{args.ws}"
            print(f"-- load run {i + 1}/{len(thinks)}: think {think} s", flush=True)
            result = load_run(args, env, procs, think, label)
            results["runs"].append(result)
            print(json.dumps(result, indent=1), flush=True)
        if thinks:
            # The database floor: lock + update + insert transactions/s through
            # Django with the bots' concurrency, on the same database, right after the runs.
            print("-- database floor", flush=True)
            done = sh(
                [str(BIN / "python"), "bench/load/load_setup.py", "floor", "--threads", "16"],
                env,
                capture_output=True,
            )
            results["floor"] = json.loads(done.stdout.strip().splitlines()[-1])
            for run in results["runs"]:
                moves = run.get("moves_per_s")
                if moves is not None:
                    run["of_floor"] = round(moves / results["floor"]["tx_per_s"], 4)
            print(json.dumps(results["floor"]), flush=True)
        if args.nudge_moves:
            print("-- nudge test (idle server)", flush=True)
            setup_file = OUT / "load_games_nudge.json"
            sh(
                [
                    str(BIN / "python"),
                    "bench/load/load_setup.py",
                    "setup",
                    "--games",
                    "0",
                    "--nudge-games",
                    str(max(args.nudge_moves // 40, 2)),
                    "--out",
                    str(setup_file),
                ],
                env,
            )
            before = os.getloadavg()
            data = nudge_test(
                json.loads(setup_file.read_text()),
                f"http://127.0.0.1:{args.http_port}",
                f"ws://127.0.0.1:{args.ws_port}",
                args.nudge_moves,
                args.nudge_pause,
            )
            created_at(args.database_url, data["rows"])
            results["nudge"] = {**nudge_figures(data["rows"]), "loadavg": [before, os.getloadavg()]}
            (OUT / "load_nudge_rows.json").write_text(json.dumps(data["rows"]))
            print(json.dumps(results["nudge"], indent=1), flush=True)
            setup = json.loads(setup_file.read_text())
            ws_base = f"ws://127.0.0.1:{args.ws_port}"
            for persistent in (False, True):
                name = "layer_persistent_loop" if persistent else "layer"
                print(f"-- {name}: group_send -> 4 clients", flush=True)
                layer = "pubsub" if args.ws == "pubsub" else "core"
                results[name] = layer_test(setup, ws_base, env, args.nudge_moves, persistent, layer)
                print(json.dumps(results[name], indent=1), flush=True)
    finally:
        stop(procs)
    name = f"load_{args.tag}{args.ws}"
    (OUT / f"{name}.json").write_text(json.dumps(results, indent=1))
    (OUT / f"{name}.md").write_text(markdown({f"{name}.json": results}))
    print(f"-> {OUT / name}.json, .md")


def cmd_nudge(args: argparse.Namespace) -> None:
    data = nudge_test(
        json.loads(Path(args.setup).read_text()), args.http, args.ws, args.moves, args.pause
    )
    if args.database_url:
        created_at(args.database_url, data["rows"])
    print(json.dumps(nudge_figures(data["rows"]), indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seconds", type=int, default=60)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument(
        "--think", action="append", help="seconds a bot waits before moving: N or MIN-MAX"
    )
    p.add_argument("--workers", type=int, default=(os.cpu_count() or 1) + 1)
    p.add_argument(
        "--threads", type=int, default=0,
        help="gunicorn's gthread workers with N threads each, which keep a client's connection "
        "open between requests (default 0: the README's sync workers, a connection a request)",
    )  # fmt: skip
    p.add_argument("--http-port", type=int, default=18400)
    p.add_argument("--ws-port", type=int, default=18401)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--preplay-max", type=int, default=40,
        help="each game is played a random 0..N plies first (0: every game from its start, so "
        "that a short saturation run ends before the games do)",
    )  # fmt: skip
    p.add_argument(
        "--ws",
        choices=["sync", "async", "pubsub"],
        default="sync",
        help="async: daphne serves GameConsumer's async twin; pubsub: every process uses "
        "channels_redis's RedisPubSubChannelLayer (bench/load/load_setup.py)",
    )
    p.add_argument("--tag", default="", help="prefix of this run's file names in bench/out")
    p.add_argument("--locust", default="", help="the locust command (default: next to python)")
    p.add_argument("--nudge-moves", type=int, default=200)
    p.add_argument("--nudge-pause", type=float, default=0.05)
    p.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/blokus_load")
    p.add_argument("--redis-url", default="redis://127.0.0.1:6379/3")
    p = sub.add_parser("nudge")
    p.add_argument("--setup", required=True)
    p.add_argument("--http", required=True)
    p.add_argument("--ws", required=True)
    p.add_argument("--moves", type=int, default=200)
    p.add_argument("--pause", type=float, default=0.05)
    p.add_argument("--database-url", default="")
    p = sub.add_parser("listen")
    p.add_argument("url")
    p.add_argument("header", help="JSON list of header lines")
    args = parser.parse_args()
    {"run": cmd_run, "nudge": cmd_nudge, "listen": cmd_listen}[args.command](args)


if __name__ == "__main__":
    main()
