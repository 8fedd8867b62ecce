"""The steps of a turn (R5): each kind of decision, the action key it takes, its rule and its
English words, in one place (docs/STYLE.md, "one place per fact"; the cards' registry is
engine.cards.CARDS, whose ``opens`` names the steps a card adds to a turn). Every layer asks this
registry which steps place a piece (``PLACE_STEPS``) instead of listing them again."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """One kind of decision in a turn (R5), in one place with its rule and English words (the
    web layer's words per language: games/translations.py; a card's ``opens`` names the steps it
    adds)."""

    key: str
    action: str  # the key of the action it takes in the record format (docs/RECORD.md)
    rule: str
    what: str  # what the player does, in English (the engine's refusals quote it)

    @property
    def places(self) -> bool:
        """Whether the decision is a placement of a piece from the supply."""
        return self.action == "place"


STEPS: dict[str, Step] = {
    step.key: step
    for step in (
        Step("setup", "place", "R3.1", "place a setup piece on a free corner"),
        Step("card", "card", "R5.1", "play a card from hand"),
        Step("keep", "keep", "R6.3", "choose which drawn card to play"),
        Step("declare", "declare", "R6.4", "declare a colour"),
        Step("recycle", "recycle", "R6.7", "choose a piece to recycle"),
        Step("warp", "warp", "R6.8", "choose an opponent piece to warp"),
        Step("place", "place", "R5.3", "place a piece"),
        Step("place_second", "place", "R6.6", "place Double Play's second piece"),
    )
}
STEP_ACTION = {key: step.action for key, step in STEPS.items()}
STEP_RULE = {key: step.rule for key, step in STEPS.items()}
STEP_WHAT = {key: step.what for key, step in STEPS.items()}
# The steps whose decision is a placement: setup, a main turn's piece, Double Play's second.
PLACE_STEPS: tuple[str, ...] = tuple(key for key, step in STEPS.items() if step.places)
