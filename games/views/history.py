"""Replays and records: step through a game, download its record, replay an uploaded record.

Every position is rebuilt with the engine from the game's start and its recorded actions. While a
game runs, what is shown or exported goes through ``engine.view`` for the viewer's seat (R9); once
it is finished everything may be shown (R9.4), mid-game positions included.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods

from games import engine, selectors, services
from games.engine import record as engine_record
from games.engine.pieces import PIECE_SIZE
from games.forms import RecordUploadForm
from games.models import Game

UPLOAD_SESSION_KEY = "uploaded_record"
LETTER_COLOUR = {"B": "blue", "Y": "yellow", "R": "red", "G": "green"}


@require_GET
def replay(request, public_id):
    game, seat = selectors.game_for_viewer(public_id, request.user)
    if game.state is None:
        raise Http404("the game has not started: there is nothing to replay yet")
    actions = list(game.actions.order_by("ply"))
    ply = _ply(request, len(actions))
    state = services.initial_state(game)
    for action in actions[:ply]:
        state = engine.apply(state, action.payload)
    revealed = game.status == Game.Status.FINISHED
    # R9.4: after the end every position may be shown in full; before it, the viewer's view only.
    data = state.to_json() if revealed else engine.view(state, seat.index if seat else None)
    labels = {s.index: s.label for s in game.seats.all()}
    context = {
        "game": game,
        "position": _position(data, state, ply, len(actions), revealed, labels),
        "moves": [_move(a.payload, a.ply, labels.get(a.seat, "")) for a in actions],
        "base_url": reverse("game_replay", kwargs={"public_id": game.public_id}),
        "scores": _scores(services.game_state(game), labels) if revealed else None,
        "can_export": revealed or seat is not None,
        "my_seat": seat,
    }
    return _render_replay(request, "games/replay.html", context)


@require_GET
def record(request, public_id):
    game, seat = selectors.game_for_viewer(public_id, request.user)
    if game.state is None:
        raise Http404("the game has not started: there is no record yet")
    payloads = [a.payload for a in game.actions.order_by("ply")]
    if game.status == Game.Status.FINISHED:  # R9.4: the full record, decks included
        document = engine.make_record(services.initial_state(game), payloads, reveal=True)
    elif seat is None:
        raise PermissionDenied("only the players may export a game in play, each their own view")
    else:  # R9: the player's own view and the public actions; never the decks or the seed
        document = {
            "format": "blokus-view/1",
            "game": game.public_id,
            "seat": seat.index,
            "view": selectors.game_view(game, seat),
            "actions": payloads,
        }
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
    try:
        state = engine_record.replay(data, upto=ply)
        final = engine_record.replay(data)
    except ValueError as exc:  # validated on upload; a stale session copy is refused, not a 500
        return {"upload_error": str(exc)}
    labels = {seat: f"Player {seat + 1}" for seat in range(state.players)}
    return {
        "position": _position(state.to_json(), state, ply, len(actions), True, labels),
        "moves": [_move(a, i + 1, "") for i, a in enumerate(actions)],
        "base_url": reverse("replay_upload"),
        "scores": _scores(final, labels),
        "uploaded": data,
    }


def _render_replay(request, page: str, context: dict):
    """The whole page, or for an HTMX step only the position partial it swaps in."""
    template = "games/replay.html#position" if request.htmx else page
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])  # one URL, two bodies: caches must tell apart
    return response


# -- building the page's data ---------------------------------------------------------------


def _ply(request, total: int) -> int:
    """The ``?ply=`` asked for, kept within 0…total; the last position when absent or unreadable."""
    try:
        ply = int(request.GET.get("ply", total))
    except ValueError:
        ply = total
    return max(0, min(total, ply))


def _position(data: dict, state, ply: int, total: int, revealed: bool, labels: dict) -> dict:
    """What the board partial shows, from a view dict (``engine.view`` or a revealed to_json)."""
    rows = [
        {"number": 20 - i, "cells": [LETTER_COLOUR.get(ch, "") for ch in line]}
        for i, line in enumerate(data["board"])
    ]
    decks = []
    for owner, discards in data["discards"].items():
        deck = {"owner": owner, "discards": _card_names(discards)}
        if revealed:
            deck["hand"] = _card_names(data["hands"][owner])
            deck["pile"] = _card_names(data["draw_piles"][owner])
            deck["hand_count"], deck["pile_count"] = len(deck["hand"]), len(deck["pile"])
        else:
            deck["hand"], deck["pile"] = None, None
            deck["hand_count"] = data["hand_counts"][owner]
            deck["pile_count"] = data["pile_counts"][owner]
        decks.append(deck)
    players = [
        {
            "label": labels.get(seat, f"Player {seat + 1}"),
            "colours": [engine.COLOURS[c] for c in state.seat_colours(seat)],
        }
        for seat in range(state.players)
    ]
    supply = [
        {
            "colour": colour,
            "pieces": names,
            "squares": sum(PIECE_SIZE[p] for p in names),
        }
        for colour, names in data["supply"].items()
    ]
    return {
        "ply": ply,
        "total": total,
        "first": 0,
        "prev": max(0, ply - 1),
        "next": min(total, ply + 1),
        "last": total,
        "rows": rows,
        "columns": "abcdefghijklmnopqrst",
        "to_move": data["to_move"],
        "step": data["step"],
        "direction": "clockwise" if data["direction"] == 1 else "counter-clockwise",
        "over": data["over"],
        "shared_color": data.get("shared_color"),
        "events": [_event_text(e) for e in data["events"]] if ply else [],
        "supply": supply,
        "decks": decks,
        "revealed": revealed,
        "hand": None if revealed or data.get("hand") is None else _card_names(data["hand"]),
        "drawn": [] if revealed else _card_names(data.get("drawn", [])),
        "players": players,
        "mode": data["mode"],
    }


def _card_names(cards: list[str]) -> list[str]:
    return [engine.CARD_NAMES.get(card, card) for card in cards]


def _move(payload: dict, number: int, who: str) -> dict:
    return {"ply": number, "text": _action_text(payload), "who": who}


def _action_text(action: dict) -> str:
    if "warp" in action:
        return f"warps {action['warp']} to {action.get('to', '?')}"
    if "place" in action:
        return f"places {action['place']}"
    if "card" in action:
        return f"plays {engine.CARD_NAMES.get(action['card'], action['card'])}"
    if "keep" in action:
        return f"keeps {engine.CARD_NAMES.get(action['keep'], action['keep'])}"
    if "declare" in action:
        return f"declares {action['declare']}"
    if "recycle" in action:
        return f"recycles {action['recycle']}"
    return str(action)


def _event_text(event: dict) -> str:
    """A caption for one public event of the last action (engine ``_event``)."""
    colour, kind = event.get("colour", "").capitalize(), event.get("event")
    card = engine.CARD_NAMES.get(event.get("card", ""), event.get("card", ""))
    texts = {
        "place": f"{colour} places {event.get('piece')} on {event.get('squares')}",
        "pass": f"{colour} cannot place and passes",
        "card": f"{colour} plays {card}",
        "no_effect": f"{card} has no effect",
        "draw": f"{colour} draws {event.get('count')} card(s)",
        "declare": f"{colour} declares {event.get('declared')}",
        "recycle": f"{colour} takes back {event.get('owner')}'s {event.get('piece')}",
        "warp": f"{colour} moves {event.get('owner')}'s piece to {event.get('to')}",
        "skipped": f"{colour} loses its turn (Skip)",
        "over": "The game is over",
    }
    return texts.get(kind, f"{colour} {kind}")


def _scores(state, labels: dict) -> dict:
    result = engine.score(state)
    for player in result["players"]:
        player["label"] = labels.get(player["seat"], f"Player {player['seat'] + 1}")
    result["players"].sort(key=lambda p: (p["place"], p["seat"]))
    result["higher_wins"] = result["scoring"] == "advanced"
    return result
