"""The leaderboard: one table per mode (games.services.ratings)."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.forms import LEVELS
from games.models import Game
from games.services import ratings


@require_GET
def leaderboard(request):
    mode = request.GET.get("mode", Game.Mode.SHUFFLE)
    if mode not in Game.Mode.values:  # an unknown mode shows the default table, never an error
        mode = Game.Mode.SHUFFLE
    return render(
        request,
        "games/leaderboard.html",
        {
            "mode": mode,
            "modes": Game.Mode.choices,
            "standings": ratings.leaderboard(mode),
            "computers": [(label, ratings.computer_rating(level)) for level, label in LEVELS],
            "provisional_games": ratings.PROVISIONAL_GAMES,
        },
    )
