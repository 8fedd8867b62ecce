"""The refusals of the write path: each names what was wrong, and ``status`` is the HTTP status
a view answers with."""

from __future__ import annotations


class GameError(Exception):
    """A refused request. ``status`` is the HTTP status a view answers with."""

    status = 400


class NotAllowed(GameError):
    status = 403


class NotFound(GameError):
    status = 404


class Conflict(GameError):
    status = 409


class StalePly(Conflict):
    """The client saw an older position than the game's (STYLE.md habit 5)."""


class Refused(GameError):
    """The engine refused the action; the message names the rule."""


class TooMany(GameError):
    """A per-player limit is reached (games waiting for players, invitations waiting for an
    answer): try again once one is settled."""

    status = 429
