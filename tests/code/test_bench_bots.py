"""bench/web/bots.py (fifty bots through the API against the pages) without its services: the
command line answers, a bot's random action from the seat's view is legal, the page players read
and play the panel the site serves, and the report's table. The full run needs PostgreSQL and
Redis (its docstring)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

from bench.web import bots
from games import engine, services
from games.models import Game, Seat
from games.selectors import table
from games.services import SeatSpec
from tests.support.pages import HTMX, act_url, client_for, panel_url

ROOT = Path(__file__).resolve().parents[2]


def test_it_answers_help():
    done = subprocess.run(
        [sys.executable, "bench/web/bots.py", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "--bots" in done.stdout and "--paths" in done.stdout


@pytest.fixture
def classic(alice, bob) -> Game:
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_a_bots_random_action_from_its_view_is_legal(classic):
    rng = random.Random(3)
    for _ in range(6):
        seat = classic.seats.get(index=classic.to_move_seat)
        view = table.seat_snapshot(classic, seat)["view"]  # what the stream's game line carries
        action = bots.random_action(view, rng)
        assert action in engine.legal_actions(classic.current_state())
        services.action_submit(
            game=classic, user=seat.user, action=action, expected_ply=classic.ply
        )
        classic.refresh_from_db()


@pytest.mark.django_db
def test_the_page_players_read_and_play_the_panel_the_site_serves(classic, alice):
    client = client_for(alice)
    html = client.get(panel_url(classic), **HTMX).content.decode()
    assert int(bots.PLY_RE.search(html).group(1)) == 0 and bots.LIVE_RE.search(html)
    placements = json.loads(bots.LEGAL_RE.search(html).group(1))["placements"]
    piece = sorted(placements)[0]
    body = {
        "action": json.dumps({"place": placements[piece][0]}),
        "ply": "0",
        "key": bots.KEY_RE.search(html).group(1),
    }
    answer = client.post(
        act_url(classic),
        urllib.parse.urlencode(body),
        content_type="application/x-www-form-urlencoded",
        **HTMX,
    )
    assert answer.status_code == 204
    classic.refresh_from_db()
    assert classic.ply == 1


def test_the_report_has_a_row_a_path_with_the_machine():
    def run(path, moves):
        return {
            "path": path,
            "moves": moves,
            "moves_per_s": moves / 60,
            "latency_ms": {"p50": 120.0, "p95": 300.0},
            "post_ms": {"p50": 60.0, "p95": 150.0},
            "cpu_ms_per_move": {"gunicorn": 15.0, "daphne": 18.0, "worker": 1.5, "postgres": 8.0},
            "servers_ms_per_move": 34.5,
            "clients_cpu_s": 20.0,
            "load_samples": [6.5, 8.0],
            "errors": {},
        }

    report = {
        "date": "2026-11-28 02:00 UTC",
        "machine": {
            "cpu": "AMD EPYC",
            "cores": 2,
            "python": "3.13.0",
            "commit": "abc1234",
            "load_at_start": [7.1, 6.0, 5.0],
        },
        "args": {"bots": 50, "warmup": 10, "seconds": 60},
        "runs": [run("api", 900), run("pages", 600)],
    }
    text = bots.markdown(report)
    assert "2 cores" in text and "7.1 / 6.0 / 5.0" in text and "25 games at a time" in text
    assert "| API (stream + POST) | 15.0 (900 moves) | 120 / 300 |" in text
    assert "| pages (websocket + panel + act) | 10.0 (600 moves) |" in text
    assert "15.0 + 18.0 + 1.5 = 34.5; 8.0" in text
