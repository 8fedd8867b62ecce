"""The finished games of "My games" as list items. A page holds 25 of them, and
through the template engine they were most of the page's server time; built here, each costs a
few string joins. The words are the template's (the same msgids, so the catalogs need nothing
new); every value is escaped.

A row is plain data (``games.selectors.lists.FinishedRow``: its fields are what is read here):
presenters never see a model.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from django.urls import reverse
from django.utils import dateformat
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

_ID = "~public-id~"


def _paths() -> dict[str, str]:
    """The game's four paths with a place-holder id: reversed once a page, filled per row."""
    names = {"page": "game", "replay": "game_replay", "record": "game_record"}
    names["pentobi"] = "game_blksgf"
    return {key: reverse(name, args=[_ID]) for key, name in names.items()}


def names_html(names: Iterable[tuple[str, str]]) -> SafeString:
    """(name, profile address) pairs as "alice, bob": a name with an address is a link to it,
    the computer's (address "") is text."""
    return mark_safe(  # every value is escaped
        ", ".join(
            f'<a href="{escape(url)}">{escape(name)}</a>' if url else escape(name)
            for name, url in names
        )
    )


def finished_items(rows: Iterable) -> SafeString:
    """The ``<li>`` of each row (``selectors.lists.FinishedRow``), as the template wrote them."""
    paths = _paths()
    when_format = pgettext("date format of a game in the list", "j M Y, H:i")
    words = {
        "replay": escape(_("Replay")),
        "record": escape(_("Record")),
        "pentobi": escape(_("Pentobi file")),
        "pentobi_title": escape(_("Open it in Pentobi to analyse the game")),
        "won": escape(_("You won")),
    }
    out = []
    for row in rows:
        pid = escape(row.public_id)

        def path(key: str, pid=pid) -> str:
            return paths[key].replace(_ID, pid)

        when = localtime(row.when)
        players = ngettext("%(n)s player", "%(n)s players", row.players) % {"n": row.players}
        head = (
            f'<span class="muted">{escape(row.when_label)}</span> '
            f'<time datetime="{escape(dateformat.format(when, "c"))}">'
            f"{escape(dateformat.format(when, when_format))}</time>\n"
            f'<a href="{path("page")}">{escape(row.mode_name)} · {escape(players)}</a>'
        )
        if row.tournament:
            head += f'\n<span class="tag tournament-tag">{escape(row.tournament)}</span>'
        if row.finished:
            place = ""
            if row.my_place == 1:
                place = words["won"]
            elif row.my_place:
                place = escape(
                    _("Place %(place)s of %(of)s") % {"place": row.my_place, "of": row.players}
                )
            won = " won" if row.my_place == 1 else ""
            head += f'\n<span class="result-chip{won}">{place}</span>'
            names = ", ".join(row.winners) or "–"
            tail = (
                f'<span class="muted">· {escape(_("winner: %(names)s") % {"names": names})}'
                f"</span>\n"
                f'<span class="game-actions"><a href="{path("replay")}">{words["replay"]}</a>\n'
                f'<a href="{path("record")}">{words["record"]}</a>\n'
            )
            if row.pentobi:
                tail += (
                    f'<a href="{path("pentobi")}" title="{words["pentobi_title"]}">'
                    f"{words['pentobi']}</a>"
                )
            tail += "</span>"
        else:
            tail = f'<span class="muted">· {escape(row.status_name)}</span>'
        seats = names_html(row.seat_links or [(label, "") for label in row.seat_labels])
        out.append(
            f'<li class="game-item" data-game="{pid}">\n'
            f'<div class="game-item-head">\n{head}\n</div>\n'
            f'<span class="muted">{seats}</span>\n{tail}\n</li>'
        )
    return mark_safe("\n".join(out))  # every value above is escaped
