"""Which language a page is in, and how a player changes it (six languages).

The order (config.middleware.UserLanguageMiddleware after Django's LocaleMiddleware): ``?lang=``
on the URL, then the signed-in player's setting, then the switcher's cookie, then the browser's
Accept-Language, then English.
"""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

CODES = [code for code, _name in settings.LANGUAGES]


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


def test_the_six_languages_of_the_rule_sheets():
    assert CODES == ["en", "sv", "fi", "da", "nb", "ja"]


def test_a_visitor_gets_english_without_a_preference(client):
    response = client.get(reverse("help"))
    assert html_lang(response) == "en"
    assert response["Content-Language"] == "en"


@pytest.mark.parametrize("code", CODES)
def test_the_browser_s_accept_language_picks_the_page_language(client, code):
    response = client.get(reverse("help"), HTTP_ACCEPT_LANGUAGE=f"{code},en;q=0.5")
    assert html_lang(response) == code
    assert "Accept-Language" in response["Vary"]


def test_a_regional_variant_falls_back_to_its_language(client):
    response = client.get(reverse("help"), HTTP_ACCEPT_LANGUAGE="sv-FI,de;q=0.8")
    assert html_lang(response) == "sv"
    response = client.get(reverse("help"), HTTP_ACCEPT_LANGUAGE="no")
    assert html_lang(response) == "nb"  # Django maps the generic Norwegian code to Bokmål


def test_lang_on_the_url_wins_over_the_browser(client):
    response = client.get(reverse("help") + "?lang=ja", HTTP_ACCEPT_LANGUAGE="sv")
    assert html_lang(response) == "ja"
    unknown = type(client)().get(reverse("help") + "?lang=xx", HTTP_ACCEPT_LANGUAGE="sv")
    assert html_lang(unknown) == "sv"


def test_a_link_in_a_language_keeps_the_visitor_in_it(client):
    """The page's own refreshes (htmx panels) and the next pages carry no ?lang=."""
    client.get(reverse("help") + "?lang=fi", HTTP_ACCEPT_LANGUAGE="sv")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fi"
    assert html_lang(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="sv")) == "fi"


def test_every_page_links_its_versions_in_each_language(client):
    response = client.get(reverse("help") + "?tab=cards", HTTP_ACCEPT_LANGUAGE="fi")
    found = re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"', response.text)
    links = {code: html.unescape(url) for code, url in found}
    assert set(links) == {*CODES, "x-default"}
    assert links["sv"] == "http://testserver/help/?tab=cards&lang=sv"
    assert links["x-default"] == "http://testserver/help/?tab=cards"
    # and a link in a language serves that language
    assert html_lang(client.get(links["da"].removeprefix("http://testserver"))) == "da"


def test_the_footer_switcher_sets_the_language_and_returns_to_the_page(client):
    response = client.post(reverse("set_language"), {"language": "da", "next": "/help/"})
    assert response.status_code == 302 and response["Location"] == "/help/"
    assert html_lang(client.get("/help/", HTTP_ACCEPT_LANGUAGE="ja")) == "da"  # the cookie
    page = client.get("/help/").text
    assert '<select id="footer-language" name="language">' in page
    assert re.search(r'<option value="da" lang="da" selected>Dansk</option>', page)
    # every language is named in itself, whatever the page's language
    for name in ("English", "Svenska", "Suomi", "Norsk (bokmål)", "日本語"):
        assert f">{name}</option>" in page


def test_a_player_s_setting_follows_them_and_the_switcher_saves_it(client, alice):
    client.force_login(alice)
    assert alice.language in ("", "en")
    client.post(reverse("set_language"), {"language": "fi", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "fi"
    assert alice.email_language() == "fi"
    # another device (no cookie, a Japanese browser) still shows the player's language
    other = type(client)()
    other.force_login(alice)
    assert html_lang(other.get("/help/", HTTP_ACCEPT_LANGUAGE="ja")) == "fi"


def test_the_switcher_refuses_an_unknown_language_and_changes_nothing(client, alice):
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == ""
    assert html_lang(client.get("/help/")) == "en"


def test_the_settings_page_saves_the_language(client, alice):
    client.force_login(alice)
    page = client.get(reverse("settings")).text
    assert 'name="language"' in page
    data = {
        "display_name": "",
        "language": "nb",
        "time_zone": "UTC",
        "confirm_moves": "on",
        "email_turns": User.EmailTurns.EVERY,
        "reminder_hours": "12",
        "digest_hour": "8",
    }
    response = client.post(reverse("settings"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    alice.refresh_from_db()
    assert alice.language == "nb"
    assert html_lang(client.get("/help/")) == "nb"


def test_a_new_player_keeps_the_language_they_signed_up_in(client):
    client.post(
        reverse("account_signup") + "?lang=sv",
        {
            "username": "sven",
            "email": "sven@example.com",
            "password1": "a long enough passphrase 42",
            "password2": "a long enough passphrase 42",
        },
    )
    assert User.objects.get(username="sven").language == "sv"
