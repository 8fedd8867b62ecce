"""Fixtures of the email, deadline and notice tests (``verified`` and ``on_commit``:
tests/conftest.py): a push service or chat app to send to (``stub``), the site's VAPID keys
(``vapid_keys``)."""

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
def stub():
    """A push service or chat app out on the internet (tests/support/push_stub.py)."""
    from tests.support import push_stub

    server = push_stub.start()
    yield server
    server.close()


@pytest.fixture
def vapid_keys():
    """The site's Web Push key pair, fresh for the test; yields the private key."""
    from django.test import override_settings

    from games.jobs import push
    from games.selectors import vapid

    key = push.new_private_key()
    with override_settings(VAPID_PRIVATE_KEY=key, VAPID_SUBJECT="mailto:ops@example.com"):
        vapid.private_key.cache_clear()
        vapid.public_key.cache_clear()
        yield key
    vapid.private_key.cache_clear()
    vapid.public_key.cache_clear()
