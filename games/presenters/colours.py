"""The game page's colour rows ("Colours and pieces left"): one per colour, with its player, its
squares left, its deck counts (Shuffle), its clock when it is to move and its pieces left.

Built here rather than in a template loop: four rows of a dozen translated words each were the
largest part left of a first view's rendering. Every value is escaped; the words
are the template's (the same catalog entries)."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def rows_html(
    colours: list[dict], *, over: bool, active: bool, per_move: str, time_left: str
) -> SafeString:
    """``colours``: presenters.game's colour lines (with their decks and clocks); ``per_move``:
    the game's move time in words; ``time_left``: the clock's words (or the page's mark for
    them, filled in per request)."""
    return mark_safe("\n".join(_row(c, over, active, per_move, time_left) for c in colours))


def _row(c: dict, over: bool, active: bool, per_move: str, time_left: str) -> str:
    name = escape(c["name"])
    classes = f"colour-row {name}"
    if c["to_move"]:
        classes += " to-move"
    if c["mine"]:
        classes += " mine"
    you = f" {escape(_('(you)'))}" if c["mine"] else ""
    # A space before the badge, as the template's line break gave (the head is not a flex box).
    badge = (
        f' <span class="badge">{escape(_("to move"))}</span>' if c["to_move"] and not over else ""
    )
    letter, label = escape(c["letter"]), escape(capfirst(c["label"]))
    player = escape(c["player"])
    if c.get("player_url"):  # the player's profile; the computer has none
        player = f'<a href="{escape(c["player_url"])}">{player}</a>'
    head = (
        f'<div class="cp-head"><span class="swatch {name}" aria-hidden="true">{letter}</span> '
        f'<strong>{label}</strong> <span class="cp-player">{player}{you}</span>'
        f"{badge}</div>"
    )
    # As {% blocktranslate %} does: the values escaped, the catalog's words as they are (the
    # one-word ones come from {% translate %}, which escapes them). The spaces are the
    # template's line breaks (flex items: for screen readers and copied text).
    n = c["remaining"]
    spans = f"<span>{ngettext('%(n)s square left', '%(n)s squares left', n) % {'n': n}}</span> "
    deck = c.get("deck")
    if deck:
        spans += f"<span>{_('%(n)s in hand') % {'n': deck['hand_count']}}</span>"
        spans += f"<span>{_('pile %(n)s') % {'n': deck['pile_count']}}</span> "
        if deck["top"]:
            spans += (
                f'<span>{escape(_("discard:"))} <span title="{escape(deck["top_effect"])}">'
                f"{escape(deck['top'])}</span></span>"
            )
        else:
            spans += f"<span>{escape(_('no discards'))}</span>"
    spans += " "
    if c["passed"]:
        spans += f"<span>{escape(_('passed'))}</span>"
    if not c["in_play"]:
        spans += f"<span>{escape(_('out of pieces'))}</span>"
    parts = [f'<li class="{classes}">', head, f'<div class="cp-facts">{spans}</div>']
    clock = c.get("clock")
    if clock and not clock.get("computer") and clock.get("deadline"):
        left = _('<span class="clock-left">%(left)s</span> left') % {"left": escape(time_left)}
        of = _("of %(per_move)s") % {"per_move": escape(clock["per_move"])}
        parts.append(
            f'<div class="cp-clock"><span class="clock" '
            f'data-deadline="{escape(clock["deadline"].isoformat())}">{left}</span> {of}</div>'
        )
    elif clock and clock.get("vacation_until"):
        parts.append(
            f'<div class="cp-clock">{escape(_("on vacation: the clock is stopped"))}</div>'
        )
    elif clock:
        parts.append(f'<div class="cp-clock">{escape(_("thinking…"))}</div>')
    elif not over and active:
        words = _("%(time)s per move") % {"time": escape(per_move)}
        parts.append(f'<div class="cp-clock muted">{words}</div>')
    if c["supply"]:
        supply = escape(" ".join(c["supply"]))
        parts.append(f'<div class="supply" aria-label="{escape(_("Pieces left"))}">{supply}</div>')
    parts.append("</li>")
    return "".join(parts)
