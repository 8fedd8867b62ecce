"""URLs of the game page and its panel, with the invite token and the wizard's selection."""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse


def url(name: str, public_id: str, params: dict) -> str:
    query = urlencode({k: v for k, v in params.items() if v not in ("", None)})
    base = reverse(name, args=[public_id])
    return f"{base}?{query}" if query else base


class Links:
    def __init__(self, game, token: str):
        self.public_id = game.public_id
        self.token = token
        self.panel_url = url("game_panel", game.public_id, {"token": token})
        # A panel has dozens of selection links (a piece, an orientation, a target square each):
        # the two paths are reversed once, the query written per link.
        self._page = reverse("game", args=[game.public_id])
        self._panel = reverse("game_panel", args=[game.public_id])

    def link(self, params: dict) -> dict:
        """A selection link: a plain href to the page (works without JS) and the panel for htmx."""
        params = {**params, "token": self.token}
        query = urlencode({k: v for k, v in params.items() if v not in ("", None)})
        if not query:
            return {"href": self._page, "hx": self._panel}
        return {"href": f"{self._page}?{query}", "hx": f"{self._panel}?{query}"}
