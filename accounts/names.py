"""Names and text other players see: nothing invisible, nothing that reorders the line, and no
name that passes for another player's.

``visible_text`` drops control characters (category Cc, as spaces) and format characters
(category Cf: right-to-left overrides such as U+202E, isolates, zero-width spaces, soft hyphens,
BOMs), which are invisible and can make a line read as something else. Zero-width joiner and
non-joiner (U+200D, U+200C) stay: they reorder nothing, and emoji sequences and several scripts
need them.

``name_key`` is what two names are compared by: NFKC-normalized (fullwidth and other compatibility
forms fold to their plain letters) and case-folded. A display name may not have the key of any
other player's username or display name, and a new username may not take the key of an existing
display name (accounts.models.User.clean, the settings form and the sign-up adapter).
"""

from __future__ import annotations

import unicodedata

KEEP_FORMAT = {"\u200c", "\u200d"}


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


def name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", visible_text(name)).casefold()
