"""Resign and take back: thin POST views (parse -> service -> back to the game page)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors, services
from games.services.resign import game_resign

from .game import refusal


@login_required
@require_POST
def resign(request, public_id):
    game, _seat = selectors.game_for_viewer(public_id, request.user)
    try:
        game_resign(game=game, user=request.user)
    except services.GameError as exc:
        messages.error(request, refusal(exc))
    else:
        messages.success(request, _("You resigned."))
    return redirect("game", public_id=game.public_id)
