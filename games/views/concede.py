"""Resign and take back: thin POST views (parse -> service -> back to the game page)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.selectors.access import game_for_viewer
from games.services.resign import game_resign
from games.services.takeback import takeback_answer, takeback_request

from .game import refusal


@login_required
@require_POST
def resign(request, public_id):
    game = game_for_viewer(public_id, request.user).game
    try:
        game_resign(game=game, user=request.user)
    except services.GameError as exc:
        messages.error(request, refusal(exc))
    else:
        messages.success(request, _("You resigned."))
    return redirect("game", public_id=game.public_id)


@login_required
@require_POST
def takeback(request, public_id):
    """Ask for a take back (``answer`` absent) or answer one (``answer`` = accept|decline)."""
    game = game_for_viewer(public_id, request.user).game
    answer = request.POST.get("answer", "")
    try:
        if not answer:
            takeback_request(game=game, user=request.user)
            messages.success(request, _("Take back asked for: the other players answer."))
        elif answer in ("accept", "decline"):
            takeback_answer(game=game, user=request.user, accept=answer == "accept")
            if answer == "accept":
                messages.success(request, _("You accepted the take back."))
            else:
                messages.success(request, _("You declined the take back."))
        else:
            messages.error(request, _("Not done: answer must be accept or decline."))
    except services.GameError as exc:
        messages.error(request, refusal(exc))
    return redirect("game", public_id=game.public_id)
