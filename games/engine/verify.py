"""``verify``: a finished Shuffle record's shuffle checked by anyone (RECORD.md, cards.py).

1. The record carries ``seed`` (64 hex digits), ``salt`` and ``commitment``, and
   SHA-256("blokus-shuffle/1:" + seed + ":" + salt) is the commitment every player was shown.
2. The decks derived from the seed are the record's ``decks`` (when it gives them).
3. The game replays from the seed's decks alone: every card played or kept was in its player's
   hand, drawn from the top of the derived pile in order (the engine refuses any other), and the
   record ends with the game over.
"""

from __future__ import annotations

from .cards import commitment
from .errors import IllegalAction
from .record import initial_state
from .rules import apply
from .state import COLOURS


def verify(record: dict) -> dict:
    """``{"ok": bool, "code": str, "reason": str}``; RecordError for a record that cannot be read
    at all. ``reason`` is English (the command line prints it); ``code`` names the verdict for
    the site, which says it in the reader's language (games.translations.verdict_reason), with
    ``missing`` (the absent keys) or ``index`` (the first action that does not follow)."""
    if record.get("mode") != "shuffle":
        return {
            "ok": False,
            "code": "not_shuffle",
            "reason": "only a Shuffle game has a shuffle to verify",
        }
    missing = [key for key in ("seed", "salt", "commitment") if key not in record]
    if missing:
        return {
            "ok": False,
            "code": "missing",
            "missing": missing,
            "reason": f"the record lacks {', '.join(missing)}",
        }
    seed, salt, promised = record["seed"], record["salt"], record["commitment"]
    if not isinstance(seed, str):
        return {
            "ok": False,
            "code": "integer_seed",
            "reason": "an integer seed (an older record) has no commitment",
        }
    from_seed = {k: v for k, v in record.items() if k != "decks"}
    state = initial_state(from_seed)  # checks the seed's and salt's form (RecordError)
    if commitment(seed, salt) != promised:
        return {
            "ok": False,
            "code": "commitment",
            "reason": "the seed and salt do not match the commitment",
        }
    if "decks" in record:
        derived = {COLOURS[o]: list(state.piles[o]) for o in state.owners()}
        if record["decks"] != derived:
            return {
                "ok": False,
                "code": "decks",
                "reason": "the record's decks are not the ones the seed deals",
            }
    for index, action in enumerate(record["actions"]):
        try:
            state = apply(state, action)
        except IllegalAction as exc:
            return {
                "ok": False,
                "code": "action",
                "index": index,
                "reason": f"action {index} does not follow from the seed's decks: {exc}",
            }
    if not state.over:
        return {
            "ok": False,
            "code": "not_over",
            "reason": "the game is not over: its seed is still secret",
        }
    return {
        "ok": True,
        "code": "ok",
        "reason": "the seed and salt match the commitment, and every card came from the "
        "decks the seed deals, in order",
    }
