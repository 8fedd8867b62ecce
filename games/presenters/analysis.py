"""The post-game analysis on the replay page: pure, plain data in, context out.

Input: ``selectors.analysis.AnalysisData``'s fields as plain values (the decisions as dicts,
each seat's accuracy), the seats' colours and labels. Output: the progress bar, the chart of each
player's estimated chance to win turn by turn (an SVG drawn here, each point a link to the replay
at that decision), each player's three biggest mistakes, and, for the decision after the position
shown, what was played, the best alternative (its squares: the board's ghost; the move played's
squares beside it) and the drop. Every number comes from the rows' ``before`` and ``after``: the
chart, the mistakes and the panel quote the same two, rounded the same way.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.pieces import W, parse_squares, shape_of_mask, squares_of
from games.engine.state import COLOURS
from games.translations import card_name, colour_name

from . import log
from .captions import player_label
from .replay import COLUMNS

CHART_W, CHART_H = 600, 240  # the SVG's user units (it scales to the page's width)
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 72, 12, 12, 50  # room for the axes' names
MISTAKES = 3  # listed per player
MISTAKE_FLOOR = 0.02  # a drop below this is noise, not a mistake
# A Shuffle game's judgements share each search's simulations between this many sampled guesses
# of the hidden cards (games.ai.judge.WORLDS: the presenters do not import the AI; a test holds
# the two equal), for the page's note.
SHUFFLE_WORLDS = 2


def percent(value: float) -> int:
    return round(100 * value)


def _squares(text: str) -> list[str]:
    return [f"{COLUMNS[i % W]}{i // W + 1}" for i in squares_of(parse_squares(text))]


def _piece(text: str) -> str:
    try:
        return shape_of_mask(parse_squares(text)) or "?"
    except ValueError:
        return "?"


def action_text(action: dict) -> str:
    """An action in words: "Z5 on k9", "card: Wild", "declare: red", "recycle V3 (c5)"."""
    if "place" in action:
        text = action["place"]
        return _("%(piece)s on %(square)s") % {"piece": _piece(text), "square": _first(text)}
    if "card" in action or "keep" in action:
        kind = action.get("card") or action.get("keep")
        if "card" in action:
            return _("card: %(card)s") % {"card": card_name(kind)}
        return _("keep: %(card)s") % {"card": card_name(kind)}
    if "declare" in action:
        return _("declare: %(colour)s") % {"colour": colour_name(action["declare"])}
    if "recycle" in action:
        text = action["recycle"]
        return _("recycle %(piece)s from %(square)s") % {
            "piece": _piece(text),
            "square": _first(text),
        }
    if "warp" in action:
        return _("warp %(piece)s from %(square)s to %(to)s") % {
            "piece": _piece(action["warp"]),
            "square": _first(action["warp"]),
            "to": _first(action["to"]),
        }
    return "?"


def _first(text: str) -> str:
    """The piece's first square as the board names it (column, then row: the lowest left)."""
    names = _squares(text)
    return min(names, key=lambda n: (COLUMNS.index(n[0]), int(n[1:]))) if names else "?"


def _ghost(action: dict) -> list[str]:
    """The squares the best alternative would cover (placements, and a warp's destination)."""
    if "place" in action:
        return _squares(action["place"])
    if "to" in action:
        return _squares(action["to"])
    return []


def _seat_colour(seat: int, colour_seats: dict) -> str:
    return next((c for c, s in colour_seats.items() if s == seat), COLOURS[seat % 4])


def _label(seat: int, labels: dict) -> str:
    return labels.get(seat) or player_label(seat)


def progress(status: str, done: int, total: int) -> dict:
    """The bar's figures; ``second``: every decision is judged and the biggest drops are being
    judged again (games.ai.judge.next_to_refine): the bar has no end to show then."""
    return {
        "status": status,
        "done": done,
        "total": total,
        "percent": percent(done / total) if total else 100,
        "second": bool(total) and done >= total,
    }


def turn_spans(rows: list[tuple[int, int, list]], classic: bool) -> list[tuple[int, int, int]]:
    """The game's turns as the replay numbers them (the move log's grouping, log.turns): (turn
    number, first action, last action), oldest first. ``rows``: (ply, seat, public events)."""
    grouped = log.turns(rows, classic=classic, colour_labels={}, mine=set(), replay_url="")
    return [(t["number"], t["first_ply"], t["ply"]) for t in reversed(grouped["turns"])]


