"""How long a player waits for three Experts in a 4-player Shuffle game, measured in Chromium.

    .venv/bin/python bench/web/shuffle_wait.py run [--turns 12] [--port 8123] [--queue shuffle-wait]
        [--database-url postgres://blokus:blokus@127.0.0.1:5432/blokus_wait]
        [--redis-url redis://127.0.0.1:6379/6] [--json bench/out/shuffle_wait.json]
    .venv/bin/python bench/web/shuffle_wait.py setup    (inside Django: the game and a session)
    .venv/bin/python bench/web/shuffle_wait.py actions GAME...   (inside Django: actions, timed)

The goal: "a 4-player Shuffle game against three Experts measured in the browser: wait
from a player's confirm to their next decision p95 <= 8 s" (results: bench/AI_RESULTS.md).

`run` does it all, then stops every process it started:

  1. creates the PostgreSQL database if missing, migrates it and collects the static files (to
     bench/out/wait_static);
  2. starts the site in the production layout of the README, with production settings
     (DEBUG=false, Redis, PostgreSQL) over plain HTTP on loopback: one ASGI server for pages and
     websockets (the README's "one ASGI server for both": gunicorn's ASGI worker), so that the
     browser has one origin without a proxy, and one Celery worker (`--concurrency 1`) on a
     queue of its own (`--queue`, so that no other worker on the same Redis takes the turns),
     its search at the production setting AI_SEARCH_THREADS=2;
  3. `setup` (this file, in a Django process with the same environment) creates a player and a
     4-player Shuffle game: the player in seat 1 (blue, first to move), Experts in seats 2-4;
  4. headless Chromium (Playwright, /usr/bin/chromium) opens the game with the player's session
     and plays every decision with the mouse: a card the page offers, drawn by `--seed` (drawn
     per run when not given), the first kept card, colour or piece to recycle, and for a
     placement the largest piece at the first spot of the page's own list of legal placements,
     turned with the Rotate / Flip buttons, put down on the board and sent with "Confirm";
  5. for each of the player's turns, the wait is the wall time from the click that sent the
     turn's last action (the placement's "Confirm") until the page offers the player's next
     decision (a new ply with the decision controls, the board drawn): the Experts' turns in
     between (three in a plain round; fewer when blue played Skip or a colour is out, more when
     blue is skipped), their nudges over the websocket and the page's fetches. Each wait is then
     split by the actions' commit times (`actions`, in Django): the player's own request, the
     computers' turns, the delivery to the page. Games are played until `--turns` waits are
     measured (a game that ends starts another; the wait that ends with the game is left out);
  6. prints the figures and writes them, with every wait, to `--json`.

Everything stays on loopback. The browser runs on the same cores as the worker: its own CPU is
part of what a player's machine would spend, but here it also takes cores from the search.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on the import path: drop it, so that no file of
# bench/ can shadow a library module (as bench/load/load_setup.py does).
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    del sys.path[0]

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.production import production_env, ready_database, sh, wait_port  # noqa: E402

OUT = ROOT / "bench" / "out"
BIN = Path(sys.executable).parent
CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 180_000  # the longest wait the driver accepts before it calls the run failed
# The board's SVG geometry (static/js/board.js): viewBox size, margins, square size.
VIEW_W, VIEW_H, LEFT, TOP, SQUARE = 211, 210, 9, 1, 10


# -- the services ---------------------------------------------------------------------------


def run_env(args: argparse.Namespace) -> dict[str, str]:
    return production_env(
        port=args.port,
        database_url=args.database_url,
        redis_url=args.redis_url,
        static_root=OUT / "wait_static",
        CELERY_TASK_DEFAULT_QUEUE=args.queue,
        AI_SEARCH_THREADS="2",  # the production setting (config/settings.py)
    )


def prepare(args: argparse.Namespace, env: dict) -> None:
    ready_database(env, str(BIN / "python"))


def wait_log(path: Path, text: str, seconds: float = 180) -> None:
    end = time.time() + seconds
    while time.time() < end:
        if path.exists() and text in path.read_text(errors="replace"):
            return
        time.sleep(0.5)
    raise RuntimeError(f"{path.name} never said {text!r}")


def start(args: argparse.Namespace, env: dict) -> dict[str, subprocess.Popen]:
    OUT.mkdir(parents=True, exist_ok=True)
    logs = {name: OUT / f"wait_{name}.log" for name in ("web", "worker")}
    procs = {
        "web": subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "config.asgi:application",
                "--worker-class",
                "asgi",
                "--workers",
                str(args.web_workers),
                "--bind",
                f"127.0.0.1:{args.port}",
                "--no-control-socket",
            ],
            env=env,
            cwd=ROOT,
            stdout=logs["web"].open("w"),
            stderr=subprocess.STDOUT,
        ),
        "worker": subprocess.Popen(
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "-l",
                "info",  # for its "ready" line
                "--concurrency",
                "1",
                "-Q",
                f"{args.queue},{args.queue}-notices",  # the notices' queue too (config/settings.py)
                "-n",
                f"{args.queue}@%h",
                "--without-mingle",
                "--without-gossip",
            ],
            env=env,
            cwd=ROOT,
            stdout=logs["worker"].open("w"),
            stderr=subprocess.STDOUT,
        ),
    }
    wait_port(args.port)
    # The worker warms the search up (numba's cache, the tables) before it says it is ready.
    wait_log(logs["worker"], "ready.")
    return procs


def stop(procs: dict[str, subprocess.Popen]) -> None:
    for proc in procs.values():
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs.values():
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def new_game(env: dict) -> dict:
    done = sh([str(BIN / "python"), "bench/web/shuffle_wait.py", "setup"], env, capture_output=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- the Django side ------------------------------------------------------------------------


def cmd_setup(_args: argparse.Namespace) -> None:
    """A player and a 4-player Shuffle game against three Experts; prints its id and a session."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )

    from games import services
    from games.models import Seat
    from games.services import SeatSpec

    users = get_user_model()
    user = users.objects.filter(username="waiter").first()
    if user is None:
        user = users.objects.create_user("waiter", "waiter@example.com", None)
    game = services.game_create(
        creator=user,
        mode="shuffle",
        players=4,
        seats=[SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.AI, level="expert")] * 3,
        rated=False,
    )
    store = import_module(settings.SESSION_ENGINE).SessionStore()  # as login() stores it
    store[SESSION_KEY] = user._meta.pk.value_to_string(user)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    print(json.dumps({"game": game.public_id, "session": store.session_key}))


