"""The body of "Download my data": a zip of the player's own data, built by a Celery task
(``games.tasks.build_data_export``, queued by games.services.data_export), then linked by email
and on the Settings page, kept ``EXPORT_DAYS``.

The zip is written one file at a time to a part file beside its final name and renamed when
complete: the records are read and dropped a game at a time, so memory grows only by the list
for games.json and the zip's directory (about 5 KiB a game; bench/web/export.py measures it at
10,000 games, bench/RESULTS.md), and a reader never meets half a zip. What goes in is read by
games.selectors.personal, whose docstring says what is left out and why.
"""

from __future__ import annotations

import json
import logging
import os
import zipfile
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.exports import path_of, root
from accounts.models import DataExport
from games.jobs import emails
from games.selectors import personal

log = logging.getLogger(__name__)

README = """Your data from Blokus Shuffle, as it was on {date}.

account.json        your account and its settings, your vacations
notifications.json  your notification boxes, your devices and chat webhook (their hosts only)
games.json          every game you sat in or were invited to: mode, status, your seat and place
games/<id>.json     each game's record (docs: blokus-record/1); for a game still running, your
                    own seat's view and the actions so far (blokus-view/1): other hands, the
                    order of the piles and the shuffle's seed stay secret until the game ends
games/<id>.blksgf   finished classic games, for Pentobi
chat.json           the chat lines you wrote
ratings.json        your ratings and their history
blocks.json         the players you have blocked
"""


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


def write(user, target: Path) -> int:
    """Write the player's zip to ``target``; returns the number of games in it."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", README.format(date=timezone.now().date().isoformat()))
        archive.writestr("account.json", _json(personal.account(user)))
        archive.writestr("notifications.json", _json(personal.notifications(user)))
        entries = []  # games.json, written after the games' files (a few hundred bytes each)
        for seat in personal.seats_of(user):
            entries.append(personal.game_entry(seat))
            files = personal.game_files(seat)
            name = f"games/{seat.game.public_id}"
            if "record" in files:
                archive.writestr(f"{name}.json", _json(files["record"]))
            if "blksgf" in files:
                archive.writestr(f"{name}.blksgf", files["blksgf"])
        archive.writestr("games.json", _json(entries))
        count = len(entries)
        archive.writestr("chat.json", _json(personal.chat_lines(user)))
        archive.writestr("ratings.json", _json(personal.ratings(user)))
        archive.writestr("blocks.json", _json(personal.blocks(user)))
    return count


def build(export_id: int) -> str:
    """Build the export once: a second delivery of the task finds it claimed (its file name
    set) and does nothing; a build whose worker died is failed by the sweep after its lease
    (``EXPORT_LEASE_SECONDS``), and the player may ask again. Returns what happened."""
    export = DataExport.objects.select_related("user").filter(pk=export_id).first()
    if export is None or export.status != DataExport.Status.BUILDING:
        return "gone"
    name = f"{export.public_id}.zip"
    claimed = DataExport.objects.filter(
        pk=export.pk, status=DataExport.Status.BUILDING, file_name=""
    ).update(file_name=name)
    if claimed != 1:
        return "duplicate"
    export.file_name = name
    root().mkdir(parents=True, exist_ok=True)
    final = path_of(export)
    part = final.with_suffix(".part")
    try:
        games = write(export.user, part)
        os.replace(part, final)
    except BaseException:
        part.unlink(missing_ok=True)
        DataExport.objects.filter(pk=export.pk).update(
            status=DataExport.Status.FAILED, finished_at=timezone.now()
        )
        raise
    now = timezone.now()
    ready = DataExport.objects.filter(pk=export.pk, status=DataExport.Status.BUILDING).update(
        status=DataExport.Status.READY,
        finished_at=now,
        expires_at=now + timedelta(days=settings.EXPORT_DAYS),
        size=final.stat().st_size,
        games=games,
    )
    if ready != 1:  # failed by the sweep meanwhile (past its lease): not offered
        final.unlink(missing_ok=True)
        return "lapsed"
    export.refresh_from_db()
    if emails.reachable(export.user):
        try:
            message(export).send()
        except Exception:  # the zip is on the Settings page anyway
            log.exception("data export %s: the email could not be sent", export.pk)
    return "ready"


def message(export: DataExport) -> EmailMultiAlternatives:
    """The email with the link (the download still asks the reader to be signed in as the
    export's owner), in the player's language."""
    user = export.user
    url = settings.SITE_URL + reverse("data_export_download", args=[export.public_id])
    with translation.override(user.email_language()):
        context = {"name": str(user), "url": url, "days": settings.EXPORT_DAYS}
        subject = render_to_string("emails/data_export_subject.txt", context).strip()
        text = render_to_string("emails/data_export.txt", context)
        html = render_to_string("emails/data_export.html", context)
    mail = EmailMultiAlternatives(subject, text, to=[user.email])
    mail.attach_alternative(html, "text/html")
    return mail


def sweep(now=None) -> dict[str, int]:
    """Expired exports lose their zip; builds past their lease count as failed."""
    now = now or timezone.now()
    expired = 0
    for export in DataExport.objects.filter(
        status=DataExport.Status.READY, expires_at__lte=now
    ).only("pk", "file_name"):
        if export.file_name:
            path_of(export).unlink(missing_ok=True)
        expired += DataExport.objects.filter(pk=export.pk).update(status=DataExport.Status.EXPIRED)
    lapsed = DataExport.objects.filter(
        status=DataExport.Status.BUILDING,
        created_at__lt=now - timedelta(seconds=settings.EXPORT_LEASE_SECONDS),
    ).update(status=DataExport.Status.FAILED, finished_at=now)
    return {"expired": expired, "failed": lapsed}