def _places(spans: list[tuple[int, int, int]], total: int) -> dict[int, tuple[int, float, float]]:
    """Each action's turn and where it sits on the chart's turn axis: (turn, start, end), the
    turn ``n`` spanning ``n - 1`` to ``n``, shared by its actions in order. Without turns, each
    action is a turn of its own."""
    spans = spans or [(p, p, p) for p in range(1, total + 1)]
    out: dict[int, tuple[int, float, float]] = {}
    for number, first, last in spans:
        count = last - first + 1
        for ply in range(first, last + 1):
            start = number - 1 + (ply - first) / count
            out[ply] = (number, start, start + 1 / count)
    for ply in range(1, total + 1):
        if ply not in out:  # an action without events (none today): the turn before it
            number = max((n for n, first, _last in spans if first <= ply), default=1)
            out[ply] = (number, number - 1, number)
    return out


def _tick_step(turns: int) -> int:
    """Every how many turns the axis names one: at most about eight names."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100):
        if turns / step <= 8:
            return step
    return 200


def chart(
    decisions: list[dict],
    total: int,
    colour_seats: dict,
    labels: dict,
    spans: list[tuple[int, int, int]] | None = None,
    mistakes: set[int] | frozenset = frozenset(),
):
    """Each player's estimated chance to win at each of their own decisions, on an axis of
    turns, as SVG polylines and linked points, from the same rows as the mistakes and the
    accuracy: at a decision the line goes from ``before`` (the chance with the best move found)
    to ``after`` (the chance after the move played, the linked point), so that a drop on the
    chart is the drop the mistakes list names, number for number. Between two of a player's
    decisions the line joins two searches (the other players moved in between, and the hidden
    cards were guessed anew). ``mistakes``: the plies the mistake lists name, marked with a
    triangle. Each line is one player's own judgement (with two players, 1 minus the other line
    would mix the search's optimism for the side it searches with its pessimism for the other)."""
    places = _places(spans or [], total)
    turns = max((t for t, _s, _e in places.values()), default=1)
    span = max(1, turns)
    inner_w = CHART_W - PAD_LEFT - PAD_RIGHT
    inner_h = CHART_H - PAD_TOP - PAD_BOTTOM

    def x(at: float) -> float:
        return round(PAD_LEFT + inner_w * at / span, 1)

    def y(value: float) -> float:
        return round(PAD_TOP + inner_h * (1.0 - value), 1)

    lines = []
    for seat in sorted({d["seat"] for d in decisions if d["judged"]}):
        mine = [d for d in decisions if d["judged"] and d["seat"] == seat]
        colour = _seat_colour(seat, colour_seats)
        path, points = [], []
        for d in mine:
            turn, start, end = places[d["ply"]]
            before, after = percent(d["before"]), percent(d["after"])
            path.append(f"{x(start)},{y(d['before'])}")
            path.append(f"{x(end)},{y(d['after'])}")
            points.append(
                {
                    "x": x(end),
                    "y": y(d["after"]),
                    "x0": x(start),
                    "y0": y(d["before"]),
                    "ply": d["ply"],
                    "turn": turn,
                    "goto": d["ply"] - 1,
                    "before": before,
                    "after": after,
                    "lost": max(0, before - after),
                    "mistake": d["ply"] in mistakes,
                    "mark": _triangle(x(end), y(d["after"]), CHART_H - PAD_BOTTOM),
                }
            )
        lines.append(
            {
                "seat": seat,
                "colour": colour,
                "label": _label(seat, labels),
                "path": " ".join(path),
                "points": points,
            }
        )
    grid = [{"y": y(v), "label": f"{percent(v)}%"} for v in (0.0, 0.25, 0.5, 0.75, 1.0)]
    step = _tick_step(turns)
    ticks = [{"x": x(n - 0.5), "label": n} for n in range(1, turns + 1) if n == 1 or n % step == 0]
    return {
        "width": CHART_W,
        "height": CHART_H,
        "lines": lines,
        "grid": grid,
        "ticks": ticks,
        "turns": turns,
        "left": PAD_LEFT,
        "right": CHART_W - PAD_RIGHT,
        "top": PAD_TOP,
        "bottom": CHART_H - PAD_BOTTOM,
        "x_title": {"x": round(PAD_LEFT + inner_w / 2, 1), "y": CHART_H - 6},
        "y_title": {"x": 20, "y": round(PAD_TOP + inner_h / 2, 1)},
    }


def _triangle(x: float, y: float, bottom: float) -> str:
    """A listed mistake's mark: a triangle pointing down, under its point (over it when the
    point is too near the axis)."""
    top = round(y + 5 if y + 15 <= bottom else y - 15, 1)
    return f"{round(x - 6, 1)},{top} {round(x + 6, 1)},{top} {x},{round(top + 10, 1)}"


def _mistake(d: dict, base_url: str, turn: int, sims: int) -> dict:
    before, after = percent(d["before"]), percent(d["after"])
    return {
        "ply": d["ply"],
        "turn": turn,
        "href": f"{base_url}?ply={d['ply'] - 1}",
        "played": action_text(d["played"]),
        "best": action_text(d["best"]),
        "before": before,
        "after": after,
        # the difference of the two numbers shown, so that the line adds up as it reads
        "lost": max(0, before - after),
        "colour": d["colour"],
        "deep": d["sims"] if sims and d["sims"] > sims else 0,
    }


