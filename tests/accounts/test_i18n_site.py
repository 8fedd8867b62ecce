"""The site's pages in the six languages: the lobby, the header, the settings page (and
its language choice), the profile, the unsubscribe page and allauth's pages, picked by the
browser's Accept-Language, by ``?lang=`` or by the player's own setting."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.tokens import unsubscribe_token
from games import services
from games.models import Seat
from games.services import SeatSpec

pytestmark = pytest.mark.django_db

# English sentences of the lobby's template: none may remain on a translated lobby.
LOBBY_ENGLISH = [
    "with friends or against the computer",
    "Games are asynchronous",
    "How to play",
    "Replay a record file",
    "Open games",
    "Time per move",
    "Sign in to join",
    "Games in play",
    "Spectators see the board live",
    ">Log in<",
    ">Sign up<",
    "Rules & help",
    "Leaderboard",
]

# A few sentences of each translation, from the catalogs (what a reader of that language sees).
LOBBY_TRANSLATED = {
    "sv": [
        "Spela <strong>Blokus Shuffle: UNO Edition</strong>",
        "Öppna partier",
        "Så spelar du",
        "Logga in för att gå med",
        "Pågående partier",
        "Åskådare ser brädet live",
    ],
    "fi": [
        "Pelaa <strong>Blokus Shuffle: UNO Editionia</strong>",
        "Avoimet pelit",
        "Näin pelaat",
        "Kirjaudu sisään liittyäksesi",
        "Käynnissä olevat pelit",
        "Katsojat näkevät",
    ],
    "da": [
        "Spil <strong>Blokus Shuffle: UNO Edition</strong>",
        "Åbne spil",
        "Sådan spiller du",
        "Log ind for at deltage",
        "Igangværende spil",
        "Tilskuere ser brættet live",
    ],
    "nb": [
        "Spill <strong>Blokus Shuffle: UNO Edition</strong>",
        "Åpne spill",
        "Slik spiller du",
        "Logg inn for å bli med",
        "Pågående spill",
        "Tilskuere ser brettet direkte",
    ],
    "ja": [
        "ブラウザーで遊べます",
        "参加者募集中のゲーム",
        "遊び方",
        "参加するにはログインしてください",
        "対局中のゲーム",
        "観戦者は盤面をリアルタイムで見られます",
    ],
}

SETTINGS_ENGLISH = [
    "Save settings",
    "Turn notifications",
    "Blocked players",
    "You have blocked nobody",
    "Going away?",
    "Start my vacation",
    "Change your password",
    "Your public profile",
    "An email every time it is my turn",
    "Only reminders, when I have not moved for a while",
    "How long your turn may wait",
    "The language of the pages and of your emails.",
    "Shown to other players instead of your username",
]

SETTINGS_TRANSLATED = {
    "sv": [
        "Spara inställningar",
        "Aviseringar om din tur",
        "Ett mejl varje gång det är min tur",
        "Ska du resa bort?",
        "Automatiskt (webbläsarens språk)",
        "3 timmar",
    ],
    "fi": [
        "Tallenna asetukset",
        "Vuoroilmoitukset",
        "Sähköposti aina kun on vuoroni",
        "Lähdetkö pois?",
        "Automaattinen (selaimen kieli)",
        "3 tuntia",
    ],
    "da": [
        "Gem indstillinger",
        "Besked om din tur",
        "En e-mail hver gang det er min tur",
        "Skal du væk?",
        "Automatisk (browserens sprog)",
        "3 timer",
    ],
    "nb": [
        "Lagre innstillinger",
        "Varsler om din tur",
        "En e-post hver gang det er min tur",
        "Skal du bort?",
        "Automatisk (nettleserens språk)",
        "3 timer",
    ],
    "ja": [
        "設定を保存",
        "手番の通知",
        "自分の番が来るたびにメールを受け取る",
        "しばらく留守にしますか？",
        "自動（ブラウザーの言語）",
        "3時間",
    ],
}

LANGUAGES = list(LOBBY_TRANSLATED)


def text(response) -> str:
    """The page as a reader sees its words: entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(response.content.decode()).split())


