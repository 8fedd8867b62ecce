"""Take back in Chromium (R11.3): one accepted and one declined between two open pages that follow
each other live, no offer in a rated game, and one after a draw, told to the other player.
Screenshots under out/screenshots."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP, PHONE = (1280, 900), (360, 740)
WAIT = 15000


def make(alice, bob, *, mode="classic", rated=False) -> Game:
    game = services.game_create(
        creator=alice,
        mode=mode,
        players=2,
        rated=rated,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    return Game.objects.get(pk=game.pk)


def play(game_id: int, user, action: dict) -> None:
    game = Game.objects.get(pk=game_id)
    services.action_submit(game=game, user=user, action=action, expected_ply=game.ply)


def ply_is(page, ply: int) -> None:
    page.wait_for_function(
        "ply => +document.querySelector('#game').dataset.ply === ply", arg=ply, timeout=WAIT
    )


def test_a_take_back_accepted_then_one_declined(site, browser, alice, bob, screenshots):
    game = site.call(make, alice, bob)
    url = f"{site.url}/games/{game.public_id}/"
    site.call(play, game.pk, alice, {"place": "a1"})
    a_ctx, a_page = page_for(browser, site, alice, url, viewport=DESKTOP)
    b_ctx, b_page = page_for(browser, site, bob, url, viewport=PHONE)
    a_page.wait_for_selector("#game[data-live]")
    b_page.wait_for_selector("#game[data-live]")
    a_page.get_by_role("button", name="Take back my last move").click()
    a_page.wait_for_selector("text=waiting for the other players")
    # Bob's page hears of the request by itself.
    b_page.wait_for_selector("text=alice asks to take back their last move.", timeout=WAIT)
    b_page.screenshot(path=str(screenshots / "takeback-asked-360.png"), full_page=True)
    a_page.screenshot(path=str(screenshots / "takeback-waiting-1280.png"))
    b_page.locator("#takeback").get_by_role("button", name="Accept").click()
    b_page.wait_for_selector(".messages")
    assert "You accepted the take back." in b_page.locator(".messages").inner_text()
    ply_is(a_page, 0)  # alice's page goes back a ply by itself (game.reset)
    assert "Your turn (blue)" in a_page.locator("#turn").inner_text()
    a_page.screenshot(path=str(screenshots / "takeback-accepted-1280.png"))
    assert site.call(lambda: Game.objects.get(pk=game.pk).ply) == 0

    # Alice places again, asks again; this time Bob declines and nothing changes.
    site.call(play, game.pk, alice, {"place": "t20"})
    ply_is(a_page, 1)
    a_page.get_by_role("button", name="Take back my last move").click()
    a_page.wait_for_selector("text=waiting for the other players")
    b_page.reload()
    b_page.locator("#takeback").get_by_role("button", name="Decline").click()
    b_page.wait_for_selector(".messages")
    a_page.wait_for_selector("text=Your take back was declined.", timeout=WAIT)
    a_page.screenshot(path=str(screenshots / "takeback-declined-1280.png"))
    assert site.call(lambda: Game.objects.get(pk=game.pk).ply) == 1
    a_ctx.close()
    b_ctx.close()


def test_no_take_back_in_a_rated_game_and_one_after_a_draw_told_to_the_other_player(
    site, browser, alice, bob, screenshots
):
    rated = site.call(lambda: make(alice, bob, rated=True))
    site.call(play, rated.pk, alice, {"place": "a1"})
    context, page = page_for(browser, site, alice, f"{site.url}/games/{rated.public_id}/")
    assert page.locator("#game .board-svg").count() == 1
    assert page.get_by_role("button", name="Take back my last move").count() == 0
    context.close()

    # R11.3: the setup piece drew two cards; they go back on top of alice's pile, and bob is
    # told so (not which cards) before he answers.
    shuffle = site.call(lambda: make(alice, bob, mode="shuffle"))
    site.call(play, shuffle.pk, alice, {"place": "a1"})
    url = f"{site.url}/games/{shuffle.public_id}/"
    a_ctx, a_page = page_for(browser, site, alice, url, viewport=PHONE)
    b_ctx, b_page = page_for(browser, site, bob, url, viewport=DESKTOP)
    a_page.wait_for_selector("#game[data-live]")
    b_page.wait_for_selector("#game[data-live]")
    told = "The 2 cards you drew go back on top of your draw pile, in the same order"
    assert told in a_page.locator("#takeback").inner_text()
    a_page.get_by_role("button", name="Take back my last move").click()
    a_page.wait_for_selector("text=waiting for the other players")
    b_page.wait_for_selector("text=alice asks to take back their last move.", timeout=WAIT)
    assert "The 2 cards alice drew go back on top of their draw pile" in (
        b_page.locator("#takeback").inner_text()
    )
    b_page.screenshot(path=str(screenshots / "takeback-after-draw-1280.png"))
    b_page.locator("#takeback").get_by_role("button", name="Accept").click()
    ply_is(a_page, 0)
    a_page.screenshot(path=str(screenshots / "takeback-after-draw-360.png"), full_page=True)
    a_ctx.close()
    b_ctx.close()
    assert site.call(lambda: Game.objects.get(pk=shuffle.pk).ply) == 0
