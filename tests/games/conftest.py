"""Fixtures of the email and deadline tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _nobody_online():
    # Presence lives in the cache, which outlives a test: start with nobody on the site.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def verified(db):
    from allauth.account.models import EmailAddress

    def verify(*users):
        for user in users:
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)

    return verify


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run what a committed change queues (nudges, emails, the AI), as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)
