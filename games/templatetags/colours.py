"""``{{ colour|colour_letter }}``: the letter a swatch of that colour carries, in the page's
language (games/presenters/board.py, one place for it: the SVG board, the table board and the
swatches agree)."""

from __future__ import annotations

from django import template

from games.translations import colour_letter as letter_of

register = template.Library()


@register.filter
def colour_letter(colour: str) -> str:
    return letter_of(colour or "")
