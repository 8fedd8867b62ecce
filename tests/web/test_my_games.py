"""My games and the profile: dates, mode, players, your place and the winner."""

from __future__ import annotations

from datetime import UTC, datetime

from django.urls import reverse

from accounts.models import User
from games import ratings, services
from games.models import Game
from tests.games.test_game_table import finished
from tests.games.test_play import client_for


def test_my_games_shows_date_place_and_winner_in_my_time_zone(duel, alice, bob):
    finished(duel)
    ratings.record_results(duel, services.game_state(duel))
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
    ratings.record_results(duel, services.game_state(duel))

    page = client_for(alice).get(reverse("profile", args=["bob"])).content.decode()

    recent = page[page.index('<section class="recent-games"') :]
    assert "Blokus Shuffle: UNO Edition" in recent and "alice" in recent
    assert "2 of 2" in recent and "<td>-5</td>" in recent  # R8.4: the I5 left in yellow
