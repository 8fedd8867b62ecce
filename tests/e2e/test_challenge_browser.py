"""A challenge from a profile, accepted, and a rematch whose first player rotates, in Chromium.
Screenshots under out/screenshots."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services.resign import game_resign
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP, PHONE = (1280, 900), (360, 740)


def blue_player(game_id: int) -> str:
    return Game.objects.get(pk=game_id).seats.get(index=0).user.username


def test_a_challenge_from_a_profile_is_accepted_and_the_rematch_rotates(
    site, browser, alice, bob, screenshots
):
    context, page = page_for(browser, site, alice, f"{site.url}/players/bob/", viewport=PHONE)
    page.screenshot(path=str(screenshots / "challenge-profile-360.png"), full_page=True)
    page.get_by_role("button", name="Challenge").click()
    page.wait_for_url("**/games/new/?challenge=bob")
    assert "bob is invited to seat 2" in page.locator(".challenge-note").inner_text()
    assert page.input_value("input[name=seat1_username]") == "bob"
    page.locator("input[name=mode][value=classic]").check()
    page.screenshot(path=str(screenshots / "challenge-form-360.png"), full_page=True)
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_selector("#invite-url")
    context.close()
    game = site.call(lambda: Game.objects.get(created_by=alice))

    context, page = page_for(browser, site, bob, f"{site.url}/", viewport=DESKTOP)
    page.locator(".invitation").get_by_role("button", name="Accept").click()
    page.wait_for_selector("#game .board-svg")
    assert site.call(lambda: Game.objects.get(pk=game.pk).status) == Game.Status.ACTIVE
    assert site.call(blue_player, game.pk) == "alice"
    context.close()

    def finish():
        g = Game.objects.get(pk=game.pk)
        from games import services

        for corner in ("a1", "t1", "t20", "a20"):
            g.refresh_from_db()
            seat = g.seats.get(index=g.current_state().controller())
            services.action_submit(
                game=g, user=seat.user, action={"place": corner}, expected_ply=g.ply
            )
        game_resign(game=g, user=bob)

    site.call(finish)
    context, page = page_for(browser, site, bob, f"{site.url}/games/{game.public_id}/")
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: game.public_id not in url)
    context.close()
    rematch = site.call(lambda: Game.objects.get(rematch_of_id=game.pk))
    context, page = page_for(browser, site, alice, f"{site.url}/games/{game.public_id}/")
    page.get_by_role("button", name="Rematch").click()  # the same rematch: alice joins, it starts
    page.wait_for_selector("#game .board-svg")
    assert rematch.public_id in page.url
    assert "Blue to move (bob)" in page.locator("#turn").inner_text()
    page.screenshot(path=str(screenshots / "rematch-rotated-1280.png"))
    context.close()
    assert site.call(blue_player, rematch.pk) == "bob"
