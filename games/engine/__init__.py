"""The rules engine: pure Python, no Django, no I/O, no global random state (STYLE.md habit 1).

Public API::

    new_game(mode=…, players=…, …) -> State
    legal_actions(state) -> list[action]
    apply(state, action) -> State          # or raises IllegalAction (a ValueError) naming the rule
    view(state, seat) -> dict              # what a seat (None: a spectator) may know, R9
    score(state) -> dict                   # R8
    State.to_json() / State.from_json()
"""

from .cards import CARD_KINDS, CARD_NAMES, DEFAULT_RECIPE
from .errors import IllegalAction, RecordError
from .record import initial_state, make_record, replay
from .rules import apply, has_placement, legal_actions, legal_placements
from .scoring import score
from .state import COLOURS, State, new_game
from .view import view

__all__ = [
    "CARD_KINDS",
    "CARD_NAMES",
    "COLOURS",
    "DEFAULT_RECIPE",
    "IllegalAction",
    "RecordError",
    "State",
    "apply",
    "has_placement",
    "initial_state",
    "legal_actions",
    "legal_placements",
    "make_record",
    "new_game",
    "replay",
    "score",
    "view",
]
