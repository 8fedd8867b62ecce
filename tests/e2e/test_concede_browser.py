"""Resign in Chromium: the confirm step, then the result and ratings follow, in a
two-player game (the other player wins) and a four-player game (the others play on).

Screenshots are kept under out/screenshots (artefacts to look at, not compared pixel by pixel).
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, RatingChange, Seat
from games.services import SeatSpec
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP, PHONE = (1280, 900), (360, 740)


def make_game(creator, *invited) -> Game:
    seats = [SeatSpec(Seat.Kind.HUMAN)] + [
        SeatSpec(Seat.Kind.INVITED, username=u.username) for u in invited
    ]
    game = services.game_create(
        creator=creator, mode="classic", players=len(seats), seats=seats, rated=True
    )
    for user in invited:
        services.game_join(game=game, user=user)
    users = {0: creator, **{i + 1: u for i, u in enumerate(invited)}}
    for corner in ("a1", "t1", "t20", "a20"):
        game.refresh_from_db()
        seat = game.current_state().controller()
        services.action_submit(
            game=game, user=users[seat], action={"place": corner}, expected_ply=game.ply
        )
    game.refresh_from_db()
    return game


def resign_in(page) -> None:
    page.locator("#resign summary").click()
    page.get_by_role("button", name="Yes, resign").click()
    page.wait_for_selector(".messages")


def test_a_two_player_resignation_in_the_browser(site, browser, alice, bob, screenshots):
    game = site.call(make_game, alice, bob)
    context, page = page_for(
        browser, site, bob, f"{site.url}/games/{game.public_id}/", viewport=PHONE
    )
    page.locator("#resign summary").click()
    assert "it counts as a loss" in page.locator("#resign").inner_text()
    page.screenshot(path=str(screenshots / "resign-confirm-360.png"), full_page=True)
    page.get_by_role("button", name="Yes, resign").click()
    page.wait_for_selector("#result")
    assert "alice wins" in page.locator("#result h2").inner_text()
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE[0]
    page.screenshot(path=str(screenshots / "resign-2p-result-360.png"), full_page=True)
    context.close()

    context, page = page_for(browser, site, alice, f"{site.url}/games/{game.public_id}/")
    assert "You won!" in page.locator("#result h2").inner_text()
    page.screenshot(path=str(screenshots / "resign-2p-winner-1280.png"), full_page=True)
    context.close()
    changes = site.call(
        lambda: {c.user.username: c.after - c.before for c in RatingChange.objects.all()}
    )
    assert changes["alice"] > 0 > changes["bob"]


def test_a_four_player_resignation_in_the_browser(
    site, browser, alice, bob, carol, dave, screenshots
):
    game = site.call(make_game, alice, bob, carol, dave)
    context, page = page_for(browser, site, carol, f"{site.url}/games/{game.public_id}/")
    page.locator("#resign summary").click()
    assert "the others play on" in page.locator("#resign").inner_text()
    page.screenshot(path=str(screenshots / "resign-4p-confirm-1280.png"), full_page=True)
    page.get_by_role("button", name="Yes, resign").click()
    page.wait_for_selector(".messages")
    assert "You resigned." in page.locator(".messages").inner_text()
    assert page.locator("#result").count() == 0 and page.locator("#resign").count() == 0
    page.screenshot(path=str(screenshots / "resign-4p-after-1280.png"), full_page=True)
    context.close()
    game = site.call(lambda: Game.objects.get(pk=game.pk))
    assert game.status == Game.Status.ACTIVE and game.current_state().resigned == 0b100
    for user in (bob, dave):
        context, page = page_for(browser, site, user, f"{site.url}/games/{game.public_id}/")
        resign_in(page)
        context.close()
    context, page = page_for(browser, site, alice, f"{site.url}/games/{game.public_id}/")
    assert "You won!" in page.locator("#result h2").inner_text()
    page.screenshot(path=str(screenshots / "resign-4p-winner-1280.png"), full_page=True)
    context.close()
    places = site.call(lambda: dict(game.seats.values_list("user__username", "final_place")))
    assert places["alice"] == 1 and min(places[n] for n in ("bob", "carol", "dave")) > 1
