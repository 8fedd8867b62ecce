"""The arena runs games between levels and reports win rates, scores and decision times."""

from __future__ import annotations

import json

from games.ai.arena import main, wilson


def test_a_short_arena_run(capsys):
    argv = ["--mode", "classic", "--players", "2", "--games", "2", "--seats", "casual,beginner"]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    levels = report["levels"]
    assert set(levels) == {"casual", "beginner"}
    assert levels["casual"]["win_rate"] + levels["beginner"]["win_rate"] == 1.0
    for r in levels.values():
        assert r["seat_games"] == 2
        lo, hi = r["win_ci95"]
        assert 0 <= lo <= r["win_rate"] <= hi <= 1
        assert r["p50_ms"] <= r["p95_ms"]


def test_text_report_names_every_level(capsys):
    argv = ["--mode", "shuffle", "--players", "3", "--games", "1"]
    assert main([*argv, "--seats", "beginner,casual,beginner"]) == 0
    out = capsys.readouterr().out
    assert "beginner" in out and "casual" in out and "p95" in out


def test_wilson_interval():
    lo, hi = wilson(0.5, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert wilson(1.0, 10)[1] == 1.0
