"""Fixtures of the email and deadline tests (``verified`` and ``on_commit``: tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _nobody_online():
    # Presence lives in the cache, which outlives a test: start with nobody on the site.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
