"""The letter on a colour's squares and swatches is that colour's initial in
the page's language, told apart from the others (Swedish gul and grön: Gu and Gr, not a G that
reads as gul on green), on the table board, the script's board and every swatch."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.pages import client_for, page_url, play_setup

pytestmark = pytest.mark.django_db

LETTERS = {
    "en": {"blue": "B", "yellow": "Y", "red": "R", "green": "G"},
    "sv": {"blue": "B", "yellow": "Gu", "red": "R", "green": "Gr"},
    "fi": {"blue": "S", "yellow": "K", "red": "P", "green": "V"},
    "ja": {"blue": "青", "yellow": "黄", "red": "赤", "green": "緑"},
}


@pytest.mark.parametrize("language", LETTERS)
def test_the_board_and_the_swatches_carry_the_languages_letters(duel, alice, language):
    play_setup(duel)
    alice.language = language
    alice.save(update_fields=["language"])
    page = client_for(alice).get(page_url(duel)).content.decode()
    expected = LETTERS[language]
    words = json.loads(re.search(r'id="board-text"[^>]*>(.*?)</script>', page, re.S).group(1))
    assert words["letters"] == expected
    for colour, letter in expected.items():
        cells = re.findall(rf'<td class="cell {colour}[^"]*"[^>]*>([^<]*)</td>', page)
        assert cells and set(cells) == {letter}, (colour, set(cells))
        swatches = set(re.findall(rf'class="swatch {colour}" aria-hidden="true">([^<]*)<', page))
        assert swatches == {letter}, (colour, swatches)
