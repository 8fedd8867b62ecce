"""``manage.py backup_db``: one backup of the site's PostgreSQL database, in pg_dump's custom
format (compressed; pg_restore reads it table by table), written to ``BACKUP_DIR`` as
``blokus-<UTC time>.dump`` and renamed into place only once complete; then only the newest
``BACKUP_KEEP`` dumps are kept. The README's "Backups" gives the schedule, and
``manage.py restore_drill`` restores the newest dump to check that it can be.
"""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

PREFIX, SUFFIX = "blokus-", ".dump"


def libpq_env(config: dict) -> dict[str, str]:
    """The environment that points pg_dump, pg_restore and psql at a Django database (the
    password goes through the environment, never the command line)."""
    env = dict(os.environ)
    for key, name in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER")):
        if config.get(key):
            env[name] = str(config[key])
    if config.get("PASSWORD"):
        env["PGPASSWORD"] = str(config["PASSWORD"])
    return env


def dumps(folder: Path) -> list[Path]:
    """The backups in ``folder``, oldest first (their names sort by time)."""
    return sorted(folder.glob(f"{PREFIX}*{SUFFIX}"))


class Command(BaseCommand):
    help = "Dump the database (pg_dump --format=custom) into BACKUP_DIR and prune old dumps."

    def add_arguments(self, parser):
        parser.add_argument("--dir", type=Path, default=None, help="default: BACKUP_DIR")
        parser.add_argument("--keep", type=int, default=None, help="default: BACKUP_KEEP")
        parser.add_argument("--database", default="default", help="a Django database alias")

    def handle(self, *args, **options):
        folder = options["dir"] or Path(settings.BACKUP_DIR)
        keep = options["keep"] or settings.BACKUP_KEEP
        if keep < 1:
            raise CommandError("--keep must be at least 1")
        connection = connections[options["database"]]
        if connection.vendor != "postgresql":
            raise CommandError("backups are made of PostgreSQL databases only (DATABASE_URL)")
        config = connection.settings_dict
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        target = folder / f"{PREFIX}{stamp}{SUFFIX}"
        part = target.with_suffix(".part")
        command = ["pg_dump", "--format=custom", "--no-owner", f"--file={part}", config["NAME"]]
        result = subprocess.run(command, env=libpq_env(config), capture_output=True, text=True)
        if result.returncode != 0:
            part.unlink(missing_ok=True)
            raise CommandError(f"pg_dump failed: {result.stderr.strip()}")
        part.replace(target)
        removed = dumps(folder)[:-keep]
        for old in removed:
            old.unlink()
        size = target.stat().st_size
        self.stdout.write(f"{target} ({size} bytes); {len(removed)} older dump(s) removed")
