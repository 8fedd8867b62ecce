"""The fixed cast of the web tests: alice and bob play, carol may not see their hands, dave is
staff. ``duel`` is a started 2-player shuffle game between alice (seat 0: blue and red) and bob
(seat 1: yellow and green)."""

from __future__ import annotations

import pytest

from config import catalogs
from tests.support.needs import missing


@pytest.fixture(autouse=True)
def _the_sites_language():
    """Every test starts in the site's language and leaves none active: a test that activates a
    language in its thread (a request through the test client does) made the next test in that
    worker read Japanese or Swedish words (an order-dependent failure)."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def make_user(db):
    from django.contrib.auth import get_user_model

    def make(username: str, **extra):
        return get_user_model().objects.create_user(
            username, f"{username}@example.com", f"{username}-password-1", **extra
        )

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def dave(make_user):
    return make_user("dave", is_staff=True, is_superuser=True)


@pytest.fixture
def duel(alice, bob):
    from tests.support.tables import alice_against_bob

    return alice_against_bob(alice, bob, mode="shuffle")


@pytest.fixture
def require_postgres(db):
    """Skip unless the tests run on PostgreSQL; with REQUIRE_SERVICES=1 (CI) fail instead."""
    from django.db import connection

    if connection.vendor != "postgresql":
        missing("needs PostgreSQL (set DATABASE_URL=postgres://...)")


@pytest.fixture
def require_redis():
    """REDIS_URL, once Redis answers there: skip unless it is set and answers; with
    REQUIRE_SERVICES=1 (CI) fail instead."""
    import os

    import redis

    url = os.environ.get("REDIS_URL", "").strip()
    message = "" if url else "needs Redis (set REDIS_URL=redis://...)"
    if url:
        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        try:
            client.ping()
        except redis.RedisError as exc:
            message = f"needs Redis: {url} does not answer ({exc})"
        finally:
            client.close()
    if message:
        missing(message)
    return url


# -- markers and time limits ---------------------------------------------------------------------

# Tests in these folders start real services, processes or a browser: marked slow, with a longer
# time limit than the default (pyproject's ``timeout``), so that a hang fails in minutes at most.
SLOW_FOLDERS = ("e2e", "integration")
SLOW_TIMEOUT = 240


def pytest_collection_modifyitems(config, items):
    for item in items:
        if any(f"/tests/{folder}/" in str(item.path) for folder in SLOW_FOLDERS):
            item.add_marker(pytest.mark.slow)
            if item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


def pytest_configure(config):
    """The .mo files from the committed .po catalogs (written atomically: xdist workers race).

    The controller (not an xdist worker) also compiles the AI's numba search once, into numba's
    cache: the workers then load it in a second instead of each compiling it in the middle of
    the run, beside the browser tests (games/ai/mcts/)."""
    catalogs.compile_all()
    if not hasattr(config, "workerinput"):
        from games.ai import mcts

        mcts.warm_up()


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
