"""Asking for "Download my data": one export at a time per player, built by a Celery task
(games.jobs.exports) queued after the commit."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import DataExport
from games import jobs
from games.services.errors import Conflict


def export_request(*, user) -> DataExport:
    """A new export of ``user``'s data, queued for a worker. Refused (409, nothing changed)
    while another is being built: the constraint ``export_one_building`` decides, so two
    requests at once make one export. A build past its lease (its worker died) no longer
    counts, so that the player is never stuck."""
    now = timezone.now()
    with transaction.atomic():
        DataExport.objects.filter(
            user=user,
            status=DataExport.Status.BUILDING,
            created_at__lt=now - timedelta(seconds=settings.EXPORT_LEASE_SECONDS),
        ).update(status=DataExport.Status.FAILED, finished_at=now)
        try:
            with transaction.atomic():
                export = DataExport.objects.create(user=user)
        except IntegrityError:
            raise Conflict(
                _(
                    "your data is already being prepared: wait for the email (or this page) "
                    "to say it is ready"
                )
            ) from None
        transaction.on_commit(lambda: jobs.queue("build_data_export", export.pk), robust=True)
    return export
