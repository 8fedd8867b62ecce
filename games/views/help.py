"""Help: the rules page, with pictures drawn from the engine's own tables."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.forms import LEVEL_SECONDS
from games.models import Seat
from games.presenters import pictures
from games.services import ratings


@require_GET
def help_page(request):
    context = {
        "cards": pictures.cards(),
        "pieces": pictures.pieces(),
        "example": pictures.example_turn(),
        # the Ratings section's limits on farming
        "rating_margin": ratings.COMPUTER_MARGIN,
        "rated_pair_games": ratings.PAIR_GAMES_PER_DAY,
        "provisional_games": ratings.PROVISIONAL_GAMES,
        "new_opponent_step": ratings.NEW_OPPONENT_STEP,
        # the Computer players section: the levels' thinking times, as the new-game form shows them
        "expert_seconds": LEVEL_SECONDS[Seat.Level.EXPERT],
        "master_seconds": LEVEL_SECONDS[Seat.Level.MASTER],
    }
    return render(request, "help.html", context)
