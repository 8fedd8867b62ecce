"""The command line of RECORD.md: ``python -m games.engine state|legal|score|bench RECORD``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = {"format": "blokus-record/1", "mode": "classic", "players": 4, "actions": []}


def engine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_legal_on_the_empty_board_lists_232_setup_placements(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(CLASSIC))
    done = engine("legal", str(path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["to_move"] == "blue" and out["step"] == "setup"
    assert len(out["actions"]) == 232
    assert len({a["place"] for a in out["actions"]}) == 232  # listed once each
    assert {"place": "a1,a2,b1"} in out["actions"]  # squares sorted column by column


def test_state_reads_standard_input_and_prints_the_referee_view():
    record = {**CLASSIC, "actions": [{"place": "a20,b20,b19"}]}
    done = engine("state", "-", stdin=json.dumps(record))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["board"][0] == "BB" + "." * 18  # row 20 first
    assert out["board"][1] == ".B" + "." * 18
    assert out["to_move"] == "yellow" and out["step"] == "setup" and out["direction"] == 1
    assert out["over"] is False
    assert "V3" not in out["supply"]["blue"] and len(out["supply"]["yellow"]) == 21
    for key in ("hands", "draw_piles", "discards"):
        assert key in out


def test_state_shows_hands_and_piles_of_a_shuffle_game():
    record = {
        "format": "blokus-record/1",
        "mode": "shuffle",
        "players": 2,
        "seed": 20261122,
        "actions": [{"place": "a1"}],
    }
    out = json.loads(engine("state", "-", stdin=json.dumps(record)).stdout)
    assert set(out["hands"]) == {"blue", "yellow"}
    assert len(out["hands"]["blue"]) == 2 and len(out["draw_piles"]["blue"]) == 26  # R3.2
    assert len(out["hands"]["yellow"]) == 0 and len(out["draw_piles"]["yellow"]) == 28


def test_score_reports_remaining_points_and_players():
    done = engine("score", "-", stdin=json.dumps({**CLASSIC, "actions": [{"place": "a1"}]}))
    out = json.loads(done.stdout)
    assert out["over"] is False
    assert out["remaining"] == {"blue": 88, "yellow": 89, "red": 89, "green": 89}
    assert [p["score"] for p in out["players"]] == [88, 89, 89, 89]
    assert out["players"][0]["place"] == 1


def test_bench_reports_calls_and_time():
    out = json.loads(engine("bench", "-", stdin=json.dumps(CLASSIC)).stdout)
    assert out["actions"] == 232 and out["calls"] >= 3 and out["ms_per_call"] > 0


@pytest.mark.parametrize(
    "stdin, fragment",
    [
        ("{not json", "not valid JSON"),
        (json.dumps({**CLASSIC, "colour": "x"}), "unknown key"),
        (json.dumps({**CLASSIC, "actions": [{"place": "a1"}, {"place": "a1"}]}), "action 1: "),
        (json.dumps({**CLASSIC, "actions": [{"place": "k10"}]}), "action 0: "),
        (json.dumps({**CLASSIC, "actions": [{"card": "wild"}]}), "action 0: "),
        (json.dumps({**CLASSIC, "actions": [None]}), "action 0: "),
        (json.dumps({**CLASSIC, "players": "4"}), "players"),
        ("\xff\xfe", ""),
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_traceback(stdin, fragment):
    done = engine("legal", "-", stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    assert fragment in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_usage_errors_exit_2(tmp_path):
    assert engine("frobnicate", "-").returncode == 2
    assert engine("legal").returncode == 2
    missing = engine("legal", str(tmp_path / "missing.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
