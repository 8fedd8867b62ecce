"""Monte Carlo tree search for Blokus placements, with a compiled inner loop (numba).

Expert and Master place their pieces by this search, and value Shuffle's other decisions by it
(expert.py), in every mode and for two to four players.

The package, by concern (Pentobi's design, measured in bench/AI_RESULTS.md):

* ``tables``: the engine's placements as arrays, and the moves per (square, status of its six
  neighbours, piece), built once per process (a search may cut them to its root per colour:
  ``position.pruned_tables``, off by ``MctsParams.prune_pieces``: measured no faster);
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
  Recycle and Warp are decided elsewhere (expert.py), by this search's values of the positions
  they lead to: ``mcts_choose``'s where the colour places, ``seat_value``'s where it does not.
* **Playouts:** every colour in turn places a random placement, weighted 5 ** squares times
  1e6 ** (squares next to the opponents' latest pieces it covers); early on only its large pieces
  are considered. The game is then scored as the game is scored (R8.3 / R8.4) and every player
  gets a value in [0, 1]: ``1 - margin_share`` for the rank (win 1, draw 1/2; with four players,
  the share of opponents beaten) and ``margin_share`` for the points margin (a smooth curve;
  ``margin_share_classic2`` in classic two-player games).

The deciding seat passes its view only; classic games hide nothing (R9), so the search sees what
the seat sees.
"""

from __future__ import annotations

from games.engine.pieces import PLACEMENTS

from .choose import (
    final_values,
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
    seat_value,
)
from .position import MAX_MOVES, values
from .search import SLICE, MctsParams
from .tables import Tables, placement_index

__all__ = [
    "MAX_MOVES",
    "PLACEMENTS",
    "SLICE",
    "MctsParams",
    "Tables",
    "final_values",
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
    "seat_value",
    "values",
    "configure",
    "warm_up",
]


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
    from games.engine import new_game

    state = new_game(mode="classic", players=2, seed=0)
    mcts_choose(state, deadline=0.0, max_sims=1)
    final_values(state)  # called from Python too (``seat_value``)
