"""One budget everywhere: the site's worker (``AI_MAX_SIMS``), the command line (``--sims``) and
the arena (``--sims``) play the same action for the same seed and simulation count.

The worker's seed is ``games.jobs.computer._seed(game, ply)``; the command line and the arena's
decision (``bench/ai/arena.py`` ``_decide``) are given that same seed. The positions come from
real games in the test database (a player against an Expert seat), two players, classic and
Shuffle; the command line reads the game's record as the site exports it (``make_record`` with
the decks, as ``games.selectors.history.record_document`` writes it once a game is over: the
command line hands the AI only the seat's view, R9).
"""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bench.ai.arena import _decide
from games import engine, services
from games.ai import LEVELS, decide, mcts
from games.ai.cli import main as cli_main
from games.engine import legal_actions, view
from games.jobs.computer import _seed, play_computer_turn
from games.models import Action, Game, Seat
from games.services import SeatSpec

ROOT = Path(__file__).resolve().parents[2]
SIMS = 200  # few enough for a quick test, enough for the seed to matter (checked below)
BUDGET = 4.9  # Expert's seconds a move in this test (the fixture below)

# (mode, the first ply worth taking, the step wanted there or None for any): the Expert seat's
# first piece, a placement in the middle game, a Shuffle card and a Shuffle placement.
CASES = [
    ("classic", 1, "setup"),
    ("classic", 13, "place"),
    ("shuffle", 9, "card"),
    ("shuffle", 14, "place"),
]


@pytest.fixture(autouse=True)
def _bounded_by_simulations(monkeypatch):
    """Every path searches with the same threads: the default (a worker's AI_SEARCH_THREADS and
    a command-line process both give 2), whatever another test left. And Expert's budget, which
    every path reads from the level table, well above what ``SIMS`` simulations take, so that
    the count, not a busy machine's clock, ends each search (a Shuffle card's candidates share
    a quarter of the budget); below ``MctsParams.long_search`` (5 s), beyond which a search
    grows its tree otherwise, as Expert's 2 s are."""
    monkeypatch.setitem(LEVELS, "expert", dataclasses.replace(LEVELS["expert"], budget=BUDGET))
    before = mcts.MctsParams.threads
    mcts.configure(threads=2)
    mcts.warm_up()
    yield
    mcts.configure(threads=before)


def game_at(alice, mode: str, ply: int, step: str) -> Game:
    """A two-player game of alice against an Expert seat, played at random (seeded) until the
    Expert seat decides at ``step``, at ``ply`` or later, with more than one legal action."""
    game = services.game_create(
        creator=alice,
        mode=mode,
        players=2,
        rated=False,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="expert")],
    )
    rng = random.Random(7)
    for _ in range(200):
        game.refresh_from_db()
        state = game.current_state()
        legal = legal_actions(state)
        seat = state.controller()
        if seat == 1 and state.ply >= ply and state.step == step and len(legal) > 1:
            return game
        action = rng.choice(legal)
        if seat == 0:
            services.action_submit(game=game, user=alice, action=action, expected_ply=game.ply)
        else:
            key = f"test:{game.ply}"
            services.computer_submit(game=game, action=action, expected_ply=game.ply, key=key)
    pytest.fail(f"no {step} decision of the Expert seat from ply {ply} on")


def exported_record(game: Game) -> dict:
    payloads = [a.payload for a in game.actions.order_by("ply")]
    return engine.make_record(game.initial_state(), payloads, reveal=True)


def by_worker(game: Game, settings) -> dict:
    """The site's worker plays the Expert seat's decision; the action it committed, read back."""
    ply = game.ply
    settings.AI_MAX_SIMS = SIMS
    assert play_computer_turn(game, ply, worker=True) == ply + 1
    action = Action.objects.get(game=game, ply=ply + 1)  # 1 for the first action
    assert action.by_ai
    return action.payload


def by_command_line(record: dict, seed: int, tmp_path, capsys) -> dict:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    argv = ["move", "--level", "expert", "--seed", str(seed), "--sims", str(SIMS), str(path)]
    assert cli_main(argv) == 0
    return json.loads(capsys.readouterr().out)


def by_arena(record: dict, seed: int) -> dict:
    state = initial = engine.initial_state(record)
    for action in record["actions"]:
        state = engine.apply(state, action)
    action, _ = _decide(
        "expert", state, initial, record["actions"], seed=seed, budget=None, max_sims=SIMS
    )
    return action


@pytest.mark.parametrize(("mode", "ply", "step"), CASES)
def test_worker_command_line_and_arena_play_the_same_action(
    alice, settings, tmp_path, capsys, mode, ply, step
):
    game = game_at(alice, mode, ply, step)
    seed = _seed(game, game.ply)
    record = exported_record(game)
    arena = by_arena(record, seed)
    command_line = by_command_line(record, seed, tmp_path, capsys)
    worker = by_worker(game, settings)
    assert worker == command_line == arena
    assert worker in legal_actions(engine.replay(record))


def test_a_command_line_process_plays_what_the_worker_played(alice, settings, tmp_path):
    """The same from a ``python -m games.ai move`` process of its own, the record on stdin."""
    game = game_at(alice, "classic", 13, "place")
    seed = _seed(game, game.ply)
    record = exported_record(game)
    argv = [sys.executable, "-m", "games.ai", "move", "--level", "expert", "--seed", str(seed)]
    done = subprocess.run(
        [*argv, "--budget", str(BUDGET), "--sims", str(SIMS), "-"],
        input=json.dumps(record),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == by_worker(game, settings)


def test_the_positions_tell_a_path_that_ignores_the_seed_or_the_count(alice):
    """The agreement above means something: at these positions another seed, or another
    simulation count, gives another action (the classic ones: their positions repeat exactly,
    Shuffle's decks are drawn per game)."""
    other_seed = other_count = 0
    for mode, ply, step in CASES:
        if mode != "classic":
            continue
        game = game_at(alice, mode, ply, step)
        state = game.current_state()
        seen = view(state, state.controller())
        seed = 100_003 + game.ply  # not the game's own: its number differs from run to run
        chosen = decide(seen, level="expert", seed=seed, max_sims=SIMS)
        others = [decide(seen, level="expert", seed=seed + k, max_sims=SIMS) for k in (1, 2, 3)]
        other_seed += any(action != chosen for action in others)
        more = decide(seen, level="expert", seed=seed, max_sims=4 * SIMS)
        other_count += more != chosen
    assert other_seed >= 1 and other_count >= 1
