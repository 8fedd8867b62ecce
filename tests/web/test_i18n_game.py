"""The game side in six languages: the game page, its refusals and the replay.

Card names are those of the published rule sheets (RULES.md R10); the engine stays English and
language-free, games.translations is the web layer's dictionary for it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from games import engine, translations
from games.engine.cards import CARD_EFFECTS, CARD_NAMES
from games.engine.state import COLOURS
from games.engine.steps import STEP_RULE
from tests.engine.helpers import make_state
from tests.support.pages import client_for, page_url, play_setup, save_state

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A request activates its language in this thread: leave English (the default) behind."""
    translation.activate("en")
    yield
    translation.deactivate()


CORNERS = {"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]}

# RULES.md R10, column by column.
R10 = {
    "en": {"skip": "Skip", "wild": "Wild", "edge": "Edge to Edge", "double": "Double Play"},
    "sv": {
        "skip": "Hoppa över",
        "wild": "Joker",
        "edge": "Kant mot kant",
        "double": "Dubbelomgång",
    },
    "fi": {
        "skip": "Ohitus",
        "wild": "Jokeri",
        "edge": "Reunat vastakkain",
        "double": "Pelaa kaksi",
    },
    "da": {"skip": "Spring over", "wild": "Joker", "edge": "Kant mod kant", "double": "Dobbelttur"},
    "nb": {
        "skip": "Stå over",
        "wild": "Jokerkort",
        "edge": "Kant i kant",
        "double": "Dobbeltspill",
    },
    "ja": {"skip": "スキップ", "wild": "ワイルド", "edge": "辺と辺", "double": "ダブルプレイ"},
}
ALL_R10 = {
    "sv": ["Hoppa över", "Bakåt", "Dra 2", "Joker", "Kant mot kant", "Återvinn"],
    "fi": ["Ohitus", "Suunnanvaihto", "Nosta 2", "Jokeri", "Reunat vastakkain", "Kierrätys"],
    "da": ["Spring over", "Skift retning", "Træk 2", "Joker", "Kant mod kant", "Genbrug"],
    "nb": ["Stå over", "Snu", "Trekk 2", "Jokerkort", "Kant i kant", "Gjenbruk"],
    "ja": ["スキップ", "リバース", "ドロー2", "ワイルド", "辺と辺", "リサイクル"],
}
R10_LAST_TWO = {  # Warp, Double Play
    "sv": ["Snurra till det", "Dubbelomgång"],
    "fi": ["Poikkeama", "Pelaa kaksi"],
    "da": ["Flyt", "Dobbelttur"],
    "nb": ["Flytting", "Dobbeltspill"],
    "ja": ["ワープ", "ダブルプレイ"],
}

# Sentences of games/play.html shown at the card step (some visible, some read aloud).
PAGE_SENTENCES = [
    "Play one card (R5.1): each says how many placements you will have after it.",
    "Colours and pieces left",
    "Next to move",
    "Scores now",
    "Download the record",
    "Your hand",
    "Squares left: fewer is better (R8.3).",
    "Your move",
    "Board: columns a to t from left to right, rows 1 to 20 from bottom to top",
]
# The same places in each language (one per language is enough to show it is not English).
TRANSLATED = {
    "sv": ["Färger och bitar kvar", "Näst på tur", "Din hand"],
    "fi": ["Värit ja jäljellä olevat palat", "Seuraavana vuorossa", "Kätesi"],
    "da": ["Farver og brikker tilbage", "Næste i tur", "Din hånd"],
    "nb": ["Farger og brikker igjen", "Neste i tur", "Hånden din"],
    "ja": ["色と残りのピース", "次の手番", "あなたの手札"],
}


def visible_text(html: str) -> str:
    """The page's words as read: tags out (attributes too), the board script's data left out."""
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def card_step(duel):
    """Alice (blue) to play one of Skip, Wild, Edge to Edge and Double Play."""
    state = make_state(
        players=2, pieces=CORNERS, hands={"blue": ["skip", "wild", "edge", "double"]}
    )
    return save_state(duel, state)


@pytest.mark.parametrize("language", ["en", "sv", "fi", "da", "nb", "ja"])
def test_the_game_page_speaks_the_language_with_the_rule_sheets_card_names(duel, alice, language):
    card_step(duel)
    response = client_for(alice).get(page_url(duel), HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()

    assert response.status_code == 200
    assert f'<html lang="{language}">' in html
    text = visible_text(html)
    for kind, name in R10[language].items():  # R10: on the card buttons
        assert re.search(
            rf'class="card card-{kind}[^"]*"[^>]*>\s*<span[^>]*>[^<]*</span>\s*'
            rf"<strong>{re.escape(name)}</strong>",
            html,
        ), (language, kind)
    english = [s for s in PAGE_SENTENCES if s in html]
    if language == "en":
        assert english == PAGE_SENTENCES  # the check below can fail: they are on the page
    else:
        assert english == [], language
        assert all(words in text for words in TRANSLATED[language]), language
        assert CARD_EFFECTS["skip"] not in html  # the effect is translated too, not only the name


def test_the_board_scripts_words_come_in_the_pages_language(duel, alice):
    save_state(duel, make_state(players=2, pieces=CORNERS, hands={}))  # blue places now
    html = client_for(alice).get(page_url(duel), HTTP_ACCEPT_LANGUAGE="sv").content.decode()

    words = json.loads(re.search(r'<script id="board-text"[^>]*>(.*?)</script>', html).group(1))
    assert words["rotate"] == "Vrid (R)" and words["place"] == "Lägg"
    assert words["colours"] == {"blue": "blå", "yellow": "gul", "red": "röd", "green": "grön"}
    assert words["spots"] == ["{piece}: {n} plats", "{piece}: {n} platser"]
    assert "recycleIt" not in words  # Recycle's words only at its own step


def act(client, game, action: dict, language: str):
    game.refresh_from_db()
    data = {"action": json.dumps(action), "ply": game.ply, "key": ""}
    return client.post(
        f"/games/{game.public_id}/act/",
        data,
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE=language,
    )


def test_a_refusal_names_the_rule_in_swedish_and_in_the_engines_english(duel, alice):
    save_state(duel, make_state(players=2, pieces=CORNERS, hands={}))  # blue places now
    client = client_for(alice)

    english = act(client, duel, {"place": "c3,d3"}, "en")
    swedish = act(client, duel, {"place": "c3,d3"}, "sv")
    side = act(client, duel, {"place": "b1,c1"}, "sv")

    assert english.status_code == swedish.status_code == side.status_code == 400
    said = english.content.decode()
    assert "Not played: piece does not touch its own colour at a corner (R4.2)" in said
    said = swedish.content.decode()
    assert "Inte spelat: Biten måste röra din egen färg i ett hörn (R4.2)." in said
    assert "does not touch" not in said and "Not played" not in said
    assert "Biten får inte dela en sida med din egen färg (R4.3)." in side.content.decode()
    duel.refresh_from_db()
    assert duel.ply == 0  # nothing was played


def test_a_service_refusal_is_translated_too(duel, bob):
    english = act(client_for(bob), duel, {"place": "t1"}, "en")
    finnish = act(client_for(bob), duel, {"place": "t1"}, "fi")
    assert english.status_code == finnish.status_code == 403
    assert "Not played: it is not your turn" in english.content.decode()
    assert "Ei pelattu: ei ole sinun vuorosi" in finnish.content.decode()


def test_the_replay_page_in_japanese(duel, alice):
    play_setup(duel)  # four setup placements: Alice holds her first two cards
    hand = engine.view(duel.current_state(), 0)["hand"]
    response = client_for(alice).get(
        f"/games/{duel.public_id}/replay/", {"lang": "ja"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    html = response.content.decode()
    text = visible_text(html)

    assert response.status_code == 200 and '<html lang="ja">' in html
    with translation.override("ja"):
        names = [translations.card_name(kind) for kind in hand]
    assert (
        f"あなたの手札： {'、'.join(names)}" in text or f"あなたの手札： {', '.join(names)}" in text
    )
    assert all(name in ALL_R10["ja"] + R10_LAST_TWO["ja"] for name in names)
    assert "リプレイ" in text and "残りのピース" in text and "手番" in text
    assert re.search(r"(青|黄|赤|緑)が \S+ を \S+ に置きました", text)  # the move list's captions
    for english in (
        "Previous turn",
        "Pieces left",
        "Players",
        "Turns",
        "The game is still running",
        "placed",
        "squares",
        "to move",
    ):
        assert english not in text, english


def test_the_card_names_are_the_engines_in_english_and_r10_in_each_language():
    assert {k: str(v) for k, v in translations.CARD_NAMES.items()} == CARD_NAMES
    assert {k: str(v) for k, v in translations.CARD_EFFECTS.items()} == CARD_EFFECTS
    assert list(translations.COLOUR_NAMES) == list(COLOURS)
    kinds = ["skip", "reverse", "draw2", "wild", "edge", "recycle", "warp", "double"]
    for language, first_six in ALL_R10.items():
        with translation.override(language):
            assert [translations.card_name(k) for k in kinds] == first_six + R10_LAST_TWO[language]


ENGINE = Path(engine.__file__).parent


def engine_refusals() -> list[str]:
    """The closing rule ids of every refusal the engine writes (its source: one per raise)."""
    source = "\n".join(p.read_text() for p in ENGINE.glob("*.py"))
    tails = re.findall(r'raise IllegalAction\(\s*f?"[^"]*(\(R[^"]*\))"', source)
    tails += re.findall(r'IllegalAction\(\s*\n\s*f?"[^"]*(\(R[^"]*\))"', source)
    assert len(tails) > 20
    # "a 'place' action is out of place: blue must ... now (R5.3)", with R6.9 for a card
    tails += [f"({rule})" for rule in STEP_RULE.values()]
    tails += [f"({rule}; one card per turn, R6.9)" for rule in STEP_RULE.values()]
    return tails


def test_every_rule_the_engine_refuses_by_has_its_own_sentence():
    for tail in engine_refusals():
        key = translations.rule_key(f"some refusal {tail}")
        assert key is not None, tail
        with translation.override("sv"):
            said = translations.rule_message(f"some refusal {tail}")
        assert said != translations.NOT_A_MOVE and said.endswith(f"({key}).")
    assert translations.rule_key("an action has exactly one key (or 'warp' with 'to')") is None


def test_a_real_refusal_round_trip_through_the_engine():
    state = make_state(players=2, pieces=CORNERS, hands={})
    with pytest.raises(engine.IllegalAction) as refused:
        engine.apply(state, {"place": "b1,c1"})
    message = str(refused.value)
    assert translations.rule_message(message) == message  # English: the engine's own words
    with translation.override("da"):
        assert translations.rule_message(message) == (
            "Brikken må ikke dele en side med din egen farve (R4.3)."
        )
