"""Under `make run` (SQLite file), 20 copies of one move arriving at once get
one move and 20 answers, never a 500 "database is locked". config/settings.py opens SQLite the
way Django 5.1+ supports concurrent writers: transactions BEGIN IMMEDIATE (a writer waits for
the lock at its start instead of failing when a read turns into a write), WAL journal (readers
do not block the writer) and a busy timeout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CODE = """
import json, threading, django
django.setup()
from django.conf import settings
from django.core.management import call_command
from django.db import connection, connections
from django.test import Client
call_command("migrate", verbosity=0)
from games import engine, services
from games.models import Action, Seat
from games.services import SeatSpec
from accounts.models import User
alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-1")
bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-1")
game = services.game_create(creator=alice, mode="shuffle", players=2,
    seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")])
services.game_join(game=game, user=bob)
game.refresh_from_db()
action = engine.legal_actions(game.current_state())[0]
login = Client(HTTP_HOST="127.0.0.1")
login.force_login(alice)
cookie = login.cookies[settings.SESSION_COOKIE_NAME].value
print("journal", connection.cursor().execute("PRAGMA journal_mode").fetchone()[0])
connections.close_all()
N = 20
barrier = threading.Barrier(N)
answers = []
def post():
    client = Client(HTTP_HOST="127.0.0.1", raise_request_exception=False)
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie
    data = {"action": json.dumps(action), "ply": "0", "key": "same-key"}
    barrier.wait()
    try:
        answers.append(client.post(f"/games/{game.public_id}/act/", data,
                                   HTTP_HX_REQUEST="true").status_code)
    finally:
        connections.close_all()
threads = [threading.Thread(target=post) for _ in range(N)]
for t in threads: t.start()
for t in threads: t.join()
print("answers", sorted(answers))
print("moves", Action.objects.filter(game=game).count())
"""


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_twenty_copies_of_one_move_at_once_on_sqlite(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEV_WORKER": "1",
        "LOG_LEVEL": "CRITICAL",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=110
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert lines["answers"] == str([204] * 20), done.stdout  # each: taken
    assert lines["journal"] == "wal"
    assert lines["moves"] == "1"
