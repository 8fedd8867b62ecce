"""The integration tests' email backend, loaded by the Celery worker they start
(EMAIL_BACKEND=tests.integration.mailbox.EmailBackend).

Each message sent becomes a file ``<n>.eml`` in the directory TEST_MAILBOX, where the test, in
another process, reads it. Every attempt to send is counted in ``TEST_MAILBOX/attempts``, and
the first TEST_MAILBOX_FAILURES attempts (default 0) fail the way a dropped SMTP connection does,
so the worker's real retry path runs.
"""

from __future__ import annotations

import os
import smtplib
import uuid
from pathlib import Path

from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    def send_messages(self, messages) -> int:
        mailbox = Path(os.environ["TEST_MAILBOX"])
        failures = int(os.environ.get("TEST_MAILBOX_FAILURES", "0"))
        sent = 0
        for message in messages:
            with (mailbox / "attempts").open("a") as attempts:
                attempts.write(f"{message.to}\n")
            attempt = len((mailbox / "attempts").read_text().splitlines())
            if attempt <= failures:
                if self.fail_silently:
                    continue
                raise smtplib.SMTPServerDisconnected(f"test failure {attempt} of {failures}")
            # Written aside, then renamed: a reader never sees half a message.
            draft = mailbox / f".{uuid.uuid4().hex}.tmp"
            draft.write_bytes(message.message().as_bytes())
            draft.rename(mailbox / f"{uuid.uuid4().hex}.eml")
            sent += 1
        return sent
