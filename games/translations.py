"""The game's words in the player's language, in one table: card names and effects, the steps of
a turn, the events of the move log, colour names, and the rules' refusals. Every other fact about
a card or a step (its rule, symbol, the steps it opens) is the engine's registry
(``engine.cards.CARDS``, ``engine.steps.STEPS``); tests/web/test_words.py checks that every card
kind and step has its words here, in every language.

The engine (games/engine) stays language-free: its names and messages are English data. This
module is the web layer's dictionary for them. Card names are those of the published rule sheets
(RULES.md R10), given to translators with the context "card". A refusal from the engine
(``IllegalAction``, shown to the player as ``services.Refused``) ends with the rule ids it enforces,
``... (R4.2)``; ``rule_message`` shows, in a language other than English, one generic sentence per
rule instead (the engine's detailed English sentence names squares and pieces in words no
catalog can hold).
"""

from __future__ import annotations

import re

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engine.steps import STEPS

CARD_NAMES = {
    "skip": pgettext_lazy("card", "Skip"),
    "reverse": pgettext_lazy("card", "Reverse"),
    "draw2": pgettext_lazy("card", "Draw 2"),
    "wild": pgettext_lazy("card", "Wild"),
    "edge": pgettext_lazy("card", "Edge to Edge"),
    "recycle": pgettext_lazy("card", "Recycle"),
    "warp": pgettext_lazy("card", "Warp"),
    "double": pgettext_lazy("card", "Double Play"),
}

CARD_EFFECTS = {
    "skip": gettext_lazy("The next colour in turn order loses its next turn."),
    "reverse": gettext_lazy("The direction of play flips."),
    "draw2": gettext_lazy(
        "Draw two cards, play one of them and put the other at the bottom of your pile."
    ),
    "wild": gettext_lazy(
        "Declare a colour: this turn's piece is placed as if it were of that colour."
    ),
    "edge": gettext_lazy(
        "This turn's piece must share a side with a piece of one of your colours."
    ),
    "recycle": gettext_lazy("Take one of your pieces back into its supply, then place as usual."),
    "warp": gettext_lazy("Move an opponent's piece to another legal spot for its colour."),
    "double": gettext_lazy("After this turn's piece, place a second one touching it at a corner."),
}

# What each card does, as the help page explains it with its rule (templates/help.html loops
# over the card registry and reads these).
CARD_HELP = {
    "skip": gettext_lazy(
        "(R6.1): the next colour in the current direction loses its whole next turn — no card, "
        "no piece, no draw."
    ),
    "reverse": gettext_lazy("(R6.2): the direction of play flips."),
    "draw2": gettext_lazy(
        "(R6.3): draw two cards, play one of them at once (it may be another Draw 2) and put "
        "the other at the bottom of your pile. With only one card left it is played without a "
        "choice; with an empty pile the card has no effect."
    ),
    "wild": gettext_lazy(
        "(R6.4): declare any colour; this turn's piece is placed as if it were of that colour "
        "(corner contact with it, no side contact with it). Once placed it is of its real "
        "colour again."
    ),
    "edge": gettext_lazy(
        "(R6.5): this turn's piece must share a side with a piece of one of your own colours; "
        "the corner and side rules are lifted for it."
    ),
    "recycle": gettext_lazy(
        "(R6.7): take one of your own pieces off the board back into its supply, then place as "
        "usual (even the same piece)."
    ),
    "warp": gettext_lazy(
        "(R6.8): move one opponent piece to another spot where it would be a legal placement "
        "for its own colour with the piece lifted off. A piece that is its colour's only piece "
        "on the board cannot be warped."
    ),
    "double": gettext_lazy(
        "(R6.6): after this turn's piece, the same colour places a second piece touching the "
        "first at a corner (and otherwise following the usual rules)."
    ),
}

