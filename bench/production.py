"""What the benchmarks that start the site in its production layout share: the environment
they run it with (DEBUG off, PostgreSQL, Redis, loopback only), a command run in the
repository, the database made ready (created, migrated, static files collected) and the wait
for a server's port. bench/load/load.py, bench/web/bots.py and bench/web/shuffle_wait.py use
it; each adds its own variables."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def production_env(
    *, port: int, database_url: str, redis_url: str, static_root: Path, **more: str
) -> dict[str, str]:
    """The site's environment for a run on loopback: ``port`` is the HTTP server's (the
    emails' links), ``more`` the script's own variables."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",  # plain HTTP on loopback, no proxy in front
        "SITE_URL": f"http://127.0.0.1:{port}",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "STATIC_ROOT": str(static_root),
        "LOG_LEVEL": "WARNING",
        **more,
    }


def sh(cmd: list[str], env: dict, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, env=env, cwd=ROOT, check=True, text=True, **kwargs)


def ready_database(env: dict, python: str, *, fresh: bool = False) -> None:
    """Create the PostgreSQL database ``env`` names (dropped first when ``fresh``), migrate it
    and collect the static files, with ``python``."""
    import psycopg

    url = env["DATABASE_URL"]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    dbname = url.rsplit("/", 1)[1]
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)).fetchone()
        if exists and fresh:
            conn.execute(f'DROP DATABASE "{dbname}" WITH (FORCE)')
        if fresh or not exists:
            conn.execute(f'CREATE DATABASE "{dbname}"')
    sh([python, "manage.py", "migrate", "-v0"], env)
    sh([python, "manage.py", "collectstatic", "--noinput", "-v0"], env)


def wait_port(port: int, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")
