"""The load bench's bots, for locust: each is one player of one 2-player game, and does what the
game page's JavaScript does (static/js/live.js, board.js).

    .venv/bin/locust -f bench/load/load_locust.py --headless ...   (load.py `run` starts it so)

A bot holds a websocket on /ws/games/<id>/; when a nudge names a newer ply it GETs the panel
(HX-Request); when the panel says it decides (it holds the engine's legal placements, the `legal`
JSON script that board.js reads), it waits its think time, picks a placement at random and POSTs it
to act with the ply and key the panel gave, as htmx does; the answer is 204 with the ply reached,
and the bot then fetches its new panel, as live.js does.

The runner passes the run in the environment: LOAD_SETUP (the games and the players' sessions that
bench/load/load_setup.py wrote), LOAD_WS (ws://host:port), LOAD_THINK ("MIN-MAX" seconds),
LOAD_WARMUP and LOAD_SECONDS (only moves after the warmup, within the seconds, are counted),
LOAD_RAW (where the bots' raw figures go when the test stops; bench/load/load_report.py turns them
into the run's figures).

Only locust imports this file: importing locust patches the standard library for gevent, which
the runner must not have, and the module reads its environment at import. locust puts this file's
folder first on the import path while it imports it, so ``load`` below is bench/load/load.py, the
runner (standard library only; importing it starts nothing).
"""

from __future__ import annotations

import json
import os
import random
import time
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path

import gevent
import gevent.event
import websocket
from load import OUT, Panel, choose, parse_panel
from locust import FastHttpUser, constant, events, task

SETUP = json.loads(Path(os.environ["LOAD_SETUP"]).read_text())
WS_URL = os.environ["LOAD_WS"]  # ws://127.0.0.1:port
THINK = tuple(float(x) for x in os.environ.get("LOAD_THINK", "0-0").split("-"))
WARMUP = float(os.environ.get("LOAD_WARMUP", "10"))
SECONDS = float(os.environ.get("LOAD_SECONDS", "60"))
RAW_OUT = os.environ.get("LOAD_RAW", str(OUT / "load_raw.json"))
CSRF = SETUP["csrf"]
SEATS = iter([(g["id"], s["seat"], s["session"]) for g in SETUP["games"] for s in g["seats"]])
RAW: dict = {
    "post_ms": [],  # POST act round trip (send -> whole answer read), counted window only
    "panel_ms": [],  # GET panel after a nudge
    "posted": {},  # "game:ply" -> [t_send, t_return] (epoch seconds) of the move's POST
    "nudged": [],  # [game, ply, seat, t_receive]
    "visible_ms": [],  # mover's POST sent -> opponent's refreshed panel read
    "errors": {},
    "moves": 0,
    "bots_done": 0,  # bots whose game ended during the run
}
T0 = [0.0]  # test start (epoch seconds)


def counted(t: float) -> bool:
    return T0[0] + WARMUP <= t <= T0[0] + WARMUP + SECONDS


def error(name: str) -> None:
    RAW["errors"][name] = RAW["errors"].get(name, 0) + 1


@events.test_start.add_listener
def _start(environment, **kwargs):
    T0[0] = time.time()

    def reset():  # locust's own table then covers the counted window only
        gevent.sleep(WARMUP)
        environment.stats.reset_all()

    gevent.spawn(reset)


@events.test_stop.add_listener
def _stop(environment, **kwargs):
    RAW["window"] = [T0[0] + WARMUP, T0[0] + WARMUP + SECONDS]
    RAW["think"] = THINK
    Path(RAW_OUT).write_text(json.dumps(RAW))


