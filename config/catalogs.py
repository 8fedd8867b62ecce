"""The translation catalogs: build the .mo files from the committed .po files, and check them.

Django's ``compilemessages`` needs GNU gettext's ``msgfmt``, which a fresh machine may not have;
polib (pure Python, a runtime dependency) writes the same .mo files, so ``make run`` and
``make test`` need nothing outside PyPI. CI also runs ``msgfmt --check`` when it is installed
(tests/code/test_catalogs.py).

    python -m config.catalogs compile   # build the stale .mo files
    python -m config.catalogs check     # list empty, fuzzy or malformed entries; exit 1 if any
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

import polib

BASE_DIR = Path(__file__).resolve().parent.parent
LOCALE_DIR = BASE_DIR / "locale"

# "%(name)s", "%s", "%d", "{name}" and "%%": a translation must carry the same set as its msgid.
PLACEHOLDER = re.compile(r"%\([A-Za-z_]\w*\)[sdfr]|%[sdfr]|\{[A-Za-z_]\w*\}")


def catalogs(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write each .mo whose .po is newer (atomically: parallel test workers may race)."""
    written = []
    for po_path in catalogs(locale_dir):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        fd, tmp = tempfile.mkstemp(dir=po_path.parent, suffix=".mo.tmp")
        os.close(fd)
        try:
            polib.pofile(str(po_path)).save_as_mofile(tmp)
            os.replace(tmp, mo_path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        written.append(mo_path)
    return written


def _shown(path: Path) -> str:
    return str(path.relative_to(BASE_DIR)) if path.is_relative_to(BASE_DIR) else str(path)


def _placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def problems(po_path: Path) -> list[str]:
    """Every entry that is untranslated, fuzzy, or whose placeholders differ from its msgid."""
    found = []
    for entry in polib.pofile(str(po_path)):
        if entry.obsolete:
            continue
        where = f"{_shown(po_path)}: {entry.msgid[:60]!r}"
        if "fuzzy" in entry.flags:
            found.append(f"{where} is fuzzy")
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        if not translations or any(not t.strip() for t in translations):
            found.append(f"{where} is not translated")
            continue
        wanted = _placeholders(entry.msgid)
        wanted_plural = _placeholders(entry.msgid_plural) if entry.msgid_plural else wanted
        for text in translations:
            got = _placeholders(text)
            # A plural form may leave out the count (Japanese has one form; "one" may say "a").
            if entry.msgid_plural:
                if not set(got) <= set(wanted_plural) | set(wanted):
                    found.append(f"{where}: placeholders {got} not in {wanted_plural}")
            elif got != wanted:
                found.append(f"{where}: placeholders {got} != {wanted}")
    return found


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "compile"
    if command == "compile":
        for path in compile_all():
            print(f"compiled {_shown(path)}")
        return 0
    if command == "check":
        found = [p for po in catalogs() for p in problems(po)]
        print("\n".join(found) or f"{len(catalogs())} catalogs: no empty, fuzzy or bad entry")
        return 1 if found else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