# What the player to move does now, as the turn box says it ("Your turn (blue): ..."); the rule id
# comes from engine.steps.STEPS (step_text).
STEP_TEXT = {
    "setup": gettext_lazy("place a setup piece on a free corner"),
    "card": gettext_lazy("play a card"),
    "keep": gettext_lazy("choose which Draw 2 card to play"),
    "declare": gettext_lazy("declare a colour for Wild"),
    "recycle": gettext_lazy("take one of your pieces back"),
    "warp": gettext_lazy("move an opponent's piece"),
    "place": gettext_lazy("place a piece"),
    "place_second": gettext_lazy("place Double Play's second piece"),
}
# The same, for the steps whose words differ when they are said of another player ("Blue to
# move (alice): take one of their pieces back").
STEP_TEXT_OTHERS = {
    "recycle": gettext_lazy("take one of their pieces back"),
}
# The step of the colour to move, as the replay's status line names it.
STEP_NAMES = {
    "setup": pgettext_lazy("step", "setup"),
    "card": pgettext_lazy("step", "card"),
    "keep": pgettext_lazy("step", "keep"),
    "declare": pgettext_lazy("step", "declare"),
    "recycle": pgettext_lazy("step", "recycle"),
    "warp": pgettext_lazy("step", "warp"),
    "place": pgettext_lazy("step", "place"),
    "place_second": pgettext_lazy("step", "second piece"),
}
# One caption per public event of the engine (``State.events``), for the move log.
EVENT_TEXT = {
    "place": gettext_lazy("%(colour)s placed %(piece)s on %(squares)s"),
    "pass": gettext_lazy("%(colour)s could not place a piece and passed"),
    "card": gettext_lazy("%(colour)s played %(card)s"),
    "no_effect": gettext_lazy("%(card)s had no effect"),
    "declare": gettext_lazy("%(colour)s declared %(declared)s"),
    "recycle": gettext_lazy("%(colour)s took back %(owner)s's %(piece)s from %(squares)s"),
    "warp": gettext_lazy("%(colour)s moved %(owner)s's piece from %(squares)s to %(to)s"),
    "skipped": gettext_lazy("%(colour)s was skipped"),
    "over": gettext_lazy("The game is over"),
    "resign": gettext_lazy("%(colour)s's player resigned"),
}
COLOUR_NAMES = {
    "blue": pgettext_lazy("colour", "blue"),
    "yellow": pgettext_lazy("colour", "yellow"),
    "red": pgettext_lazy("colour", "red"),
    "green": pgettext_lazy("colour", "green"),
}


def card_name(kind: str) -> str:
    """The card's name as the rule sheet in the current language prints it (R10)."""
    name = CARD_NAMES.get(kind)
    return str(name) if name is not None else kind


def card_effect(kind: str) -> str:
    effect = CARD_EFFECTS.get(kind)
    return str(effect) if effect is not None else ""


def card_help(kind: str) -> str:
    """The help page's paragraph on the card, starting with its rule: "(R6.1): ..."."""
    text = CARD_HELP.get(kind)
    return str(text) if text is not None else ""


def step_text(step: str, *, yours: bool = True) -> str:
    """What the player does at ``step``, with its rule: "place a piece (R5.3)"; said to the
    player (``yours``: "one of your pieces") or of another one ("one of their pieces")."""
    words = (None if yours else STEP_TEXT_OTHERS.get(step)) or STEP_TEXT.get(step)
    if words is None:
        return ""
    return _("%(what)s (%(rule)s)") % {"what": words, "rule": STEPS[step].rule}


def step_name(step: str) -> str:
    name = STEP_NAMES.get(step)
    return str(name) if name is not None else step


def _in_language(table: dict, key: str, memo: dict) -> str | None:
    """``str(table[key])`` in the active language, remembered per language: a page names the
    colours a hundred times (board cells, swatches, the log), each a catalog look-up otherwise."""
    language = translation.get_language()
    found = memo.get((language, key))
    if found is None:
        word = table.get(key)
        if word is None:
            return None
        found = memo[(language, key)] = str(word)
    return found


_COLOUR_NAME_MEMO: dict = {}
_COLOUR_LETTER_MEMO: dict = {}


def colour_name(colour: str | None) -> str:
    """A colour's name in lower case (``blue`` …); "" for none. CSS classes keep the key."""
    if not colour:
        return ""
    name = _in_language(COLOUR_NAMES, colour, _COLOUR_NAME_MEMO)
    return name if name is not None else colour


# The letter a square or swatch of a colour carries, in the active language: the initial of the
# colour's name there, told apart from the others (Swedish gul and grön are Gu and Gr, Finnish
# keltainen is K, Japanese 黄). The engine's B/Y/R/G stay in records and the CSS.
COLOUR_LETTERS = {
    "blue": pgettext_lazy("colour letter", "B"),
    "yellow": pgettext_lazy("colour letter", "Y"),
    "red": pgettext_lazy("colour letter", "R"),
    "green": pgettext_lazy("colour letter", "G"),
}


def colour_letter(colour: str | None) -> str:
    return _in_language(COLOUR_LETTERS, colour or "", _COLOUR_LETTER_MEMO) or ""


def colour_names(colours) -> list[str]:
    return [colour_name(c) for c in colours]


