"""Monte Carlo tree search for Blokus placements, with a compiled inner loop (numba).

Expert and Master place their pieces by this search when numba is installed (``AVAILABLE``);
without it they use the pure-Python search of search.py, which stays the reference path.

The package, by concern (Pentobi's design, measured in bench/AI_RESULTS.md):

* ``tables``: the engine's placements as arrays, and the moves per (square, status of its six
  neighbours, piece), built once per process;
* ``position``: the position of a simulation (one packed value per square and colour, attach
  lists), placing, per-colour legal-move lists kept up to date incrementally in the playouts,
  the playout policy (gamma weights, picked by binary search) and the scoring of a finished game;
* ``priors``: the tree's priors from per-square grids;
* ``search``: tree, selection, expansion, backup and the search loop (compiled);
* ``choose``: ``mcts_choose`` (the root from an engine state, threads, clock, statistics) and
  the searches kept for reuse.

* **Shuffle mode:** the search places as if no more cards were played: below the root, the game
  is classic Blokus in the current direction (R7.1), with a Skip in force passing over the next
  colour once (R6.1), and finished games are valued as Shuffle scores them (two players: the
  worse colour, R8.3 / R8.4). A card that changes R4 for this placement (Wild, Edge to Edge,
  Double Play's second piece) gives the root the engine's placements (``given_moves``). Cards,
  Recycle and Warp are decided elsewhere (expert.py).
* **Playouts:** every colour in turn places a random placement, weighted 5 ** squares times
  1e6 ** (squares next to the opponents' latest pieces it covers); early on only its large pieces
  are considered. The game is then scored as the game is scored (R8.3 / R8.4) and every player
  gets a value in [0, 1]: ``1 - margin_share`` for the rank (win 1, draw 1/2; with four players,
  the share of opponents beaten) and ``margin_share`` for the points margin (a smooth curve).

The deciding seat passes its view only; classic games hide nothing (R9), so the search sees what
the seat sees.
"""

from __future__ import annotations

from games.engine.pieces import PLACEMENTS

from .choose import (
    forget,
    given_moves,
    history,
    mcts_choose,
    new_tree,
    owners,
    param_vector,
    position_arrays,
    position_key,
    root_considered,
    root_moves,
    scratch,
)
from .compiled import AVAILABLE
from .position import MAX_MOVES, values
from .search import SLICE, MctsParams
from .tables import Tables, placement_index

__all__ = [
    "AVAILABLE",
    "MAX_MOVES",
    "PLACEMENTS",
    "SLICE",
    "MctsParams",
    "Tables",
    "forget",
    "given_moves",
    "history",
    "mcts_choose",
    "new_tree",
    "owners",
    "param_vector",
    "placement_index",
    "position_arrays",
    "position_key",
    "root_considered",
    "root_moves",
    "scratch",
    "supported",
    "values",
    "configure",
    "warm_up",
]


def supported(state) -> bool:
    """Whether this search plays ``state``'s placements: numba present (two, three or four
    players; with three, the shared colour's turns are valued for the seat whose rotation it is,
    R2.4). In Shuffle mode the search places as if no more card were played after this one (the
    playouts are classic Blokus in the current direction)."""
    return AVAILABLE and state.players in (2, 3, 4)


def configure(*, threads: int) -> None:
    """Set the search's threads per decision for this process (one tree each): a Celery worker
    passes its ``AI_SEARCH_THREADS`` setting at start (config/celery.py); the AI package reads
    no Django setting itself."""
    if threads < 1:
        raise ValueError(f"the search needs at least one thread, not {threads}")
    MctsParams.threads = threads


def warm_up() -> None:
    """Compile the search (or load it from numba's cache) and build its tables before the first
    real decision.

    A worker calls this once at start (config/celery.py), and the command line before its
    clock starts, so that no decision waits for the compiler (about ten seconds on a fresh
    install, well under one with the cache)."""
    if AVAILABLE:
        from games.engine import new_game

        mcts_choose(new_game(mode="classic", players=2, seed=0), deadline=0.0, max_sims=1)
