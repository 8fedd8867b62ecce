"""The load bench (bench/load/load.py, the runner; bench/load/load_locust.py, the bots;
bench/load/load_report.py, the figures) without its services: the command line answers, no bench
module hides a standard one, the report's arithmetic and tables, and the bots read the game page
the site really serves. The full run needs PostgreSQL, Redis and locust (bench/load/load.py's
docstring)."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from games import services
from games.models import Seat
from games.services import SeatSpec

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "load"


@pytest.fixture
def bench(monkeypatch):
    """bench/load/ first on the import path, as when its scripts run; its modules, imported."""
    monkeypatch.syspath_prepend(str(BENCH))
    for name in ("load", "load_report"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return importlib.import_module("load"), importlib.import_module("load_report")


def test_the_runner_answers_help_with_its_commands():
    out = {}
    for command in ("", "run"):
        done = subprocess.run(
            [sys.executable, "bench/load/load.py", *command.split(), "--help"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        out[command] = done.stdout
    assert "{run,nudge,listen}" in out[""]
    assert "--think" in out["run"] and "--nudge-moves" in out["run"]


def test_no_bench_module_hides_a_standard_or_installed_one():
    # A bench script runs with its folder first on the import path (and locust imports the bots'
    # file so): a bench script named http.py once hid the standard `http`.
    installed = set(importlib.metadata.packages_distributions())
    names = {path.stem for path in (ROOT / "bench").glob("*/*.py")}
    names |= {path.stem for path in (ROOT / "bench").glob("*.py")}
    assert {"load", "load_report", "arena", "page_cpu"} <= names
    assert names & (set(sys.stdlib_module_names) | installed) == set()


def test_the_runner_imports_nothing_but_the_standard_library_and_the_report():
    # bench/load/load_locust.py imports it under locust; it must not start or patch anything.
    code = (
        "import json, sys; before = set(sys.modules); import load; "
        "print(json.dumps(sorted({m.split('.')[0] for m in set(sys.modules) - before})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=BENCH, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    outside = set(json.loads(done.stdout)) - set(sys.stdlib_module_names)
    # bench.production: the production layout's environment, shared with two other benches
    # (the standard library only; psycopg is imported when a database is made ready).
    assert outside <= {"load", "load_report", "bench"}


def test_percentiles_interpolate_between_ranks(bench):
    _, report = bench
    assert report.pct([], 50) is None
    assert report.pct([5, 1, 3, 2, 4], 50) == 3
    assert report.pct([10, 20], 95) == pytest.approx(19.5)
    assert report.summary([1.0, 2.0, 3.0]) == {
        "n": 3,
        "p50": 2.0,
        "p95": pytest.approx(2.9),
        "p99": pytest.approx(2.98),
        "max": 3.0,
        "mean": 2.0,
    }


def test_a_run_figures_and_its_table(bench, tmp_path):
    _, report = bench
    log = tmp_path / "access.log"
    # gunicorn's access lines: two in the counted window (one POST, one GET), one after it.
    log.write_text(
        "[23/Nov/2026:10:00:05 +0000] POST /games/abc/act/ 200 42000\n"
        "[23/Nov/2026:10:00:06 +0000] GET /games/abc/panel/ 200 9000\n"
        "[23/Nov/2026:10:01:30 +0000] POST /games/abc/act/ 200 99000\n"
    )
    start = 1795428000.0  # 23 Nov 2026 10:00:00 UTC
    raw = {
        "window": [start, start + 60],
        "moves": 120,
        "post_ms": [40.0, 50.0],
        "panel_ms": [10.0],
        "visible_ms": [70.0],
        "posted": {"abc:5": [start + 5, start + 5.04]},
        "nudged": [["abc", 5, 1, start + 5.05], ["abc", 6, 1, start + 7]],  # ply 6: no POST
        "errors": {"POST act: HTTP 409": 2},
    }
    context = {"label": "think0-sync", "think_s": "0", "games": 1, "bots": 2, "seconds": 60}

    run = report.run_figures(raw, log, {"gunicorn": 6.0}, context)

    assert run["moves_per_s"] == 2.0
    assert run["server_time_ms"]["POST act"]["n"] == 1  # the late line is out of the window
    assert run["server_time_ms"]["POST act"]["p50"] == 42.0
    assert run["server_time_ms"]["GET panel"]["statuses"] == {"200": 1}
    assert run["nudge_after_post_return_ms_under_load"]["n"] == 1
    assert run["nudge_after_post_return_ms_under_load"]["p50"] == pytest.approx(10.0)
    assert run["server_cpu_ms_per_move"] == {"gunicorn": 50.0}
    results = {
        "machine": {"cpu": "Test CPU", "nproc": 2, "python": "3.13", "locust": "2", "git": "abc1"},
        "args": {
            "games": 1,
            "seconds": 60,
            "warmup": 10,
            "think": ["0"],
            "workers": 3,
            "ws": "sync",
            "nudge_moves": 0,
        },
        "runs": [run],
    }
    table = report.markdown({"load_sync.json": results})
    row = next(line for line in table.splitlines() if line.startswith("| think0-sync"))
    assert "| 2.0 |" in row and "42.0 / 42.0 / 42.0 ms" in row and "| 50.0 ms | 2 |" in row
    assert "--games 1 --seconds 60 --warmup 10 --think 0 --workers 3" in table


def test_the_bots_read_and_play_the_panel_the_site_serves(bench, client, alice, bob):
    load, _ = bench
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    client.force_login(alice)  # seat 0 (blue) moves first
    panel_url = reverse("game_panel", args=[game.public_id])
    act_url = reverse("game_act", args=[game.public_id])

    panel = load.parse_panel(client.get(panel_url, headers={"HX-Request": "true"}).text)

    assert (panel.ply, panel.active) == (0, True) and panel.key
    action = load.choose(panel.legal, random.Random(1))
    answer = client.post(
        act_url,
        {"action": json.dumps(action), "ply": panel.ply, "key": panel.key},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 204  # a move answers with the ply it reached
    reached = json.loads(answer.headers["HX-Trigger"])["game-moved"]["ply"]
    after = load.parse_panel(client.get(panel_url, headers={"HX-Request": "true"}).text)
    assert after.ply == reached > panel.ply and after.legal is None  # yellow (bob) decides now
    with pytest.raises(ValueError, match="data-ply"):
        load.parse_panel("<html>not a game</html>")