# One sentence per rule the engine can refuse an action by (grep games/engine for "(R"); a
# message naming several rules is keyed by all of them, as the engine writes them.
RULE_MESSAGES = {
    "R1.1": gettext_lazy("Squares are written a1 to t20, separated by commas (R1.1)."),
    "R1.3": gettext_lazy("These squares do not form one of the 21 pieces (R1.3)."),
    "R1.4": gettext_lazy("There is no such card (R1.4)."),
    "R2.5": gettext_lazy(
        "Resign with one of your own colours: the shared colour is nobody's own (R2.5)."
    ),
    "R3.1": gettext_lazy("A setup piece must cover a free corner square of the board (R3.1)."),
    "R4.1": gettext_lazy("The piece must lie on free squares of the board (R4.1)."),
    "R4.2": gettext_lazy("The piece must touch your own colour at a corner (R4.2)."),
    "R4.3": gettext_lazy("The piece must not share a side with your own colour (R4.3)."),
    "R4.5": gettext_lazy(
        "With no piece of the colour on the board, the piece must cover a free corner square "
        "(R4.5)."
    ),
    "R5.1": gettext_lazy("First play one of the cards in your hand (R5.1)."),
    "R5.3": gettext_lazy("Place one of the pieces left in your colour's supply (R5.3)."),
    "R6.3": gettext_lazy("Choose which of the two cards drawn by Draw 2 to play (R6.3)."),
    "R6.4": gettext_lazy("Declare one of the four colours for Wild (R6.4)."),
    "R6.5": gettext_lazy(
        "With Edge to Edge the piece must share a side with a piece of your colours (R6.5)."
    ),
    "R6.6": gettext_lazy("Double Play's second piece must touch the first one at a corner (R6.6)."),
    "R6.7": gettext_lazy("Recycle takes back one of your own pieces on the board (R6.7)."),
    "R6.8": gettext_lazy(
        "Warp moves an opponent's piece, keeping its shape, to another spot where it touches its "
        "colour at a corner and at no side (R6.8)."
    ),
    "R6.9": gettext_lazy("Only one card is played per turn (R6.9)."),
    "R7.2": gettext_lazy("That player has resigned already: their colours are out (R7.2)."),
    "R8.1": gettext_lazy("The game is over: no move can follow (R8.1)."),
    "R4.3, R6.6": gettext_lazy(
        "Double Play's second piece must not share a side with your own colour (R4.3, R6.6)."
    ),
    "R4.1, R6.8": gettext_lazy("The new spot must be free (R4.1, R6.8)."),
    "R4.2, R6.8": gettext_lazy(
        "The new spot must touch the piece's colour at a corner (R4.2, R6.8)."
    ),
    "R4.3, R6.8": gettext_lazy(
        "The new spot must not share a side with the piece's colour (R4.3, R6.8)."
    ),
}
NOT_A_MOVE = gettext_lazy("This is not a move the rules allow here.")

RULE_IDS = re.compile(r"R\d+(?:\.\d+)?")
LAST_GROUP = re.compile(r"\(([^()]*)\)\s*$")


def rule_ids(text: str) -> list[str]:
    """The rule ids of the engine's message, from its closing parenthesis: ``(R4.3, R6.8)``."""
    match = LAST_GROUP.search(text)
    return RULE_IDS.findall(match.group(1)) if match else []


def rule_key(text: str) -> str | None:
    """Which entry of RULE_MESSAGES tells the refusal ``text`` (None: no rule named)."""
    ids = rule_ids(text)
    if not ids:
        return None
    joined = ", ".join(ids)
    if joined in RULE_MESSAGES:
        return joined
    if "R6.9" in ids:  # "a 'card' action is out of place ... (R5.3; one card per turn, R6.9)"
        return "R6.9"
    return next((i for i in ids if i in RULE_MESSAGES), None)


def rule_message(text: str) -> str:
    """The engine's refusal as the player reads it: in English the engine's own detailed
    message; in another language the rule's generic sentence, naming the same rule ids."""
    language = translation.get_language() or "en"
    if language.split("-")[0] == "en":
        return text
    key = rule_key(text)
    return str(RULE_MESSAGES[key] if key else NOT_A_MOVE)


# The shuffle check's verdict (engine.verify's ``code``), in the reader's language: the engine
# says it in English for the command line; the game page after a Shuffle game says it here.
VERDICTS = {
    "ok": gettext_lazy(
        "the seed and salt match the commitment, and every card came from the decks the seed "
        "deals, in order"
    ),
    "not_shuffle": gettext_lazy("only a Shuffle game has a shuffle to verify"),
    "missing": gettext_lazy("the record lacks %(keys)s"),
    "integer_seed": gettext_lazy("an integer seed (an older record) has no commitment"),
    "commitment": gettext_lazy("the seed and salt do not match the commitment"),
    "decks": gettext_lazy("the record's decks are not the ones the seed deals"),
    "action": gettext_lazy("action %(index)s does not follow from the seed's decks"),
    "not_over": gettext_lazy("the game is not over: its seed is still secret"),
}


def verdict_reason(verdict: dict) -> str:
    """``engine.verify``'s reason in the active language (its English one for a code this
    table does not know)."""
    text = VERDICTS.get(verdict.get("code", ""))
    if text is None:
        return verdict.get("reason", "")
    return str(text) % {
        "keys": ", ".join(verdict.get("missing", [])),
        "index": verdict.get("index", ""),
    }
