"""Finishing touches in Chromium: the skip link to the board, cards that stay still under the
pointer, Replay and the record in the header once the waiting room turns into the game, and the
phone's profile and new-game pages inside the screen."""

from __future__ import annotations

import functools

import pytest

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import page_for
from tests.support.tables import four_humans, play_until_alice_has_been_skipped_and_reversed

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = (360, 740)


def duel(alice, bob) -> Game:
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    return game


def test_the_first_tab_offers_the_board_and_the_next_reaches_it(site, browser, alice, bob):
    game = site.call(duel, alice, bob)
    context, page = page_for(browser, site, alice, f"{site.url}/games/{game.public_id}/")
    page.wait_for_selector(".board-svg[tabindex='0']")
    page.keyboard.press("Tab")
    focused = page.evaluate(
        "() => [document.activeElement.className, document.activeElement.textContent]"
    )
    assert focused == ["skip-link", "Skip to the board"]
    assert page.locator(".skip-link").bounding_box()["y"] >= 0  # shown while focused
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('board-svg')")
    context.close()


def test_a_card_stays_still_with_the_pointer_on_its_bottom_edge(
    site, browser, alice, bob, carol, dave, screenshots
):
    def position():
        game = four_humans(alice, bob, carol, dave)
        play_until_alice_has_been_skipped_and_reversed(game, {0: alice, 1: bob, 2: carol, 3: dave})
        return game

    game = site.call(position)
    context, page = page_for(browser, site, alice, f"{site.url}/games/{game.public_id}/")
    card = page.locator("#game .step-card button.card").first
    card.wait_for()
    before = card.bounding_box()
    page.mouse.move(before["x"] + before["width"] / 2, before["y"] + before["height"] - 1)
    boxes = []
    for _ in range(6):
        page.wait_for_timeout(60)
        boxes.append(card.bounding_box()["y"])
    page.screenshot(path=str(screenshots / "polish-card-hover-1280.png"))
    assert set(boxes) == {before["y"]}
    context.close()


def test_the_header_gets_replay_and_the_record_when_the_game_starts(site, browser, alice, bob):
    game = site.call(
        functools.partial(
            services.game_create,
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        )
    )
    url = f"{site.url}/games/{game.public_id}/"
    context, page = page_for(browser, site, alice, url)
    page.wait_for_selector("#game[data-live]")
    assert page.locator(".game-head .game-links a").count() == 0
    site.call(lambda: services.game_join(game=Game.objects.get(pk=game.pk), user=bob))
    page.wait_for_selector("#game .board-svg", timeout=5000)
    links = page.locator(".game-head .game-links a")
    links.first.wait_for(timeout=2000)
    assert links.all_inner_texts() == ["Replay", "Download the record"]
    assert (
        page.locator("#game [hx-swap-oob]").count() == 0
        or not page.locator("#game [hx-swap-oob]").first.is_visible()
    )
    context.close()


def test_the_profile_and_the_new_game_form_fit_a_phone(site, browser, alice, bob, screenshots):
    def finished_games():
        from django.contrib.auth import get_user_model
        from django.db import transaction

        from games.services import ratings
        from tests.support.tables import finished

        # A long name in the "With" column: the table must still fit.
        bob.display_name = "Bartholomew-Maximilian von Longname"
        bob.save()
        for _ in range(3):
            game = finished(duel(alice, bob))
            with transaction.atomic():  # as in the write path: rows locked (PostgreSQL)
                ratings.record_results(game, game.current_state())
        assert get_user_model().objects.count() == 2

    site.call(finished_games)
    for path, name in (("/players/alice/", "profile"), ("/games/new/", "new-game")):
        context, page = page_for(browser, site, alice, site.url + path, viewport=PHONE)
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(screenshots / f"polish-{name}-360.png"), full_page=True)
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE[0], path
        overflowing = page.evaluate(
            """() => [...document.querySelectorAll('main table, main select, main fieldset')]
                 .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5
                           || e.scrollWidth > e.clientWidth + 1)
                 .map(e => e.tagName + '.' + e.className)"""
        )
        assert overflowing == [], (path, overflowing)
        context.close()


def test_the_swedish_board_says_gu_and_gr(site, browser, alice, bob, screenshots):
    def swedish_duel_after_setup():
        from tests.support.pages import play_setup

        alice.language = "sv"
        alice.save(update_fields=["language"])
        return play_setup(duel(alice, bob))

    game = site.call(swedish_duel_after_setup)
    for width, height in ((1280, 900), PHONE):
        context, page = page_for(
            browser, site, alice, f"{site.url}/games/{game.public_id}/", viewport=(width, height)
        )
        page.wait_for_selector(".board-svg text.letter")
        page.wait_for_timeout(150)
        page.screenshot(path=str(screenshots / f"polish-swedish-board-{width}.png"))
        letters = page.evaluate(
            """() => Object.fromEntries(['blue', 'yellow', 'red', 'green'].map(c =>
                 [c, [...new Set([...document.querySelectorAll('.board-svg text.letter.' + c)]
                   .map(t => t.textContent))]]))"""
        )
        assert letters == {"blue": ["B"], "yellow": ["Gu"], "red": ["R"], "green": ["Gr"]}
        context.close()
