"""Display names that render like another player's username through invisible or look-alike
characters are refused: a joiner inside the name, U+034F, U+3164 or U+2800 at its end, Cyrillic
letters for Latin ones (accounts.names.name_key: default-ignorables dropped, UTS #39 skeleton)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.names import name_key

pytestmark = pytest.mark.django_db

SETTINGS = {"time_zone": "UTC", "email_turns": "every", "reminder_hours": "12", "digest_hour": "8"}

LOOKALIKES = [
    "ali\u200dce",  # ZERO WIDTH JOINER inside
    "ali\u200cce",  # ZERO WIDTH NON-JOINER inside
    "alice\u034f",  # COMBINING GRAPHEME JOINER at the end
    "alice\u3164",  # HANGUL FILLER at the end
    "alice\u2800",  # BRAILLE PATTERN BLANK at the end
    "\u0430lice",  # CYRILLIC SMALL LETTER A
    "\u0430l\u0456\u0441\u0435",  # Cyrillic а, і, с, е
    "a\u217cice",  # SMALL ROMAN NUMERAL FIFTY for l
]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_lookalike_of_another_players_username_is_refused(client, alice, bob, name):
    client.force_login(bob)
    response = client.post(reverse("settings"), {**SETTINGS, "display_name": name})

    assert response.status_code == 200  # the form again, with the reason
    assert "another player" in response.content.decode()
    bob.refresh_from_db()
    assert bob.display_name == ""


def test_a_new_username_cannot_read_as_a_lookalike_display_name(client, alice):
    alice.display_name = "Z\u0435d"  # Cyrillic е
    alice.save()
    response = client.post(
        reverse("account_signup"),
        {
            "username": "zed",
            "email": "zed@example.com",
            "password1": "a-long-enough-password-7",
            "password2": "a-long-enough-password-7",
        },
    )
    assert "taken by another player" in response.content.decode()


@pytest.mark.parametrize("name", ["Bob the Builder", "Zoë", "ゆき", "Ōsaka", "Ünal"])
def test_ordinary_names_in_any_script_stay_free(client, bob, name):
    client.force_login(bob)
    assert client.post(reverse("settings"), {**SETTINGS, "display_name": name}).status_code == 302


def test_keys_fit_their_column_even_when_the_skeleton_grows():
    assert len(name_key("m" * 150)) <= 255
