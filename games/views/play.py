"""The game page, its decision panel, and the one write endpoint (``act``).

What is shown comes from ``selectors.game_view`` (what this viewer may know, R9). The seat deciding
now (the view's ``controller``) also gets ``engine.legal_actions``: that list depends only on what
the controller may know (its own hand and Draw 2 cards, the public board), and it is computed for
that seat only. The page never renders ``game.state``, ``game.seed``, another hand or a pile order.

The panel is a small wizard whose selection (piece, orientation, warp source) travels as query
parameters of GET requests (``?piece=F&o=2``, ``?from=c5,c6``); GETs never write. A click on a
highlighted square POSTs the complete record action to ``act``.
"""

from __future__ import annotations

import json
import secrets
from collections import defaultdict
from urllib.parse import urlencode

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from games import engine, selectors, services
from games.engine.cards import CARD_EFFECTS, CARD_NAMES
from games.engine.pieces import COLUMNS, ORIENTATIONS, PIECE_SIZE, PIECES, SHAPE_NAME, normalize
from games.engine.state import COLOURS, LETTERS
from games.models import Action, Game, Seat

PAGE = "games/play.html"
PANEL = "games/play.html#game"
MAX_ACTION_LENGTH = 2000  # the longest record action (a warp) is ~70 characters

STEP_TEXT = {
    "setup": "place a setup piece on a free corner (R3.1)",
    "card": "play a card (R5.1)",
    "keep": "choose which Draw 2 card to play (R6.3)",
    "declare": "declare a colour for Wild (R6.4)",
    "recycle": "take one of their pieces back (R6.7)",
    "warp": "move an opponent's piece (R6.8)",
    "place": "place a piece (R5.3)",
    "place_second": "place Double Play's second piece (R6.6)",
}


class BadInput(services.GameError):
    """The request itself could not be read (not a refusal by the rules)."""


# -- views ----------------------------------------------------------------------------------


@require_safe
def game_page(request, public_id):
    token = request.GET.get("token", "")
    game, seat = selectors.game_for_viewer(public_id, request.user, token=token)
    return render(request, PAGE, _context(request, game, seat, request.GET))


@require_safe
def panel(request, public_id):
    token = request.GET.get("token", "")
    game, seat = selectors.game_for_viewer(public_id, request.user, token=token)
    return render(request, PANEL, _context(request, game, seat, request.GET))


@require_POST
def act(request, public_id):
    if not request.user.is_authenticated:
        if not request.htmx:
            return redirect_to_login(reverse("game", args=[public_id]))
        game, seat = selectors.game_for_viewer(public_id, None)
        ctx = _context(request, game, seat, {}, message="Log in to play.", error=True)
        return render(request, PANEL, ctx, status=403)
    game, seat = selectors.game_for_viewer(public_id, request.user)
    try:
        action, ply = _parse_action(request.POST)
        services.action_submit(
            game=game,
            user=request.user,
            action=action,
            expected_ply=ply,
            key=request.POST.get("key", ""),
        )
    except services.GameError as exc:
        game.refresh_from_db()
        stale = isinstance(exc, services.StalePly)
        text = f"{exc} — here is the game as it stands now." if stale else f"Not played: {exc}"
        ctx = _context(request, game, seat, {}, message=text, error=True)
        return render(request, PANEL if request.htmx else PAGE, ctx, status=exc.status)
    if not request.htmx:
        return redirect("game", public_id=game.public_id)
    game.refresh_from_db()
    return render(request, PANEL, _context(request, game, seat, {}))


def _parse_action(post) -> tuple[dict, int]:
    raw = post.get("action", "")
    if not raw:
        raise BadInput('the move is missing: send "action" as JSON such as {"card": "wild"}')
    if len(raw) > MAX_ACTION_LENGTH:
        raise BadInput("the move is too long to be a record action")
    try:
        action = json.loads(raw)
    except ValueError:
        raise BadInput(
            'the move could not be read: "action" must be JSON such as {"card": "wild"}'
        ) from None
    if not isinstance(action, dict):
        raise BadInput('the move must be a JSON object such as {"place": "a1"}')
    try:
        ply = int(post.get("ply", ""))
    except ValueError:
        raise BadInput('"ply" (the move number you saw) must be a whole number') from None
    return action, ply


