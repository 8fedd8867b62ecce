"""The header on a 360 px phone: the site's name and a Menu button on every page, the menu (a
<details> disclosure: no script, nothing inline for the CSP to block) showing the main links and
the account's (Settings, Log out) inside the screen; at 1280 px the links stay in the header,
with no Menu button."""

from __future__ import annotations

import pytest

from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = (360, 740)
DESKTOP = (1280, 900)
MAIN_LINKS = ["Lobby", "My games", "New game", "Tournaments", "Leaderboard", "Rules & help"]


def pages(site, duel) -> dict[str, str]:
    return {
        "lobby": f"{site.url}/",
        "game": f"{site.url}/games/{duel.public_id}/",
        "settings": f"{site.url}/settings/",
        "leaderboard": f"{site.url}/leaderboard/",
        "help": f"{site.url}/help/",
    }


def inside_the_screen(page, locator, width: int) -> None:
    found = locator.bounding_box()
    assert found is not None, locator
    assert found["x"] >= 0 and found["x"] + found["width"] <= width + 0.5, found
    assert found["y"] >= 0, found


def test_every_phone_page_has_a_menu_with_the_main_and_account_links(
    site, browser, alice, duel, screenshots
):
    errors: list[str] = []
    for name, url in pages(site, duel).items():
        context, page = page_for(browser, site, alice, url, viewport=PHONE)
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        header = page.locator(".site-header")
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE[0]
        button = header.locator("summary", has_text="Menu")
        assert button.is_visible(), name
        inside_the_screen(page, button, PHONE[0])
        # Closed, the menu's links take no room: the header is one line.
        assert header.bounding_box()["height"] <= 56, name
        assert not header.get_by_role("link", name="Settings").is_visible()
        button.click()
        page.screenshot(path=str(screenshots / f"phone-menu-{name}-360.png"))
        menu = header.locator("details.site-menu")
        for link in [*MAIN_LINKS, "Settings", alice.username]:
            found = menu.get_by_role("link", name=link, exact=True)
            assert found.is_visible(), (name, link)
            inside_the_screen(page, found, PHONE[0])
            assert found.bounding_box()["height"] >= 44 - 0.5, (name, link)  # a finger's target
        logout = menu.get_by_role("button", name="Log out")
        assert logout.is_visible(), name
        inside_the_screen(page, logout, PHONE[0])
        button.click()  # closes again
        assert not menu.get_by_role("link", name="Settings").is_visible()
        context.close()
    assert not errors, errors  # a CSP block shows as a console error


def test_the_menu_works_without_javascript(site, browser, alice, duel):
    from tests.support.browser import session_of

    context = browser.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]}, java_script_enabled=False
    )
    context.add_cookies([{"name": "sessionid", "value": session_of(site, alice), "url": site.url}])
    page = context.new_page()
    page.goto(f"{site.url}/")
    page.locator(".site-header summary", has_text="Menu").click()
    settings = page.locator("details.site-menu").get_by_role("link", name="Settings")
    assert settings.is_visible()
    settings.click()
    page.wait_for_url(f"{site.url}/settings/")
    context.close()


def test_the_desktop_header_shows_its_links_and_no_menu_button(
    site, browser, alice, duel, screenshots
):
    for name, url in pages(site, duel).items():
        context, page = page_for(browser, site, alice, url, viewport=DESKTOP)
        header = page.locator(".site-header")
        assert not header.locator("summary").is_visible(), name
        main = header.get_by_role("navigation", name="Main")
        for link in MAIN_LINKS:
            assert main.get_by_role("link", name=link, exact=True).is_visible(), (name, link)
        account = header.get_by_role("navigation", name="Account")
        assert account.get_by_role("link", name="Settings").is_visible(), name
        assert account.get_by_role("button", name="Log out").is_visible(), name
        assert header.bounding_box()["height"] <= 70, name  # one line, as before
        if name in ("lobby", "game"):
            page.screenshot(path=str(screenshots / f"desktop-header-{name}-1280.png"))
        context.close()


def test_a_visitor_gets_log_in_and_sign_up_in_the_phone_menu(site, browser):
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]})
    page = context.new_page()
    page.goto(f"{site.url}/help/")
    page.locator(".site-header summary", has_text="Menu").click()
    menu = page.locator("details.site-menu")
    for link in ("Log in", "Sign up", "Lobby", "Rules & help"):
        found = menu.get_by_role("link", name=link, exact=True)
        assert found.is_visible(), link
        inside_the_screen(page, found, PHONE[0])
    context.close()
