"""The translation catalogs: complete, clean, and what gettext's own tools accept.

``config.catalogs`` builds the .mo files with polib; the checks here use GNU gettext too when it
is installed (CI installs it in .ci/run; without it they skip, unless REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from config import catalogs
from tests.support.needs import missing

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
PO = {code: catalogs.LOCALE_DIR / code / "LC_MESSAGES" / "django.po" for code in TRANSLATED}


def _need_gettext():
    if shutil.which("msgfmt") and shutil.which("xgettext"):
        return
    missing("GNU gettext (msgfmt, xgettext) is not installed")


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_language_has_a_clean_catalog(code):
    assert PO[code].exists()
    assert catalogs.problems(PO[code]) == []
    header = polib.pofile(str(PO[code])).metadata
    assert header["Language"] == code
    assert "charset=UTF-8" in header["Content-Type"]
    plural = "nplurals=1; plural=0;" if code == "ja" else "nplurals=2; plural=(n != 1);"
    assert header["Plural-Forms"] == plural


def test_the_checker_finds_empty_fuzzy_and_broken_entries(tmp_path):
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    po.append(polib.POEntry(msgid="Empty", msgstr=""))
    po.append(polib.POEntry(msgid="Fuzzy", msgstr="Luddig", flags=["fuzzy"]))
    po.append(polib.POEntry(msgid="Hi %(name)s", msgstr="Hej"))
    po.append(polib.POEntry(msgid="Fine %(name)s", msgstr="Bra %(name)s"))
    path = catalogs.BASE_DIR / "out" / "checker-test.po"
    path.parent.mkdir(exist_ok=True)
    po.save(str(path))
    try:
        found = catalogs.problems(path)
    finally:
        path.unlink()
    assert len(found) == 3
    assert [f.split("'")[1] for f in found] == ["Empty", "Fuzzy", "Hi %(name)s"]


@pytest.mark.parametrize("code", TRANSLATED)
def test_msgfmt_accepts_each_catalog(code, tmp_path):
    _need_gettext()
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "x.mo"), str(PO[code])],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "untranslated" not in result.stderr and "fuzzy" not in result.stderr


def test_every_string_marked_in_the_code_is_translated(tmp_path, monkeypatch):
    """makemessages over the code, into a copy of the catalogs: every entry it adds or changes
    would be empty or fuzzy there, so the copy stays clean only if the catalogs are complete.

    It runs in a copy of the project: makemessages also writes into ``./locale`` of the folder it
    runs in, and run in the project it rewrapped and reordered the real catalogs every time."""
    _need_gettext()
    # makemessages writes into the ./locale of the folder it runs in, whatever LOCALE_PATHS
    # says: run in the repository, it rewrapped the real catalogs on every run (and left the
    # copy checked below untouched). It runs on a copy of the code, next to the copied catalogs.
    code = tmp_path / "code"
    skip = shutil.ignore_patterns("__pycache__", "*.mo")
    for folder in ("accounts", "api", "config", "games", "templates"):
        shutil.copytree(catalogs.BASE_DIR / folder, code / folder, ignore=skip)
    shutil.copytree(catalogs.LOCALE_DIR, code / "locale", ignore=skip)
    kept = {path: path.read_bytes() for path in catalogs.catalogs()}
    monkeypatch.chdir(code)
    with override_settings(LOCALE_PATHS=[code / "locale"]):
        call_command(
            "makemessages",
            *[f"--locale={code}" for code in TRANSLATED],
            "--no-location",
            verbosity=0,
        )
    assert all(path.read_bytes() == text for path, text in kept.items())
    tmp_path = code
    found = [
        problem
        for code in TRANSLATED
        for problem in catalogs.problems(tmp_path / "locale" / code / "LC_MESSAGES" / "django.po")
    ]
    assert found == [], "\n".join(found[:20])


def test_the_built_catalogs_are_what_django_reads():
    catalogs.compile_all()
    for code in TRANSLATED:
        mo = Path(PO[code]).with_suffix(".mo")
        assert mo.exists() and mo.stat().st_mtime >= PO[code].stat().st_mtime
