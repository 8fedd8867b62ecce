"""`make run` keeps the real shape (issue 9): with DEV_WORKER=1 and no Redis, tasks are queued on
a SQLite broker, not run inside the request, and the dev server's in-process worker runs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CODE = """
import time, django
django.setup()
from django.conf import settings
from django.core.management import call_command
from django.core.cache import cache
call_command("migrate", verbosity=0)
from config.celery import app
assert not app.conf.task_always_eager, "eager"
assert settings.CELERY_BROKER_URL.startswith("sqla+sqlite:///"), settings.CELERY_BROKER_URL
from games import health
from games.jobs.tasks import scan_deadlines
scan_deadlines.delay()  # queued on the SQLite broker: nothing ran yet
assert cache.get(health.SCAN_MARK) is None, "ran inside the caller"
from games.management.commands.devserver import start_worker_and_beat
start_worker_and_beat()
deadline = time.time() + 20
while cache.get(health.SCAN_MARK) is None:
    assert time.time() < deadline, "the worker did not run the task"
    time.sleep(0.1)
print("ran by the worker")
"""


def test_the_dev_server_queues_tasks_and_its_own_worker_runs_them(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEV_WORKER": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "ran by the worker" in done.stdout


def test_without_the_switch_tasks_stay_eager(tmp_path):
    code = (
        "import django; django.setup(); from config.celery import app; "
        "print(app.conf.task_always_eager)"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.stdout.strip() == "True", done.stderr[-2000:]


ANALYSIS_CODE = """
import time, django
django.setup()
from django.conf import settings
from django.core.management import call_command
call_command("migrate", verbosity=0)
from accounts.models import User
from games.models import Game, GameAnalysis
from games.jobs.tasks import analyse_game
from config.celery import app
route = app.amqp.router.route({}, "games.tasks.analyse_game")
assert route["queue"].name == settings.ANALYSIS_QUEUE != app.conf.task_default_queue, route
user = User.objects.create_user("ann", "ann@example.com", "x-password-1")
game = Game.objects.create(created_by=user, mode="classic", players=2, status="finished")
row = GameAnalysis.objects.create(game=game, requested_by=user, sims=1, total=0)
analyse_game.delay(row.pk)  # to the analysis queue
from games.management.commands.devserver import start_worker_and_beat
start_worker_and_beat()
deadline = time.time() + 30
while GameAnalysis.objects.get(pk=row.pk).status != "done":
    assert time.time() < deadline, "the worker did not run the analysis"
    time.sleep(0.2)
print("analysed by the worker")
"""


def test_the_dev_servers_worker_reads_the_analysis_queue_too(tmp_path):
    """Issue #28: under `make run` an analysis (on its own queue) runs in the embedded worker."""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEV_WORKER": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "-c", ANALYSIS_CODE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "analysed by the worker" in done.stdout
