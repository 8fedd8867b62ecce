"""python -m games.ai move --level L [--seed N] [--budget S] [--sims N] RECORD"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.ai.cli import main
from games.engine import legal_actions
from games.engine.record import replay

ROOT = Path(__file__).resolve().parents[2]
RECORD = {
    "format": "blokus-record/1",
    "mode": "shuffle",
    "players": 2,
    "seed": 42,
    "actions": [{"place": "a1"}, {"place": "t1"}, {"place": "t20"}, {"place": "a20"}],
}


def write(tmp_path, record) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record) if not isinstance(record, str) else record)
    return str(path)


@pytest.mark.parametrize("level", ["beginner", "casual", "expert"])
def test_prints_a_legal_action(tmp_path, capsys, level):
    path = write(tmp_path, RECORD)
    assert main(["move", "--level", level, "--seed", "3", "--budget", "0.05", path]) == 0
    out = capsys.readouterr()
    action = json.loads(out.out)
    assert action in legal_actions(replay(RECORD))
    assert out.err == ""


def test_runs_as_a_module_from_stdin():
    done = subprocess.run(
        [sys.executable, "-m", "games.ai", "move", "--level", "casual", "-"],
        input=json.dumps(RECORD),
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) in legal_actions(replay(RECORD))


BAD = [
    (["move", "--level", "casual"], None),  # no record
    (["play", "--level", "casual", "REC"], RECORD),  # unknown command
    (["move", "--level", "wizard", "REC"], RECORD),
    (["move", "--seed", "x", "REC"], RECORD),
    (["move", "--budget", "-1", "REC"], RECORD),
    (["move", "--budget", "nan", "REC"], RECORD),
    (["move", "--sims", "0", "REC"], RECORD),
    (["move", "--sims", "-5", "REC"], RECORD),
    (["move", "--sims", "1.5", "REC"], RECORD),
    (["move", "--sims", "many", "REC"], RECORD),
    (["move", "--sims", "100000000000", "REC"], RECORD),
    (["move", "REC", "--sims"], RECORD),
    (["move", "REC", "extra"], RECORD),
    (["move", "REC"], "not json"),
    (["move", "REC"], {**RECORD, "actions": [{"place": "b2"}]}),  # illegal setup piece
    (["move", "REC"], {**RECORD, "mode": "chess"}),
    (["move", "REC"], {**RECORD, "actions": "none"}),
    (["move", "/nonexistent/file.json"], None),
]


@pytest.mark.parametrize(("argv", "record"), BAD)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, argv, record):
    if record is not None:
        path = write(tmp_path, record)
        argv = [path if a == "REC" else a for a in argv]
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.count("\n") == 1 and out.err.strip()


def test_a_finished_game_has_no_decision(tmp_path, capsys):
    from games.engine import apply, make_record, new_game

    s = initial = new_game(mode="classic", players=2)
    actions = []
    while not s.over:
        action = legal_actions(s)[0]
        actions.append(action)
        s = apply(s, action)
    path = write(tmp_path, make_record(initial, actions, reveal=True))
    assert main(["move", path]) == 2
    assert "over" in capsys.readouterr().err


def test_the_decisions_clock_starts_after_the_search_is_loaded(tmp_path, capsys, monkeypatch):
    """Compiling or loading the search (numba) happens before the budget starts: a slow load
    leaves the search its whole budget, as in a warm worker."""
    import time

    from games.ai import mcts

    events = []

    def slow_warm_up():
        time.sleep(0.4)
        events.append(("warm", time.perf_counter()))

    choose = mcts.mcts_choose

    def timed(state, *, deadline, **kwargs):
        events.append(("search", deadline - time.perf_counter()))
        return choose(state, deadline=deadline, **kwargs)

    monkeypatch.setattr(mcts, "warm_up", slow_warm_up)
    monkeypatch.setattr(mcts, "mcts_choose", timed)
    classic = {k: v for k, v in RECORD.items() if k != "seed"} | {"mode": "classic"}
    path = write(tmp_path, classic)
    assert main(["move", "--level", "expert", "--budget", "0.5", path]) == 0
    assert [name for name, _ in events] == ["warm", "search"]
    assert events[1][1] > 0.45  # the budget left when the search starts: nearly all of it
    assert json.loads(capsys.readouterr().out) in legal_actions(replay(classic))


def test_sims_bounds_the_search_and_repeats(tmp_path, capsys):
    """--sims N: each search stops at N simulations, so a large budget repeats exactly."""
    path = write(tmp_path, RECORD)
    argv = ["move", "--level", "expert", "--seed", "5", "--budget", "60", "--sims", "40", path]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    assert json.loads(first) in legal_actions(replay(RECORD))
