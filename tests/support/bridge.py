"""The GTP bridge's tests' shared parts (tests/api/test_bridge.py, tests/e2e/test_bot_browser.py):
the stand-in engine, the bridge as a process of its own, and a person's moves that Pentobi's
fixed starting corners can follow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from games import engine
from games.bots.gtp import parse_move
from games.engine.blksgf import PENTOBI_CORNER
from games.models import Game

ROOT = Path(__file__).resolve().parents[2]
FAKE = ROOT / "tests" / "ai" / "fake_gtp.py"  # the stand-in for pentobi-gtp


def start_bridge(url: str, secret: str, *extra: str, seed: int = 5) -> subprocess.Popen:
    """``python -m games.bots gtp`` for the bot of ``secret`` on the site at ``url``, with the
    stand-in engine; its output (stdout and stderr) in the process's ``stdout``."""
    argv = [sys.executable, "-m", "games.bots", "gtp", "--token", secret, "--url", url, *extra]
    argv += ["--", sys.executable, str(FAKE), "--seed", str(seed)]
    return subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def human_move(game: Game) -> dict:
    """A legal move of the person, whose first pieces start where Pentobi starts their colours
    (blue a20, red t1): a game the engine can be told throughout."""
    state = game.current_state()
    actions = engine.legal_actions(state)
    colour = engine.COLOURS[state.turn]
    if state.step == "setup":
        corner = PENTOBI_CORNER[colour]
        actions = [a for a in actions if corner in parse_move(a["place"])]
    return actions[(game.ply * 7) % len(actions)]
