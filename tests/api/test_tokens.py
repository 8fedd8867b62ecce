"""Personal access tokens: only a hash is kept, the secret is shown once, a revoked token or a
closed account is refused at once, each token has its own rate limit, scopes are enforced, and
the API reads no session (so it needs no CSRF token)."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.test import Client
from django.urls import reverse

from api import tokens
from api.models import AccessToken
from tests.support.api import bearer

pytestmark = pytest.mark.django_db


def test_only_a_hash_and_a_short_prefix_are_stored(alice):
    issued = tokens.token_issue(user=alice, name="my bot", scopes=["read"])
    row = AccessToken.objects.get(pk=issued.token.pk)
    assert issued.secret.startswith("blk_") and len(issued.secret) == 4 + 43
    assert row.hashed == hashlib.sha256(issued.secret.encode()).hexdigest()
    assert row.prefix == issued.secret[:12]
    stored = " ".join(
        str(v) for v in AccessToken.objects.filter(pk=row.pk).values().first().values()
    )
    assert issued.secret not in stored and issued.secret[12:] not in stored


def test_the_secret_is_shown_once_on_the_page_that_made_it(client, alice):
    client.force_login(alice)
    made = client.post(reverse("api_tokens"), {"name": "robot", "scopes": ["read", "play"]})
    assert made.status_code == 201
    secret = made.context["secret"]
    assert secret.encode() in made.content and "no-store" in made["Cache-Control"]
    again = client.get(reverse("api_tokens"))
    assert secret.encode() not in again.content
    assert secret[:12].encode() in again.content and b"robot" in again.content
    assert client.get("/api/v1/me", **bearer(secret)).json()["token"]["scopes"] == [
        "read",
        "play",
    ]


def test_the_settings_page_links_to_the_tokens(client, alice):
    client.force_login(alice)
    assert reverse("api_tokens").encode() in client.get(reverse("settings")).content


def test_a_form_without_a_name_or_a_scope_makes_no_token(client, alice):
    client.force_login(alice)
    assert client.post(reverse("api_tokens"), {"name": "", "scopes": ["read"]}).status_code == 400
    assert client.post(reverse("api_tokens"), {"name": "x"}).status_code == 400
    assert client.post(reverse("api_tokens"), {"name": "x", "scopes": ["root"]}).status_code == 400
    assert not AccessToken.objects.exists()


def test_the_bot_scope_is_for_bot_accounts_only(alice):
    with pytest.raises(tokens.TokenError, match="bot account"):
        tokens.token_issue(user=alice, name="x", scopes=["bot"])


def test_a_revoked_token_is_refused_at_once(client, alice):
    issued = tokens.token_issue(user=alice, name="x", scopes=["read"])
    assert client.get("/api/v1/me", **bearer(issued.secret)).status_code == 200
    client.force_login(alice)
    client.post(reverse("api_token_revoke", args=[issued.token.pk]))
    answer = Client().get("/api/v1/me", **bearer(issued.secret))
    assert answer.status_code == 401 and answer.json()["code"] == "bad_token"
    assert b"revoked" in client.get(reverse("api_tokens")).content


def test_nobody_revokes_another_players_token(client, alice, bob):
    issued = tokens.token_issue(user=alice, name="x", scopes=["read"])
    client.force_login(bob)
    client.post(reverse("api_token_revoke", args=[issued.token.pk]))
    assert Client().get("/api/v1/me", **bearer(issued.secret)).status_code == 200


def test_a_deactivated_player_is_refused_at_once(client, alice):
    issued = tokens.token_issue(user=alice, name="x", scopes=["read"])
    assert client.get("/api/v1/me", **bearer(issued.secret)).status_code == 200
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert client.get("/api/v1/me", **bearer(issued.secret)).status_code == 401


def test_a_wrong_secret_with_a_right_prefix_is_refused(client, alice):
    issued = tokens.token_issue(user=alice, name="x", scopes=["read"])
    forged = issued.secret[:12] + "A" * (len(issued.secret) - 12)
    assert client.get("/api/v1/me", **bearer(forged)).status_code == 401
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION="Token x").status_code == 401
    assert client.get("/api/v1/me").json()["code"] == "no_token"


def test_each_token_may_make_so_many_requests_a_minute(client, alice, monkeypatch):
    monkeypatch.setattr(tokens, "RATE_PER_MINUTE", 5)
    monkeypatch.setattr(tokens, "_now", lambda: 6_000_000.0 + 15)  # 45 s left in the minute
    first = tokens.token_issue(user=alice, name="a", scopes=["read"])
    other = tokens.token_issue(user=alice, name="b", scopes=["read"])
    for _ in range(5):
        assert client.get("/api/v1/me", **bearer(first.secret)).status_code == 200
    refused = client.get("/api/v1/me", **bearer(first.secret))
    assert refused.status_code == 429 and refused["Retry-After"] == "46"
    assert refused.json()["code"] == "rate_limited"
    assert client.get("/api/v1/me", **bearer(other.secret)).status_code == 200
    monkeypatch.setattr(tokens, "_now", lambda: 6_000_000.0 + 61)  # the next minute
    assert client.get("/api/v1/me", **bearer(first.secret)).status_code == 200


def test_last_used_is_written(client, alice):
    issued = tokens.token_issue(user=alice, name="x", scopes=["read"])
    assert issued.token.last_used_at is None
    client.get("/api/v1/me", **bearer(issued.secret))
    issued.token.refresh_from_db()
    assert issued.token.last_used_at is not None


def test_a_token_without_the_play_scope_cannot_move(client, duel, alice):
    issued = tokens.token_issue(user=alice, name="x", scopes=["read"])
    legal = client.get(f"/api/v1/games/{duel.public_id}/legal", **bearer(issued.secret))
    body = {"action": legal.json()["legal"][0], "ply": 0}
    answer = client.post(
        f"/api/v1/games/{duel.public_id}/actions",
        json.dumps(body),
        content_type="application/json",
        **bearer(issued.secret),
    )
    assert answer.status_code == 403 and answer.json()["code"] == "scope"
    duel.refresh_from_db()
    assert duel.ply == 0


def test_a_signed_in_browser_is_not_an_api_client(client, alice):
    """No session authentication: a page's cookie lends the API nothing."""
    client.force_login(alice)
    assert client.get("/api/v1/me").status_code == 401


def test_a_bearer_request_needs_no_csrf_token(duel, alice):
    strict = Client(enforce_csrf_checks=True)
    issued = tokens.token_issue(user=alice, name="x", scopes=["play"])
    legal = strict.get(f"/api/v1/games/{duel.public_id}/legal", **bearer(issued.secret))
    answer = strict.post(
        f"/api/v1/games/{duel.public_id}/actions",
        json.dumps({"action": legal.json()["legal"][0], "ply": 0}),
        content_type="application/json",
        **bearer(issued.secret),
    )
    assert answer.status_code == 200 and answer.json() == {"ply": 1, "duplicate": False}


def test_the_api_speaks_its_owners_language(client, duel, alice):
    alice.language = "sv"
    alice.save(update_fields=["language"])
    issued = tokens.token_issue(user=alice, name="x", scopes=["play"])
    answer = client.post(
        f"/api/v1/games/{duel.public_id}/actions",
        json.dumps({"action": {"place": "j10"}, "ply": 0}),
        content_type="application/json",
        **bearer(issued.secret),
    )
    assert answer.status_code == 400
    assert answer.json()["rules"] == ["R3.1"]
    assert "R3.1" in answer.json()["detail"] and "corner" not in answer.json()["detail"]
