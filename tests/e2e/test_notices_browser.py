"""Settings > Notifications in Chromium: the page registers the service worker at
/sw.js with the whole site as its scope, links the web app manifest, keeps the turn sound per
browser, and saves a webhook. Screenshots under out/screenshots."""

from __future__ import annotations

import pytest

from games.models import NoticeSettings
from games.selectors import vapid
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP, PHONE = (1280, 900), (360, 740)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "360"])
def test_the_notifications_page(site, browser, bob, screenshots, viewport, settings):
    settings.VAPID_PRIVATE_KEY = vapid.new_private_key()  # Web Push set up on this site
    vapid.private_key.cache_clear()
    vapid.public_key.cache_clear()
    url = f"{site.url}/settings/notifications/"
    context, page = page_for(browser, site, bob, url, viewport=viewport)
    scope = page.evaluate("() => navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{site.url}/"
    manifest = page.evaluate("() => document.querySelector('link[rel=manifest]').href")
    assert manifest.endswith("/manifest.webmanifest")
    assert page.is_enabled("#push-enable")  # headless Chromium has no push service to ask
    page.check("#turn-sound")
    page.reload()
    assert page.is_checked("#turn-sound")  # kept in this browser
    page.fill("input[name=webhook_url]", "https://discord.example/api/webhooks/1/x")
    page.get_by_role("button", name="Save settings").click()
    page.wait_for_selector(".messages")
    assert "Notification settings saved." in page.locator(".messages").inner_text()
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= viewport[0]
    page.screenshot(path=str(screenshots / f"notices-{viewport[0]}.png"), full_page=True)
    context.close()
    vapid.private_key.cache_clear()
    vapid.public_key.cache_clear()
    row = site.call(lambda: NoticeSettings.objects.get(user=bob))
    assert row.webhook_url == "https://discord.example/api/webhooks/1/x" and row.turn
