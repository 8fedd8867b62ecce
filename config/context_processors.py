"""Template context for every page."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.utils.functional import SimpleLazyObject


def _links(request) -> dict:
    """This page in each language (``?lang=xx``, see UserLanguageMiddleware), for the hreflang
    links in <head>; ``default`` is the page with no ``lang`` (x-default: the visitor's own)."""
    query = request.GET.copy()
    query.pop("lang", None)
    plain = urlencode(sorted(query.lists()), doseq=True)

    def url(code: str = "") -> str:
        params = f"{plain}&lang={code}" if plain and code else plain or (code and f"lang={code}")
        return request.build_absolute_uri(request.path + (f"?{params}" if params else ""))

    return {
        "default": url(),
        "each": [
            {"code": code, "name": name, "url": url(code)} for code, name in settings.LANGUAGES
        ],
    }


def languages(request) -> dict:
    return {"language_links": SimpleLazyObject(lambda: _links(request))}
