"""The settings helpers fail loudly on values they cannot understand."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings import env_bool, env_int, env_str, parse_database_url


def test_env_bool_reads_the_usual_spellings(monkeypatch):
    monkeypatch.setenv("FLAG", "Yes")
    assert env_bool("FLAG", False) is True
    monkeypatch.setenv("FLAG", "off")
    assert env_bool("FLAG", True) is False
    monkeypatch.setenv("FLAG", "")
    assert env_bool("FLAG", True) is True


def test_env_bool_refuses_nonsense(monkeypatch):
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="FLAG"):
        env_bool("FLAG", True)


def test_env_int_refuses_nonsense_and_out_of_range(monkeypatch):
    monkeypatch.setenv("N", "12")
    assert env_int("N", 0) == 12
    monkeypatch.setenv("N", "twelve")
    with pytest.raises(ImproperlyConfigured, match="not an integer"):
        env_int("N", 0)
    monkeypatch.setenv("N", "-1")
    with pytest.raises(ImproperlyConfigured, match="at least 0"):
        env_int("N", 0, minimum=0)


def test_env_str_without_a_default_is_required(monkeypatch):
    monkeypatch.delenv("SOMETHING", raising=False)
    assert env_str("SOMETHING", "fallback") == "fallback"
    with pytest.raises(ImproperlyConfigured, match="must be set"):
        env_str("SOMETHING")


def test_sqlite_urls_are_relative_to_the_repository_or_absolute():
    base = Path("/repo")
    assert parse_database_url("sqlite:///db.sqlite3", base_dir=base)["NAME"] == "/repo/db.sqlite3"
    assert parse_database_url("sqlite:////tmp/x.db", base_dir=base)["NAME"] == "/tmp/x.db"
    assert parse_database_url("sqlite:///:memory:")["NAME"] == ":memory:"


def test_postgres_urls_are_split_into_their_parts():
    db = parse_database_url("postgres://bl%40ck:p%3Ass@db.local:5433/blokus?sslmode=require")

    assert db == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "blokus",
        "USER": "bl@ck",
        "PASSWORD": "p:ss",
        "HOST": "db.local",
        "PORT": "5433",
        "OPTIONS": {"sslmode": "require"},
    }
    assert parse_database_url("postgresql://localhost/test")["PORT"] == ""


@pytest.mark.parametrize("url", ["mysql://x/y", "sqlite://", "postgres://host/", "nonsense"])
def test_other_database_urls_are_refused(url):
    with pytest.raises(ImproperlyConfigured):
        parse_database_url(url)


def test_a_celery_worker_gives_the_ai_search_its_threads(monkeypatch, settings):
    """AI_SEARCH_THREADS: threads per computer decision, set when a worker starts."""
    from config.celery import _warm_up_the_ai
    from games.ai import mcts

    monkeypatch.setattr(mcts.MctsParams, "threads", 2)
    settings.AI_SEARCH_THREADS = 1
    _warm_up_the_ai()
    assert mcts.MctsParams.threads == 1


@pytest.mark.parametrize(
    ("value", "expected"), [(None, "None"), ("", "None"), ("0", "None"), ("500", "500")]
)
def test_ai_max_sims_is_unset_unless_given(value, expected):
    """AI_MAX_SIMS: simulations per search at most for the computer's moves; unset or 0, the
    level's time budget alone (as the site plays)."""
    env = {k: v for k, v in os.environ.items() if k != "AI_MAX_SIMS"}
    if value is not None:
        env["AI_MAX_SIMS"] = value
    done = subprocess.run(
        [sys.executable, "-c", "import config.settings as s; print(s.AI_MAX_SIMS)"],
        cwd=Path(__file__).resolve().parents[1],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected


def test_ai_max_sims_refuses_nonsense():
    done = subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        cwd=Path(__file__).resolve().parents[1],
        env={**os.environ, "AI_MAX_SIMS": "lots"},
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "AI_MAX_SIMS='lots' is not an integer" in done.stderr
