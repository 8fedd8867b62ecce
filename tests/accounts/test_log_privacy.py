"""Logs keep no email address and no password (the privacy page says so): every log record
emitted while the flows that handle them run (signing up and confirming the address, a failed
and a good sign-in, a password reset, an invitation's email, a data export's email) is captured
at DEBUG from every logger, and none names the address or the password. The handler the site
writes its logs with also masks any address a library's line might carry
(config/logfilters.py)."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Seat
from games.services import SeatSpec

EMAIL = "erin.secret-mailbox@example.net"
PASSWORD = "erins-Secret-passw0rd-91"
NEW_PASSWORD = "erins-Other-passw0rd-92"
BOBS_EMAIL = "bob.private@example.org"


class Capture(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(logging.Formatter("%(name)s %(message)s").format(record))


@pytest.fixture
def logs():
    """Every record the site's logging lets through at its most verbose (LOG_LEVEL=DEBUG: the
    root and Django's loggers at DEBUG, the others as config/settings.py sets them), from the
    root logger and from each logger that does not pass its records up, as it was emitted:
    ahead of the site's handler, whose filter masks addresses (checked below, on its own)."""
    capture = Capture()
    loggers = [logging.getLogger()] + [
        logger
        for logger in logging.Logger.manager.loggerDict.values()
        if isinstance(logger, logging.Logger) and not logger.propagate
    ]
    verbose = [logging.getLogger(), logging.getLogger("django")]
    levels = [(logger, logger.level) for logger in verbose]
    for logger in loggers:
        logger.handlers.insert(0, capture)
    for logger in verbose:
        logger.setLevel(logging.DEBUG)
    yield capture
    for logger in loggers:
        logger.removeHandler(capture)
    for logger, level in levels:
        logger.setLevel(level)


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _link(message) -> str:
    return re.search(r"http://testserver(/\S+/)", message.body).group(1)


def test_the_flows_that_handle_addresses_and_passwords_log_neither(
    logs, bob, on_commit, settings, tmp_path
):
    settings.EXPORT_ROOT = tmp_path
    User.objects.filter(pk=bob.pk).update(email=BOBS_EMAIL)
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=bob, email=BOBS_EMAIL, verified=True, primary=True)
    browser = Client()
    # Sign up, then confirm the address.
    browser.post(
        reverse("account_signup"),
        {"username": "erin", "email": EMAIL, "password1": PASSWORD, "password2": PASSWORD},
    )
    browser.post(_link(mail.outbox[-1]))
    erin = User.objects.get(username="erin")
    # A wrong password, then the right one, by address.
    Client().post(reverse("account_login"), {"login": EMAIL, "password": PASSWORD + "x"})
    assert Client().post(reverse("account_login"), {"login": EMAIL, "password": PASSWORD})
    # A password reset.
    Client().post(reverse("account_reset_password"), {"email": EMAIL})
    reset = Client()
    form = reset.get(_link(mail.outbox[-1]))
    reset.post(form["Location"], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    # An invitation's email to bob.
    sent = len(mail.outbox)
    with on_commit():
        services.game_create(
            creator=erin,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        )
    assert mail.outbox[sent].to == [BOBS_EMAIL]
    # A data export's email to erin (signed in again: the new password ended her sessions).
    again = Client()
    again.post(reverse("account_login"), {"login": "erin", "password": NEW_PASSWORD})
    with on_commit():
        again.post("/settings/data/export/")
    assert mail.outbox[-1].to == [EMAIL]

    assert logs.lines, "the capture saw nothing: it would prove nothing"
    text = "\n".join(logs.lines).casefold()
    for secret in (EMAIL, BOBS_EMAIL, PASSWORD, NEW_PASSWORD, "secret-mailbox"):
        assert secret.casefold() not in text, secret


def test_the_sites_log_handler_masks_any_address():
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "stderr")
    record = logging.LogRecord(
        "somelib", logging.WARNING, __file__, 1, "could not mail %s", (BOBS_EMAIL,), None
    )
    assert handler.filter(record)
    line = handler.format(record)
    assert BOBS_EMAIL not in line and "could not mail <email>" in line


def test_templates_never_log_their_context_even_at_log_level_debug():
    """django.template's DEBUG lines print a template's whole context (an email's address and
    its confirmation key): config/settings.py keeps that logger at INFO under LOG_LEVEL=DEBUG."""
    root = Path(__file__).resolve().parents[2]
    code = "import config.settings as s; print(s.LOGGING['loggers']['django.template']['level'])"
    env = {**os.environ, "LOG_LEVEL": "DEBUG", "DATABASE_URL": ""}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
    )
    assert result.stdout.strip() == "INFO", result.stderr
