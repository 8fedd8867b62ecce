"""Settings > Notifications in Chromium: the page registers the service worker at
/sw.js with the whole site as its scope, links the web app manifest, keeps the turn sound per
browser, and saves a webhook. Screenshots under out/screenshots."""

from __future__ import annotations

import pytest

from games.models import NoticeSettings, PushSubscription
from games.selectors import vapid
from tests.support import push_stub
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


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "360"])
def test_the_page_explains_itself_and_each_test_reports_its_result(
    site, browser, bob, screenshots, viewport, settings
):
    """What happens is said on the page; a device's "Send me a test" goes to the stub push
    service through the notices' task and says it was sent; the webhook's test says the error
    its address answered; the sound's says it played."""
    settings.VAPID_PRIVATE_KEY = vapid.new_private_key()
    vapid.private_key.cache_clear()
    vapid.public_key.cache_clear()
    stub = push_stub.start()
    device = push_stub.Device(f"{stub.url}/push/phone")

    def prepare():
        PushSubscription.objects.create(
            user=bob,
            endpoint=device.endpoint,
            p256dh=device.p256dh,
            auth=device.auth,
            label="Firefox on Android",
        )
        NoticeSettings.objects.create(user=bob, webhook_url=f"{stub.url}/hook")

    site.call(prepare)
    try:
        url = f"{site.url}/settings/notifications/"
        context, page = page_for(browser, site, bob, url, viewport=viewport)
        how = page.locator(".notices-how")
        assert how.is_visible()
        text = how.inner_text()
        assert "the browser asks whether this site may show them" in text
        assert "iPhone" in text and "home screen" in text
        assert "instead of an email" in text and "while a page of the site is open" in text
        turn = page.locator("#id_turn_helptext").inner_text()
        assert "Not the emails" in turn

        row = page.locator(".device")
        assert "Firefox on Android" in row.inner_text()
        row.get_by_role("button", name="Send me a test").click()
        result = row.locator(".test-result")
        result.filter(has_text="Sent:").wait_for(timeout=10_000)
        assert len(stub.on("/push/phone")) == 1
        assert "test notice" in device.read(stub.on("/push/phone")[0])["body"]

        stub.answers = [404]
        page.get_by_role("button", name="Send a test to my chat webhook").click()
        hook = page.locator("form.notice-test", has_text="chat webhook").locator(".test-result")
        hook.filter(has_text="404").wait_for(timeout=10_000)
        assert hook.inner_text().startswith("Refused:")

        page.get_by_role("button", name="Play the sound now").click()
        page.locator("#sound-result").filter(has_text="The sound played").wait_for()

        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= viewport[0]
        page.screenshot(path=str(screenshots / f"notices-tests-{viewport[0]}.png"), full_page=True)
        context.close()
    finally:
        stub.close()
        vapid.private_key.cache_clear()
        vapid.public_key.cache_clear()
