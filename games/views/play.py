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
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST, require_safe

from games import engine, selectors, services
from games.engine import rules
from games.engine.cards import CARD_EFFECTS, CARD_NAMES
from games.engine.pieces import (
    COLUMNS,
    ORIENTATIONS,
    PIECE_SIZE,
    PIECES,
    SHAPE_NAME,
    SHAPES,
    mask_text,
    normalize,
)
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
    last = _last_squares(game, view)
    ctx.update(
        over=view["over"],
        board_html=_board_html(_board(view, last, decision)),
        board_data=_board_data(view, state, last, decision),
        legal=_legal_data(decision) if deciding else None,
        order=_turn_order(state, seats, mine),
        standings=None if view["over"] else _standings(state, seats, mine),
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


def _board_html(board: list[dict]) -> str:
    """The table board's rows. Built here rather than in a template loop: 400 cells rendered by
    the template engine were most of the page's server time."""
    out = []
    for row in board:
        cells = []
        for cell in row["cells"]:
            classes = " ".join(
                c
                for c in ("cell", cell["colour"], "last" if cell["last"] else "", cell["mark"])
                if c
            )
            title = cell["square"] + (f" {cell['colour']}" if cell["colour"] else "")
            title += ", last move" if cell["last"] else ""
            letter = escape(cell["letter"])
            if cell.get("post"):
                inner = (
                    f'<button type="submit" name="action" value="{escape(cell["post"])}" '
                    f'aria-label="{escape(cell["label"])}" title="{escape(cell["title"])}">'
                    f"{letter}</button>"
                )
            elif cell.get("link"):
                link = cell["link"]
                inner = (
                    f'<a href="{escape(link["href"])}" hx-get="{escape(link["hx"])}" '
                    f'aria-label="{escape(cell["label"])}" title="{escape(cell["title"])}">'
                    f"{letter}</a>"
                )
            else:
                inner = letter
            cells.append(f'<td class="{escape(classes)}" title="{escape(title)}">{inner}</td>')
        out.append(
            f'<tr>\n<th scope="row">{row["number"]}</th>\n{"".join(cells)}'
            f'<td class="coord" aria-hidden="true">{row["number"]}</td>\n</tr>'
        )
    return mark_safe("\n".join(out))  # every value above is escaped


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
    return _standings(state, seats, None)


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
    out: dict = {"step": step, "marks": {}, "targets": {}, "legal": legal}
    if step == "card":
        counts = defaultdict(int)
        for kind in view["hand"] or []:
            counts[kind] += 1
        out["options"] = [
            {
                **_card(a["card"]),
                "count": counts[a["card"]],
                "action": json.dumps(a),
                "outlook": _outlook(state, a),
            }
            for a in legal
        ]
    elif step == "keep":
        out["options"] = [
            {**_card(a["keep"]), "action": json.dumps(a), "outlook": _outlook(state, a)}
            for a in legal
        ]
        out["drawn"] = [_card(kind) for kind in view["drawn"]]
    elif step == "declare":
        out["options"] = [
            {"name": a["declare"], "letter": LETTERS[COLOURS.index(a["declare"])]}
            | {"action": json.dumps(a), "placements": _placements_after(state, a)}
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


# -- what the board module draws, and what each choice leads to -----------------------------
#
# static/js/board.js draws the board as SVG from ``board_data`` (public, R9.1) and, for the seat
# deciding a placement or a warp, looks the piece under the pointer up in ``legal`` (the engine's
# legal actions for this step, nothing else: no rule runs in the browser). The server checks the
# submitted action again (``act``).

PLACE_STEPS = ("setup", "place", "place_second")


def _square_names(mask: int) -> list[str]:
    """A board mask's squares, column by column (a1, a2, …, b1) as in the record."""
    text = mask_text(mask)
    return text.split(",") if text else []


def _fitting_anchors(state) -> list[str]:
    """The engine's anchor squares for this placement (R3.1, R4.2, R6.5, R6.6) that some piece
    in supply can cover now."""
    anchors, _, _ = rules.placement_context(state)
    covered = 0
    for value in rules.legal_placements(state):
        covered |= value
    return _square_names(anchors & covered)


def _anchors(state) -> list[str]:
    """Where the colour to move may attach a piece: at a placement step, exactly the engine's
    anchors a legal placement covers; before it (a card to play first), those of an ordinary
    placement of its own colour (R4.2), as a card may still change them."""
    if state.turn is None:
        return []
    if state.step in PLACE_STEPS:
        return _fitting_anchors(state)
    probe = state.copy()  # a copy: the same board and supplies, at a plain placement step
    probe.step, probe.wild, probe.edge, probe.double, probe.first = "place", None, False, False, 0
    return _fitting_anchors(probe)


def _board_data(view: dict, state, last: set[str], decision: dict) -> dict:
    """The public picture (R9.1): board rows (row 20 first), the last move, the anchors of the
    colour to move, the panel's marks, and that colour's supply with the pieces' shapes."""
    colour = view["to_move"]
    tray = list(view["supply"][colour]) if colour else []
    return {
        "ply": view["ply"],
        "board": view["board"],
        "last": sorted(last, key=lambda sq: (sq[0], int(sq[1:]))),
        "toMove": colour,
        "anchors": _anchors(state) if not view["over"] else [],
        "marks": {sq: m for sq, m in decision.get("marks", {}).items() if m != "target"},
        "tray": tray,
        "shapes": {p: SHAPES[p] for p in tray},
    }


def _legal_data(decision: dict) -> dict | None:
    """The deciding seat's legal placements (or warps) at this step, as the record writes them."""
    step = decision.get("step")
    legal = decision.get("legal", [])
    if step in PLACE_STEPS:
        by_piece: dict[str, list[str]] = defaultdict(list)
        for a in legal:
            by_piece[_piece_of(a["place"])].append(a["place"])
        return {"step": step, "placements": by_piece}
    if step != "warp":
        return None
    moves: dict[str, list[str]] = defaultdict(list)
    for a in legal:
        moves[a["warp"]].append(a["to"])
    pieces = {
        s["squares"]: {"piece": s["piece"], "colour": s["colour"]} for s in decision["sources"]
    }
    return {
        "step": step,
        "moves": moves,
        "source": decision.get("source"),
        "pieces": pieces,
        "shapes": {p["piece"]: SHAPES[p["piece"]] for p in pieces.values()},
    }


def _placements_now(before, after) -> int:
    """Legal placements in ``after`` while it is still ``before``'s turn at a placement step; 0
    when the turn passed because no placement existed (R5.3)."""
    if after.turn != before.turn or after.step not in ("place", "place_second"):
        return 0
    if any(e.get("event") in ("pass", "over") for e in after.events):
        return 0
    return len(rules.legal_placements(after))


def _placements_after(state, action: dict) -> int:
    try:
        return _placements_now(state, engine.apply(state, action))
    except engine.IllegalAction:
        return 0


def _count(n: int, word: str = "placement") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _outlook(state, action: dict) -> dict:
    """What playing this card (or keeping this Draw 2 card) leads to this turn: how many
    placements it allows, or a warning when it cannot be carried out and would only be discarded
    (R5.1). Worked out by applying the action to the state (``apply`` returns a new state).

    Draw 2 is never applied: what it leads to depends on the order of the draw pile, which nobody
    may know (R9.3). Only what follows from public counts is said about it.
    """
    kind = action.get("card") or action.get("keep")
    if kind == "draw2":
        pile = len(state.piles[state.owner(state.turn)]) + (1 if "keep" in action else 0)
        if not pile:
            return {"text": "", "warn": "Your draw pile is empty: it would just be discarded."}
        if pile == 1:
            return {"text": "You will see one card, played at once.", "warn": ""}
        return {"text": "You will see two cards and keep one.", "warn": ""}
    try:
        after = engine.apply(state, action)
    except engine.IllegalAction:
        return {"text": "", "warn": ""}
    warn = ""
    if any(e.get("event") == "no_effect" for e in after.events):
        warn = "Can't be carried out now: it would just be discarded."
    if after.step == "declare":
        counts = {c: _placements_after(after, {"declare": c}) for c in COLOURS}
        best = max(COLOURS, key=lambda c: counts[c])
        detail = " · ".join(f"{c} {counts[c]}" for c in COLOURS)
        text = f"Up to {_count(counts[best])} (as {best}): {detail}"
    elif after.step == "recycle":
        options = engine.legal_actions(after)
        most = max((_placements_after(after, a) for a in options), default=0)
        text = f"Take back one of {_count(len(options), 'piece')}, then up to {_count(most)}"
    elif after.step == "warp":
        moves = engine.legal_actions(after)
        sources = len({a["warp"] for a in moves})
        text = f"{_count(len(moves), 'move')} for {_count(sources, 'piece')}, then place"
    else:
        n = _placements_now(state, after)
        text = _count(n) + (", then a second piece" if after.double and n else "")
        if not n:
            warn = warn or "No placement then: you would pass (R5.3)."
    return {"text": text, "warn": warn}


def _turn_order(state, seats: dict[int, Seat], mine: int | None) -> list[dict]:
    """The next four colours to move: the engine's next-colour rule (R7.3) in the direction of
    play (Reverse, R6.2), with the colour a pending Skip passes over (R6.1) marked."""
    if state.turn is None or not state.in_play():
        return []
    in_play = state.in_play()
    order: list[dict] = []
    colour, skip = state.turn, state.skip_pending
    while sum(1 for o in order if not o["skipped"]) < 4:
        colour = rules._next_colour(state, colour, in_play)  # the engine's own rule, not a copy
        seat = state.seat_of(colour)
        order.append(
            {
                "colour": COLOURS[colour],
                "letter": LETTERS[colour],
                "skipped": skip,
                "player": "shared colour" if seat is None else _name(seats.get(seat)),
                "mine": seat is not None and seat == mine,
            }
        )
        skip = False
    return order


def _standings(state, seats: dict[int, Seat], mine: int | None) -> dict:
    """Scores as they stand (R8.3 or R8.4 applied to the board now)."""
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
                "mine": p["seat"] == mine,
            }
            for p in players
        ],
    }
