"""Help: the rules page, with pictures drawn from the engine's own tables."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.forms import LEVEL_SECONDS
from games.models import Seat
from games.presenters import pictures
from games.services import ratings, seeks


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
        # the Play now section: the matcher's settings and the levels it fills with
        "match_window": settings.MATCH_WINDOW,
        "match_growth": settings.MATCH_WINDOW_GROWTH,
        "match_notice_minutes": settings.MATCH_NOTICE_AFTER_SECONDS // 60,
        "match_cancels": settings.MATCH_CANCELS_PER_HOUR,
        "level_ratings": {level: ratings.computer_rating(level) for level in seeks.FILL_LEVELS},
    }
    return render(request, "help.html", context)
