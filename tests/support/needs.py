"""What a test needs from the machine: without it the test skips, and with REQUIRE_SERVICES=1
(``.ci/run`` sets it after installing everything) it fails instead, so CI never passes a test
that did not run."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest


def missing(reason: str):
    """Skip the test for ``reason``, or fail it under REQUIRE_SERVICES=1."""
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def has_font_for(language: str) -> bool:
    """Whether fontconfig knows a font that covers ``language`` (``fc-list :lang=ja``): what
    Chromium draws that language's text with."""
    if not shutil.which("fc-list"):
        return False
    listed = subprocess.run(
        ["fc-list", f":lang={language}", "family"], capture_output=True, text=True, check=False
    )
    return bool(listed.stdout.strip())
