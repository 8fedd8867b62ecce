"""`make run` keeps the real shape: with DEV_WORKER=1 and no Redis, tasks are queued on
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
deadline = time.time() + 90
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
        [sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=240
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


# -- `make run PORT=8101` ----------------------------------------------------------------------


def test_the_links_in_emails_follow_the_port_served(settings, monkeypatch):
    from games.jobs import emails
    from games.management.commands.devserver import follow_the_command_line

    monkeypatch.delenv("SITE_URL", raising=False)
    settings.SITE_URL = "http://127.0.0.1:8000"
    follow_the_command_line("127.0.0.1", "8101")
    assert emails.absolute("/games/x/") == "http://127.0.0.1:8101/games/x/"


def test_a_site_url_set_in_the_environment_is_kept(settings, monkeypatch):
    from games.management.commands.devserver import follow_the_command_line

    monkeypatch.setenv("SITE_URL", "https://play.example.com")
    settings.SITE_URL = "https://play.example.com"
    follow_the_command_line("127.0.0.1", "8101")
    assert settings.SITE_URL == "https://play.example.com"


def test_the_console_email_is_readable_with_its_link_on_one_line(settings, monkeypatch, capsys):
    from django.core import mail

    from games.management.commands.devserver import follow_the_command_line

    monkeypatch.delenv("EMAIL_BACKEND", raising=False)
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    follow_the_command_line("127.0.0.1", "8101")
    link = "http://127.0.0.1:8101/accounts/confirm-email/" + "MjU:1vHq" * 12 + "/"
    message = mail.EmailMultiAlternatives(
        "Bekräfta din e-postadress",
        f"Hej Åsa! Öppna länken för att bekräfta:\n\n{link}\n",
        to=["asa@example.com"],
    )
    message.attach_alternative(f"<p>Hej Åsa! <a href='{link}'>{link}</a></p>", "text/html")
    message.send()
    out = capsys.readouterr().out
    assert "Subject: Bekräfta din e-postadress" in out
    assert "Hej Åsa!" in out and link in out.splitlines()
    assert "=C3" not in out and "=\n" not in out  # no quoted-printable


def test_the_sign_up_page_says_where_the_email_went_under_make_run(client, settings):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "games.management.commands.devserver.ReadableConsoleBackend"
    page = client.get("/accounts/confirm-email/").content.decode()
    assert "printed in the terminal where the server runs" in page
    assert "spam folder" not in page
    settings.DEBUG = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    assert "spam folder" in client.get("/accounts/confirm-email/").content.decode()


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
deadline = time.time() + 90
while GameAnalysis.objects.get(pk=row.pk).status != "done":
    assert time.time() < deadline, "the worker did not run the analysis"
    time.sleep(0.2)
print("analysed by the worker")
"""


def test_the_dev_servers_worker_reads_the_analysis_queue_too(tmp_path):
    """Under `make run` an analysis (on its own queue) runs in the embedded worker."""
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
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "analysed by the worker" in done.stdout


NOTICES_CODE = """
import threading, time, django
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
django.setup()
from django.conf import settings
from django.core.management import call_command
call_command("migrate", verbosity=0)
from accounts.models import User
from games.models import Game, NoticeSettings, Seat
from games.jobs.tasks import send_webhook
from config.celery import app
route = app.amqp.router.route({}, "games.tasks.send_webhook")
assert route["queue"].name == settings.NOTICES_QUEUE != app.conf.task_default_queue, route
posts = []
class Hook(BaseHTTPRequestHandler):
    def do_POST(self):
        posts.append(self.rfile.read(int(self.headers["Content-Length"])))
        self.send_response(204)
        self.end_headers()
    def log_message(self, *args):
        pass
server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
threading.Thread(target=server.serve_forever, daemon=True).start()
user = User.objects.create_user("ann", "ann@example.com", "x-password-1")
NoticeSettings.objects.create(user=user, webhook_url=f"http://127.0.0.1:{server.server_port}/")
game = Game.objects.create(created_by=user, mode="classic", players=2, status="finished")
Seat.objects.create(game=game, index=0, kind="human", user=user)
send_webhook.delay(game.pk, 1, user.pk, "over")  # to the notices queue
from games.management.commands.devserver import start_worker_and_beat
start_worker_and_beat()
deadline = time.time() + 90
while not posts:
    assert time.time() < deadline, "the worker did not send the webhook notice"
    time.sleep(0.2)
print("sent by the worker")
"""


def test_the_dev_servers_worker_reads_the_notices_queue_too(tmp_path):
    """Under `make run` a webhook or Web Push notice (on the notices' queue) is sent by the
    embedded worker, not stranded on a queue nobody reads."""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEV_WORKER": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "-c", NOTICES_CODE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "sent by the worker" in done.stdout


PREPARE = """
import django
django.setup()
from daphne.management.commands.runserver import Command as Runserver
from django.core.management import call_command
served = []
Runserver.handle = lambda self, *args, **options: served.append(True)  # no server: the steps
call_command("devserver", "--prepare")
from django.contrib.auth import get_user_model
names = sorted(get_user_model().objects.values_list("username", flat=True))
print(served, names)
"""


def test_make_runs_one_command_migrates_and_creates_the_demo_accounts_before_serving(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "-c", PREPARE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "[True] ['alice', 'bob']" in done.stdout
    assert "W040" not in done.stderr + done.stdout  # no warning a newcomer cannot act on
