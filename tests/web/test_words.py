"""One place per fact (STYLE.md habit 18): every card kind and every step of a turn has
its words in every language, a symbol and a picture; the words agree with the engine's registry
(``engine.cards.CARDS``, ``engine.steps.STEPS``), which holds everything else about them."""

from __future__ import annotations

import re

import polib
import pytest
from django.conf import settings
from django.utils import translation

from config import catalogs
from games import translations
from games.engine.cards import CARD_KINDS, CARDS
from games.engine.steps import PLACE_STEPS, STEP_ACTION, STEPS
from games.presenters import pictures

LANGUAGES = [code for code, _name in settings.LANGUAGES]


def catalog(code: str) -> dict[tuple[str | None, str], str]:
    po = polib.pofile(str(catalogs.LOCALE_DIR / code / "LC_MESSAGES" / "django.po"))
    return {(e.msgctxt, e.msgid): e.msgstr for e in po if not e.obsolete}


def test_the_registries_know_every_card_and_step():
    assert tuple(CARDS) == CARD_KINDS
    opened = {step for card in CARDS.values() for step in card.opens}
    assert opened <= set(STEPS)  # a card opens only steps the engine knows
    for card in CARDS.values():
        assert card.rule.startswith("R6.") and card.name and card.effect and card.symbol
    assert len({card.symbol for card in CARDS.values()}) == len(CARDS)  # tellable apart
    assert len({card.rule for card in CARDS.values()}) == len(CARDS)


def test_the_english_words_are_the_registrys():
    assert set(translations.CARD_NAMES) == set(translations.CARD_EFFECTS) == set(CARDS)
    assert set(translations.STEP_TEXT) == set(translations.STEP_NAMES) == set(STEPS)
    with translation.override("en"):
        for kind, card in CARDS.items():
            assert translations.card_name(kind) == card.name
            assert translations.card_effect(kind) == card.effect
        for key, step in STEPS.items():
            assert translations.step_text(key).endswith(f"({step.rule})")


def test_every_card_has_its_help_paragraph_citing_its_own_rule():
    assert set(translations.CARD_HELP) == set(CARDS)
    for code in LANGUAGES:
        with translation.override(code):
            for kind, card in CARDS.items():
                text = translations.card_help(kind)
                # "(R6.1): ..." or, in Japanese, "（R6.1）：..."
                assert re.match(rf"[(（]{re.escape(card.rule)}[)）]", text), (code, kind)
                if code != "en":
                    with translation.override("en"):
                        english = translations.card_help(kind)
                    assert text != english, (code, kind)  # translated, not the English


def test_the_place_steps_are_the_steps_that_take_a_placement():
    assert PLACE_STEPS == ("setup", "place", "place_second")  # R3.1, R5.3, R6.6
    assert all(STEPS[key].action == "place" for key in PLACE_STEPS)
    assert {key for key, step in STEPS.items() if step.action == "place"} == set(PLACE_STEPS)


def test_the_board_script_names_no_step_of_the_rules():
    """static/js/board.js branches on the action key the server puts in its data (the step
    registry's ``action``), so a new step that places or picks on the board needs no script
    change: the only step names it may quote are action keys too."""
    script = (settings.BASE_DIR / "static" / "js" / "board.js").read_text()
    quoted = set(re.findall(r'"(\w+)"', script))
    assert quoted & set(STEPS) <= set(STEP_ACTION.values())
    assert {"warp", "recycle"} <= quoted  # it does branch on the action


@pytest.mark.parametrize("code", [c for c in LANGUAGES if c != "en"])
def test_every_card_and_step_has_its_words_in_every_language(code):
    words = catalog(code)
    with translation.override(code):
        for kind, card in CARDS.items():
            name = words.get(("card", card.name))
            effect = words.get((None, card.effect))
            assert name and effect, (code, kind)
            assert translations.card_name(kind) == name
            assert translations.card_effect(kind) == effect
        for key, step in STEPS.items():
            with translation.override("en"):
                english_text = str(translations.STEP_TEXT[key])
                english_name = str(translations.STEP_NAMES[key])
            assert words.get((None, english_text)), (code, key)
            assert words.get(("step", english_name)), (code, key)
            text = translations.step_text(key)
            assert text == f"{words[(None, english_text)]} ({step.rule})"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_card_has_a_picture_with_its_symbol_rule_and_name(code):
    with translation.override(code):
        for kind, card in CARDS.items():
            svg = pictures.card_svg(kind)
            name = translations.card_name(kind).replace("&", "&amp;")
            assert card.symbol in svg and card.rule in svg and name in svg, (code, kind)


@pytest.mark.parametrize(
    "code, yours, theirs",
    [
        ("en", "take one of your pieces back", "take one of their pieces back"),
        ("sv", "ta tillbaka en av dina bitar", "ta tillbaka en av sina bitar"),
    ],
)
def test_the_turn_box_says_your_pieces_to_the_player_and_their_pieces_of_others(
    code, yours, theirs
):
    with translation.override(code):
        assert translations.step_text("recycle").startswith(yours)
        assert translations.step_text("recycle", yours=False).startswith(theirs)
