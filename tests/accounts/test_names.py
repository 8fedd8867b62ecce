"""Names and chat lines that pass for someone else's, or hide what they say.

A display name may not read as another player's username or display name (NFKC, case-folded);
a new username may not read as an existing display name; chat lines and display names lose
invisible and direction-changing characters (Unicode category Cf, U+202E among them)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.names import name_key, visible_text
from games.services import chat

pytestmark = pytest.mark.django_db

SETTINGS = {"time_zone": "UTC", "email_turns": "every", "reminder_hours": "12", "digest_hour": "8"}


def save_display_name(client, user, name):
    client.force_login(user)
    return client.post(reverse("settings"), {**SETTINGS, "display_name": name})


@pytest.mark.parametrize(
    "name", ["alice", "ALICE", "Alice", "ａｌｉｃｅ", "ali\u200bce", " alice "]
)
def test_a_display_name_cannot_be_another_players_username(client, alice, bob, name):
    response = save_display_name(client, bob, name)

    assert response.status_code == 200  # the form again, with the reason
    assert "another player" in response.content.decode()
    bob.refresh_from_db()
    assert bob.display_name == ""


def test_a_display_name_cannot_be_another_players_display_name(client, alice, bob):
    assert save_display_name(client, alice, "The Queen").status_code == 302
    response = save_display_name(client, bob, "the queen")
    assert "another player" in response.content.decode()


def test_a_display_name_may_be_ones_own_username_or_a_free_name(client, bob):
    assert save_display_name(client, bob, "BOB").status_code == 302
    assert save_display_name(client, bob, "Bob the Builder").status_code == 302
    bob.refresh_from_db()
    assert bob.display_name == "Bob the Builder"


def test_a_new_username_cannot_read_as_a_display_name(client, alice):
    alice.display_name = "Zed"
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
    assert response.status_code == 200
    assert "taken by another player" in response.content.decode()


def test_invisible_and_reordering_characters_are_dropped_from_display_names(client, bob):
    save_display_name(client, bob, "\u202eevil\u202c Bob\u200b")
    bob.refresh_from_db()
    assert bob.display_name == "evil Bob"


def test_chat_lines_lose_format_characters(duel, alice):
    line = chat.chat_post(game=duel, user=alice, text="gg \u202ewell played\u2066!\ufeff")
    assert line.text == "gg well played!"
    with pytest.raises(chat.GameError, match="empty"):
        chat.chat_post(game=duel, user=alice, text="\u200b\u202e\u2067")


def test_joiners_stay_for_emoji_and_scripts():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert visible_text(family) == family
    assert visible_text("a\u200cb") == "a\u200cb"
    assert name_key("ＡＬＩＣＥ") == name_key("alice") == "alice"
