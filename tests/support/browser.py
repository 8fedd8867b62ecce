"""Shared test helpers (moved from tests/e2e/test_live_page.py)."""

from __future__ import annotations

from django.conf import settings
from django.test import Client


def session_of(site, user) -> str:
    with site.locked():
        client = Client()
        client.force_login(user)
        return client.cookies[settings.SESSION_COOKIE_NAME].value


def page_for(browser, site, user, url: str, *, viewport=(1280, 900)):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.add_cookies([{"name": "sessionid", "value": session_of(site, user), "url": site.url}])
    page = context.new_page()
    page.goto(url)
    return context, page
