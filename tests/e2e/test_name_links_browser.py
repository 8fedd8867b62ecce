"""Names lead to people: a player's name in the colour panels, the move log, the result table,
My games, the lobby and the chat is a link to their profile (/players/<username>/); a computer
seat's name is not a link. The game's panel is cached for every reader alike, so its links are
the same whoever rendered it first. The leaderboard lists a player who has finished a game of
the mode without a rated one, marked provisional."""

from __future__ import annotations

import functools

import pytest

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from games.services.chat import chat_post
from tests.support.browser import page_for
from tests.support.history import finished_games
from tests.support.records import play
from tests.support.tables import alice_against_bob, finished

pytestmark = pytest.mark.django_db(transaction=True)

BOB = "/players/bob/"
ALICE = "/players/alice/"


def links_to(page, scope: str, href: str) -> int:
    return page.locator(f'{scope} a[href="{href}"]').count()


def started(alice, bob) -> Game:
    game = alice_against_bob(alice, bob, mode="shuffle")
    return play(game, 4)


def test_the_game_page_links_the_players_whoever_rendered_it_first(
    site, browser, alice, bob, carol, screenshots
):
    game = site.call(started, alice, bob)
    url = f"{site.url}/games/{game.public_id}/"
    # A spectator renders the panel first: the cached panel's links are the same for Alice.
    context, page = page_for(browser, site, carol, url)
    assert links_to(page, "#game .colour-row", BOB) >= 1
    context.close()
    context, page = page_for(browser, site, alice, url)
    assert links_to(page, "#game .colour-row", BOB) >= 1  # yellow and green are Bob's
    assert links_to(page, "#game .colour-row", ALICE) >= 1
    assert links_to(page, "#game .log-turn", BOB) >= 1
    assert links_to(page, "#game .log-turn", ALICE) >= 1
    page.locator("#game .log-turn").first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "names-game-1280.png"), full_page=True)
    page.locator(f'#game .colour-row a[href="{BOB}"]').first.click()
    page.wait_for_url(f"{site.url}{BOB}")
    context.close()


def test_the_result_table_links_the_players(site, browser, alice, bob):
    game = site.call(functools.partial(alice_against_bob, alice, bob, mode="classic"))
    site.call(finished, game)
    context, page = page_for(browser, site, alice, f"{site.url}/games/{game.public_id}/")
    assert links_to(page, "#game #result", BOB) == 1
    assert links_to(page, "#game #result", ALICE) == 1
    context.close()


def test_a_computer_seat_is_not_a_link(site, browser, alice):
    game = site.call(
        functools.partial(
            services.game_create,
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
        )
    )
    context, page = page_for(browser, site, alice, f"{site.url}/games/{game.public_id}/")
    rows = page.locator("#game .colour-row")
    assert rows.count() == 4
    for i in range(4):
        row = rows.nth(i)
        who = row.locator(".cp-player").inner_text()
        if "Computer" in who:
            assert row.locator(".cp-player a").count() == 0, who
        else:
            assert row.locator(f'.cp-player a[href="{ALICE}"]').count() == 1, who
    context.close()


def test_my_games_the_lobby_and_the_chat_link_the_players(site, browser, alice, bob, screenshots):
    game = site.call(started, alice, bob)

    def history():
        finished_games([alice, bob], 2)
        chat_post(game=game, user=bob, text="good luck")

    site.call(history)
    context, page = page_for(browser, site, alice, f"{site.url}/games/mine/")
    assert links_to(page, ".my-games-finished", BOB) >= 1  # the finished games
    assert links_to(page, ".my-games-your_turn, .my-games-waiting", BOB) >= 1
    page.goto(f"{site.url}/")
    assert links_to(page, ".watch-games", BOB) >= 1
    # The lobby's "Your turn" names the opponent (a small thing a newcomer asked for).
    turn = page.locator(".your-turn li").first
    assert "against bob" in turn.inner_text()
    assert links_to(page, ".your-turn li", BOB) == 1
    page.screenshot(path=str(screenshots / "names-lobby-1280.png"))
    page.goto(f"{site.url}/games/{game.public_id}/chat/")
    assert links_to(page, "#chat-log .chat-who", BOB) == 1
    context.close()


def test_the_leaderboard_lists_a_player_without_a_rated_game_as_provisional(
    site, browser, alice, bob
):
    site.call(finished_games, [alice, bob], 1)  # unrated games: no rating row
    context, page = page_for(browser, site, alice, f"{site.url}/leaderboard/?mode=classic")
    rows = page.locator(".leaderboard tbody tr")
    assert rows.count() == 2
    for name in ("alice", "bob"):
        row = rows.filter(has=page.locator(f'a[href="/players/{name}/"]'))
        assert row.count() == 1, name
        assert "provisional" in row.inner_text(), row.inner_text()
    context.close()