# -- building the page ----------------------------------------------------------------------


def _context(request, game: Game, seat: Seat | None, params, *, message="", error=False) -> dict:
    token = params.get("token", "")
    token = token if token and token == game.invite_token else ""
    seats = {s.index: s for s in game.seats.select_related("user")}
    ctx = {
        "game": game,
        "seat": seat,
        "token": token,
        "message": message,
        "error": error,
        "panel_url": _url("game_panel", game, {"token": token}),
    }
    if game.status == Game.Status.OPEN or game.state is None:
        ctx.update(_joining(request, game, seat, seats, token))
        return ctx
    view = selectors.game_view(game, seat)
    state = services.game_state(game)  # seat mapping and the controller's legal actions only
    mine = seat.index if seat is not None else None
    deciding = (
        game.status == Game.Status.ACTIVE
        and mine is not None
        and view["controller"] == mine
        and not seat.ai_takeover
    )
    decision = _decision(game, state, view, params, token) if deciding else {}
    ctx.update(
        over=view["over"],
        board=_board(view, _last_squares(game, view), decision),
        board_form=any("post" in t for t in decision.get("targets", {}).values()),
        colours=_colours(view, state, seats),
        decks=_decks(view, state, seats),
        turn=_turn(game, view, state, seats, mine),
        hand=_hand(view, mine),
        events=[_event_text(e) for e in view["events"]],
        decision=decision,
        deciding=deciding,
        ply=game.ply,
        key=secrets.token_urlsafe(16),
        scores=_scores(state, seats) if view["over"] else None,
        poll=game.status == Game.Status.ACTIVE and not deciding,
    )
    return ctx


def _url(name: str, game: Game, params: dict) -> str:
    query = urlencode({k: v for k, v in params.items() if v not in ("", None)})
    url = reverse(name, args=[game.public_id])
    return f"{url}?{query}" if query else url


def _link(game: Game, params: dict, token: str) -> dict:
    """A selection link: a plain href to the page (works without JS) and the panel for htmx."""
    params = {**params, "token": token}
    return {"href": _url("game", game, params), "hx": _url("game_panel", game, params)}


def _name(seat: Seat | None) -> str:
    return seat.label if seat is not None else "?"


def _seat_rows(game: Game, seats: dict[int, Seat]) -> list[dict]:
    # A classic-mode State only maps seats to colours (no decks, no seed).
    layout = engine.new_game(
        mode="classic", players=game.players, shared_color=game.shared_color or None
    )
    known = game.seating == Game.Seating.CHOSEN or game.status != Game.Status.OPEN
    rows = []
    for index, s in sorted(seats.items()):
        colours = [COLOURS[c] for c in layout.seat_colours(index)] if known else []
        rows.append(
            {
                "number": index + 1,
                "label": s.label,
                "colours": colours,
                "missing": s.kind not in (Seat.Kind.HUMAN, Seat.Kind.AI),
                "kind": s.get_kind_display(),
            }
        )
    return rows


def _joining(request, game: Game, seat: Seat | None, seats: dict[int, Seat], token: str) -> dict:
    """The seats before the start, who is missing, and whether the viewer may join or leave."""
    user = request.user
    rows = _seat_rows(game, seats)
    can_join = False
    if user.is_authenticated and seat is None and game.status == Game.Status.OPEN:
        kinds = {s.kind for s in seats.values()}
        invited = any(s.kind == Seat.Kind.INVITED and s.user_id == user.pk for s in seats.values())
        public = game.visibility == Game.Visibility.PUBLIC
        can_join = (
            invited
            or (Seat.Kind.OPEN in kinds and (public or bool(token)))
            or (Seat.Kind.LINK in kinds and bool(token))
        )
    return {
        "joining": True,
        "seat_rows": rows,
        "missing": sum(1 for row in rows if row["missing"]),
        "can_join": can_join,
        "can_leave": seat is not None and game.status == Game.Status.OPEN,
        "is_creator": user.is_authenticated and user.pk == game.created_by_id,
    }


# -- public parts of the view ---------------------------------------------------------------


