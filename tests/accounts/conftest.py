"""Fixtures of the accounts tests: a clean rate-limit cache and players with verified emails."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache():
    # allauth counts its rate limits in the cache; local memory outlives a test, so start clean.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def verified(db):
    """Mark a user's email address as verified, as finishing sign-up does."""
    from allauth.account.models import EmailAddress

    def verify(user):
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        return user

    return verify
