"""The game page's context, from the viewer's ``engine.view`` and ``engine.table`` only.

``snapshot`` is ``{"view": engine.view(state, seat), "table": engine.table(state, seat)}``
(``selectors.table.seat_snapshot``): what this seat may know (R9), plus, for the seat deciding
now, its legal actions and their outlooks. No function here is handed a State.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.engine.pieces import PIECE_SIZE
from games.engine.state import COLOURS
from games.translations import colour_letter, colour_name, step_text, verdict_reason

from . import board, log
from .captions import card, event_text, standings
from .decision import decision as build_decision


def joining(facts) -> dict:
    """The seats before the start, who is missing, and whether the viewer may join or leave.
    ``facts`` is ``selectors.table.table_facts``: plain data, no model."""
    layout = engine.new_game(  # classic mode: only the seat-to-colour layout (R2.5), no decks
        mode="classic", players=facts.players, shared_color=facts.shared_color or None
    )
    colour_seats = engine.table(layout, None)["colour_seats"]
    rows = [
        {
            "number": s.index + 1,
            "label": s.label,
            "colours": [
                {"key": c, "name": colour_name(c)} for c, i in colour_seats.items() if i == s.index
            ]
            if facts.seating_known
            else [],
            "missing": s.missing,
        }
        for s in facts.seats
    ]
    return {
        "joining": True,
        "seat_rows": rows,
        "missing": sum(1 for row in rows if row["missing"]),
        "can_join": bool(facts.joinable),
        "invited": facts.joinable == "invited",  # the viewer holds an invitation: Accept/Decline
        "can_leave": facts.viewer is not None and facts.open,
        "is_creator": facts.viewer_is_creator,
    }


def playing(
    facts,
    labels: dict[int, str],
    snapshot: dict,
    params,
    link,
    earlier_events,
    *,
    log_rows: list | None = None,
    replay_url: str = "",
    clock: dict | None = None,
    profiles: dict[int, str] | None = None,
) -> dict:
    """Everything the page shows once the game has started. ``log_rows`` are the actions'
    (ply, seat, public events) for the move log; ``clock`` the running turn's deadline;
    ``profiles`` each seat's player's profile address ("" for the computer): the names link to
    them. ``facts`` is ``selectors.table.table_facts``: plain data, no model."""
    profiles = profiles or {}
    view, table = snapshot["view"], snapshot["table"]
    mine = facts.viewer
    deciding = (
        facts.active
        and mine is not None
        and view["controller"] == mine
        and not facts.viewer_taken_over
    )
    decision = (
        build_decision(view, table["legal"], table["outlooks"], params, link) if deciding else {}
    )
    last = board.last_squares(view, earlier_events)

    resigned = set(view.get("resigned") or [])

    def name(index: int | None) -> str:
        if index is None:
            return "?"
        label = labels.get(index, "?")
        return _("%(name)s (resigned)") % {"name": label} if index in resigned else label

    colour_seats = table["colour_seats"]
    my_colours = {c for c, s in colour_seats.items() if mine is not None and s == mine}
    colour_labels = {
        c: (_("shared colour") if s is None else name(s)) for c, s in colour_seats.items()
    }
    colours = _colours(view, table, name, profiles)
    _add_decks_and_clock(colours, view, table, facts.active, clock, my_colours)
    step = decision.get("step")
    turns = log.turns(
        log_rows or [],
        classic=view["mode"] != "shuffle",
        colour_labels=colour_labels,
        mine=my_colours,
        replay_url=replay_url,
        seat_names=labels,
        shared=next((c for c, s in colour_seats.items() if s is None), None),
        colour_seats=colour_seats,
        profiles=profiles,
    )
    return {
        "log": turns,
        "log_items": log.items_html(turns["turns"]),
        "result": (
            _result(table["score"], labels, mine, colours, profiles) if view["over"] else None
        ),
        "clock": clock,
        "over": view["over"],
        "board_html": board.board_html(view, last, decision),
        "board_head": board.COLUMN_HEAD,
        "board_foot": board.COLUMN_FOOT,
        "board_data": board.board_data(view, table["anchors"], last, decision),
        "legal": board.legal_data(decision) if deciding else None,
        "board_text": board.script_text(
            decision.get("step"), _tray_player(view, colour_labels, my_colours)
        ),
        "order": _order(table, name, mine),
        "standings": (None if view["over"] else standings(table["score"], labels, mine, profiles)),
        "board_form": any("post" in t for t in decision.get("targets", {}).values()),
        "colours": colours,
        "decks": _decks(view, table, name),
        "turn": _turn(facts.aborted, view, table, name, mine),
        # One hand on the page: while a card is chosen, the cards to play are the hand.
        "hand": None if step == "card" else _hand(view, mine),
        "events": [event_text(e) for e in view["events"]],
        "decision": decision,
        "deciding": deciding,
        "ply": facts.ply,
        "scores": standings(table["score"], labels, profiles=profiles) if view["over"] else None,
        "poll": facts.active and not deciding,
    }


def _tray_player(view: dict, colour_labels: dict, my_colours: set[str]) -> str:
    """Who moves the colour whose pieces the tray shows: "you", a player's name or the shared
    colour's words."""
    colour = view["to_move"]
    if colour is None:
        return ""
    return _("you") if colour in my_colours else colour_labels.get(colour, "")