def _cells(text: str) -> list[tuple[int, int]]:
    return [(COLUMNS.index(sq[0]), int(sq[1:]) - 1) for sq in text.split(",")]


def _board(view: dict, last: set[str], decision: dict) -> list[dict]:
    """Rows from 20 down to 1; each cell with its colour, letter and what the panel marks."""
    marks = decision.get("marks", {})
    targets = decision.get("targets", {})
    rows = []
    for i, line in enumerate(view["board"]):
        number = 20 - i
        cells = []
        for x, letter in enumerate(line):
            square = f"{COLUMNS[x]}{number}"
            colour = COLOURS[LETTERS.index(letter)] if letter in LETTERS else ""
            cell = {
                "square": square,
                "letter": letter if colour else "",
                "colour": colour,
                "last": square in last,
                "mark": marks.get(square, ""),
            }
            target = targets.get(square)
            if target is not None:
                cell.update(target)
            cells.append(cell)
        rows.append({"number": number, "cells": cells})
    return rows


def _last_squares(game: Game, view: dict) -> set[str]:
    """Squares of the latest placement or warp (from the view's events, else the record)."""
    occupied = {
        f"{COLUMNS[x]}{20 - i}"
        for i, line in enumerate(view["board"])
        for x, ch in enumerate(line)
        if ch in LETTERS
    }

    def found(events) -> set[str] | None:
        for event in reversed(events or []):
            if event.get("event") == "place":
                return set(event["squares"].split(",")) & occupied
            if event.get("event") == "warp":
                return set(event["to"].split(",")) & occupied
        return None

    squares = found(view["events"])
    if squares is not None:
        return squares
    history = Action.objects.filter(game=game).order_by("-ply").values_list("events", flat=True)
    for events in history[:200]:
        squares = found(events)
        if squares is not None:
            return squares
    return set()


def _colours(view: dict, state, seats: dict[int, Seat]) -> list[dict]:
    out = []
    for c, name in enumerate(COLOURS):
        supply = view["supply"][name]
        owner_seat = state.seat_of(c)
        shared = view["players"] == 3 and owner_seat is None
        out.append(
            {
                "name": name,
                "letter": LETTERS[c],
                "player": "shared colour" if shared else _name(seats.get(owner_seat)),
                "supply": supply,
                "remaining": sum(PIECE_SIZE[p] for p in supply),
                "passed": name in view["passed"],
                "to_move": view["to_move"] == name,
                "in_play": bool(supply),
            }
        )
    return out


def _decks(view: dict, state, seats: dict[int, Seat]) -> list[dict]:
    """Each deck's public counts and discard top (R9.1). After the end the view holds whole
    hands and piles (R9.4): only their sizes are used here."""
    out = []
    for owner, discards in view["discards"].items():
        if "hand_counts" in view:
            hand, pile = view["hand_counts"][owner], view["pile_counts"][owner]
        else:
            hand, pile = len(view["hands"][owner]), len(view["draw_piles"][owner])
        top = discards[-1] if discards else None
        seat = seats.get(state.seat_of(COLOURS.index(owner)))
        out.append(
            {
                "owner": owner,
                "player": _name(seat),
                "top": CARD_NAMES[top] if top else "",
                "top_effect": CARD_EFFECTS[top] if top else "",
                "discarded": len(discards),
                "hand_count": hand,
                "pile_count": pile,
            }
        )
    return out


def _turn(game: Game, view: dict, state, seats: dict[int, Seat], mine: int | None) -> dict:
    effect = view["effect"]
    effects = []
    if effect["wild"]:
        effects.append(f"Wild: placing as if {effect['wild']}")
    if effect["edge"]:
        effects.append("Edge to Edge: the piece must share a side with your colours")
    if effect["double"]:
        effects.append("Double Play: a second piece follows")
    if view["skip_pending"]:
        effects.append("Skip: the next colour loses its turn")
    controller = view["controller"]
    colour = view["to_move"]
    shared = colour is not None and state.seat_of(COLOURS.index(colour)) is None
    return {
        "colour": colour,
        "letter": LETTERS[COLOURS.index(colour)] if colour else "",
        "player": _name(seats.get(controller)) if controller is not None else "",
        "shared": shared,
        "mine": controller is not None and controller == mine,
        "step": view["step"],
        "step_text": STEP_TEXT.get(view["step"], ""),
        "direction": "blue → yellow → red → green"
        if view["direction"] == 1
        else "blue → green → red → yellow",
        "effects": effects,
        "drawn_count": view.get("drawn_count", 0),
        "aborted": game.status == Game.Status.ABORTED,
    }


