"""The computer's levels, one table: what each is called, how long it thinks, where it may think
that long, and how it measured against the level below it.

The site repeats some of these facts in its own layers, which do not import the AI package (the
import-graph table, tests/code/test_import_graph.py): the seat's level choices
(``games.models.Seat.Level``), the seconds the new-game form shows (``games.forms.LEVEL_SECONDS``)
and the computer ratings' win rates (``games.services.ratings.COMPUTER_WIN_RATES``).
tests/ai/test_level_table.py checks that every copy agrees with this table.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_BUDGET", "LEVELS", "MASTER_BUDGET", "Level", "below"]


@dataclass(frozen=True)
class Level:
    """One computer level.

    ``budget``: the seconds a move searches (a Shuffle turn shares them among its decisions,
    ``ExpertParams.turn_shares``); None for a level that answers at once. ``worker_only``: only
    a Celery worker gives it that budget (``choose_action(…, worker=True)``); everywhere else (an
    eager task inside a web request, a timed-out turn) the seat plays as the level below.
    ``beats_below``: the head-to-head win rate measured in the arena against the level below
    (bench/AI_RESULTS.md: the lower end of its 95 % Wilson interval), from which the computer
    ratings place the level; None: not measured (rated as the level below).
    """

    name: str
    budget: float | None = None
    worker_only: bool = False
    beats_below: float | None = None

    @property
    def seconds(self) -> int | None:
        """The seconds a move takes, as the new-game form shows them."""
        return None if self.budget is None else round(self.budget)


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        # A legal random choice, placements weighted towards large pieces.
        Level("beginner"),
        # Greedy one-step scores (players.py). Won 80 of 80 games against Beginner.
        Level("casual", beats_below=0.954),
        # The tree search (expert.py, mcts/) for 2 s a move. Won 39 of 40 against Casual.
        Level("expert", budget=2.0, beats_below=0.871),
        # Expert's search for 9.9 s: with the move's preparation (a few ms) within 10 s a move.
        Level("master", budget=9.9, worker_only=True),
    )
}

DEFAULT_BUDGET: float = LEVELS["expert"].budget
MASTER_BUDGET: float = LEVELS["master"].budget


def below(name: str) -> str | None:
    """The level just below ``name`` in the table (None for the first)."""
    names = list(LEVELS)
    index = names.index(name)
    return names[index - 1] if index else None
