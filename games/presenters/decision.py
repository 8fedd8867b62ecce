"""The decision panel of the seat deciding now, from its legal actions and their outlooks only
(``engine.table``): a small wizard whose selection (piece, orientation, warp source) travels as
query parameters of GETs (``?piece=F&o=2``, ``?from=c5,c6``). ``link(params)`` makes a selection
link: ``{"href": page url, "hx": panel url}``."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.engine.pieces import ORIENTATIONS, normalize
from games.engine.steps import PLACE_STEPS
from games.translations import colour_letter, colour_name

from .board import cells_of, colour_at, piece_of, tray_order
from .captions import card, outlook_text


def decision(view: dict, legal: list[dict], outlooks: list[dict], params, link) -> dict:
    """What the controller may do now, at the selection in ``params``."""
    step = view["step"]
    out: dict = {"step": step, "marks": {}, "targets": {}, "legal": legal}
    if step == "card":
        counts = Counter(view["hand"] or [])
        out["options"] = [
            {
                **card(a["card"]),
                "count": counts[a["card"]],
                "action": json.dumps(a),
                "outlook": outlook_text(look),
            }
            for a, look in zip(legal, outlooks, strict=True)
        ]
    elif step == "keep":
        out["options"] = [
            {**card(a["keep"]), "action": json.dumps(a), "outlook": outlook_text(look)}
            for a, look in zip(legal, outlooks, strict=True)
        ]
        out["drawn"] = [card(kind) for kind in view["drawn"]]
    elif step == "declare":
        out["options"] = [
            {
                "name": a["declare"],
                "label": colour_name(a["declare"]),
                "letter": colour_letter(a["declare"]),  # in the page's language
                "action": json.dumps(a),
                "placements": look.get("placements", 0),
            }
            for a, look in zip(legal, outlooks, strict=True)
        ]
    elif step == "recycle":
        out["options"] = []
        for a in legal:
            out["options"].append(
                {
                    "piece": piece_of(a["recycle"]),
                    "colour": colour_at(view, a["recycle"]),
                    "colour_name": colour_name(colour_at(view, a["recycle"])),
                    "squares": a["recycle"],
                    "action": json.dumps(a),
                }
            )
            for square in a["recycle"].split(","):
                out["marks"][square] = "pick"
    elif step == "warp":
        _warp_panel(view, legal, params, link, out)
    elif step in PLACE_STEPS:
        _place_panel(view, legal, params, link, out)
    return out


def _piece_picker(pieces: list[tuple[str, dict, bool]]) -> SafeString:
    """The piece picker's items: (piece, its selection link, selected) each. Built here rather
    than in a template loop of up to 21 links (a quarter of a first view's rendering).
    Every value is escaped; the miniatures are ``_mini``'s own HTML."""
    out = []
    choose = _("Choose piece %(piece)s")
    for name, link, selected in pieces:
        label = escape(choose % {"piece": name})
        chosen = " selected" if selected else ""
        current = ' aria-current="true"' if selected else ""
        out.append(
            f'<li><a class="pick{chosen}" href="{escape(link["href"])}" '
            f'hx-get="{escape(link["hx"])}" aria-label="{label}"{current}>'
            f"{_mini(name, 0)} <span>{escape(name)}</span></a></li>"
        )
    return mark_safe("\n".join(out))  # every value above is escaped


@lru_cache(maxsize=512)
def _mini(piece: str, orientation: int) -> str:
    """A small render of one orientation (HTML: the same 91 strings on every page, built once
    rather than by two nested template loops): rows from top to bottom, ``on`` where a square is.
    """
    shape = ORIENTATIONS[piece][orientation]
    cells = set(shape)
    width = max(x for x, _ in shape) + 1
    height = max(y for _, y in shape) + 1
    spans = "".join(
        '<span class="on"></span>' if (x, y) in cells else "<span></span>"
        for y in range(height - 1, -1, -1)
        for x in range(width)
    )
    return mark_safe(f'<span class="mini" style="--w: {width}" aria-hidden="true">{spans}</span>')


@lru_cache(maxsize=65536)
def _orientation_of(piece: str, text: str) -> int:
    return ORIENTATIONS[piece].index(normalize(cells_of(text)))


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _orientation_step(piece: str, texts: list[str], base: dict, params, link, out, make_action):
    """Orientations of ``piece`` with a legal spot, then (once one is picked) its spots: each
    marked on the board at its first square (column, then row), which a translation moves."""
    by_o: dict[int, list[str]] = defaultdict(list)
    for text in texts:
        by_o[_orientation_of(piece, text)].append(text)
    o = _int(params.get("o"))
    if o not in by_o:
        o = next(iter(by_o)) if len(by_o) == 1 else None
    out["orientations"] = [
        {
            "index": i,
            "mini_html": _mini(piece, i),
            "link": link({**base, "o": i}),
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
        out["targets"][anchor] = {
            "post": json.dumps(make_action(text)),
            "label": out["target_label"] % {"piece": piece, "square": anchor},
            "title": _("%(piece)s on %(squares)s") % {"piece": piece, "squares": text},
        }
        out["marks"].setdefault(anchor, "target")


def placements_by_piece(legal: list[dict]) -> dict[str, list[str]]:
    """The legal placements (``{"place": text}`` actions, in order) grouped by piece."""
    by_piece: dict[str, list[str]] = defaultdict(list)
    for a in legal:
        text = a["place"]
        by_piece[piece_of(text)].append(text)
    return by_piece


def _place_panel(view, legal, params, link, out) -> None:
    by_piece = out["by_piece"] = placements_by_piece(legal)  # board.legal_data reuses it
    out["supply"] = view["supply"][view["to_move"]]  # the tray's pieces (board.legal_data)
    piece = params.get("piece")
    piece = piece if piece in by_piece else None
    out["piece"] = piece
    out["pieces_html"] = _piece_picker(
        [(p, link({"piece": p}), p == piece) for p in tray_order(by_piece)]
    )
    out["colour"] = view["to_move"]
    out["colour_name"] = colour_name(view["to_move"])
    out["cancel"] = link({})
    first = view["effect"]["first"]
    if first:  # Double Play: show the first piece the second one must touch at a corner
        for square in first.split(","):
            out["marks"][square] = "first"
    if piece is not None:
        out["target_label"] = _("Place %(piece)s at %(square)s")
        _orientation_step(
            piece, by_piece[piece], {"piece": piece}, params, link, out, lambda t: {"place": t}
        )


def _warp_panel(view, legal, params, link, out) -> None:
    moves: dict[str, list[str]] = defaultdict(list)
    for a in legal:
        moves[a["warp"]].append(a["to"])
    source = params.get("from")
    source = source if source in moves else None
    out["source"] = source
    out["cancel"] = link({})
    out["sources"] = []
    for old in sorted(moves):
        piece, colour = piece_of(old), colour_at(view, old)
        pick = link({"from": old})
        out["sources"].append(
            {
                "piece": piece,
                "colour": colour,
                "colour_name": colour_name(colour),
                "squares": old,
                "link": pick,
                "selected": old == source,
            }
        )
        words = {"colour": colour_name(colour), "piece": piece, "squares": old}
        for square in old.split(","):
            out["marks"][square] = "lifted" if old == source else "pick"
            if source is None:
                out["targets"][square] = {
                    "link": pick,
                    "label": _("Warp %(colour)s %(piece)s from %(squares)s") % words,
                    "title": _("%(colour)s %(piece)s on %(squares)s") % words,
                }
    if source is not None:
        piece = piece_of(source)
        out["piece"] = piece
        out["target_label"] = _("Warp %(piece)s to %(square)s")
        _orientation_step(
            piece,
            moves[source],
            {"from": source},
            params,
            link,
            out,
            lambda t: {"warp": source, "to": t},
        )