def _hand(view: dict, mine: int | None) -> dict | None:
    """The viewer's own hand (R9.2): None for spectators, classic games and finished games."""
    if mine is None or view["over"] or view.get("hand") is None:
        return None
    return {
        "cards": [_card(kind) for kind in view["hand"]],
        "bottom": [CARD_NAMES[kind] for kind in view.get("pile_bottom", [])],
    }


def _card(kind: str) -> dict:
    return {"kind": kind, "name": CARD_NAMES[kind], "effect": CARD_EFFECTS[kind]}


def _scores(state, seats: dict[int, Seat]) -> dict:
    result = engine.score(state)
    players = sorted(result["players"], key=lambda p: (p["place"], p["seat"]))
    return {
        "lower_wins": result["scoring"] == "basic",
        "players": [
            {
                "place": p["place"],
                "player": _name(seats.get(p["seat"])),
                "colours": p["colours"],
                "score": p["score"],
            }
            for p in players
        ],
        "colours": [
            {"name": c, "remaining": result["remaining"][c], "points": result["points"][c]}
            for c in COLOURS
        ],
    }


def _event_text(event: dict) -> str:
    who = event.get("colour", "").capitalize()
    kind = event.get("event")
    if kind == "place":
        return f"{who} placed {event['piece']} on {event['squares']}"
    if kind == "pass":
        return f"{who} could not place a piece and passed"
    if kind == "card":
        return f"{who} played {CARD_NAMES.get(event['card'], event['card'])}"
    if kind == "no_effect":
        return f"{CARD_NAMES.get(event['card'], event['card'])} had no effect"
    if kind == "draw":
        n = event.get("count", 1)
        return f"{who} drew {n} card{'s' if n != 1 else ''}"
    if kind == "declare":
        return f"{who} declared {event['declared']}"
    if kind == "recycle":
        return f"{who} took back {event['owner']}'s {event['piece']} from {event['squares']}"
    if kind == "warp":
        return f"{who} moved {event['owner']}'s piece from {event['squares']} to {event['to']}"
    if kind == "skipped":
        return f"{who} was skipped"
    if kind == "over":
        return "The game is over"
    return f"{who}: {kind}"


# -- the decision panel (the controller only) -----------------------------------------------


def _decision(game: Game, state, view: dict, params, token: str) -> dict:
    """What the controller may do now, from engine.legal_actions, at the selection in params."""
    legal = engine.legal_actions(state)
    step = state.step
    out: dict = {"step": step, "marks": {}, "targets": {}}
    if step == "card":
        counts = defaultdict(int)
        for kind in view["hand"] or []:
            counts[kind] += 1
        out["options"] = [
            {**_card(a["card"]), "count": counts[a["card"]], "action": json.dumps(a)} for a in legal
        ]
    elif step == "keep":
        out["options"] = [{**_card(a["keep"]), "action": json.dumps(a)} for a in legal]
        out["drawn"] = [_card(kind) for kind in view["drawn"]]
    elif step == "declare":
        out["options"] = [
            {"name": a["declare"], "letter": LETTERS[COLOURS.index(a["declare"])]}
            | {"action": json.dumps(a)}
            for a in legal
        ]
    elif step == "recycle":
        out["options"] = []
        for a in legal:
            piece = _piece_of(a["recycle"])
            colour = _colour_at(view, a["recycle"])
            out["options"].append(
                {"piece": piece, "colour": colour, "squares": a["recycle"], "action": json.dumps(a)}
            )
            for square in a["recycle"].split(","):
                out["marks"][square] = "pick"
    elif step == "warp":
        _warp_panel(game, view, legal, params, token, out)
    elif step in ("setup", "place", "place_second"):
        _place_panel(game, view, legal, params, token, out)
    return out


