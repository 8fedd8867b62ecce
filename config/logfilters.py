"""Log filters: the logs keep no email address.

The site's own log lines never name an address (tests/accounts/test_log_privacy.py checks the
flows that handle them), but a library's message or an exception's text might: ``MaskEmails``
rewrites any address in a record's message to ``<email>`` before a handler writes it."""

from __future__ import annotations

import logging
import re

EMAIL = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+")


def mask(text: str) -> str:
    return EMAIL.sub("<email>", text)


class MaskEmails(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and record.exc_info[1] is not None:
            text = logging.Formatter().formatException(record.exc_info)
            if EMAIL.search(text):
                record.exc_text = mask(text)
                record.exc_info = None
        return True
