"""Sign-up, mandatory email verification, log in and out, password reset (all allauth)."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import SESSION_KEY
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-password-7"


def sign_up(client, username="erin", email="erin@example.com"):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def log_in(client, login, password=PASSWORD):
    return client.post(reverse("account_login"), {"login": login, "password": password})


def link_in(message) -> str:
    match = re.search(r"http://testserver(/accounts/\S+/)", message.body)
    assert match, message.body
    return match.group(1)


def is_logged_in(client) -> bool:
    return SESSION_KEY in client.session


def test_signing_up_sends_a_verification_email_and_logs_nobody_in(client):
    response = sign_up(client)

    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["erin@example.com"]
    assert "/accounts/confirm-email/" in mail.outbox[0].body
    user = User.objects.get(username="erin")
    assert not EmailAddress.objects.get(user=user).verified
    assert not is_logged_in(client)


def test_an_unverified_player_cannot_log_in(client):
    sign_up(client)
    browser = Client()

    response = log_in(browser, "erin")

    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert not is_logged_in(browser)
    assert browser.get(reverse("settings")).status_code == 302


def test_following_the_link_verifies_the_email_and_logs_in(client):
    sign_up(client)
    link = link_in(mail.outbox[0])

    page = client.get(link)
    assert page.status_code == 200
    assert b"erin@example.com" in page.content
    assert not is_logged_in(client)  # a GET (a mail scanner's visit) confirms nothing
    response = client.post(link)

    assert response.status_code == 302
    assert EmailAddress.objects.get(email="erin@example.com").verified
    assert is_logged_in(client)
    assert client.get(reverse("settings")).status_code == 200


def test_after_verifying_in_another_browser_the_player_logs_in_with_username_or_email(client):
    sign_up(client)
    other = Client()
    other.post(link_in(mail.outbox[0]))
    assert EmailAddress.objects.get(email="erin@example.com").verified

    by_username, by_email = Client(), Client()
    assert log_in(by_username, "erin").status_code == 302
    assert log_in(by_email, "erin@example.com").status_code == 302

    assert is_logged_in(by_username)
    assert is_logged_in(by_email)


def test_a_taken_username_is_refused(client, alice):
    response = sign_up(client, username="alice", email="someone@example.com")

    assert response.status_code == 200
    assert b"already" in response.content
    assert not User.objects.filter(email="someone@example.com").exists()


def test_log_out_is_a_post(client, alice, verified):
    verified(alice)
    client.force_login(alice)

    assert b'action="/accounts/logout/"' in client.get("/").content
    client.post(reverse("account_logout"))

    assert not is_logged_in(client)


def test_the_navigation_offers_log_in_and_sign_up_to_visitors(client):
    content = client.get("/").content

    assert reverse("account_login").encode() in content
    assert reverse("account_signup").encode() in content


def test_password_reset_sends_a_link_that_sets_a_new_password(client, alice, verified):
    verified(alice)

    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.com"]
    set_password = client.get(link_in(mail.outbox[0]))
    assert set_password.status_code == 302  # allauth hides the key from the address bar
    done = client.post(
        set_password["Location"],
        {"password1": "brand-new-pass-42", "password2": "brand-new-pass-42"},
    )
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("brand-new-pass-42")
    assert log_in(Client(), "alice", "brand-new-pass-42").status_code == 302


def test_the_pages_use_the_site_layout(client):
    content = client.get(reverse("account_login")).content

    assert b"site-header" in content
    assert b"css/accounts.css" in content


def test_repeated_failed_logins_are_rate_limited(client, alice, verified):
    verified(alice)
    for _ in range(5):
        assert log_in(client, "alice", "wrong-password").status_code == 200

    response = log_in(client, "alice", "alice-password-1")

    assert response.status_code == 200
    assert b"Too many failed login attempts" in response.content
    assert not is_logged_in(client)