def _piece_of(text: str) -> str:
    return SHAPE_NAME[normalize(_cells(text))]


def _colour_at(view: dict, text: str) -> str:
    x, y = _cells(text)[0]
    return COLOURS[LETTERS.index(view["board"][19 - y][x])]


def _mini(shape) -> dict:
    """A small render of one orientation: rows from top to bottom, True where a square is."""
    cells = set(shape)
    width = max(x for x, _ in shape) + 1
    height = max(y for _, y in shape) + 1
    return {
        "width": width,
        "rows": [[(x, y) in cells for x in range(width)] for y in range(height - 1, -1, -1)],
    }


def _orientation_step(
    game, piece: str, texts: list[str], base: dict, params, token: str, out: dict, make_action
):
    """Orientations of ``piece`` with a legal spot, then (once one is picked) its spots: each
    marked on the board at its first square (column, then row), which a translation moves."""
    shapes = ORIENTATIONS[piece]
    by_o: dict[int, list[str]] = defaultdict(list)
    for text in texts:
        by_o[shapes.index(normalize(_cells(text)))].append(text)
    o = _int(params.get("o"))
    if o not in by_o:
        o = next(iter(by_o)) if len(by_o) == 1 else None
    out["orientations"] = [
        {
            "index": i,
            "mini": _mini(shapes[i]),
            "link": _link(game, {**base, "o": i}, token),
            "selected": i == o,
            "spots": len(by_o[i]),
        }
        for i in sorted(by_o)
    ]
    out["orientation"] = o
    if o is None:
        return
    for text in by_o[o]:
        anchor = text.split(",")[0]
        action = make_action(text)
        out["targets"][anchor] = {
            "post": json.dumps(action),
            "label": out["target_label"].format(piece=piece, square=anchor),
            "title": f"{piece} on {text}",
        }
        out["marks"].setdefault(anchor, "target")


def _place_panel(game, view, legal, params, token, out) -> None:
    by_piece: dict[str, list[str]] = defaultdict(list)
    for a in legal:
        by_piece[_piece_of(a["place"])].append(a["place"])
    piece = params.get("piece")
    piece = piece if piece in by_piece else None
    out["piece"] = piece
    out["pieces"] = [
        {
            "name": p,
            "mini": _mini(ORIENTATIONS[p][0]),
            "link": _link(game, {"piece": p}, token),
            "selected": p == piece,
        }
        for p in PIECES
        if p in by_piece
    ]
    out["colour"] = view["to_move"]
    out["cancel"] = _link(game, {}, token)
    first = view["effect"]["first"]
    if first:  # Double Play: show the first piece the second one must touch at a corner
        for square in first.split(","):
            out["marks"][square] = "first"
    if piece is not None:
        out["target_label"] = "Place {piece} at {square}"
        _orientation_step(
            game,
            piece,
            by_piece[piece],
            {"piece": piece},
            params,
            token,
            out,
            lambda text: {"place": text},
        )


def _warp_panel(game, view, legal, params, token, out) -> None:
    moves: dict[str, list[str]] = defaultdict(list)
    for a in legal:
        moves[a["warp"]].append(a["to"])
    source = params.get("from")
    source = source if source in moves else None
    out["source"] = source
    out["cancel"] = _link(game, {}, token)
    out["sources"] = []
    for old in sorted(moves):
        piece, colour = _piece_of(old), _colour_at(view, old)
        link = _link(game, {"from": old}, token)
        out["sources"].append(
            {
                "piece": piece,
                "colour": colour,
                "squares": old,
                "link": link,
                "selected": old == source,
            }
        )
        for square in old.split(","):
            out["marks"][square] = "lifted" if old == source else "pick"
            if source is None:
                out["targets"][square] = {
                    "link": link,
                    "label": f"Warp {colour} {piece} from {old}",
                    "title": f"{colour} {piece} on {old}",
                }
    if source is not None:
        piece = _piece_of(source)
        out["piece"] = piece
        out["target_label"] = "Warp {piece} to {square}"
        _orientation_step(
            game,
            piece,
            moves[source],
            {"from": source},
            params,
            token,
            out,
            lambda text: {"warp": source, "to": text},
        )


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
