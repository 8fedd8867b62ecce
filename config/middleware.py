"""Project-wide request checks."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.http import HttpResponseBadRequest
from django.utils import timezone, translation
from django.utils.translation.trans_real import parse_accept_lang_header


class RefuseNulMiddleware:
    """A NUL character anywhere in the path, the query string or a form field is refused with 400.

    No id, username, token or text of this site contains one, and PostgreSQL cannot store or
    even compare a string holding one: the query would fail with a 500 (the game, player, chat,
    report and replay pages all look up what the URL names). One check here, before sessions and
    views, covers every endpoint. Runs before CSRF: a refused request changes nothing anyway.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or "\x00" in request.META.get("QUERY_STRING", "").replace(
            "%00", "\x00"
        ):
            return HttpResponseBadRequest("Malformed request: a NUL character.")
        if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ):
            for values in request.POST.lists():
                if any("\x00" in value for value in values[1]) or "\x00" in values[0]:
                    return HttpResponseBadRequest("Malformed request: a NUL character.")
        return self.get_response(request)


class UserTimeZoneMiddleware:
    """Dates on the pages in the signed-in player's own time zone (their setting); UTC else."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        zone = getattr(user, "time_zone", "") if user is not None and user.is_authenticated else ""
        try:
            timezone.activate(zoneinfo.ZoneInfo(zone)) if zone else timezone.deactivate()
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class UserLanguageMiddleware:
    """The language of the page, after Django's LocaleMiddleware has read the cookie and the
    browser's Accept-Language: ``?lang=xx`` on the URL (what the hreflang links point at) wins
    for that page, then the signed-in player's own setting (User.language). Browsers that ask
    for Norwegian as "no" or "nn" (Nynorsk, which the rule sheets do not come in) get Bokmål."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        code = supported_language(request.GET.get("lang", ""))
        user = getattr(request, "user", None)
        if not code and user is not None and user.is_authenticated:
            code = supported_language(getattr(user, "language", ""))
        if (
            not code
            and translation.get_language() == settings.LANGUAGE_CODE
            and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES
        ):  # LocaleMiddleware found nothing it knows: perhaps a Norwegian alias (ALIASES)
            code = from_accept_language(request.META.get("HTTP_ACCEPT_LANGUAGE", ""))
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        response = self.get_response(request)
        chosen = supported_language(request.GET.get("lang", ""))
        if chosen and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != chosen:
            # A link in a language (hreflang, "?lang=en" on the help page) keeps the visitor in
            # it: the page's own refreshes (htmx panels) and the next pages carry no ?lang=.
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                chosen,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response


def supported_language(code: str) -> str:
    """``code`` if it is one of settings.LANGUAGES, else ""."""
    return code if code in dict(settings.LANGUAGES) else ""


ALIASES = {"no": "nb", "nn": "nb"}


def from_accept_language(header: str) -> str:
    """The first language of the browser's list (by its q values) that the site has, with the
    ALIASES; "" when none is (then LocaleMiddleware's choice, English, stands)."""
    for code, _q in parse_accept_lang_header(header.lower()):
        base = code.split("-")[0]
        found = supported_language(ALIASES.get(base, base))
        if found:
            return found
    return ""
