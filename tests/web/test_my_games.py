"""My games and the profile: dates, mode, players, your place and the winner."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game, Seat
from games.services import SeatSpec, ratings
from tests.support.pages import client_for
from tests.support.tables import finished


def test_my_games_shows_date_place_and_winner_in_my_time_zone(duel, alice, bob):
    finished(duel)
    ratings.record_results(duel, duel.current_state())
    Game.objects.filter(pk=duel.pk).update(finished_at=datetime(2026, 11, 20, 23, 30, tzinfo=UTC))
    User.objects.filter(pk=bob.pk).update(time_zone="Asia/Tokyo")

    mine = client_for(alice).get(reverse("my_games")).content.decode()
    theirs = client_for(bob).get(reverse("my_games")).content.decode()

    assert "20 Nov 2026, 23:30" in mine and "You won" in mine
    assert "21 Nov 2026, 08:30" in theirs  # Tokyo is 9 hours ahead
    assert "Place 2 of 2" in theirs and "winner: alice" in theirs
    assert "Blokus Shuffle: UNO Edition · 2 players" in theirs


def test_the_profile_lists_recent_games_with_results(duel, alice, bob):
    finished(duel)
    ratings.record_results(duel, duel.current_state())

    page = client_for(alice).get(reverse("profile", args=["bob"])).content.decode()

    recent = page[page.index('<section class="recent-games"') :]
    assert "Blokus Shuffle: UNO Edition" in recent and "alice" in recent
    assert "2 of 2" in recent and "<td>-5</td>" in recent  # R8.4: the I5 left in yellow


def games_of_every_kind(alice, bob, carol) -> None:
    """Finished, in play against computers, open with a link seat, and an invitation."""
    duel = services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    services.game_join(game=duel, user=bob)
    finished(duel)
    ratings.record_results(duel, duel.current_state())
    services.game_create(
        creator=alice,
        mode="classic",
        players=4,
        seats=[SeatSpec(Seat.Kind.HUMAN)]
        + [SeatSpec(Seat.Kind.AI, level=level) for level in LEVELS],
    )
    services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.LINK)],
    )
    services.game_create(
        creator=carol,
        mode="classic",
        players=3,
        seats=[
            SeatSpec(Seat.Kind.HUMAN),
            SeatSpec(Seat.Kind.INVITED, username="alice"),
            SeatSpec(Seat.Kind.OPEN),
        ],
    )


LEVELS = ("casual", "expert", "beginner")


def test_my_games_names_computers_by_colour_and_gives_each_game_an_action(alice, bob, carol):
    games_of_every_kind(alice, bob, carol)

    page = client_for(alice).get(reverse("my_games")).content.decode()

    assert "Computer - Yellow (Casual)" in page and "Computer - Red (Expert)" in page
    assert page.count(">Replay</a>") == 1 and page.count(">Play</a>") == 1
    assert ">Open</a>" in page  # the open game she created
    assert "carol invites you" in page and "Accept the invitation" in page
    assert "Finished" in page and "Started" in page and "Created" in page


def test_my_games_and_the_profile_take_a_fixed_number_of_queries(alice, bob, carol, dave):
    # No N+1: the seats (and their players) come in one prefetch, however many games.
    client = client_for(alice)

    def queries() -> list[int]:
        counts = []
        for url in (reverse("my_games"), reverse("profile", args=["alice"])):
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            counts.append(len(captured))
        return counts

    games_of_every_kind(alice, bob, carol)
    queries()  # the profile's first count of its sums takes one query more (then cached)
    few = queries()
    for _ in range(3):
        games_of_every_kind(alice, bob, dave)

    assert queries() == few, "more games, more queries"
