"""Help: the rules page, with pictures drawn from the engine's own tables."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.presenters import pictures
from games.services import ratings


@require_GET
def help_page(request):
    context = {
        "cards": pictures.cards(),
        "pieces": pictures.pieces(),
        "example": pictures.example_turn(),
        # the Ratings section's limits on farming (G3)
        "rating_margin": ratings.COMPUTER_MARGIN,
        "rated_pair_games": ratings.PAIR_GAMES_PER_DAY,
    }
    return render(request, "help.html", context)
