"""Ratings cannot be farmed. Fifty wins against the Beginner computer used to lift a player
above Expert's rating (2071 against 2056), and so did a second account that always loses. Now a
game against the computer is rated only while the player is below the weakest computer seat's
rating plus ``COMPUTER_MARGIN``, and a pair of players has at most ``PAIR_GAMES_PER_DAY`` rated
games together in any 24 hours. Fresh second accounts got round the pair limit (twelve wins over
four of them: 1000 to 1859); a game with a provisional player now moves the others' ratings by at
most ``NEW_OPPONENT_STEP``."""

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


def test_fresh_second_accounts_lift_a_rating_a_few_points_a_game_at_most(alice, make_user):
    """alice beats four new accounts three times each (the pair limit's most), each resigning
    after one move: 1000 to 1859 before; now at most NEW_OPPONENT_STEP a game."""
    seconds = [make_user(f"second{n}") for n in range(4)]
    climb = []
    for second in seconds:
        for _ in range(ratings.PAIR_GAMES_PER_DAY):
            finished(alice, invited=[second])
            climb.append(shown(alice))
    assert RatingChange.objects.filter(user=alice).count() == 12  # every game rated
    assert shown(alice) <= 1000 + 12 * ratings.NEW_OPPONENT_STEP  # was 1859
    steps = [b - a for a, b in zip([1000, *climb], climb, strict=False)]
    assert max(steps) <= ratings.NEW_OPPONENT_STEP
    # A new account is worth no more once alice is established: each game still counts little.
    assert shown(alice) < ratings.computer_rating("casual") + 200


def test_a_newcomer_beating_an_established_player_climbs_as_before(alice, bob, carol):
    """The limit is about the other players of a provisional one: the newcomer's own rating
    moves at the usual pace against players whose rating is known."""
    for user in (bob, carol):
        Rating.objects.create(user=user, mode="classic", mu=30.0, sigma=3.0, ordinal=21.0, games=40)
    finished(bob, invited=[alice], places=(2, 1))  # alice, new, beats bob
    assert shown(alice) - 1000 > 3 * ratings.NEW_OPPONENT_STEP
    bobs = RatingChange.objects.get(user=bob)
    assert 0 < bobs.before - bobs.after <= ratings.NEW_OPPONENT_STEP  # bob loses little to her
    carol_before = shown(carol)
    finished(carol, invited=[bob])  # two established players: no limit
    carols = RatingChange.objects.get(user=carol)
    assert carols.after - carols.before == shown(carol) - carol_before > 0


@pytest.mark.parametrize("language", ["en", "sv", "fi", "da", "nb", "ja"])
def test_the_help_page_says_which_games_count(client, language):
    from django.urls import reverse

    client.cookies["django_language"] = language
    page = client.get(reverse("help")).content.decode()
    section = page[page.index('id="ratings"') :]
    section = section[: section.index("</section>")]
    assert f"{ratings.COMPUTER_MARGIN}" in section and "24" in section
    assert f"{ratings.NEW_OPPONENT_STEP}" in section
    if language == "en":
        assert "Games against the computer count only while" in section
        assert "moves the other players' ratings by at most 10 points" in section
    else:
        assert "Games against the computer" not in section  # translated
