"""The API tests' tokens: ``token(user, *scopes)`` makes one and returns its request headers."""

from __future__ import annotations

import pytest

from api import tokens
from tests.support.api import bearer


@pytest.fixture
def token(db):
    def make(user, *scopes: str) -> dict:
        issued = tokens.token_issue(user=user, name="test", scopes=list(scopes) or ["play"])
        return bearer(issued.secret)

    return make