@pytest.fixture
def lobby_games(alice, bob, carol):
    """An open public game (a Join row) and a game in play (a Watch row)."""
    services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    game = services.game_create(
        creator=bob,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    services.game_join(game=game, user=carol)


def test_the_lobby_is_english_by_default(client, lobby_games):
    page = text(client.get(reverse("home")))

    assert '<html lang="en">' in page
    for sentence in LOBBY_ENGLISH:
        assert sentence in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_comes_in_the_browsers_language(client, lobby_games, lang):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=f"{lang},en;q=0.5")
    page = text(response)

    assert f'<html lang="{lang}">' in page
    for sentence in LOBBY_TRANSLATED[lang]:
        assert sentence in page
    for sentence in LOBBY_ENGLISH:
        assert sentence not in page, f"{sentence!r} left in English on the {lang} lobby"


def test_the_signed_in_lobby_speaks_the_players_language(client, duel, alice):
    """The player's setting wins over the browser: header, "your turn" list, invitations."""
    User.objects.filter(pk=alice.pk).update(language="sv")
    invited = services.game_create(
        creator=duel.seats.get(index=1).user,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="alice")],
    )
    client.force_login(alice)

    page = text(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ja"))

    assert '<html lang="sv">' in page
    for sentence in (
        "Mina partier",
        "Nytt parti",
        "Inställningar",
        "Logga ut",
        "Din tur",
        "Alla mina partier",
        "Inbjudningar",
        "Tacka ja",
        "Tacka nej",
        "bjuder in dig till",
        "Starta ett nytt parti",
    ):
        assert sentence in page
    assert invited.public_id in page
    for sentence in (
        "My games",
        "New game",
        "Log out",
        "Your turn",
        "All my games",
        "Invitations",
        "invites you to",
        "Start a new game",
        "players</a>",
    ):
        assert sentence not in page


def test_lang_on_the_url_picks_the_language_of_that_page(client, lobby_games):
    page = text(client.get(reverse("home") + "?lang=fi", HTTP_ACCEPT_LANGUAGE="da"))

    assert '<html lang="fi">' in page and "Avoimet pelit" in page and "Åbne spil" not in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_settings_page_comes_in_the_browsers_language(client, alice, lang):
    client.force_login(alice)

    page = text(client.get(reverse("settings"), HTTP_ACCEPT_LANGUAGE=lang))

    for sentence in SETTINGS_TRANSLATED[lang]:
        assert sentence in page
    for sentence in SETTINGS_ENGLISH:
        assert sentence not in page, f"{sentence!r} left in English on the {lang} settings"


def test_the_settings_page_shows_each_language_in_its_own_name_and_the_players_choice(
    client, alice
):
    User.objects.filter(pk=alice.pk).update(language="nb")
    client.force_login(alice)

    content = client.get(reverse("settings")).content.decode()

    assert '<option value="nb" selected>Norsk bokmål</option>' in content
    for code, name in (
        ("", "Automatisk (nettleserens språk)"),
        ("en", "English"),
        ("sv", "Svenska"),
        ("fi", "Suomi"),
        ("da", "Dansk"),
        ("ja", "日本語"),
    ):
        assert f'<option value="{code}">{name}</option>' in content


VALID = {
    "display_name": "",
    "time_zone": "UTC",
    "confirm_moves": "on",
    "email_turns": "every",
    "reminder_hours": "12",
    "digest_hour": "8",
}


def test_saving_a_language_keeps_it_and_the_next_page_speaks_it(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("settings"), {**VALID, "language": "ja"}, follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )

    alice.refresh_from_db()
    assert alice.language == "ja" and alice.email_language() == "ja"
    page = text(response)
    assert '<html lang="ja">' in page
    assert "設定を保存しました。" in page  # "Your settings are saved." in the new language
    assert '<option value="ja" selected>日本語</option>' in page
    assert "Your settings are saved." not in page


def test_going_back_to_automatic_follows_the_browser_again(client, alice):
    User.objects.filter(pk=alice.pk).update(language="ja")
    client.force_login(alice)

    response = client.post(
        reverse("settings"), {**VALID, "language": ""}, follow=True, HTTP_ACCEPT_LANGUAGE="da"
    )

    alice.refresh_from_db()
    assert alice.language == "" and alice.email_language() == "en"
    page = text(response)
    assert '<html lang="da">' in page and "Dine indstillinger er gemt." in page


def test_an_unknown_language_is_refused_and_nothing_changes(client, alice):
    client.force_login(alice)

    response = client.post(reverse("settings"), {**VALID, "language": "xx"})

    assert response.status_code == 200
    assert "Select a valid choice" in text(response)
    alice.refresh_from_db()
    assert alice.language == ""


def test_the_settings_errors_and_messages_are_translated(client, alice):
    client.force_login(alice)

    refused = text(
        client.post(
            reverse("settings"),
            {**VALID, "time_zone": "Mars/Olympus_Mons"},
            HTTP_ACCEPT_LANGUAGE="sv",
        )
    )
    away = text(
        client.post(reverse("vacation"), {"days": "3"}, follow=True, HTTP_ACCEPT_LANGUAGE="fi")
    )

    assert "Mars/Olympus_Mons är inte namnet på en tidszon" in refused
    assert "is not a time zone name" not in refused
    assert "Nauti 3 lomapäivästäsi" in away and "Enjoy your" not in away
    assert "Olet lomalla" in away and "You are on vacation until" not in away


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Games played", "Recent games", "Playing since"]),
        ("sv", ["Spelade partier", "Senaste partier", "Spelar sedan"]),
        ("ja", ["対戦数", "最近のゲーム", "からプレイ"]),
    ],
)
def test_the_profile_page(client, alice, lang, words):
    page = text(client.get(reverse("profile", args=["alice"]), HTTP_ACCEPT_LANGUAGE=lang))

    for word in words:
        assert word in page
    if lang != "en":
        assert "Games played" not in page and "Finished games only" not in page


