"""Invitations in Chromium: the creator fills in the new-game form, lands on the game's page with
the invite link and its Copy button; the invited player gets the email, sees the lobby notice,
and Accept takes them into the game; a Decline shows on the creator's page at once.

Screenshots are kept under out/screenshots (artefacts to look at, not compared pixel by pixel).
"""

from __future__ import annotations

import pytest
from django.core import mail
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP, PHONE = (1280, 900), (360, 740)


def verify(*users) -> None:
    from allauth.account.models import EmailAddress

    for user in users:
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


def test_the_invited_player_gets_the_email_sees_the_notice_and_accepts(
    site, browser, alice, bob, screenshots
):
    site.call(verify, bob)
    context, page = page_for(browser, site, alice, f"{site.url}/games/new/", viewport=DESKTOP)
    page.locator("select[name=seat1_kind]").select_option("invited")
    page.locator("input[name=seat1_username]").fill("bob")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_selector("#invite-url")
    game = site.call(lambda: Game.objects.get(created_by=alice))
    site.daphne.settle()

    # The creator's landing page: the invite link to pass on, in a field to select by hand too.
    assert page.input_value("#invite-url").endswith(
        f"/games/{game.public_id}/invite/{game.invite_token}/"
    )
    assert "bob (invited)" in page.locator(".seats").inner_text()
    page.screenshot(path=str(screenshots / "invite-creator-1280.png"), full_page=True)
    context.close()

    [message] = [m for m in mail.outbox if m.to == [bob.email]]
    assert message.subject.endswith("alice invites you to a game: alice vs bob · Shuffle")
    assert f"/games/{game.public_id}/" in message.body

    context, page = page_for(browser, site, bob, f"{site.url}/", viewport=PHONE)
    notice = page.locator(".invitation")
    assert "alice invites you" in notice.inner_text()
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE[0]
    page.screenshot(path=str(screenshots / "invite-lobby-360.png"), full_page=True)
    notice.get_by_role("button", name="Accept").click()
    page.wait_for_url(f"{site.url}/games/{game.public_id}/")
    page.wait_for_selector("#game .board-svg")
    assert "You accepted and took seat 2. The game has started." in page.content()
    assert site.call(lambda: Game.objects.get(pk=game.pk).status) == Game.Status.ACTIVE
    context.close()


def test_copy_button_and_a_decline_seen_by_the_creator(site, browser, alice, bob, screenshots):
    def invite():
        return services.game_create(
            creator=alice,
            mode="classic",
            players=3,
            seats=[
                SeatSpec(Seat.Kind.HUMAN),
                SeatSpec(Seat.Kind.INVITED, username="bob"),
                SeatSpec(Seat.Kind.LINK),
            ],
        )

    game = site.call(invite)
    url = f"{site.url}/games/{game.public_id}/"
    creator, page = page_for(browser, site, alice, url, viewport=DESKTOP)
    creator.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url)
    # The waiting room re-syncs once its socket opens, which may swap the seats in
    # just after a click: click again then, as a player would.
    page.wait_for_selector("#game[data-live]")
    said = None
    for _attempt in range(3):
        page.locator(".seats").get_by_role("button", name="Copy").click()
        try:
            said = page.wait_for_function(
                "() => { const t = document.querySelector('button[data-copy]').textContent;"
                " return t !== 'Copy' && t; }",
                timeout=5000,
            ).json_value()
            break
        except PlaywrightTimeout:
            continue
    assert said == "Copied"  # the button says so, for a moment
    assert page.evaluate("() => navigator.clipboard.readText()") == page.input_value("#invite-url")
    page.wait_for_selector("#game[data-live]")

    invited, bob_page = page_for(browser, site, bob, url, viewport=PHONE)
    answer = bob_page.locator(".invitation-answer")
    assert "alice invites you to this game" in answer.inner_text()
    bob_page.screenshot(path=str(screenshots / "invite-game-page-360.png"), full_page=True)
    answer.get_by_role("button", name="Decline").click()
    bob_page.wait_for_url(f"{site.url}/")
    assert "You declined alice" in bob_page.content()
    invited.close()

    # The creator's page refreshes its seats on the nudge: bob's seat is for the invite link now.
    page.wait_for_function(
        "() => !document.querySelector('.seats').innerText.includes('bob (invited)')",
        timeout=5000,  # the nudge, not the 15 s poll
    )
    assert page.locator(".seats").inner_text().count("Seat for the invite link") == 2
    page.screenshot(path=str(screenshots / "invite-declined-1280.png"), full_page=True)
    seat = site.call(lambda: Seat.objects.get(game=game, index=1))
    assert seat.kind == Seat.Kind.LINK and seat.user_id is None
    creator.close()
