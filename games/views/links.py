"""URLs of the game page and its panel, with the invite token and the wizard's selection."""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse


def with_query(base: str, params: dict) -> str:
    """``base`` with ``params`` as its query, leaving out the empty ones."""
    query = urlencode({k: v for k, v in params.items() if v not in ("", None)})
    return f"{base}?{query}" if query else base


class Links:
    def __init__(self, game, token: str):
        self.public_id = game.public_id
        self.token = token
        # A panel has dozens of selection links (a piece, an orientation, a target square each):
        # the two paths are reversed once, the query written per link.
        self._page = reverse("game", args=[game.public_id])
        self._panel = reverse("game_panel", args=[game.public_id])
        self.panel_url = with_query(self._panel, {"token": token})

    def link(self, params: dict) -> dict:
        """A selection link: a plain href to the page (works without JS) and the panel for htmx."""
        params = {**params, "token": self.token}
        return {"href": with_query(self._page, params), "hx": with_query(self._panel, params)}