def test_the_unsubscribe_page_in_japanese(client, bob):
    url = reverse("unsubscribe", args=[unsubscribe_token(bob)])

    asked = text(client.get(url, HTTP_ACCEPT_LANGUAGE="ja"))
    done = text(client.post(url, HTTP_ACCEPT_LANGUAGE="ja"))

    assert "bob さんへの手番のメールとリマインダーをすべて停止しますか？" in asked
    assert "Stop turn emails" not in asked and "your settings" not in asked
    assert "完了しました。bob さんには今後" in done
    assert re.search(r'<a href="/settings/">設定</a>でいつでも再開できます', done)


@pytest.mark.parametrize(
    ("lang", "sign_in", "forgot"),
    [
        ("sv", "Logga in", "Glömt lösenordet?"),
        ("fi", "Kirjaudu sisään", "Unohditko salasanasi?"),
        ("da", "Log ind", "Glemt din adgangskode?"),
        ("nb", "Logg inn", "Glemt ditt passord?"),
        ("ja", "ログイン", "パスワードをお忘れですか?"),
    ],
)
def test_allauths_pages_come_translated_inside_the_sites_layout(client, lang, sign_in, forgot):
    page = text(client.get(reverse("account_login"), HTTP_ACCEPT_LANGUAGE=lang))

    assert f'<html lang="{lang}">' in page
    assert f"<title> {sign_in} · Blokus Shuffle</title>" in page  # allauth's title, our layout
    assert forgot in page  # allauth's own catalog
    assert f'href="/accounts/login/">{sign_in}</a>' in page  # our header says it the same way
    assert "Forgot your password?" not in page and "Sign up" not in page


def test_chat_refusals_and_the_rating_chart_speak_the_readers_language():
    from django.utils import translation

    from games.services import GameError, chat, ratings

    with translation.override("sv"):
        with pytest.raises(GameError, match=r"^meddelandet är för långt: högst 3 tecken \(det här"):
            chat.clean_text("hello", what="message", max_length=3)
        with pytest.raises(GameError, match="^anledningen är tom: skriv något först$"):
            chat.clean_text(" ", what="reason", max_length=3)
        chart = ratings.chart_svg([1000, 1040, 990])
    assert 'aria-label="Ratinghistorik från 1000 till 990, mellan 990 och 1040"' in chart

    with translation.override("ja"):
        refusal = chat.chat_room(None, None, seated=False)[1]
    assert refusal == "チャットに書き込むにはログインしてください"

    with translation.override("en"):  # English unchanged
        with pytest.raises(GameError, match=r"^the message is too long: at most 3 characters"):
            chat.clean_text("hello", what="message", max_length=3)
        assert "Rating history from 1000 to 990" in ratings.chart_svg([1000, 1040, 990])
