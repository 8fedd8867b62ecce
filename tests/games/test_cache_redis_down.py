"""A web process whose Redis is unreachable answered 500 on game pages and sign-in,
although moves still committed: the cache (Redis in production) raised from every call. Now the
cache degrades to a miss (config.cache.DegradingRedisCache): pages and sign-in work from the
database alone, and a move still commits."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from config.settings import redis_cache
from games import engine
from games.models import Action

pytestmark = pytest.mark.django_db

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1: every connection is refused


@pytest.fixture
def cache_down(settings):
    settings.CACHES = {"default": redis_cache(DEAD_REDIS)}  # the production cache, Redis away


def test_the_game_page_renders_without_the_cache(client, duel, alice, cache_down):
    client.force_login(alice)
    assert client.get(reverse("game", args=[duel.public_id])).status_code == 200
    assert client.get(reverse("home")).status_code == 200


def test_signing_in_works_without_the_cache(client, alice, cache_down):
    response = client.post(
        reverse("account_login"), {"login": "alice", "password": "alice-password-1"}
    )
    assert response.status_code == 302


def test_a_move_commits_and_the_page_follows_without_the_cache(client, duel, alice, cache_down):
    client.force_login(alice)
    action = engine.legal_actions(duel.current_state())[0]
    response = client.post(
        reverse("game_act", args=[duel.public_id]),
        {"action": json.dumps(action), "ply": "0"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 204  # taken; the page then fetches its panel
    assert Action.objects.filter(game=duel, ply=1).exists()
    panel = client.get(reverse("game_panel", args=[duel.public_id]), HTTP_HX_REQUEST="true")
    assert panel.status_code == 200 and 'data-ply="1"' in panel.content.decode()


def test_reads_miss_and_writes_are_dropped(cache_down):
    cache.set("k", 1)
    assert cache.get("k", "missed") == "missed"
    assert cache.add("k", 1) is True  # a cache that forgets at once: the key was missing
    assert cache.get_many(["k"]) == {}
    with pytest.raises(ValueError):
        cache.incr("k")
