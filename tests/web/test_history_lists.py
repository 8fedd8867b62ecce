"""The lists that name games: a private game is listed only to whoever
may open it (selectors.access.visible_to, game_for_viewer's rule), My games comes a page at a
time by cursor with the player's turn first, and no list reads a game's state."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Game, Seat
from games.selectors import access, lists, profiles
from games.services import SeatSpec
from tests.support.history import finished_games, rated
from tests.support.pages import client_for

pytestmark = pytest.mark.django_db


def ids_in(page: str, games) -> set[str]:
    return {g.public_id for g in games if g.public_id in page}


def may_open(game: Game, user) -> bool:
    try:
        access.game_for_viewer(game.public_id, user)
    except Http404:
        return False
    return True


# -- visibility (private games) -------------------------------------------------------------


def test_the_profile_lists_a_private_game_only_to_its_players_and_staff(alice, bob, carol, dave):
    (private,) = finished_games([alice, bob], 1, visibility="private")
    (public,) = finished_games([alice, bob], 1)

    def listed(reader) -> set[str]:
        page = client_for(reader).get(reverse("profile", args=["alice"])).content.decode()
        recent = page[page.index('<section class="recent-games"') :]
        return ids_in(recent, [private, public])

    assert listed(carol) == {public.public_id}  # The stranger saw the private game here
    assert listed(None) == {public.public_id}
    assert listed(alice) == listed(bob) == listed(dave) == {private.public_id, public.public_id}


def test_the_rating_chart_leaves_out_private_games_for_strangers(alice, bob, carol, dave):
    rated(alice, bob)
    finished_games([alice, bob], 2, rated=True)
    finished_games([alice, bob], 1, visibility="private", rated=True)

    def points(reader) -> int:
        page = client_for(reader).get(reverse("profile", args=["alice"])).content.decode()
        return len(re.search(r'<polyline[^>]* points="([^"]*)"', page)[1].split())

    # The first game's rating before it, then one point per game.
    assert points(carol) == points(None) == 3  # The private game's result was drawn
    assert points(alice) == points(bob) == points(dave) == 4


def test_every_list_names_only_games_its_reader_may_open(alice, bob, carol, dave):
    """Every page that lists games, read by a player, an invitee, a stranger, staff and a
    visitor: each game it names opens for that reader (game_for_viewer)."""
    rated(alice, bob)
    games = finished_games([alice, bob], 2, rated=True)
    games += finished_games([alice, bob], 2, visibility="private", rated=True)
    games.append(
        services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="carol")],
            visibility=Game.Visibility.PRIVATE,
        )
    )
    in_play = services.game_create(
        creator=bob,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
        visibility=Game.Visibility.PRIVATE,
    )
    games.append(in_play)
    pages = [reverse("home"), reverse("profile", args=["alice"]), reverse("profile", args=["bob"])]
    pages += [reverse("leaderboard") + f"?mode={mode}" for mode in Game.Mode.values]
    named = {}
    for reader in (alice, bob, carol, dave, None):
        client = client_for(reader)
        for url in pages + ([reverse("my_games")] if reader else []):
            for public_id in ids_in(client.get(url).content.decode(), games):
                named.setdefault(public_id, set()).add(reader)
    for game in games:
        for reader in named.get(game.public_id, ()):
            assert may_open(game, reader), f"{reader} is shown {game.public_id}"
    # and the lists are not empty: each reader's own and the public games are there
    assert {alice, bob, carol, dave, None} <= named[games[0].public_id]
    assert named[games[2].public_id] == {alice, bob, dave}
    assert carol in named[games[4].public_id]  # her invitation, on the lobby and My games


def test_the_list_rule_is_the_game_pages_rule(alice, bob, carol, dave):
    """visible_to (lists) and game_for_viewer (the game's page) agree for every kind of seat,
    for staff, strangers and visitors, on private and public games."""
    games = []
    for visibility in Game.Visibility.values:
        games += finished_games([alice, bob], 1, visibility=visibility)
        games.append(
            services.game_create(
                creator=alice,
                mode="classic",
                players=3,
                seats=[
                    SeatSpec(Seat.Kind.HUMAN),
                    SeatSpec(Seat.Kind.INVITED, username="bob"),
                    SeatSpec(Seat.Kind.LINK),
                ],
                visibility=visibility,
            )
        )
    taken_over = finished_games([alice, carol], 1, visibility="private")[0]
    Seat.objects.filter(game=taken_over, user=carol).update(ai_takeover=True)
    games.append(taken_over)
    for reader in (alice, bob, carol, dave, None):
        listed = set(access.visible_to(Game.objects.all(), reader).values_list("pk", flat=True))
        for game in games:
            assert (game.pk in listed) == may_open(game, reader), (reader, game.visibility)


# -- My games a page at a time ----------------------------------------------------------------


def test_my_games_comes_a_page_at_a_time_with_my_turn_first(alice, bob):
    history = finished_games([alice, bob], lists.HISTORY_PAGE + 5)
    mine_to_move = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )
    client = client_for(alice)

    first = client.get(reverse("my_games"))
    page = first.content.decode()
    older = first.context["page"].older
    assert page.index(mine_to_move.public_id) < min(page.index(g.public_id) for g in history[-5:])
    second = client.get(reverse("my_games"), {"before": older})
    later = second.content.decode()

    newest_first = [g.public_id for g in reversed(history)]
    assert [g.public_id for g in first.context["page"].finished] == newest_first[:25]
    assert [g.public_id for g in second.context["page"].finished] == newest_first[25:]
    assert older == newest_first[24] and f"?before={older}" in page and "Older games" in page
    assert mine_to_move.public_id not in later and "Your turn" not in later
    assert "Newest games" in later and "Older games" not in later
    assert not second.context["page"].older


def test_a_cursor_that_is_not_one_of_my_games_gives_the_first_page(alice, bob, carol):
    finished_games([alice, bob], 3)
    (theirs,) = finished_games([bob, carol], 1)

    for cursor in (theirs.public_id, "nonsense", ""):
        response = client_for(alice).get(reverse("my_games"), {"before": cursor})
        assert response.status_code == 200
        assert response.context["page"].first_page
        assert len(response.context["page"].finished) == 3


def test_the_lobbys_turn_list_is_two_queries_without_any_state(alice, bob):
    finished_games([alice, bob], 5)
    for level in ("beginner", "casual"):
        services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level=level)],
        )

    with CaptureQueriesContext(connection) as captured:
        games = lists.your_turn(alice, limit=5)

    # The games, then their seats (each row names the opponents): no game's state.
    assert len(games) == 2 and len(captured) == 2
    assert all('"state"' not in q["sql"] for q in captured)
    assert [g.opponents for g in games] == [
        (("Computer - Yellow & Green (Beginner)", ""),),
        (("Computer - Yellow & Green (Casual)", ""),),
    ]


def test_no_list_page_reads_a_games_state(alice, bob, duel):
    rated(alice, bob)
    finished_games([alice, bob], 3, rated=True)
    client = client_for(alice)
    for url in (
        reverse("home"),
        reverse("my_games"),
        reverse("profile", args=["alice"]),
        reverse("leaderboard") + "?mode=classic",
    ):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        reads = [q["sql"] for q in captured if '"games_game"."state"' in q["sql"]]
        assert reads == [], url


# -- the profile's counts, kept in the cache --------------------------------------------------


def finish_now(games, *, ago=timedelta(0)):
    Game.objects.filter(pk__in=[g.pk for g in games]).update(finished_at=datetime.now(UTC) - ago)


def test_the_profiles_counts_add_the_games_finished_since_the_last_count(alice, bob):
    from django.core.cache import cache

    finish_now(finished_games([alice, bob], 3), ago=timedelta(days=2))
    first = profiles.player_stats(alice)
    finish_now(finished_games([alice, bob], 2))  # finished just now
    # finished a minute before the last count, its transaction committed after it
    finish_now(finished_games([alice, bob], 1), ago=timedelta(minutes=1))
    second = profiles.player_stats(alice)
    third = profiles.player_stats(alice)
    cache.clear()
    counted_afresh = profiles.player_stats(alice)

    assert (first.played, second.played) == (3, 6)
    assert second == third == counted_afresh  # nothing counted twice
    assert (second.won, second.average_score) == (4, 4.0)  # places 1 2 1, 1 2, 1: scores 3/6


def test_the_profiles_counts_do_not_read_the_games_counted_before(alice, bob):
    """A later count reads the games finished since the last one, not the whole history: a
    game written as finished long before the last count is not seen (the write path never
    does that; this shows what a count reads)."""
    profiles.player_stats(alice)
    finish_now(finished_games([alice, bob], 2), ago=timedelta(days=1))

    assert profiles.player_stats(alice).played == 0
    assert profiles.player_stats(bob).played == 2  # bob's first count reads everything
