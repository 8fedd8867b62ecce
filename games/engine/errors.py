"""Typed errors. Every message names the rule it enforces, e.g. ``(R4.3)``."""


class IllegalAction(ValueError):
    """An action that the rules (RULES.md) do not allow at this point of the game."""


class RecordError(ValueError):
    """A record (RECORD.md) that is malformed: bad JSON, unknown key, wrong type or value."""
