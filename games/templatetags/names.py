"""``{{ row.seat_links|name_links }}``: players' names as links to their profiles, the
computer's name as text ("alice, Computer (Casual)"); presenters.game_list writes them, so that
the lists built outside the template engine say the same."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from games.presenters.game_list import names_html

register = template.Library()


@register.filter
def name_links(names) -> SafeString:
    return names_html(names or ())
