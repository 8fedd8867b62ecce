"""The settings page: display name, time zone and turn notifications; and changing the email."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

VALID = {
    "display_name": "Alice A.",
    "time_zone": "Europe/Paris",
    "email_turns": "reminders",
    "reminder_hours": "3",
    "digest_hour": "8",
}


def test_it_sends_visitors_to_the_log_in_page(client):
    response = client.get(reverse("settings"))

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next=/settings/"


def test_a_visitor_cannot_post_settings(client):
    response = client.post(reverse("settings"), VALID)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_it_shows_the_current_settings(client, alice):
    client.force_login(alice)

    response = client.get(reverse("settings"))

    assert response.status_code == 200
    assert b'<option value="UTC" selected>' in response.content
    assert b'value="every"' in response.content
    assert reverse("account_email").encode() in response.content


def test_saving_settings_redirects_with_a_message(client, alice):
    client.force_login(alice)

    response = client.post(reverse("settings"), VALID, follow=True)

    assert response.redirect_chain == [(reverse("settings"), 302)]
    assert b"Your settings are saved." in response.content
    alice.refresh_from_db()
    assert alice.display_name == "Alice A."
    assert alice.time_zone == "Europe/Paris"
    assert alice.email_turns == User.EmailTurns.REMINDERS
    assert alice.reminder_hours == 3


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("time_zone", "Mars/Olympus_Mons", b"Mars/Olympus_Mons is not a time zone name"),
        ("email_turns", "sometimes", b"Select a valid choice"),
        ("reminder_hours", "5", b"Select a valid choice"),
        ("reminder_hours", "-12", b"Select a valid choice"),
    ],
)
def test_it_refuses_bad_values_and_changes_nothing(client, alice, field, value, message):
    client.force_login(alice)

    response = client.post(reverse("settings"), {**VALID, field: value})

    assert response.status_code == 200
    assert message in response.content
    alice.refresh_from_db()
    assert (alice.display_name, alice.time_zone, alice.reminder_hours) == ("", "UTC", 12)


def test_the_model_refuses_an_unknown_time_zone(alice):
    alice.time_zone = "Europe/Atlantis"

    with pytest.raises(ValidationError, match="not a time zone name"):
        alice.full_clean()


def test_the_settings_post_needs_the_csrf_token(alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)

    refused = browser.post(reverse("settings"), VALID)

    assert refused.status_code == 403
    alice.refresh_from_db()
    assert alice.display_name == ""

    page = browser.get(reverse("settings"))
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content).group(1)
    accepted = browser.post(reverse("settings"), {**VALID, "csrfmiddlewaretoken": token.decode()})

    assert accepted.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice A."


def test_changing_the_email_waits_for_the_new_address_to_be_verified(client, alice, verified):
    verified(alice)
    client.force_login(alice)

    response = client.post(
        reverse("account_email"), {"email": "alice@new.example.com", "action_add": ""}
    )

    assert response.status_code == 302
    sent = [m for m in mail.outbox if m.to == ["alice@new.example.com"]]
    assert len(sent) == 1
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # unchanged until the new address is verified

    link = re.search(r"http://testserver(/accounts/confirm-email/\S+/)", sent[0].body).group(1)
    client.post(link)

    alice.refresh_from_db()
    assert alice.email == "alice@new.example.com"
    assert list(EmailAddress.objects.filter(user=alice).values_list("email", flat=True)) == [
        "alice@new.example.com"
    ]


def test_a_player_may_ask_for_turn_emails_even_with_a_page_open(client, alice):
    client.force_login(alice)
    assert b"Email me even when a page is open" in client.get(reverse("settings")).content
    assert not alice.email_when_open

    client.post(reverse("settings"), {**VALID, "email_when_open": "on"})
    alice.refresh_from_db()
    assert alice.email_when_open
    client.post(reverse("settings"), VALID)  # an unticked box is not sent
    alice.refresh_from_db()
    assert not alice.email_when_open
