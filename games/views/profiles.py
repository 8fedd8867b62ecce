"""A player's profile: their results, ratings and recent games (games data: it lives here, so
that accounts needs nothing from games)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from accounts.models import User, blocked_ids
from games.models import is_bot
from games.selectors import tournaments
from games.selectors.analysis import recent_accuracy
from games.selectors.profiles import player_stats, recent_results
from games.services.ratings import player_ratings


def profile(request, username: str):
    player = get_object_or_404(User, username=username, is_active=True)
    blocked = request.user.is_authenticated and player.pk in blocked_ids(request.user)
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "stats": player_stats(player),
            "recent": recent_results(player, request.user),
            "ratings": player_ratings(player, request.user),
            "accuracy": recent_accuracy(player, request.user),  # the post-game analysis
            "blocked": blocked,
            "is_bot": is_bot(player),  # a bot account: its name is marked
            "tournaments": tournaments.of_player(player),
        },
    )