class Bot(FastHttpUser):
    """One player of one game (2 bots per game)."""

    wait_time = constant(0)
    network_timeout = 120.0
    connection_timeout = 30.0

    def on_start(self):
        try:
            self.game, self.seat, session = next(SEATS)
        except StopIteration:  # more users than seats: nothing to do
            self.panel = Panel(0, False, "", None)
            return
        # The cookies go in a header of their own: production marks them Secure, and the
        # run is plain HTTP on loopback. The jar is switched off so that a Set-Cookie never
        # replaces them.
        self.client.cookiejar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
        self.cookie = f"sessionid={session}; csrftoken={CSRF}"
        self.headers = {"HX-Request": "true", "X-CSRFToken": CSRF, "Cookie": self.cookie}
        self.rng = random.Random(f"{self.game}:{self.seat}")
        self.url = f"/games/{self.game}"
        self.seen = 0  # the newest ply a nudge named
        self.wake = gevent.event.Event()
        self.resync = False  # the socket was reopened: fetch the panel again
        self.stopping = False
        self.ws = self.connect()
        self.listener = gevent.spawn(self.listen)
        self.panel = None
        while self.panel is None:
            self.panel = self.fetch("GET panel (first)")

    def connect(self):
        ws = websocket.create_connection(
            f"{WS_URL}/ws/games/{self.game}/",
            header=[f"Cookie: {self.cookie}"],
            origin="http://127.0.0.1",
            timeout=30,
        )
        ws.settimeout(None)  # a socket may stay silent for minutes between moves
        return ws

    def on_stop(self):
        self.stopping = True
        ws = getattr(self, "ws", None)
        if ws is not None:
            ws.close()

    def listen(self):
        while True:
            try:
                message = self.ws.recv()
            except Exception:
                message = None
            if not message:
                if self.stopping:
                    return
                # Closed by the server: reopen after 1 s and re-sync, as live.js does.
                error("websocket closed by the server (reopened after 1 s)")
                gevent.sleep(1)
                try:
                    self.ws = self.connect()
                except Exception:
                    error("websocket could not be reopened")
                    return
                self.resync = True
                self.wake.set()
                continue
            t = time.time()
            data = json.loads(message)
            if data.get("type") != "game.changed":
                continue
            if counted(t):
                RAW["nudged"].append([self.game, data["ply"], self.seat, t])
            if data["ply"] > self.seen:
                self.seen = data["ply"]
                self.wake.set()

    def fetch(self, name: str) -> Panel | None:
        with self.client.get(
            f"{self.url}/panel/", headers=self.headers, name=name, catch_response=True
        ) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}")
                error(f"{name}: HTTP {response.status_code}")
                gevent.sleep(1)
                return None
            return parse_panel(response.text)

    @task
    def turn(self):
        panel = self.panel
        if not panel.active:  # the game is over (or this bot has no seat): sit it out
            if not getattr(self, "done", False):
                self.done = True
                RAW["bots_done"] += 1
            gevent.sleep(5)
            return
        if panel.legal is None:
            # Not this seat's decision: wait for a nudge naming a newer ply (the page polls
            # every 60 s besides), then fetch the panel again, as live.js does.
            while self.seen <= panel.ply and not self.resync:
                self.wake.clear()
                if not self.wake.wait(timeout=60):
                    error("no nudge for 60 s (fetched the panel as the page's poll does)")
                    break
            self.resync = False
            t = time.time()
            fresh = self.fetch("GET panel (after nudge)")
            done = time.time()
            if fresh is None:
                return
            if counted(done):
                RAW["panel_ms"].append((done - t) * 1000)
                posted = RAW["posted"].get(f"{self.game}:{fresh.ply}")
                if posted and fresh.legal is not None:
                    RAW["visible_ms"].append((done - posted[0]) * 1000)
            self.panel = fresh
            return
        low, high = THINK
        if high > 0:
            gevent.sleep(self.rng.uniform(low, high))
        action = choose(panel.legal, self.rng)
        data = {"action": json.dumps(action), "ply": str(panel.ply), "key": panel.key}
        t = time.time()
        with self.client.post(
            f"{self.url}/act/",
            data=data,
            headers=self.headers,
            name="POST act",
            catch_response=True,
        ) as response:
            done = time.time()
            if response.status_code != 204:
                response.failure(f"HTTP {response.status_code}")
                error(f"POST act: HTTP {response.status_code}")
                self.panel = self.fetch("GET panel (after an error)") or panel
                return
            # A move answers 204 with the ply it reached (HX-Trigger "game-moved"); the page
            # then fetches its panel for that ply, as live.js does.
            ply = json.loads(response.headers["HX-Trigger"])["game-moved"]["ply"]
        RAW["posted"][f"{self.game}:{ply}"] = [t, done]
        if counted(done):
            RAW["post_ms"].append((done - t) * 1000)
            RAW["moves"] += 1
        self.panel = self.fetch("GET panel (after own move)") or panel
