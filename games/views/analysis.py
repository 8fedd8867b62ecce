"""The post-game analysis: ask for it, and its section of the replay page.

Thin: the game through ``selectors.access.game_for_viewer`` (who may see it), the request through
``services.analysis``, the reads through ``selectors.analysis``, the context through
``presenters.analysis``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST

from games import engine, services
from games.presenters import analysis as presenter
from games.selectors import analysis as reads
from games.selectors.access import Viewed, game_for_viewer
from games.selectors.table import seat_labels
from games.services.analysis import analysis_request

PARTIAL = "games/_analysis.html#analysis"


def section_context(viewed: Viewed, user) -> dict:
    """The analysis section's context for a replay page (also the view's partial)."""
    game = viewed.game
    base_url = reverse("game_replay", kwargs={"public_id": game.public_id})
    context = {"game": game, "analysis": None, "can_analyse": False}
    if game.status != game.Status.FINISHED:
        return context
    data = reads.analysis_of(game)
    context["can_analyse"] = data is None or not (data.finished or data.in_flight)
    context["signed_in"] = bool(user and user.is_authenticated)
    if data is not None:
        state = game.current_state()
        context["analysis"] = presenter.panel(
            data,
            spans=presenter.turn_spans(data.actions, classic=game.mode != "shuffle"),
            colour_seats=engine.table(state, None)["colour_seats"],
            labels=seat_labels(viewed.seats),
            base_url=base_url,
            shuffle=game.mode == "shuffle",
        )
        context["analysis_data"] = data
    return context


@require_POST
def analyse(request, public_id):
    viewed = game_for_viewer(public_id, request.user)
    game = viewed.game
    try:
        analysis_request(game=game, user=request.user)
        error = None
    except services.GameError as exc:
        error = exc
    if request.htmx:
        context = section_context(viewed, request.user)
        context["error"] = str(error) if error else ""
        # 200 even when refused: htmx swaps only successful answers, and the refusal is shown
        # in the section itself.
        response = render(request, PARTIAL, context)
        patch_vary_headers(response, ["HX-Request"])
        return response
    if error is not None:
        messages.error(request, str(error))
    url = reverse("game_replay", kwargs={"public_id": game.public_id})
    return redirect(f"{url}#analysis")


@require_GET
def section(request, public_id):
    viewed = game_for_viewer(public_id, request.user)
    if viewed.game.status != viewed.game.Status.FINISHED:
        raise Http404("no analysis for a game in play")
    response: HttpResponse = render(request, PARTIAL, section_context(viewed, request.user))
    return response
