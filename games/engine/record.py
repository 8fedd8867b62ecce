"""Game records, ``blokus-record/1`` (RECORD.md): read, replay and write.

The one action that may come out of turn (RECORD.md, R11.1, rules.py's docstring):
``{"resign": "<colour>"}``, the player who owns that colour resigns (with two players either of
theirs names them; the shared colour cannot). It may stand anywhere after the setup round (with
two players, during it too), whoever is to move; ``legal`` never lists it. A take back leaves no
trace in a record: the actions it undid are not exported.
"""

from __future__ import annotations

import json

from .cards import DEFAULT_RECIPE, SALT_HEX, SEED_HEX, check_seed
from .errors import IllegalAction, RecordError
from .rules import apply
from .state import COLOURS, State, new_game

FORMAT = "blokus-record/1"
KEYS = {
    "format",
    "mode",
    "players",
    "scoring",
    "shared_color",
    "deck_recipe",
    "seed",
    "salt",
    "commitment",
    "decks",
    "actions",
    # Optional, ignored when a record is read: a finished game's post-game analysis, one entry
    # per decision, each marked "format": "blokus-analysis/1" (the site's export adds it).
    "analysis",
}
SHUFFLE_ONLY = ("deck_recipe", "seed", "salt", "commitment", "decks")


def parse(text: str | bytes) -> dict:
    """JSON text → record dict, or RecordError."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"the record is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("the record must be a JSON object")
    return data


def initial_state(data: dict) -> State:
    """The state before the first action of a record, after checking its keys and types (in
    this order, so that a record with several faults is told the first)."""
    _check_keys(data)
    mode, players, scoring, shared = _check_settings(data)
    seed, salt = _check_secrets(data, mode)
    if not isinstance(data["actions"], list):
        raise RecordError("actions must be a list")
    return new_game(
        mode=mode,
        players=players,
        scoring=scoring,
        shared_color=shared,
        deck_recipe=data.get("deck_recipe") if mode == "shuffle" else None,
        seed=seed,
        decks=data.get("decks"),
        salt=salt,
    )


def _check_keys(data: dict) -> None:
    """Only known keys, the format, and the keys every record has."""
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r} in the record")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}")
    for key in ("mode", "players", "actions"):
        if key not in data:
            raise RecordError(f"the record lacks {key!r}")


def _check_settings(data: dict) -> tuple[str, int, str, str | None]:
    """The game's settings: mode, players, scoring, the shared colour; no shuffle-only key in a
    classic record."""
    mode, players = data["mode"], data["players"]
    if mode not in ("classic", "shuffle"):
        raise RecordError(f"mode must be 'classic' or 'shuffle', not {mode!r}")
    if not isinstance(players, int) or isinstance(players, bool) or players not in (2, 3, 4):
        raise RecordError(f"players must be 2, 3 or 4, not {players!r}")
    scoring = data.get("scoring", "basic")
    if scoring not in ("basic", "advanced"):
        raise RecordError(f"scoring must be 'basic' or 'advanced', not {scoring!r}")
    shared = data.get("shared_color")
    if shared is not None and (players != 3 or shared not in COLOURS):
        raise RecordError(f"shared_color {shared!r} is not a colour of a 3-player game")
    if mode == "classic":
        for key in SHUFFLE_ONLY:
            if key in data:
                raise RecordError(f"{key!r} is for shuffle mode only")
    return mode, players, scoring, shared


def _check_secrets(data: dict, mode: str) -> tuple[int | str | None, str | None]:
    """The seed, its salt and commitment, and that a shuffle record can deal its decks."""
    seed = data.get("seed")
    if seed is not None:
        seed = check_seed(seed)
    salt = data.get("salt")
    if salt is not None and not (isinstance(salt, str) and SALT_HEX.fullmatch(salt)):
        raise RecordError("salt must be 32 lowercase hex digits")
    if "commitment" in data and not (
        isinstance(data["commitment"], str) and SEED_HEX.fullmatch(data["commitment"])
    ):
        raise RecordError("commitment must be 64 lowercase hex digits")
    if mode == "shuffle" and seed is None and data.get("decks") is None:
        raise RecordError("a shuffle record needs 'seed' or 'decks'")
    return seed, salt


def replay(data: dict, *, upto: int | None = None) -> State:
    """The state after the record's actions (or its first ``upto``); RecordError names the
    0-based index of the first action that is malformed, illegal or out of place."""
    state = initial_state(data)
    for index, action in enumerate(data["actions"][:upto]):
        try:
            state = apply(state, action)
        except IllegalAction as exc:
            raise RecordError(f"action {index}: {exc}") from None
    return state


def make_record(initial: State, actions: list[dict], *, reveal: bool) -> dict:
    """A record of a game from ``initial`` through ``actions``.

    ``reveal`` adds the decks and the seed with its salt (allowed once the game is over, R9.4);
    without it neither is written, so a record exported while a game runs holds no hidden
    information. The commitment is public and always written.
    """
    record = {
        "format": FORMAT,
        "mode": initial.mode,
        "players": initial.players,
        "scoring": initial.scoring,
    }
    if initial.players == 3:
        record["shared_color"] = COLOURS[initial.shared]
    if initial.mode == "shuffle":
        record["deck_recipe"] = dict(initial.recipe or DEFAULT_RECIPE)
        if initial.commitment:
            record["commitment"] = initial.commitment
        if reveal:
            if initial.seed is not None:
                record["seed"] = initial.seed
            if initial.salt:
                record["salt"] = initial.salt
            record["decks"] = {COLOURS[o]: list(initial.piles[o]) for o in initial.owners()}
    record["actions"] = [dict(a) for a in actions]
    return record