def cmd_actions(args: argparse.Namespace) -> None:
    """Every action of the games: [ply, seat, by the computer, committed at (epoch s)]."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from games.models import Action

    out = {}
    for public_id in args.games:
        rows = Action.objects.filter(game__public_id=public_id).order_by("ply")
        out[public_id] = [
            [a.ply, a.seat, a.by_ai, a.created_at.timestamp()]
            for a in rows.only("ply", "seat", "by_ai", "created_at")
        ]
    print(json.dumps(out))


def annotate(rows: list[dict], actions: dict) -> None:
    """Split each wait by the actions' commit times: the player's own action (click to commit),
    the computers' turns (that commit to the last computer action's), and the delivery (that
    commit to the decision on the page: nudge, fetch, render); and count the computer turns
    (runs of actions by one computer seat)."""
    for row in rows:
        if not row["turn_end"]:
            continue
        by_ply = {a[0]: a for a in actions[row["game"]]}
        first, last = row["ply"] + 1, row["ply"] + row["plies"]
        mine, theirs = by_ply.get(first), [by_ply[p] for p in range(first + 1, last + 1)]
        if mine is None or not theirs or any(not a[2] for a in theirs):
            continue
        seats = [a[1] for a in theirs]
        row["computer_turns"] = 1 + sum(1 for a, b in zip(seats, seats[1:], strict=False) if a != b)
        row["own_s"] = round(mine[3] - row["clicked"], 3)
        row["computers_s"] = round(theirs[-1][3] - mine[3], 3)
        row["delivery_s"] = round(row["offered"] - theirs[-1][3], 3)


# -- the player, in the browser -------------------------------------------------------------

# The page has moved past ``ply`` and settled: the page's state, read once it has (the decision
# controls are shown only to the seat that decides; no live socket once the game has ended).
SETTLED_JS = """ply => { const g = document.querySelector('#game');
    if (!g || !(+g.dataset.ply > ply) || g.classList.contains('htmx-settling')) return false;
    if (!g.dataset.live) return 'over';
    if (!g.querySelector('[data-board-root][data-ready]')) return false;
    return g.querySelector('.controls') ? 'decision' : 'waiting'; }"""
# The page offers the player a decision (as tests/e2e/test_play_in_browser.py waits for one), or
# the game has ended.
DECISION_JS = """ply => { const g = document.querySelector('#game');
    if (!g || !(+g.dataset.ply > ply) || g.classList.contains('htmx-settling')) return false;
    if (!g.dataset.live) return 'over';
    return !!g.querySelector('[data-board-root][data-ready]')
        && !!g.querySelector('.controls') && 'decision'; }"""


def cells(text: str) -> list[tuple[int, int]]:
    return [(ord(sq[0]) - ord("a"), int(sq[1:]) - 1) for sq in text.split(",")]


def shape(text: str) -> list[tuple[int, int]]:
    cs = cells(text)
    mx, my = min(x for x, _ in cs), min(y for _, y in cs)
    return sorted((x - mx, y - my) for x, y in cs)


def handle(text: str) -> tuple[int, int]:
    """The square under the pointer when the ghost covers ``text``: the middle of its box."""
    cs = cells(text)
    mx, my = min(x for x, _ in cs), min(y for _, y in cs)
    w, h = max(x for x, _ in cs) - mx + 1, max(y for _, y in cs) - my + 1
    return mx + (w - 1) // 2, my + (h - 1) // 2


class Player:
    """The player's page, driven with the mouse."""

    def __init__(self, page, rng: random.Random):
        self.page = page
        self.rng = rng
        self.retries = 0  # decisions started afresh after the page re-rendered under them

    def ply(self) -> int:
        return int(self.page.locator("#game").get_attribute("data-ply"))

    def legal(self) -> dict:
        return json.loads(self.page.locator("#game #legal").text_content())

    def step(self) -> str:
        classes = self.page.locator("#game .controls .step").get_attribute("class")
        return classes.split("step-")[1].split()[0]

    def wait(self, script: str, after_ply: int) -> str:
        return self.page.wait_for_function(script, arg=after_ply, timeout=WAIT_MS).json_value()

    def decide(self) -> tuple[str, float]:
        """Take the decision on offer: (its step, the time of the click that sent it)."""
        step = self.step()
        if step == "card":
            values = self.page.locator("#game .step-card button.card").evaluate_all(
                "buttons => buttons.map(b => b.value)"
            )
            # Any card the page offers, drawn by the run's seed: a fixed preference would bias
            # the waits (Skip shortens the next round, and the computers answer in kind).
            value = self.rng.choice(sorted(set(values)))
            button = self.page.locator(f"#game .step-card button.card[value='{value}']")
            return step, self.click(button.first)
        if step in ("keep", "recycle", "declare"):
            return step, self.click(self.page.locator(f"#game .step-{step} button").first)
        legal = self.legal()
        if step == "warp":
            source = sorted(legal["moves"])[0]
            self.point(cells(source)[0])
            target = legal["moves"][source][0]
            return step, self.put(self.page.locator(".tray-piece").first, target)
        placements = legal["placements"]  # setup, place, place_second: the largest piece
        piece = max(placements, key=lambda p: (len(placements[p][0].split(",")), p))
        tray = self.page.locator(f".tray-piece[data-piece='{piece}']")
        return step, self.put(tray, placements[piece][0])

    def decide_again(self, tries: int = 4) -> tuple[str, float]:
        """``decide``, started afresh when the page re-renders its panel under the pointer (a
        late nudge's fetch can replace the board between two clicks of a placement)."""
        from playwright.sync_api import Error

        for attempt in range(tries):
            try:
                return self.decide()
            except Error as exc:
                if "not attached" not in str(exc) or attempt == tries - 1:
                    raise
                self.retries += 1
                self.page.wait_for_timeout(300)
                self.page.keyboard.press("Escape")  # drop a piece picked up, if any
        raise AssertionError("unreachable")

    def click(self, locator) -> float:
        began = time.time()  # the click scrolls the button into view itself
        locator.click()
        return began

    def put(self, tray_piece, target: str) -> float:
        """Pick the piece up, turn it to the target's shape, put it down and confirm."""
        board = self.page.locator(".board-svg")
        tray_piece.click()
        for turn in range(8):  # R turns a quarter, F flips: eight orientations at most
            ghost = board.get_attribute("data-ghost") or ""
            if ghost and shape(ghost) == shape(target):
                break
            name = "Flip (F)" if turn == 3 else "Rotate (R)"
            self.page.get_by_role("button", name=name).click()
        board.scroll_into_view_if_needed()
        self.page.mouse.move(*self.square_point(handle(target)))
        self.point(handle(target))  # puts it down: nothing is sent before "Confirm"
        confirm = self.page.get_by_role("button", name="Confirm")
        began = time.time()  # wall time: compared with the actions' commit times
        confirm.click()
        return began

    def square_point(self, square: tuple[int, int]) -> tuple[float, float]:
        box = self.page.locator(".board-svg").bounding_box()
        x, y = square
        ux = LEFT + (x + 0.5) * SQUARE
        uy = TOP + (19 - y + 0.5) * SQUARE
        return box["x"] + ux * box["width"] / VIEW_W, box["y"] + uy * box["height"] / VIEW_H

    def point(self, square) -> None:
        self.page.mouse.click(*self.square_point(square))


