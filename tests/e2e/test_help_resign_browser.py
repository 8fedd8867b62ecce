"""The help page's "Resign and take back" in Chromium, on a phone and a desktop, in two of the
six languages. Screenshots under out/screenshots."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("code", "viewport", "heading"),
    [("en", (1280, 900), "Resign and take back"), ("ja", (360, 740), "投了と手の取り消し")],
)
def test_the_help_page_explains_resign_and_take_back(
    site, browser, screenshots, code, viewport, heading
):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    page.goto(f"{site.url}/help/?lang={code}#resign")
    section = page.locator("#resign")
    assert heading in section.locator("h2").inner_text()
    assert "(R9)" in section.inner_text()
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= viewport[0]
    section.screenshot(path=str(screenshots / f"help-resign-{code}-{viewport[0]}.png"))
    context.close()


def test_the_challenge_button_on_a_desktop_profile(site, browser, alice, bob, screenshots):
    from tests.support.browser import page_for

    context, page = page_for(browser, site, alice, f"{site.url}/players/bob/")
    assert page.get_by_role("button", name="Challenge").is_visible()
    page.screenshot(path=str(screenshots / "challenge-profile-1280.png"), full_page=True)
    context.close()