def _order(table: dict, name, mine: int | None) -> list[dict]:
    """The next four colours to move (``engine.turn_order``), a pending Skip's victim marked."""
    return [
        {
            "colour": o["colour"],
            "label": colour_name(o["colour"]),
            "letter": colour_letter(o["colour"]),
            "skipped": o["skipped"],
            "player": _("shared colour") if o["seat"] is None else name(o["seat"]),
            "mine": o["seat"] is not None and o["seat"] == mine,
        }
        for o in table["order"]
    ]


def _colours(view: dict, table: dict, name, profiles: dict[int, str]) -> list[dict]:
    out = []
    for c, colour in enumerate(COLOURS):
        supply = view["supply"][colour]
        owner_seat = table["colour_seats"][colour]
        shared = view["players"] == 3 and owner_seat is None
        out.append(
            {
                "name": colour,
                "label": colour_name(colour),
                "letter": colour_letter(COLOURS[c]),
                "player": _("shared colour") if shared else name(owner_seat),
                "player_url": "" if owner_seat is None else profiles.get(owner_seat, ""),
                "supply": supply,
                "remaining": sum(PIECE_SIZE[p] for p in supply),
                "passed": colour in view["passed"],
                "to_move": view["to_move"] == colour,
                "in_play": bool(supply),
            }
        )
    return out


def _add_decks_and_clock(
    colours: list[dict], view: dict, table: dict, active: bool, clock, my_colours: set
) -> None:
    """Each colour panel's deck counts (its own deck: the shared colour has none, R2.5), its
    points so far, and the clock of the colour to move."""
    decks = {d["owner"]: d for d in _decks(view, table, lambda i: "")}
    points = table["score"]["points"]
    for c in colours:
        c["deck"] = decks.get(c["name"])
        c["points"] = points.get(c["name"])
        c["mine"] = c["name"] in my_colours
        c["clock"] = clock if c["to_move"] and active else None


def _result(
    score: dict, labels: dict, mine: int | None, colours: list[dict], profiles: dict[int, str]
) -> dict:
    """The end of game: winner(s), the viewer's place, each player's and colour's points, the
    bonuses of advanced scoring explained (R8.3, R8.4)."""
    table = standings(score, labels, mine, profiles)
    players = score["players"]
    winners = [labels.get(p["seat"], "?") for p in players if p["place"] == 1]
    me = next((p for p in players if p["seat"] == mine), None)
    advanced = score["scoring"] != "basic"
    lines = []
    for c in colours:
        points = score["points"][c["name"]]
        lines.append({**c, "final": points, "why": _why(score, c["name"], points, advanced)})
    return {
        "winners": winners,
        "winners_text": _names(winners),
        "tie": len(winners) > 1,
        "place": me["place"] if me else None,
        "of": len(players),
        "won": me is not None and me["place"] == 1,
        "table": table,
        "colours": lines,
        "advanced": advanced,
    }


