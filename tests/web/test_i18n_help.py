"""The rules & help page in the six languages: every paragraph of the template
is translated, the cards carry the names of the published rule sheets (RULES.md R10), the page
says that the English rule book decides, and <html lang> names the language shown."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

# RULES.md R10: the names of the cards in the published rule sheets, in the order of the help
# page's card list, which is the card registry's (engine.cards.CARDS) and the R10 table's.
R10 = {
    "en": ["Skip", "Reverse", "Draw 2", "Wild", "Edge to Edge", "Recycle", "Warp", "Double Play"],
    "sv": [
        "Hoppa över",
        "Bakåt",
        "Dra 2",
        "Joker",
        "Kant mot kant",
        "Återvinn",
        "Snurra till det",
        "Dubbelomgång",
    ],
    "fi": [
        "Ohitus",
        "Suunnanvaihto",
        "Nosta 2",
        "Jokeri",
        "Reunat vastakkain",
        "Kierrätys",
        "Poikkeama",
        "Pelaa kaksi",
    ],
    "da": [
        "Spring over",
        "Skift retning",
        "Træk 2",
        "Joker",
        "Kant mod kant",
        "Genbrug",
        "Flyt",
        "Dobbelttur",
    ],
    "nb": [
        "Stå over",
        "Snu",
        "Trekk 2",
        "Jokerkort",
        "Kant i kant",
        "Gjenbruk",
        "Flytting",
        "Dobbeltspill",
    ],
    "ja": [
        "スキップ",
        "リバース",
        "ドロー2",
        "ワイルド",
        "辺と辺",
        "リサイクル",
        "ワープ",
        "ダブルプレイ",
    ],
}
TRANSLATED = ["sv", "fi", "da", "nb", "ja"]

# A few of the page's English sentences, one from each part of it.
ENGLISH = [
    "Rules &amp; help",
    "This site plays two games",
    "Four colours always move in the order",
    "No cards are played in this round and nobody may pass.",
    "A card whose action cannot be carried out is discarded with no effect.",
    "the next colour in the current direction loses its whole next turn",
    "the direction of play flips.",
    "Each player is compared with every other player of the game by their final place",
    "The printed rules leave a few things open.",
    "Going away? Start a vacation in your",
    "Games started before this shuffle used a 64-bit seed",
]


def _get(language: str, how: str) -> str:
    if how == "query":
        response = Client().get(reverse("help"), {"lang": language})
    else:
        response = Client().get(reverse("help"), HTTP_ACCEPT_LANGUAGE=f"{language};q=0.9,en;q=0.5")
    assert response.status_code == 200
    return response.content.decode()


def _article(page: str) -> str:
    """The help page's own part (base.html's header and footer are not translated here)."""
    return re.search(r'<article class="help">(.*)</article>', page, re.S).group(1)


def _prose(page: str) -> str:
    """The text of the template's own prose: the article without the pictures (the pieces, the
    cards and the example turn are drawn by games.presenters.pictures)."""
    article = _article(page)
    for drawn in (
        r'<ul class="piece-gallery".*?</ul>',
        r'<ul class="card-gallery".*?</ul>',
        r'<ol class="example-steps">.*?</ol>',
    ):
        article = re.sub(drawn, " ", article, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", article)).split())


def _sentences(text: str) -> list[str]:
    """English sentences (and headings) long enough to be prose, not a rule id or a square."""
    parts = re.split(r"(?<=[.:;!?])\s+", text)
    return [part for part in parts if len(part) >= 25 and re.search(r"[a-z]{4} [a-z]{3}", part)]


@pytest.fixture
def english(db) -> str:
    return _get("en", "query")


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["query", "accept-language"])
@pytest.mark.parametrize("language", TRANSLATED)
def test_the_help_page_is_translated_with_the_rule_sheets_card_names(language, how, english):
    page = _get(language, how)

    assert re.search(rf'<html lang="{language}">', page)
    # The card list: each card under its R10 name in this language (not the English one).
    cards = re.search(r'<ul class="card-gallery".*?</ul>\s*<ul>(.*?)</ul>', page, re.S).group(1)
    names = re.findall(r"<strong>(.*?)</strong>", cards)
    assert names == R10[language]
    # The site's default deck (R1.4), spelled out with the same names.
    deck = re.search(r"<li><strong>[^<]+</strong>[^<]*\bR1\.4\b[^<]*</li>", page).group(0)
    for name in R10[language]:
        assert name in deck, name
    # No English sentence of the template is left: the ones picked by hand, then all of them.
    for sentence in ENGLISH:
        assert sentence not in _article(page), sentence
    prose = _prose(page)
    left = [s for s in _sentences(_prose(english)) if s in prose]
    assert not left, left
    # Rule ids stay as they are (R6.4, R2.4a), and so do squares and commands.
    for kept in ("R6.4", "R2.4a", "<code>a20</code>", "python -m games.engine verify record.json"):
        assert kept in page, kept


@pytest.mark.django_db
@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translated_help_page_says_the_english_rule_book_decides(language):
    page = _get(language, "query")

    note = re.search(r'<p class="translation-note">(.*?)</p>', page, re.S)
    assert note, "no note that the English wording decides"
    english_link = re.search(r'<a href="([^"]+)" hreflang="en">', note.group(1))
    assert english_link and english_link.group(1) == reverse("help") + "?lang=en"
    # The note is in the page's language, not the English source sentence.
    assert "translated from the English" not in note.group(1)


@pytest.mark.django_db
def test_the_english_help_page_has_no_translation_note_and_keeps_its_wording(english):
    assert '<html lang="en">' in english
    assert 'class="translation-note"' not in english
    for sentence in ENGLISH:
        assert sentence in _article(english), sentence
    cards = re.search(r'<ul class="card-gallery".*?</ul>\s*<ul>(.*?)</ul>', english, re.S).group(1)
    assert re.findall(r"<strong>(.*?)</strong>", cards) == R10["en"]
    # The links inside translated paragraphs still point where they did.
    assert f'<a href="{reverse("settings")}#vacation">settings</a>' in english
    assert f'<a href="{reverse("leaderboard")}">leaderboard</a>' in english


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, words",
    [
        ("en", "a 2-player deck: that whole sequence written out twice in a row"),
        ("sv", "hela den följden två gånger i rad"),
        ("ja", "この並び全体を 2 回続けて並べたもの"),
    ],
)
def test_the_help_page_says_how_a_two_player_deck_is_laid_out(language, words):
    # engine.new_game: recipe_cards(recipe) * 2, the whole order once and then again.
    assert words in _get(language, "query")
