""" "Play now" in Chromium: a table forms in the lobby as it happens, two players land at it, a
third with a far rating waits at a table of their own until the windows have grown, and all
three open the game without a reload; the flow fits a phone. Screenshots under
out/screenshots."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Rating, Seek
from games.services import seeks
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP, PHONE = (1280, 900), (360, 740)


def rated(user, shown: int) -> None:
    sigma = 25 / 3
    mu = (shown - 1000) / 40 + 3 * sigma
    Rating.objects.create(user=user, mode="classic", mu=mu, sigma=sigma, ordinal=mu - 3 * sigma)


def ask(page, *, players: str) -> None:
    page.locator("input[name=mode][value=classic]").check()
    page.locator(f"input[name=players][value='{players}']").check()
    page.select_option("select[name=move_seconds]", "3600")
    page.select_option("select[name=fill_after]", "never")
    page.get_by_role("button", name="Play now").click()
    page.wait_for_selector("#seek")


def window_shown(page, rating: int) -> tuple[int, int]:
    """The rating window the waiting page shows, checked to be centred on ``rating`` and no
    wider than half a minute's growth (MATCH_WINDOW 100, widening by 100 points a minute: the
    page may have been drawn a few seconds after the ask)."""
    found = re.search(r"Looking for players rated (\d+)-(\d+)\.", page.inner_text("#seek"))
    assert found, page.inner_text("#seek")
    low, high = int(found[1]), int(found[2])
    assert rating - low == high - rating and 100 <= high - rating <= 150, (low, high)
    return low, high


def fits_the_screen(page, size) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], f"the page is {width} px wide on a {size[0]} px screen"


def test_play_now_forms_a_table_live_and_opens_the_game(
    site, browser, alice, bob, carol, screenshots
):
    site.call(rated, carol, 1600)
    # bob watches the lobby: nobody is looking yet.
    bob_context, bob_page = page_for(browser, site, bob, f"{site.url}/", viewport=DESKTOP)
    assert "Nobody is looking for players right now." in bob_page.inner_text("#seek-tables")

    # alice asks on her phone; the whole form fits the screen.
    alice_context, alice_page = page_for(browser, site, alice, f"{site.url}/", viewport=PHONE)
    alice_page.locator(".intro").get_by_role("link", name="Play now").click()
    alice_page.wait_for_url("**/play/")
    fits_the_screen(alice_page, PHONE)
    button = alice_page.get_by_role("button", name="Play now").bounding_box()
    assert button["y"] + button["height"] <= PHONE[1], "Play now is below the fold"
    alice_page.screenshot(path=str(screenshots / "play-now-form-360.png"), full_page=True)
    ask(alice_page, players="3")
    window_shown(alice_page, 1000)
    assert "2 seats left." in alice_page.inner_text("#seek")
    fits_the_screen(alice_page, PHONE)
    alice_page.screenshot(path=str(screenshots / "play-now-waiting-360.png"), full_page=True)

    # bob's lobby shows the table without a reload, and he joins it.
    bob_page.locator("#seek-tables").get_by_role("button", name="Join (2 free)").wait_for()
    bob_page.screenshot(path=str(screenshots / "play-now-lobby-1280.png"))
    bob_page.locator("#seek-tables").get_by_role("button", name="Join (2 free)").click()
    bob_page.wait_for_url("**/play/")
    assert "1 seat left." in bob_page.inner_text("#seek")
    # alice's page shows him without a reload.
    alice_page.locator("#seek", has_text="bob").wait_for()
    assert "1 seat left." in alice_page.inner_text("#seek")

    # carol, rated 1600, asks for the same game: she is not seated with them...
    carol_context, carol_page = page_for(
        browser, site, carol, f"{site.url}/play/", viewport=DESKTOP
    )
    ask(carol_page, players="3")
    assert "2 seats left." in carol_page.inner_text("#seek")
    low, _high = window_shown(carol_page, 1600)
    assert low > 1100  # alice's and bob's ratings (1000) are outside carol's window
    carol_page.screenshot(path=str(screenshots / "play-now-far-1280.png"))
    assert site.call(lambda: Seek.objects.values("table").distinct().count()) == 2

    # ...until the windows have grown: the sweep (run as if six minutes had passed) joins the
    # tables, the game starts, and every page opens it.
    site.call(lambda: seeks.sweep(now=timezone.now() + timedelta(minutes=6)))
    for page in (alice_page, bob_page, carol_page):
        # Polled rather than awaited as one navigation: the nudge and the page's own refetch
        # may both open the game, and the second navigation aborts the first.
        for _ in range(150):  # 30 s
            if "/games/" in page.url:
                break
            page.wait_for_timeout(200)
        assert "/games/" in page.url, page.url
        page.wait_for_selector("#game .board-svg", timeout=30000)
    game = site.call(lambda: Game.objects.get())
    assert all(game.public_id in p.url for p in (alice_page, bob_page, carol_page))
    users = site.call(lambda: sorted(s.user.username for s in game.seats.all()))
    assert users == ["alice", "bob", "carol"]
    fits_the_screen(alice_page, PHONE)
    alice_page.screenshot(path=str(screenshots / "play-now-started-360.png"))
    for context in (alice_context, bob_context, carol_context):
        context.close()
