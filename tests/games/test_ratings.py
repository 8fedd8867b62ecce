"""Ratings (services.ratings): computed once as a game finishes, from its places (R8), per mode."""

from __future__ import annotations

import random

import pytest
from django.db import IntegrityError
from django.urls import reverse

from games import engine, services
from games.jobs.tasks import ai_play
from games.models import Game, Rating, RatingChange, Seat
from games.services import SeatSpec, ratings

pytestmark = pytest.mark.django_db


def new_game(creator, others, *, mode="classic", players=2, rated=True, ai_level=""):
    seats = [SeatSpec(Seat.Kind.HUMAN)]
    for user in others:
        seats.append(SeatSpec(Seat.Kind.INVITED, username=user.username))
    while len(seats) < players:
        seats.append(SeatSpec(Seat.Kind.AI, level=ai_level))
    game = services.game_create(
        creator=creator, mode=mode, players=players, seats=seats, rated=rated
    )
    for user in others:
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def play_out(game: Game, seed: int) -> Game:
    """Random legal moves for the human seats through the write path, to the end; a computer
    seat's turn runs its task as a worker would."""
    rng = random.Random(seed)
    users = {s.index: s.user for s in game.seats.filter(kind=Seat.Kind.HUMAN)}
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        state = game.current_state()
        if state.controller() not in users:
            ai_play(game.pk, game.ply)
            continue
        action = rng.choice(engine.legal_actions(state))
        services.action_submit(
            game=game, user=users[state.controller()], action=action, expected_ply=game.ply
        )


def test_a_rated_game_rates_both_players_once_when_it_finishes(alice, bob):
    game = play_out(new_game(alice, [bob]), seed=3)

    seats = {s.user: s for s in game.seats.all()}
    assert {seats[alice].final_place, seats[bob].final_place} <= {1, 2}
    changes = {c.user: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {alice, bob}
    assert changes[alice].before == changes[bob].before == 1000  # newcomers
    for user in (alice, bob):
        row = Rating.objects.get(user=user, mode="classic")
        assert row.games == 1
        assert changes[user].after == ratings.shown(row.mu, row.sigma)
    if seats[alice].final_place != seats[bob].final_place:  # R8: place 1 wins
        winner = alice if seats[alice].final_place == 1 else bob
        loser = bob if winner == alice else alice
        assert Rating.objects.get(user=winner).mu > 25 > Rating.objects.get(user=loser).mu
    assert not Rating.objects.filter(mode="shuffle").exists()  # one rating per mode
    # The unique (game, user) pair: a game is never rated twice.
    with pytest.raises(IntegrityError):
        ratings.record_results(game, game.current_state())


def test_places_are_the_engines_final_places(alice, bob):
    game = play_out(new_game(alice, [bob]), seed=5)
    final = engine.score(game.current_state())["players"]

    for player in final:
        seat = game.seats.get(index=player["seat"])
        assert (seat.final_place, seat.final_score) == (player["place"], player["score"])


def test_a_casual_game_stores_results_but_rates_nobody(alice, bob):
    game = play_out(new_game(alice, [bob], rated=False), seed=7)

    assert game.seats.filter(final_place__isnull=False).count() == 2
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_computer_seats_play_at_a_fixed_rating_and_only_the_human_moves(alice):
    game = play_out(new_game(alice, [], ai_level="beginner"), seed=11)

    assert list(RatingChange.objects.filter(game=game).values_list("user", flat=True)) == [alice.pk]
    assert Rating.objects.count() == 1
    assert ratings.computer_mu()["beginner"] < 25  # below a newcomer, unchanged by the game


def test_computer_levels_are_calibrated_to_the_arenas_win_rates():
    mu = ratings.computer_mu()
    assert mu["beginner"] < mu["casual"] < mu["expert"]
    model = ratings.MODEL
    for (stronger, weaker), measured in ratings.COMPUTER_WIN_RATES.items():
        predicted = model.predict_win(
            [
                [model.rating(mu=mu[stronger], sigma=ratings.COMPUTER_SIGMA)],
                [model.rating(mu=mu[weaker], sigma=ratings.COMPUTER_SIGMA)],
            ]
        )[0]
        assert predicted == pytest.approx(measured, abs=0.002)


def test_tied_players_with_equal_ratings_move_equally(alice, bob, carol, dave):
    """R8: ties share a place; openskill treats equal ranks as a draw between them."""
    game = new_game(alice, [bob, carol, dave], players=4)
    for index, place in enumerate((1, 1, 3, 4)):
        game.seats.filter(index=index).update(final_place=place, final_score=10 * place)
    ratings._rate(game, list(game.seats.all()))

    after = {c.user: c.after for c in RatingChange.objects.filter(game=game)}
    assert after[alice] == after[bob] > after[carol] > after[dave]


def test_the_leaderboard_orders_players_by_rating_per_mode(client, alice, bob):
    play_out(new_game(alice, [bob]), seed=3)
    best = Rating.objects.order_by("-ordinal").first().user

    page = client.get(reverse("leaderboard"), {"mode": "classic"})
    assert page.status_code == 200
    rows = page.content.decode().split("<tbody>")[1]
    assert rows.index(str(best)) < rows.index(str(bob if best == alice else alice))
    empty = client.get(reverse("leaderboard"), {"mode": "shuffle"})
    assert "No rated game of this mode" in empty.content.decode()
    assert client.get(reverse("leaderboard"), {"mode": "nonsense"}).status_code == 200


def test_the_profile_shows_the_rating_and_its_history_chart(client, alice, bob):
    play_out(new_game(alice, [bob]), seed=3)
    play_out(new_game(alice, [bob]), seed=4)
    row = Rating.objects.get(user=alice, mode="classic")

    page = client.get(reverse("profile", args=["alice"])).content.decode()
    assert f"Classic Blokus: {ratings.shown(row.mu, row.sigma)}" in page
    assert '<svg class="rating-chart"' in page
    assert page.count("<polyline") == 1


def test_the_chart_draws_every_point_inside_its_box():
    svg = ratings.chart_svg([1000, 1040, 990, 1100], width=200, height=80)
    points = svg.split('points="')[1].split('"')[0].split()
    assert len(points) == 4
    for point in points:
        x, y = map(float, point.split(","))
        assert 0 <= x <= 200 and 0 <= y <= 80
    assert ratings.chart_svg([1000]) == ""  # one game: nothing to draw yet