def _names(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _why(score: dict, colour: str, points: int, advanced: bool) -> str:
    """How a colour's final points came about (R8.3, R8.4)."""
    if not advanced:
        return _("squares left in its supply (R8.3)")
    left = score["remaining"][colour]
    if left:
        return ngettext(
            "−1 for each of %(n)s square left (R8.4)",
            "−1 for each of %(n)s squares left (R8.4)",
            left,
        ) % {"n": left}
    if points == 20:
        return _("every piece placed: +15, and +5 for the 1 placed last (R8.4)")
    return _("every piece placed: +15 (R8.4)")


def _decks(view: dict, table: dict, name) -> list[dict]:
    """Each deck's public counts and discard top (R9.1). After the end the view holds whole
    hands and piles (R9.4): only their sizes are used here."""
    out = []
    for owner, discards in view["discards"].items():
        if "hand_counts" in view:
            hand, pile = view["hand_counts"][owner], view["pile_counts"][owner]
        else:
            hand, pile = len(view["hands"][owner]), len(view["draw_piles"][owner])
        top = card(discards[-1]) if discards else None
        out.append(
            {
                "owner": owner,
                "owner_name": colour_name(owner),
                "player": name(table["colour_seats"][owner]),
                "top": top["name"] if top else "",
                "top_effect": top["effect"] if top else "",
                "discarded": len(discards),
                "hand_count": hand,
                "pile_count": pile,
            }
        )
    return out


def _turn(aborted: bool, view: dict, table: dict, name, mine: int | None) -> dict:
    effect = view["effect"]
    effects = []
    if effect["wild"]:
        effects.append(
            _("Wild: placing as if %(colour)s") % {"colour": colour_name(effect["wild"])}
        )
    if effect["edge"]:
        effects.append(_("Edge to Edge: the piece must share a side with your colours"))
    if effect["double"]:
        effects.append(_("Double Play: a second piece follows"))
    if view["skip_pending"]:
        effects.append(_("Skip: the next colour loses its turn"))
    controller = view["controller"]
    colour = view["to_move"]
    return {
        "colour": colour,
        "label": colour_name(colour),
        "letter": colour_letter(colour),
        "player": name(controller) if controller is not None else "",
        "shared": colour is not None and table["colour_seats"][colour] is None,
        "mine": controller is not None and controller == mine,
        "step": view["step"],
        "step_text": step_text(view["step"], yours=controller is not None and controller == mine),
        "direction": _direction(view["direction"]),
        "effects": effects,
        "drawn_count": view.get("drawn_count", 0),
        "aborted": aborted,
    }


def _direction(direction: int) -> str:
    """The turn order in the current direction (R7.1), in colour names."""
    order = COLOURS if direction == 1 else (COLOURS[0], *reversed(COLOURS[1:]))
    return " → ".join(colour_name(c) for c in order)


def _hand(view: dict, mine: int | None) -> dict | None:
    """The viewer's own hand (R9.2): None for spectators, classic games and finished games."""
    if mine is None or view["over"] or view.get("hand") is None:
        return None
    return {
        "cards": [card(kind) for kind in view["hand"]],
        "bottom": [card(kind)["name"] for kind in view.get("pile_bottom", [])],
    }


def shuffle(view: dict, verdict: dict | None) -> dict | None:
    """The shuffle's commitment (public from the start) and, once the game is over, its seed,
    salt and the server's own check of them (``engine.verify`` of the full record)."""
    if view.get("mode") != "shuffle" or not view.get("commitment"):
        return None
    out = {"commitment": view["commitment"], "over": bool(view.get("over"))}
    if out["over"]:  # R9.4: everything may be shown now
        if verdict is not None:  # the check's sentence in the reader's language
            verdict = {**verdict, "reason": verdict_reason(verdict)}
        out.update(seed=view.get("seed"), salt=view.get("salt"), verdict=verdict)
    return out
