"""The one write path for games (STYLE.md habits 4–6), one module per subject:

- ``games``: creating, joining and leaving games, invitations, rematches;
- ``actions``: playing: ``action_submit`` (a player's move), ``computer_submit`` (the computer's
  seat), sharing one apply (``submit``) and its side effects (``after_change``);
- ``timeouts``: the computer plays a turn whose time ran out (``turn_timeout``);
- ``moderation``: staff actions, each logged with its reason;
- ``chat``: posts and reports; ``ratings``: results and ratings as a game ends;
- ``resign``: a player resigns (any time after the setup round); ``takeback``: a take back asked
  for and answered (unrated games); ``devices``: Web Push devices and notice settings;
  ``notify``: notices (games.notices) queued after a commit;
- ``errors``: the refusals, each with its HTTP status.

Views, jobs and the admin call these functions; nothing else saves a Game, a Seat or an Action.
Each function is keyword-only, runs in one transaction, locks the game row when it changes the
game, and queues side effects (the computer's turn, nudges and emails) with ``on_commit``. The
names below are the package's public surface, so a caller writes ``services.game_create(...)``.
"""

from games.services.actions import SubmitResult, action_submit, computer_submit, seat_for
from games.services.errors import (
    Conflict,
    GameError,
    NotAllowed,
    NotFound,
    Refused,
    StalePly,
    TooMany,
)
from games.services.games import (
    SeatSpec,
    game_create,
    game_join,
    game_leave,
    game_rematch,
    invitation_accept,
    invitation_decline,
    rematch_seats,
)
from games.services.moderation import (
    chat_hide,
    game_abort,
    report_resolve,
    seat_hand_to_ai,
    tournament_player_remove,
    tournament_result_adjust,
    tournament_stop,
    user_deactivate,
)
from games.services.resign import game_resign
from games.services.takeback import takeback_answer, takeback_request
from games.services.timeouts import TIMEOUT_LEVEL, turn_timeout

__all__ = [
    "TIMEOUT_LEVEL",
    "Conflict",
    "GameError",
    "NotAllowed",
    "NotFound",
    "Refused",
    "SeatSpec",
    "StalePly",
    "SubmitResult",
    "TooMany",
    "action_submit",
    "chat_hide",
    "computer_submit",
    "game_abort",
    "game_create",
    "game_join",
    "game_leave",
    "game_rematch",
    "game_resign",
    "invitation_accept",
    "invitation_decline",
    "rematch_seats",
    "report_resolve",
    "seat_for",
    "seat_hand_to_ai",
    "takeback_answer",
    "takeback_request",
    "tournament_player_remove",
    "tournament_result_adjust",
    "tournament_stop",
    "turn_timeout",
    "user_deactivate",
]
