"""Rematch: the same players, seats and settings as a finished game, the others invited."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.selectors.access import game_for_viewer


@login_required
@require_POST
def rematch(request, public_id):
    game = game_for_viewer(public_id, request.user).game
    try:
        new = services.game_rematch(game=game, user=request.user)
    except services.GameError as exc:
        messages.error(request, _("No rematch: %(reason)s.") % {"reason": exc})
        return redirect("game", public_id=game.public_id)
    messages.success(request, _("Rematch: the other players are invited."))
    return redirect("game", public_id=new.public_id)
