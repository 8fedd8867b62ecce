"""Backups restored for real: ``manage.py backup_db`` dumps the PostgreSQL test database
(committed rows: a few hundred games of every kind, classic and Shuffle, two to four players,
open, in play, finished, aborted), and ``manage.py restore_drill`` restores the dump into a
fresh database, migrates it, replays every game to its snapshot and verifies every finished
Shuffle game's shuffle (RECORD.md's ``verify``). A game whose seed was tampered with before the
backup is caught. Marked slow (tests/integration): pg_dump, pg_restore and a database a test."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.db import connection

from games.models import Game
from tests.support.bulk_games import KINDS, bulk_games

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

GAMES = 3 * len(KINDS)  # 180: every kind three times (a few hundred games with the users)


@pytest.fixture
def backups(settings, tmp_path, require_postgres):
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


@pytest.fixture
def many_games(make_user):
    users = [make_user(f"player{i}") for i in range(6)]
    games = bulk_games(users, GAMES, seed=7)
    return games


ROOT = Path(__file__).resolve().parents[2]


def _backup(*args) -> None:
    call_command("backup_db", *args, stdout=io.StringIO())


def _drill(backups: Path) -> subprocess.CompletedProcess:
    """``manage.py restore_drill`` in a process of its own, as an operator runs it, pointed at
    the test database (the test's own connection may not open a second database)."""
    config = connection.settings_dict
    url = (
        f"postgres://{quote(config['USER'])}:{quote(config['PASSWORD'] or '')}@"
        f"{config['HOST'] or '127.0.0.1'}:{config['PORT'] or 5432}/{config['NAME']}"
    )
    env = {**os.environ, "DATABASE_URL": url, "BACKUP_DIR": str(backups), "LOG_LEVEL": "WARNING"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "manage.py", "restore_drill"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_the_newest_backup_restores_migrates_replays_and_verifies(backups, many_games):
    _backup()
    _backup("--keep", "1")  # prunes to the newest one
    (dump,) = backups.iterdir()
    result = _drill(backups)
    assert result.returncode == 0, result.stderr
    report = result.stdout
    assert f"dump: {dump}" in report
    finished_shuffle = sum(
        g.status == Game.Status.FINISHED and g.mode == "shuffle" for g in many_games
    )
    started = sum(g.state is not None for g in many_games)
    assert finished_shuffle == 2 * 3 * 3 and started == 4 * 6 * 3
    assert f"replayed to their snapshot: {started}" in report
    assert f"finished Shuffle games verified: {finished_shuffle}" in report
    assert "failures: 0" in report
    assert "games finished classic: 18" in report and "games open shuffle: 9" in report


def test_a_game_that_does_not_verify_fails_the_drill(backups, many_games):
    shuffled = next(
        g for g in many_games if g.status == Game.Status.FINISHED and g.mode == "shuffle"
    )
    Game.objects.filter(pk=shuffled.pk).update(salt="0" * 32)  # no longer the committed one
    _backup()
    result = _drill(backups)
    assert result.returncode == 1
    assert "1 game(s) failed the drill" in result.stderr
    assert f"game {shuffled.public_id} does not verify" in result.stdout


def test_the_drill_refuses_without_a_dump(backups):
    result = _drill(backups)
    assert result.returncode == 1 and "no dump to restore" in result.stderr
