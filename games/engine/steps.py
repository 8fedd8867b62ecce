"""The steps of a turn (R5): each kind of decision, the action key it takes, its rule and its
English words, in one place (STYLE.md habit 18; the cards' registry is engine.cards.CARDS, whose
``opens`` names the steps a card adds to a turn)."""

from __future__ import annotations

from dataclasses import dataclass

# Which action key each step takes, and the rule that says so.
STEP_ACTION = {
    "setup": "place",
    "card": "card",
    "keep": "keep",
    "declare": "declare",
    "recycle": "recycle",
    "warp": "warp",
    "place": "place",
    "place_second": "place",
}


@dataclass(frozen=True)
class Step:
    """One kind of decision in a turn (R5), in one place with its rule and English words (the
    web layer's words per language: games/translations.py; a card's ``opens`` names the steps it
    adds)."""

    key: str
    rule: str
    what: str  # what the player does, in English (the engine's refusals quote it)


STEPS: dict[str, Step] = {
    step.key: step
    for step in (
        Step("setup", "R3.1", "place a setup piece on a free corner"),
        Step("card", "R5.1", "play a card from hand"),
        Step("keep", "R6.3", "choose which drawn card to play"),
        Step("declare", "R6.4", "declare a colour"),
        Step("recycle", "R6.7", "choose a piece to recycle"),
        Step("warp", "R6.8", "choose an opponent piece to warp"),
        Step("place", "R5.3", "place a piece"),
        Step("place_second", "R6.6", "place Double Play's second piece"),
    )
}
STEP_RULE = {key: step.rule for key, step in STEPS.items()}
STEP_WHAT = {key: step.what for key, step in STEPS.items()}
