"""A finished classic game as Pentobi's game file (``.blksgf``), for analysis in Pentobi.

Import goes through the record upload (games.forms.RecordUploadForm reads both formats)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import engine
from games.engine import blksgf
from games.models import Game
from games.selectors.access import game_for_viewer


@require_GET
def download(request, public_id):
    viewed = game_for_viewer(public_id, request.user)
    game = viewed.game
    if game.status != Game.Status.FINISHED or game.mode != Game.Mode.CLASSIC:
        raise Http404(_("only a finished classic game can be saved for Pentobi"))
    if game.players == 3 and game.shared_color not in ("", "green"):
        # Pentobi's three-player game always shares colour 4 (green); its turn order is fixed.
        reason = _(
            "Pentobi's three-player game always shares green, and this game shares another colour."
        )
        return render(request, "409.html", {"reason": reason}, status=409)
    payloads = [a.payload for a in game.actions.order_by("ply")]
    record = engine.make_record(game.initial_state(), payloads, reveal=True)
    try:
        text = blksgf.export(
            record,
            names=[s.label for s in viewed.seats],  # in seat order
            date=f"{game.finished_at:%Y-%m-%d}" if game.finished_at else "",
        )
    except blksgf.ExportError as exc:  # unreachable for a finished classic game: never a 500
        reason = _("This game cannot be saved for Pentobi: %(reason)s.") % {"reason": exc}
        return render(request, "409.html", {"reason": reason}, status=409)
    response = HttpResponse(text, content_type="application/x-blokus-sgf; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="blokus-{game.public_id}.blksgf"'
    return response
