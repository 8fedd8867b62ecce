"""Where the zips of "Download my data" live: files in ``EXPORT_ROOT``, a folder the web
processes and the Celery workers share, named by the export's public id (games.jobs.exports
writes them, the download view reads them, the sweep and an account's deletion remove them)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from accounts.models import DataExport


def root() -> Path:
    return Path(settings.EXPORT_ROOT)


def path_of(export: DataExport) -> Path:
    return root() / export.file_name


def remove_files(user) -> int:
    """Delete every zip of the player's exports; returns how many there were."""
    removed = 0
    for export in DataExport.objects.filter(user=user).exclude(file_name=""):
        path_of(export).unlink(missing_ok=True)
        removed += 1
    return removed
