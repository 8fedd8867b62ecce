"""The post-game analysis on the replay page: pure, plain data in, context out.

Input: ``selectors.analysis.AnalysisData``'s fields as plain values (the decisions as dicts,
each seat's accuracy), the seats' colours and labels. Output: the progress bar, the chart of each
player's estimated chance to win by ply (an SVG drawn here, each point a link to the replay at
that decision), each player's three biggest mistakes, and, for the decision after the position
shown, what was played, the best alternative (its squares: the board's ghost) and the drop.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.pieces import W, parse_squares, shape_of_mask, squares_of
from games.engine.state import COLOURS
from games.translations import card_name, colour_name

from .captions import player_label
from .replay import COLUMNS

CHART_W, CHART_H = 600, 200  # the SVG's user units (it scales to the page's width)
PAD_X, PAD_Y = 38, 10
MISTAKES = 3  # listed per player
MISTAKE_FLOOR = 0.02  # a drop below this is noise, not a mistake


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


def chart(decisions: list[dict], players: int, total: int, colour_seats: dict, labels: dict):
    """Each player's estimate after each of their own decisions, as SVG polylines and linked
    points. Each line is one player's own judgement, made the same way at each point (with two
    players, 1 minus the other line would mix the search's optimism for the side it searches
    with its pessimism for the other, and zigzag)."""
    series: dict[int, list[tuple[int, float]]] = {}
    for d in decisions:
        if not d["judged"]:
            continue
        series.setdefault(d["seat"], []).append((d["ply"], d["after"]))
    span = max(1, total)
    inner_w, inner_h = CHART_W - PAD_X - 8, CHART_H - 2 * PAD_Y

    def x(ply: int) -> float:
        return round(PAD_X + inner_w * ply / span, 1)

    def y(value: float) -> float:
        return round(PAD_Y + inner_h * (1.0 - value), 1)

    lines = []
    for seat in sorted(series):
        points = series[seat]
        colour = _seat_colour(seat, colour_seats)
        lines.append(
            {
                "seat": seat,
                "colour": colour,
                "label": _label(seat, labels),
                "path": " ".join(f"{x(p)},{y(v)}" for p, v in points),
                "points": [
                    {"x": x(p), "y": y(v), "ply": p, "goto": p - 1, "percent": percent(v)}
                    for p, v in points
                ],
            }
        )
    grid = [{"y": y(v), "label": f"{percent(v)}%"} for v in (0.0, 0.25, 0.5, 0.75, 1.0)]
    return {
        "width": CHART_W,
        "height": CHART_H,
        "lines": lines,
        "grid": grid,
        "left": PAD_X,
        "right": CHART_W - 8,
    }


def _mistake(d: dict, base_url: str) -> dict:
    return {
        "ply": d["ply"],
        "href": f"{base_url}?ply={d['ply'] - 1}",
        "played": action_text(d["played"]),
        "best": action_text(d["best"]),
        "lost": percent(d["loss"]),
        "colour": d["colour"],
    }


def players(decisions, accuracy: dict, colour_seats: dict, labels: dict, base_url: str):
    """Per player: accuracy, decisions judged, their three biggest mistakes (biggest first)."""
    out = []
    for seat in sorted(accuracy):
        mine = [d for d in decisions if d["seat"] == seat and d["judged"]]
        worst = sorted(
            (d for d in mine if d["loss"] >= MISTAKE_FLOOR), key=lambda d: (-d["loss"], d["ply"])
        )[:MISTAKES]
        out.append(
            {
                "seat": seat,
                "label": _label(seat, labels),
                "colour": _seat_colour(seat, colour_seats),
                "accuracy": accuracy[seat],
                "judged": len(mine),
                "mistakes": [_mistake(d, base_url) for d in worst],
            }
        )
    return out


def here(decisions: list[dict], ply: int) -> dict | None:
    """The decision taken in the position after ``ply`` actions (the action ``ply + 1``)."""
    d = next((d for d in decisions if d["ply"] == ply + 1), None)
    if d is None:
        return None
    same = d["best"] == d["played"] or d["loss"] == 0.0
    return {
        "ply": d["ply"],
        "colour": d["colour"],
        "colour_name": colour_name(d["colour"]),
        "played": action_text(d["played"]),
        "best": action_text(d["best"]),
        "same": same,
        "before": percent(d["before"]),
        "after": percent(d["after"]),
        "lost": percent(d["loss"]),
        "sims": d["sims"],
        "judged": d["judged"],
        "ghost": [] if same else _ghost(d["best"]),
    }


def mark_ghost(position: dict, squares: list[str]) -> dict:
    """The replay's position with ``squares`` marked as the best alternative's ghost."""
    if not squares:
        return position
    wanted = set(squares)
    for row in position["rows"]:
        for sq in row["squares"]:
            sq["ghost"] = sq["name"] in wanted
    return position


def panel(data, *, players_count: int, colour_seats: dict, labels: dict, base_url: str) -> dict:
    """The analysis section under the replay (``data``: selectors.analysis.AnalysisData)."""
    out = {"progress": progress(data.status, data.done, data.total), "sims": data.sims}
    out["finished"] = data.finished
    out["in_flight"] = data.in_flight
    out["place"] = data.place
    out["failed"] = not data.finished and not data.in_flight
    if data.finished:
        # The biggest drops judged again deeper (games.ai.judge.next_to_refine): the note
        # names that depth too, since each row's estimate is at the depth it was judged at.
        deep = max((d["sims"] for d in data.decisions), default=0)
        out["deep_sims"] = deep if deep > data.sims else 0
        out["chart"] = chart(data.decisions, players_count, data.total, colour_seats, labels)
        out["players"] = players(data.decisions, data.accuracy, colour_seats, labels, base_url)
    return out
