"""``manage.py restore_drill``: a backup restored for real, and checked.

1. Take the newest dump in ``BACKUP_DIR`` (or ``--dump``), made by ``manage.py backup_db``.
2. Restore it with pg_restore into a fresh database beside the site's (``--database``; by
   default ``<site's name>_drill_<time>``), which must not exist yet.
3. Run the migrations there: a dump from an older release comes up to this code's schema.
4. Replay every game's record with the engine, from its settings and seed through its actions
   (the ones not taken back), and compare with the snapshot the site keeps; verify every
   finished Shuffle game's shuffle against its commitment (``engine.verify``, RECORD.md).
5. Report the counts and the times, then drop the drill's database (``--keep`` leaves it).

Exit status 1 (a CommandError) when the restore fails or any game does not replay or verify;
the report names the first of them. The README's "Backups" explains when to run it.
"""

from __future__ import annotations

import subprocess
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from accounts.models import User
from games import engine
from games.management.commands.backup_db import dumps, libpq_env
from games.models import Action, Game

ALIAS = "restore_drill"
SHOWN_FAILURES = 20


def _admin_connection(config: dict):
    """A connection to the server's maintenance database, to create and drop the drill's."""
    return psycopg.connect(
        dbname="postgres",
        host=config.get("HOST") or None,
        port=config.get("PORT") or None,
        user=config.get("USER") or None,
        password=config.get("PASSWORD") or None,
        autocommit=True,
    )


def check_game(game: Game) -> str | None:
    """None if the game replays to its snapshot (and, a finished Shuffle game, its shuffle
    verifies against the commitment its players were shown: the snapshot's); else what is
    wrong."""
    if game.state is None:
        return None  # not started: nothing to replay
    payloads = list(game.actions.order_by("ply").values_list("payload", flat=True))
    record = engine.make_record(game.initial_state(), payloads, reveal=True)
    snapshot = engine.State.from_json(game.state)
    if game.status == Game.Status.FINISHED and game.mode == Game.Mode.SHUFFLE:
        verdict = engine.verify({**record, "commitment": snapshot.commitment})
        if not verdict["ok"]:
            return f"does not verify: {verdict['reason']}"
    try:
        replayed = engine.replay(record)
    except engine.RecordError as exc:
        return f"does not replay: {exc}"
    if replayed.to_json() != snapshot.to_json():
        return "replays to another position than its snapshot"
    if game.status == Game.Status.FINISHED and not replayed.over:
        return "is finished, but its record does not end the game"
    return None


class Command(BaseCommand):
    help = "Restore the newest backup into a fresh database, migrate, replay and verify."

    def add_arguments(self, parser):
        parser.add_argument("--dump", type=Path, default=None, help="default: newest in BACKUP_DIR")
        parser.add_argument("--database", default="", help="the drill database's name")
        parser.add_argument("--keep", action="store_true", help="keep the drill database")

    def handle(self, *args, **options):
        source = connections["default"]
        if source.vendor != "postgresql":
            raise CommandError("the drill restores PostgreSQL dumps (DATABASE_URL=postgres://...)")
        dump = options["dump"] or next(reversed(dumps(Path(settings.BACKUP_DIR))), None)
        if dump is None or not Path(dump).is_file():
            raise CommandError(f"no dump to restore (looked in {settings.BACKUP_DIR})")
        config = dict(source.settings_dict)
        stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
        name = options["database"] or f"{config['NAME']}_drill_{stamp}"
        started = time.monotonic()
        with _admin_connection(config) as admin:
            try:
                admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
            except psycopg.errors.DuplicateDatabase:
                raise CommandError(
                    f"database {name} exists already: the drill needs a fresh one"
                ) from None
        try:
            report = self._drill(Path(dump), config, name, started)
        finally:
            if ALIAS in connections.settings:
                connections[ALIAS].close()
                del connections[ALIAS]
                del connections.settings[ALIAS]
            if not options["keep"]:
                with _admin_connection(config) as admin:
                    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.stdout.write(report["text"])
        if report["failures"]:
            raise CommandError(f"{len(report['failures'])} game(s) failed the drill")

    def _drill(self, dump: Path, config: dict, name: str, started: float) -> dict:
        command = ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={name}", str(dump)]
        result = subprocess.run(command, env=libpq_env(config), capture_output=True, text=True)
        if result.returncode != 0:
            raise CommandError(f"pg_restore failed: {result.stderr.strip()}")
        restored = time.monotonic()
        options = {k: v for k, v in config.get("OPTIONS", {}).items() if k != "pool"}
        connections.settings[ALIAS] = {**config, "NAME": name, "OPTIONS": options}
        call_command("migrate", database=ALIAS, verbosity=0, interactive=False)
        migrated = time.monotonic()
        counts, failures = Counter(), []
        games = Game.objects.using(ALIAS).order_by("pk")
        for game in games.iterator(chunk_size=200):
            counts[f"{game.status} {game.mode}"] += 1
            problem = check_game(game)
            if problem is not None:
                failures.append(f"game {game.public_id} {problem}")
                continue
            if game.state is not None:
                counts["replayed"] += 1
            if game.status == Game.Status.FINISHED and game.mode == Game.Mode.SHUFFLE:
                counts["verified"] += 1
        checked = time.monotonic()
        lines = [
            f"dump: {dump} ({dump.stat().st_size} bytes)",
            f"restored into {name} in {restored - started:.1f} s, migrated in "
            f"{migrated - restored:.1f} s, checked in {checked - migrated:.1f} s",
            f"users: {User.objects.using(ALIAS).count()}, "
            f"actions: {Action.every.using(ALIAS).count()}",
            *(f"games {key}: {value}" for key, value in sorted(counts.items()) if " " in key),
            f"replayed to their snapshot: {counts['replayed']}",
            f"finished Shuffle games verified: {counts['verified']}",
            f"failures: {len(failures)}",
            *failures[:SHOWN_FAILURES],
        ]
        return {"text": "\n".join(lines), "failures": failures, "counts": counts}
