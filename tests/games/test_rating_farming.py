"""Ratings cannot be farmed. Fifty wins against the Beginner computer used to lift a player
above Expert's rating (2071 against 2056), and so did a second account that always loses. Now a
game against the computer is rated only while the player is below the weakest computer seat's
rating plus ``COMPUTER_MARGIN``, and a pair of players has at most ``PAIR_GAMES_PER_DAY`` rated
games together in any 24 hours."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services
from games.models import Game, Rating, RatingChange, Seat
from games.services import SeatSpec, ratings

pytestmark = pytest.mark.django_db


def finished(creator, *, invited=(), ai_level: str = "", places: tuple[int, ...] = (1, 2)) -> Game:
    """A 2-player game whose seats finished in ``places``, rated as the write path rates it."""
    seats = [SeatSpec(Seat.Kind.HUMAN)]
    seats += [SeatSpec(Seat.Kind.INVITED, username=user.username) for user in invited]
    if ai_level:
        seats.append(SeatSpec(Seat.Kind.AI, level=ai_level))
    game = services.game_create(creator=creator, mode="classic", players=2, seats=seats)
    for user in invited:
        services.game_join(game=game, user=user)
    for index, place in enumerate(places):
        game.seats.filter(index=index).update(final_place=place, final_score=0)
    ratings._rate(game, list(game.seats.order_by("index")))
    return game


def shown(user) -> int:
    row = Rating.objects.get(user=user, mode="classic")
    return ratings.shown(row.mu, row.sigma)


def test_fifty_wins_against_beginner_stop_counting_near_its_rating(alice):
    for _ in range(50):
        finished(alice, ai_level="beginner")

    beginner = ratings.computer_rating("beginner")
    assert shown(alice) < beginner + ratings.COMPUTER_MARGIN + 50  # at most one game past it
    assert shown(alice) < ratings.computer_rating("expert")
    assert RatingChange.objects.filter(user=alice).count() < 50


def test_a_player_above_the_margin_is_not_rated_against_that_computer(alice):
    for _ in range(50):
        finished(alice, ai_level="beginner")
    before = shown(alice)
    counted = RatingChange.objects.filter(user=alice).count()

    finished(alice, ai_level="beginner", places=(2, 1))  # a loss does not count either
    assert shown(alice) == before
    assert RatingChange.objects.filter(user=alice).count() == counted
    finished(alice, ai_level="expert")  # a stronger computer still does
    assert shown(alice) > before


def test_a_second_account_that_always_loses_counts_a_few_games_a_day(alice, bob):
    for _ in range(10):
        finished(alice, invited=[bob])

    assert RatingChange.objects.filter(user=alice).count() == ratings.PAIR_GAMES_PER_DAY
    assert RatingChange.objects.filter(user=bob).count() == ratings.PAIR_GAMES_PER_DAY
    assert shown(alice) < ratings.computer_rating("casual")


def test_the_pair_counts_again_a_day_later(alice, bob, carol):
    for _ in range(ratings.PAIR_GAMES_PER_DAY):
        finished(alice, invited=[bob])
    finished(alice, invited=[carol])  # other pairs are not limited by it
    assert RatingChange.objects.filter(user=carol).count() == 1

    RatingChange.objects.update(
        created_at=RatingChange.objects.first().created_at - timedelta(days=1)
    )
    finished(alice, invited=[bob])
    assert RatingChange.objects.filter(user=bob).count() == ratings.PAIR_GAMES_PER_DAY + 1


@pytest.mark.parametrize("language", ["en", "sv", "fi", "da", "nb", "ja"])
def test_the_help_page_says_which_games_count(client, language):
    from django.urls import reverse

    client.cookies["django_language"] = language
    page = client.get(reverse("help")).content.decode()
    section = page[page.index('id="ratings"') :]
    section = section[: section.index("</section>")]
    assert f"{ratings.COMPUTER_MARGIN}" in section and "24" in section
    if language == "en":
        assert "Games against the computer count only while" in section
    else:
        assert "Games against the computer" not in section  # translated
