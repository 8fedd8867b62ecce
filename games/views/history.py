"""Replays and records: step through a game, download its record, replay an uploaded record.

Every position is rebuilt with the engine from the game's start and its recorded actions. While a
game runs, what is shown or exported goes through ``engine.view`` for the viewer's seat (R9); once
it is finished everything may be shown (R9.4), mid-game positions included.
"""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games import engine
from games.engine import record as engine_record
from games.forms import RecordUploadForm
from games.presenters import analysis as analysis_presenter
from games.presenters import log as move_log
from games.presenters import replay as presenter
from games.presenters.captions import player_label
from games.selectors import history
from games.selectors.access import game_for_viewer
from games.translations import rule_message
from games.views import analysis as analysis_view

UPLOAD_SESSION_KEY = "uploaded_record"


@require_GET
def replay(request, public_id):
    viewed = game_for_viewer(public_id, request.user)
    game, seat = viewed.game, viewed.seat
    if game.state is None:
        raise Http404(_("the game has not started: there is nothing to replay yet"))
    total = game.actions.count()
    ply = _ply(request, total)
    shown = history.replay_position(viewed, ply)
    base_url = reverse("game_replay", kwargs={"public_id": game.public_id})
    turns = _turns(shown.rows, shown.mode, shown.colour_seats, shown.labels, base_url)
    marks = presenter.last_move(shown.rows, turns, ply)
    context = {
        "game": game,
        "position": presenter.position(
            shown.data, shown.colour_seats, ply, shown.total, shown.revealed, shown.labels, marks
        ),
        "turns": presenter.turn_list(turns, shown.rows, ply, base_url),
        "steps": presenter.turn_steps(turns, ply, shown.total),
        "base_url": base_url,
        "scores": presenter.scores(shown.final, shown.labels) if shown.revealed else None,
        "can_export": history.may_export(game, seat),
        "my_seat": seat,
    }
    if shown.revealed:  # a finished game: its analysis, if any
        context.update(analysis_view.section_context(viewed, request.user))
        data = context.get("analysis_data")
        if data is not None and data.finished:
            here = analysis_presenter.here(data.decisions, ply, data.sims)
            context["analysis_here"] = here
            if here:
                analysis_presenter.mark_ghost(context["position"], here["ghost"], here["next"])
    return _render_replay(request, "games/replay.html", context)


@require_GET
def record(request, public_id):
    viewed = game_for_viewer(public_id, request.user)
    game, seat = viewed.game, viewed.seat
    if game.state is None:
        raise Http404(_("the game has not started: there is no record yet"))
    document = history.record_document(game, seat)  # R9 / R9.4: what this reader may have
    response = JsonResponse(document, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="blokus-{game.public_id}.json"'
    return response


@require_http_methods(["GET", "POST"])
def upload(request):
    if request.method == "POST":
        form = RecordUploadForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data["record"]
            # The uploaded record is the user's own data: kept in their session, decks and all.
            request.session[UPLOAD_SESSION_KEY] = data
            return redirect(f"{reverse('replay_upload')}?ply={len(data['actions'])}")
        return render(request, "games/upload.html", {"form": form}, status=400)
    context = {"form": RecordUploadForm()}
    data = request.session.get(UPLOAD_SESSION_KEY)
    if data is not None:
        context.update(_uploaded_context(request, data))
    if "position" not in context:
        return render(request, "games/upload.html", context)
    return _render_replay(request, "games/upload.html", context)


def _uploaded_context(request, data: dict) -> dict:
    actions = data["actions"]
    ply = _ply(request, len(actions))
    rows = []  # the public events of each action, for the turns
    try:  # one pass through the record: the position at ``ply``, the events, the end
        step = engine_record.initial_state(data)
        state = step
        for i, action in enumerate(actions):
            step = engine.apply(step, action)
            rows.append((i + 1, 0, engine.view(step, None)["events"]))
            if i + 1 == ply:
                state = step
        final = step
    except ValueError as exc:  # validated on upload; a stale session copy is refused, not a 500
        return {"upload_error": rule_message(str(exc))}
    labels = {seat: player_label(seat) for seat in range(state.players)}
    colour_seats = engine.table(state, None)["colour_seats"]
    base_url = reverse("replay_upload")
    turns = _turns(rows, state.mode, colour_seats, labels, base_url)
    marks = presenter.last_move(rows, turns, ply)
    return {
        "turns": presenter.turn_list(turns, rows, ply, base_url),
        "steps": presenter.turn_steps(turns, ply, len(actions)),
        "position": presenter.position(
            state.to_json(), colour_seats, ply, len(actions), True, labels, marks
        ),
        "base_url": base_url,
        "scores": presenter.scores(engine.score(final), labels),
        "uploaded": data,
    }


def _turns(rows, mode: str, colour_seats: dict, labels: dict, base_url: str) -> list[dict]:
    """The game's turns, oldest first, as the game page's move log groups them."""
    colour_labels = {
        c: (_("shared colour") if s is None else labels.get(s, "?"))
        for c, s in colour_seats.items()
    }
    log = move_log.turns(
        rows,
        classic=mode != "shuffle",
        colour_labels=colour_labels,
        mine=set(),
        replay_url=base_url,
        # The shared colour's turns say who played them, as on the game page (R2.4).
        seat_names=labels,
        shared=next((c for c, s in colour_seats.items() if s is None), None),
    )
    return log["turns"][::-1]


def _render_replay(request, page: str, context: dict):
    """The whole page, or for an HTMX step only the position partial it swaps in."""
    template = "games/replay.html#position" if request.htmx else page
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])  # one URL, two bodies: caches must tell apart
    return response


# -- reading the request ---------------------------------------------------------------------


def _ply(request, total: int) -> int:
    """The ``?ply=`` asked for, kept within 0…total; the last position when absent or unreadable."""
    try:
        ply = int(request.GET.get("ply", total))
    except ValueError:
        ply = total
    return max(0, min(total, ply))
