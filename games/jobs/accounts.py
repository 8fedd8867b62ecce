"""The hourly sweep of accounts (``games.tasks.sweep_accounts``, CELERY_BEAT_SCHEDULE): the
deletions whose grace period is over (games.services.accounts_deletion), the data exports past
their expiry (games.jobs.exports) and the sessions past theirs, so that what the privacy page
says about how long things are kept holds."""

from __future__ import annotations

import logging

from django.contrib.sessions.models import Session
from django.utils import timezone

from games.jobs import exports
from games.services import accounts_deletion

log = logging.getLogger(__name__)


def sweep(now=None) -> dict[str, int]:
    now = now or timezone.now()
    deleted = 0
    for deletion_id in accounts_deletion.due_deletions(now):
        try:
            if accounts_deletion.account_delete(deletion_id=deletion_id, now=now) == "deleted":
                deleted += 1
        except Exception:  # the next sweep tries again; the others go ahead
            log.exception("account deletion %s failed", deletion_id)
    swept = exports.sweep(now)
    sessions, _ = Session.objects.filter(expire_date__lt=now).delete()
    return {"deleted": deleted, **swept, "sessions": sessions}