def worst(decisions: list[dict], seat: int) -> list[dict]:
    """The player's biggest drops (at least MISTAKE_FLOOR), biggest first, MISTAKES of them."""
    mine = [d for d in decisions if d["seat"] == seat and d["judged"]]
    return sorted(
        (d for d in mine if d["loss"] >= MISTAKE_FLOOR), key=lambda d: (-d["loss"], d["ply"])
    )[:MISTAKES]


def players(
    decisions,
    accuracy: dict,
    colour_seats: dict,
    labels: dict,
    base_url: str,
    spans: list[tuple[int, int, int]] | None = None,
    sims: int = 0,
):
    """Per player: accuracy, decisions judged, their three biggest mistakes (biggest first),
    each with the turn the chart shows it at and the same two estimates the chart draws; a
    mistake judged again deeper (``sims`` more than the analysis's) says so."""
    total = max((d["ply"] for d in decisions), default=0)
    places = _places(spans or [], total)
    out = []
    for seat in sorted(accuracy):
        mine = [d for d in decisions if d["seat"] == seat and d["judged"]]
        out.append(
            {
                "seat": seat,
                "label": _label(seat, labels),
                "colour": _seat_colour(seat, colour_seats),
                "accuracy": accuracy[seat],
                "judged": len(mine),
                "mistakes": [
                    _mistake(d, base_url, places[d["ply"]][0], sims) for d in worst(decisions, seat)
                ],
            }
        )
    return out


def here(decisions: list[dict], ply: int, sims: int = 0) -> dict | None:
    """The decision taken in the position after ``ply`` actions (the action ``ply + 1``), with
    the same two estimates as the chart and the mistake list; ``deep``: it was judged again with
    more than the analysis's ``sims``."""
    d = next((d for d in decisions if d["ply"] == ply + 1), None)
    if d is None:
        return None
    same = d["best"] == d["played"] or d["loss"] == 0.0
    before, after = percent(d["before"]), percent(d["after"])
    return {
        "ply": d["ply"],
        "colour": d["colour"],
        "colour_name": colour_name(d["colour"]),
        "played": action_text(d["played"]),
        "best": action_text(d["best"]),
        "same": same,
        "before": before,
        "after": after,
        "lost": max(0, before - after),
        "sims": d["sims"],
        "deep": d["sims"] if sims and d["sims"] > sims else 0,
        "judged": d["judged"],
        "ghost": [] if same else _ghost(d["best"]),
        # the move played, beside the ghost, so that the board shows the two side by side
        "next": [] if same else _ghost(d["played"]),
    }


def mark_ghost(position: dict, squares: list[str], played: list[str] = ()) -> dict:
    """The replay's position with ``squares`` marked as the best alternative's ghost and
    ``played`` as the move played next (each drawn its own way: replay.css, and named in the
    board's legend)."""
    if not squares and not played:
        return position
    wanted, next_ = set(squares), set(played)
    for row in position["rows"]:
        for sq in row["squares"]:
            sq["ghost"] = sq["name"] in wanted
            sq["next"] = sq["name"] in next_
    position["marks"] = {
        **position.get("marks", {}),
        "ghost": bool(wanted),
        "next": bool(next_),
    }
    return position


def panel(
    data, *, colour_seats: dict, labels: dict, base_url: str, spans=None, shuffle: bool = False
) -> dict:
    """The analysis section under the replay (``data``: selectors.analysis.AnalysisData;
    ``spans``: the game's turns, turn_spans; ``shuffle``: a Shuffle game, whose searches are
    shared between ``SHUFFLE_WORLDS`` guesses of the hidden cards)."""
    out = {"progress": progress(data.status, data.done, data.total), "sims": data.sims}
    out["worlds"] = SHUFFLE_WORLDS if shuffle else 1
    out["world_sims"] = data.sims // out["worlds"]
    out["finished"] = data.finished
    out["in_flight"] = data.in_flight
    out["place"] = data.place
    out["failed"] = not data.finished and not data.in_flight
    if data.finished:
        # The biggest drops judged again deeper (games.ai.judge.next_to_refine): the note
        # names that search's depth too, since each row's estimate is at the depth it was judged
        # at (a drop judged deep twice holds the mean of two such searches, and its own line
        # names the simulations behind it: both searches').
        deeper = [d["sims"] for d in data.decisions if d["sims"] > data.sims]
        out["deep_sims"] = min(deeper, default=0)
        out["players"] = players(
            data.decisions, data.accuracy, colour_seats, labels, base_url, spans, data.sims
        )
        listed = {m["ply"] for p in out["players"] for m in p["mistakes"]}
        out["chart"] = chart(data.decisions, data.total, colour_seats, labels, spans, listed)
    return out
