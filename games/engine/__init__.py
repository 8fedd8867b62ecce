"""The rules engine: pure Python, no Django, no I/O, no global random state (STYLE.md habit 1).

Public API::

    new_game(mode=…, players=…, …) -> State
    legal_actions(state) -> list[action]
    apply(state, action) -> State          # or raises IllegalAction (a ValueError) naming the rule
    view(state, seat) -> dict              # what a seat (None: a spectator) may know, R9
    score(state) -> dict                   # R8
    verify(record) -> {"ok", "reason"}     # a finished Shuffle record's shuffle
    turn_order(state), anchors(state), outlook(state, action), table(state, seat)  # the page
    State.to_json() / State.from_json()
"""

from .cards import CARD_KINDS, CARD_NAMES, DEFAULT_RECIPE
from .errors import IllegalAction, RecordError
from .forecast import anchors, next_colour, outlook, table, turn_order
from .record import initial_state, make_record, replay
from .rules import apply, has_placement, legal_actions, legal_placements
from .scoring import score
from .state import COLOURS, State, new_game
from .verify import verify
from .view import view

__all__ = [
    "CARD_KINDS",
    "CARD_NAMES",
    "COLOURS",
    "DEFAULT_RECIPE",
    "IllegalAction",
    "RecordError",
    "State",
    "anchors",
    "apply",
    "has_placement",
    "initial_state",
    "legal_actions",
    "legal_placements",
    "make_record",
    "new_game",
    "next_colour",
    "outlook",
    "replay",
    "score",
    "verify",
    "table",
    "turn_order",
    "view",
]
