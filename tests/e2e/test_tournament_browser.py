"""A tournament in Chromium: a player registers on the phone, the tournament starts, they open
their round-1 game from the tournament's page and resign it, and the other player's tournament
page shows the new standings and round 2 without a reload. Screenshots under
out/screenshots."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Tournament
from games.services import tournaments
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP, PHONE = (1280, 900), (360, 740)


def opened(creator) -> Tournament:
    return tournaments.tournament_create(
        creator=creator,
        name="Friday Swiss",
        format="swiss",
        mode="classic",
        size=2,
        move_seconds=3600,
        rounds=2,
        min_players=2,
        max_players=8,
        starts_at=timezone.now() + timedelta(minutes=5),
    )


def test_register_play_and_see_the_standings_change_live(site, browser, alice, bob, screenshots):
    tournament = site.call(opened, alice)
    url = f"{site.url}/tournaments/{tournament.pk}/"
    bob_context, bob_page = page_for(browser, site, bob, url, viewport=PHONE)
    bob_page.get_by_role("button", name="Register").click()
    bob_page.locator(".messages", has_text="You are registered.").wait_for()
    width = bob_page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE[0]
    bob_page.screenshot(path=str(screenshots / "tournament-registered-360.png"), full_page=True)

    later = timezone.now() + timedelta(minutes=6)
    assert site.call(lambda: tournaments.tournament_start(tournament.pk, now=later)) == "started"
    alice_context, alice_page = page_for(browser, site, alice, url, viewport=DESKTOP)
    assert "Round 1 of 2 is in play." in alice_page.inner_text("#tournament-live")
    assert "Buchholz" in alice_page.inner_text(".standings")
    alice_page.screenshot(path=str(screenshots / "tournament-round1-1280.png"), full_page=True)

    # bob opens his game from the tournament's page and resigns it.
    bob_page.reload()
    bob_page.locator("#tournament-live .game-list a").first.click()
    bob_page.wait_for_selector("#game .board-svg")
    bob_page.locator("#resign summary").click()
    bob_page.get_by_role("button", name="Yes, resign").click()
    bob_page.locator("#game", has_text="alice").wait_for()

    # alice's page, never reloaded, shows her point and the second round.
    alice_page.locator("#tournament-live", has_text="Round 2 of 2 is in play.").wait_for(
        timeout=15000
    )
    first = alice_page.locator(".standings tbody tr").first.inner_text()
    assert "alice" in first and "\t1\t" in f"\t{first}\t".replace("\n", "\t")
    alice_page.screenshot(path=str(screenshots / "tournament-round2-1280.png"), full_page=True)
    for context in (alice_context, bob_context):
        context.close()


def test_a_tournament_is_created_from_the_form_on_a_phone(site, browser, alice, screenshots):
    context, page = page_for(browser, site, alice, f"{site.url}/tournaments/", viewport=PHONE)
    assert "No tournament is taking players right now." in page.inner_text("main")
    page.get_by_role("link", name="Create a tournament").click()
    page.wait_for_url("**/tournaments/new/")
    page.fill("input[name=name]", "Phone cup")
    page.locator("input[name=format][value=round_robin]").check()
    page.locator("input[name=size][value='4']").check()
    page.fill("input[name=min_players]", "4")
    page.fill("input[name=max_players]", "8")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    page.screenshot(path=str(screenshots / "tournament-new-360.png"), full_page=True)
    page.get_by_role("button", name="Create the tournament").click()
    page.locator("h1", has_text="Phone cup").wait_for()
    assert "Round robin" in page.inner_text("main") and "4 players a game" in page.inner_text(
        "main"
    )
    assert "1 player registered" in page.inner_text("#tournament-live")
    tournament = site.call(lambda: Tournament.objects.get(name="Phone cup"))
    assert (tournament.format, tournament.size, tournament.created_by_id) == (
        "round_robin",
        4,
        alice.pk,
    )
    page.goto(f"{site.url}/tournaments/")
    assert "Phone cup" in page.inner_text("main")
    page.screenshot(path=str(screenshots / "tournaments-list-360.png"), full_page=True)
    context.close()