def play(browser, base, game: dict, turns: int, rows: list[dict], progress, rng) -> None:
    """Play one game until it ends or ``turns`` waits are measured (rows: every decision)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": game["session"], "url": base}])
    context.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/games/{game['game']}/")
    player = Player(page, rng)
    try:
        if player.wait(DECISION_JS, -1) == "over":
            return
        while sum(1 for r in rows if r["turn_end"]) < turns:
            before = player.ply()
            step, began = player.decide_again()
            # The page's answer: the player's next decision of the same turn (a card is followed
            # by its placement), or the computers' turns, then the player's next decision.
            seen = player.wait(SETTLED_JS, before)
            turn_end = seen == "waiting"
            if turn_end:
                seen = player.wait(DECISION_JS, player.ply())
            ended = time.time()
            row = {
                "game": game["game"],
                "ply": before,
                "step": step,
                "turn_end": turn_end and seen == "decision",
                "over": seen == "over",
                "seconds": round(ended - began, 3),
                "clicked": began,
                "offered": ended,
                "plies": player.ply() - before,
                "load1": round(os.getloadavg()[0], 2),
                "retries": player.retries,
            }
            rows.append(row)
            progress(row)
            if seen == "over":
                return
    except Exception:
        page.screenshot(path=str(OUT / "wait_failure.png"), full_page=True)
        (OUT / "wait_failure.html").write_text(page.content())
        raise
    finally:
        if errors:
            print("page errors:", errors[:5], file=sys.stderr)
        context.close()


def percentile(values: list[float], q: float) -> float:
    """The q-quantile by linear interpolation between the closest ranks (numpy's default)."""
    s = sorted(values)
    k = (len(s) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def summary(values: list[float]) -> dict:
    return {
        "n": len(values),
        "p50": round(statistics.median(values), 2),
        "p95": round(percentile(values, 0.95), 2),
        "max": round(max(values), 2),
    }


def figures(rows: list[dict]) -> dict:
    turns = [r for r in rows if r["turn_end"]]
    inner = [r["seconds"] for r in rows if not r["turn_end"] and not r["over"]]
    out: dict = {"turns": len(turns)}
    if turns:
        out["wait"] = summary([r["seconds"] for r in turns])
        # One round: the three computers played once each between the player's turns (no Skip
        # of blue, no colour out of the game).
        round_ = [r["seconds"] for r in turns if r.get("computer_turns") == 3]
        if round_:
            out["wait_three_computer_turns"] = summary(round_)
        split = [r for r in turns if "computers_s" in r]
        if split:
            out["parts"] = {
                part: summary([r[part] for r in split])
                for part in ("own_s", "computers_s", "delivery_s")
            }
            per_turn = [r["computers_s"] / r["computer_turns"] for r in split]
            out["computer_turn_s"] = summary(per_turn)
            counts = sorted({r["computer_turns"] for r in split})
            out["by_computer_turns"] = {
                n: summary([r["seconds"] for r in split if r["computer_turns"] == n])
                for n in counts
            }
    if inner:  # the player's decisions inside a turn: the page's answer to a card, a keep
        out["within_turn"] = summary(inner)
    return out


def cmd_run(args: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    env = run_env(args)
    prepare(args, env)
    procs = start(args, env)
    rows: list[dict] = []
    uptime_before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    began = time.time()
    base = f"http://127.0.0.1:{args.port}"
    if args.seed is None:
        args.seed = random.randrange(100_000)  # drawn per run, written in the results
    rng = random.Random(args.seed)

    def progress(row: dict) -> None:
        mark = "turn" if row["turn_end"] else "    "
        print(
            f"{mark} {row['step']:<12} {row['seconds']:6.2f} s  +{row['plies']} plies", flush=True
        )

    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            games = 0
            while sum(1 for r in rows if r["turn_end"]) < args.turns and games < args.max_games:
                games += 1
                play(browser, base, new_game(env), args.turns, rows, progress, rng)
            browser.close()
        played = sorted({r["game"] for r in rows})
        done = sh(
            [str(BIN / "python"), "bench/web/shuffle_wait.py", "actions", *played],
            env,
            capture_output=True,
        )
        annotate(rows, json.loads(done.stdout.strip().splitlines()[-1]))
    finally:
        stop(procs)
    uptime_after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    result = {
        "figures": figures(rows),
        "games": games,
        "seconds": round(time.time() - began, 1),
        "uptime": [uptime_before, uptime_after],
        "cores": os.cpu_count(),
        "args": {k: v for k, v in vars(args).items() if k != "func"},
        "rows": rows,
    }
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=1))
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=1))
    print(f"-> {args.json}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="start the site, play, measure, stop")
    run.add_argument("--turns", type=int, default=12, help="the player's turns to measure")
    run.add_argument("--max-games", type=int, default=5)
    run.add_argument("--seed", type=int, help="the player's card choices (default: drawn)")
    run.add_argument("--port", type=int, default=8123)
    run.add_argument("--web-workers", type=int, default=3, help="gunicorn workers (cores + 1)")
    run.add_argument("--queue", default="shuffle-wait", help="the Celery queue of this run")
    run.add_argument(
        "--database-url", default="postgres://blokus:blokus@127.0.0.1:5432/blokus_wait"
    )
    run.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    run.add_argument("--json", default=str(OUT / "shuffle_wait.json"))
    run.set_defaults(func=cmd_run)
    setup = sub.add_parser("setup", help="(inside Django) a game against three Experts")
    setup.set_defaults(func=cmd_setup)
    actions = sub.add_parser("actions", help="(inside Django) the games' actions, timed")
    actions.add_argument("games", nargs="+")
    actions.set_defaults(func=cmd_actions)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
