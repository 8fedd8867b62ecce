"""G2: /health/full/ is for the monitor only, cheap to ask and quiet about the machines.

Anonymous requests got the full check (a second's wait for the workers' ping in a web worker,
each time), and its JSON and Atom forms named a client factory's and the Celery app's object
addresses. Now: without ``Authorization: Bearer <MONITOR_TOKEN>`` it is a 404 that runs no check;
with it, checks are named by fixed words; both endpoints keep their results a few seconds, so a
burst of requests runs each check once. /health/ stays public."""

from __future__ import annotations

import json

import pytest
from health_check import checks as library_checks
from health_check.contrib.celery import Ping
from health_check.exceptions import ServiceUnavailable

from games import health

pytestmark = pytest.mark.django_db

TOKEN = "monitor-token-for-tests-0123456789"
MONITOR = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}


@pytest.fixture(autouse=True)
def monitor(settings):
    settings.MONITOR_TOKEN = TOKEN
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # named in no report, whatever answers there
    health.forget_results()
    yield
    health.forget_results()


@pytest.fixture
def clock(monkeypatch) -> list[float]:
    """The clock the kept results are timed by, standing still until a test moves it
    (``clock[0] += seconds``): how long the requests take on this machine does not matter."""
    now = [1000.0]
    monkeypatch.setattr(health, "clock", lambda: now[0])
    return now


@pytest.fixture
def database_checks(monkeypatch) -> list[int]:
    runs = []
    original = library_checks.Database.run

    def counted(self):
        runs.append(1)
        return original(self)

    monkeypatch.setattr(library_checks.Database, "run", counted)
    return runs


@pytest.mark.parametrize("headers", [{}, {"HTTP_AUTHORIZATION": "Bearer wrong"}])
def test_the_full_check_is_a_404_without_the_monitors_token(client, database_checks, headers):
    response = client.get("/health/full/?format=json", **headers)
    assert response.status_code == 404
    assert database_checks == []  # nothing was checked for the anonymous request


def test_without_a_token_set_nobody_gets_the_full_check(client, settings):
    settings.MONITOR_TOKEN = ""
    assert client.get("/health/full/?format=json", HTTP_AUTHORIZATION="Bearer ").status_code == 404


def test_the_monitor_gets_every_check_by_a_fixed_name(client):
    response = client.get("/health/full/?format=json", **MONITOR)
    assert set(json.loads(response.content)) == {"database", "cache", "redis", "celery", "beat"}


@pytest.mark.parametrize("form", ["json", "atom", "rss", "text", "openmetrics"])
def test_no_form_names_an_address_or_an_object(client, form):
    body = client.get(f"/health/full/?format={form}", **MONITOR).content.decode()
    for secret in (" at 0x", "127.0.0.1", ":1/0", "redis://", "<Celery", "client_factory"):
        assert secret not in body, (form, secret)


def test_a_burst_of_requests_runs_the_checks_once(client, database_checks, clock, settings):
    for _ in range(12):
        assert client.get("/health/?format=json").status_code == 200
    for _ in range(12):
        client.get("/health/full/?format=json", **MONITOR)
    assert len(database_checks) == 2  # once per endpoint
    clock[0] += settings.HEALTH_CACHE_SECONDS  # the kept results are now that old
    client.get("/health/?format=json")
    assert len(database_checks) == 3  # checked afresh


def test_the_liveness_check_stays_public(client):
    response = client.get("/health/?format=json")
    assert response.status_code == 200
    assert json.loads(response.content) == {"database": "OK"}


def test_with_redis_down_the_full_check_waits_for_no_worker(client, monkeypatch):
    """The broker is that Redis: the workers' ping, which would wait on kombu's reconnections
    (6 s), is not sent, and the Redis check's own client gives up after CLIENT_TIMEOUT."""
    pings = []

    def ping(self):
        pings.append(self)
        raise ServiceUnavailable("pinged")  # at once: a failing test does not wait either

    monkeypatch.setattr(Ping, "run", ping)
    body = json.loads(client.get("/health/full/?format=json", **MONITOR).content)
    assert pings == []
    assert "not checked" in body["celery"]
    assert (
        body["redis"].startswith("Unavailable: ")
        and "Unavailable: Unavailable" not in body["redis"]
    )
    redis = health._redis_factory("redis://127.0.0.1:1/0")().connection_pool.connection_kwargs
    timeouts = (redis.get("socket_connect_timeout"), redis.get("socket_timeout"))
    assert timeouts == (health.CLIENT_TIMEOUT, health.CLIENT_TIMEOUT)
