"""Behind the proxy, login and sign-up limits count per client, not per proxy. Every request
reaches the site from the proxy's address (REMOTE_ADDR 127.0.0.1); the proxy names the client in
X-Forwarded-For, which is trusted exactly as far as BEHIND_PROXY says (config.settings)."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

PROXY = {"REMOTE_ADDR": "127.0.0.1"}


def client_at(address: str | None) -> Client:
    headers = {"HTTP_X_FORWARDED_FOR": address} if address else {}
    return Client(**PROXY, **headers)


def fail_logins(client: Client, times: int) -> None:
    for n in range(times):  # a different login each time: only the per-address limit counts
        client.post(reverse("account_login"), {"login": f"nobody{n}", "password": "wrong"})


def logs_in(client: Client) -> bool:
    response = client.post(
        reverse("account_login"), {"login": "alice", "password": "alice-password-1"}
    )
    return response.status_code == 302


@override_settings(ALLAUTH_TRUSTED_PROXY_COUNT=1)
def test_one_clients_failed_logins_do_not_lock_out_another(alice, verified):
    verified(alice)
    attacker, player = client_at("203.0.113.7"), client_at("198.51.100.2")

    fail_logins(attacker, 12)

    assert logs_in(player)
    assert not logs_in(attacker)  # the attacker's own address is limited


@override_settings(ALLAUTH_TRUSTED_PROXY_COUNT=1)
def test_sign_ups_are_counted_per_client(db):
    flood = client_at("203.0.113.7")
    for n in range(25):
        flood.post(
            reverse("account_signup"),
            {
                "username": f"bot{n}",
                "email": f"bot{n}@example.com",
                "password1": "x",
                "password2": "x",
            },
        )
    response = client_at("198.51.100.2").post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a-long-enough-password-7",
            "password2": "a-long-enough-password-7",
        },
    )
    assert response.status_code == 302  # signed up: not counted with the flood


@override_settings(ALLAUTH_TRUSTED_PROXY_COUNT=0)
def test_without_the_proxy_a_forged_header_does_not_escape_the_limit(alice, verified):
    verified(alice)
    for n in range(12):  # each request claims another address
        client_at(f"203.0.113.{n}").post(
            reverse("account_login"), {"login": f"nobody{n}", "password": "wrong"}
        )
    assert not logs_in(client_at("198.51.100.2"))  # all of them came from one REMOTE_ADDR
