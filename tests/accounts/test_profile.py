"""Public player pages: games played, won and the average score over finished games."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games import engine
from games.models import Game, Seat
from games.selectors.profiles import player_stats
from games.services import ratings

pytestmark = pytest.mark.django_db


def finished_game(players: list, *, seed: int, status=Game.Status.FINISHED) -> Game:
    """A game row holding a classic game played to its end with random legal actions."""
    state = engine.new_game(mode="classic", players=len(players), seed=seed)
    rng = random.Random(seed)
    ply = 0
    while not state.over:
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        ply += 1
    game = Game.objects.create(
        created_by=players[0],
        mode="classic",
        players=len(players),
        status=status,
        seed=state.seed,
        state=state.to_json(),
        ply=ply,
    )
    for index, user in enumerate(players):
        Seat.objects.create(game=game, index=index, kind=Seat.Kind.HUMAN, user=user)
    if status == Game.Status.FINISHED:
        ratings.record_results(game, state)  # what the write path does as the game ends
    return game


def result(game: Game, seat: int) -> dict:
    final = engine.score(engine.State.from_json(game.state))
    return next(p for p in final["players"] if p["seat"] == seat)


def test_a_new_player_has_no_games(client, alice):
    response = client.get(reverse("profile", args=["alice"]))

    assert response.status_code == 200
    assert player_stats(alice).played == 0
    assert player_stats(alice).average_score is None
    assert b"<dd>0</dd>" in response.content
    assert "<dd>–</dd>".encode() in response.content


def test_the_profile_counts_finished_games_from_their_final_scores(client, alice, bob):
    games = [finished_game([alice, bob], seed=seed) for seed in (1, 2, 3)]
    mine = [result(game, 0) for game in games]
    won = sum(1 for r in mine if r["place"] == 1)
    average = round(sum(r["score"] for r in mine) / 3, 1)

    stats = player_stats(alice)

    assert (stats.played, stats.won, stats.average_score) == (3, won, average)
    assert player_stats(bob).won == sum(1 for game in games if result(game, 1)["place"] == 1)
    response = client.get(reverse("profile", args=["alice"]))
    assert b"<dd>3</dd>" in response.content
    assert f"<dd>{won}</dd>".encode() in response.content
    assert f"<dd>{average:g}</dd>".encode() in response.content


def test_games_in_play_and_aborted_games_do_not_count(alice, bob, duel):
    finished_game([alice, bob], seed=4, status=Game.Status.ABORTED)

    assert player_stats(alice).played == 0


def test_the_profile_shows_the_display_name(client, alice):
    alice.display_name = "Alice the Bold"
    alice.save()

    response = client.get(reverse("profile", args=["alice"]))

    assert b"Alice the Bold" in response.content
    assert b"@alice" in response.content


def test_an_unknown_or_deactivated_player_is_not_found(client, alice):
    alice.is_active = False
    alice.save()

    assert client.get(reverse("profile", args=["alice"])).status_code == 404
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404
