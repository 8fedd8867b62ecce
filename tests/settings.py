"""Test settings: the project's own, made fast and self-contained."""

import os
import tempfile

from config.settings import *  # noqa: F403
from config.settings import parse_database_url

# A SQLite file unless DATABASE_URL points somewhere else (PostgreSQL, for the locking tests:
# SQLite ignores select_for_update). The file is this test process's own (its process id;
# pytest-xdist adds the worker's name too) in the temporary folder, with the options `make run`
# uses (WAL, BEGIN IMMEDIATE, a busy timeout): with an in-memory database shared between the
# threads that reach it (the live server's, the API streams'), a read that met another thread's
# write failed at once with "database table is locked", where a file database waits its turn.
if os.environ.get("DATABASE_URL", "").strip():
    DATABASES = {"default": parse_database_url(os.environ["DATABASE_URL"].strip())}
else:
    _file = os.path.join(tempfile.gettempdir(), f"blokus-tests-{os.getpid()}.sqlite3")
    DATABASES = {"default": {**parse_database_url(f"sqlite:///{_file}"), "TEST": {"NAME": _file}}}

# Hashing passwords properly is slow on purpose; tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Each test process keeps its own cache: pytest-xdist workers share one Redis, and the rate-limit
# tests clear and count in the cache. The Redis-backed settings are exercised by the integration
# tests that start real services.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The turn email goes out at once (a test that is about the grace period sets its own): the
# real-worker tests wait for it, and an eager Celery ignores a countdown anyway.
TURN_EMAIL_GRACE_SECONDS = 0
