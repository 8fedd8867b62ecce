"""bench/web/shuffle_wait.py (the wait for three Experts, in Chromium) without its
services: the command line answers, and a wait is split and counted from the actions' commit
times. The full run needs PostgreSQL, Redis, a Celery worker and Chromium (its docstring)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "web"


@pytest.fixture
def wait(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.delitem(sys.modules, "shuffle_wait", raising=False)
    return importlib.import_module("shuffle_wait")


def test_the_bench_answers_help_with_its_commands():
    done = subprocess.run(
        [sys.executable, "bench/web/shuffle_wait.py", "run", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "--turns" in done.stdout and "--queue" in done.stdout and "--seed" in done.stdout


def row(ply: int, plies: int, clicked: float, offered: float, **more) -> dict:
    return {
        "game": "g",
        "ply": ply,
        "plies": plies,
        "clicked": clicked,
        "offered": offered,
        "seconds": round(offered - clicked, 3),
        "turn_end": True,
        "over": False,
        **more,
    }


def test_a_wait_is_split_at_the_commits_and_counts_the_computers_turns(wait):
    # ply 5: the player's placement (seat 0), then yellow's card and piece, red's, green's piece.
    actions = {
        "g": [
            [5, 0, False, 100.1],
            [6, 1, True, 101.0],
            [7, 1, True, 102.2],
            [8, 2, True, 104.0],
            [9, 2, True, 104.1],
            [10, 3, True, 106.0],
        ]
    }
    rows = [row(4, 6, 100.0, 106.5), row(0, 1, 1.0, 2.0, turn_end=False)]

    wait.annotate(rows, actions)

    first = rows[0]
    assert first["computer_turns"] == 3
    assert first["own_s"] == pytest.approx(0.1)
    assert first["computers_s"] == pytest.approx(5.9)
    assert first["delivery_s"] == pytest.approx(0.5)
    assert "computer_turns" not in rows[1]  # a decision inside the player's turn


def test_the_figures_leave_out_the_wait_that_ends_with_the_game(wait):
    rows = [
        row(0, 4, 0.0, 6.0, computer_turns=3, own_s=0.1, computers_s=5.6, delivery_s=0.3),
        row(4, 8, 10.0, 14.0, computer_turns=2, own_s=0.1, computers_s=3.6, delivery_s=0.3),
        row(8, 9, 20.0, 50.0, turn_end=False, over=True),
        row(9, 1, 60.0, 60.2, turn_end=False),
    ]

    figures = wait.figures(rows)

    assert figures["turns"] == 2
    assert figures["wait"]["max"] == 6.0
    assert figures["wait_three_computer_turns"] == {"n": 1, "p50": 6.0, "p95": 6.0, "max": 6.0}
    assert figures["by_computer_turns"][2]["n"] == 1
    assert figures["computer_turn_s"]["max"] == pytest.approx(1.87, abs=0.01)
    assert figures["within_turn"]["n"] == 1  # the answer to a card, not the game's end
