"""What the board module (static/js/board.js) reads from the game page, checked without a browser.

The browser finds legality only in ``#legal``: the engine's legal actions for the step, sent to
the seat deciding it and to nobody else. ``#board-data`` is public. The card buttons say what each
card would lead to, counted by the engine, and never anything that depends on hidden cards.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest

from games import engine
from games.engine.pieces import PIECE_SIZE, parse_squares, shape_of_mask
from games.engine.rules import legal_placements
from tests.engine.helpers import make_state, play
from tests.support.pages import client_for, page_url, play_setup, post_action, save_state

pytestmark = pytest.mark.django_db

CORNERS = {"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]}


def two_player(**kwargs):
    kwargs.setdefault("pieces", CORNERS)
    return make_state(players=2, **kwargs)


def embedded(content: str, node_id: str):
    match = re.search(rf'<script id="{node_id}" type="application/json">(.*?)</script>', content)
    return json.loads(match.group(1)) if match else None


def outlooks(content: str) -> dict[str, str]:
    pattern = r'<span class="outlook" id="outlook-(\w+)">(.*?)</span>\s*</button>'
    found = re.findall(pattern, content, re.S)
    return {kind: " ".join(re.sub(r"<[^>]+>", " ", text).split()) for kind, text in found}


def by_piece(actions) -> dict[str, list[str]]:
    out = defaultdict(list)
    for a in actions:
        out[shape_of_mask(parse_squares(a["place"]))].append(a["place"])
    return dict(out)


def test_only_the_deciding_seat_gets_the_legal_placements(duel, alice, bob, carol):
    content = {
        u.username: client_for(u).get(page_url(duel)).content.decode() for u in (alice, bob, carol)
    }
    state = engine.new_game(mode="shuffle", players=2, seed=duel.seed)

    legal = embedded(content["alice"], "legal")
    assert legal["step"] == "setup"
    assert legal["placements"] == by_piece(engine.legal_actions(state))
    assert 'id="board-act"' in content["alice"] and 'name="ply" value="0"' in content["alice"]
    for name in ("bob", "carol"):
        assert embedded(content[name], "legal") is None and 'id="board-act"' not in content[name]
    public = [embedded(c, "board-data") for c in content.values()]
    assert public[0] == public[1] == public[2]
    assert public[0]["anchors"] == ["a1", "a20", "t1", "t20"]  # R3.1: the free corners
    assert public[0]["toMove"] == "blue" and len(public[0]["tray"]) == 21


def test_the_warp_step_lists_each_piece_with_its_new_spots(duel, alice):
    pieces = {**CORNERS, "yellow": ["t1", "r2,s2"]}
    save_state(duel, two_player(pieces=pieces, hands={"blue": ["warp"]}))

    content = post_action(client_for(alice), duel, {"card": "warp"}).content.decode()

    legal = embedded(content, "legal")
    state = engine.apply(two_player(pieces=pieces, hands={"blue": ["warp"]}), {"card": "warp"})
    moves = defaultdict(list)
    for a in engine.legal_actions(state):
        moves[a["warp"]].append(a["to"])
    assert legal["moves"] == moves and legal["source"] is None
    assert set(legal["pieces"]) == set(moves)  # R6.8: opponents' pieces only
    assert legal["pieces"]["r2,s2"] == {"piece": "2", "colour": "yellow"}


def test_each_card_says_how_many_placements_it_allows(duel, alice):
    state = two_player(hands={"blue": ["reverse", "edge", "wild", "double", "recycle"]})
    save_state(duel, state)

    said = outlooks(client_for(alice).get(page_url(duel)).content.decode())

    def count(*actions):
        return len(legal_placements(play(state, *actions)))

    assert said["reverse"] == f"{count({'card': 'reverse'})} placements"
    assert said["edge"] == f"{count({'card': 'edge'})} placements"
    assert said["double"] == f"{count({'card': 'double'})} placements, then a second piece"
    wild = {c: count({"card": "wild"}, {"declare": c}) for c in engine.COLOURS}
    best = max(engine.COLOURS, key=lambda c: wild[c])
    assert said["wild"].startswith(f"Up to {wild[best]} placements (as {best})")
    assert said["recycle"].startswith("Take back one of 2 pieces")  # blue's 1 and red's 1


def test_the_colour_buttons_of_wild_count_the_placements_too(duel, alice):
    state = two_player(hands={"blue": ["wild"]})
    save_state(duel, state)

    content = post_action(client_for(alice), duel, {"card": "wild"}).content.decode()

    for colour in engine.COLOURS:
        n = len(legal_placements(play(state, {"card": "wild"}, {"declare": colour})))
        assert re.search(rf'id="declare-{colour}">{n} placements?<', content)


def test_a_card_that_cannot_be_carried_out_is_flagged(duel, alice):
    # R6.8: every opponent piece is alone on the board, so no warp is possible.
    save_state(duel, two_player(hands={"blue": ["warp", "reverse"]}))

    content = client_for(alice).get(page_url(duel)).content.decode()

    assert "it would just be discarded" in outlooks(content)["warp"]
    assert "discarded" not in outlooks(content)["reverse"]
    assert 'class="card card-warp card-warn"' in content


def test_draw_2_tells_nothing_that_depends_on_the_pile(duel, alice):
    base = {"hands": {"blue": ["draw2"]}}
    pages = []
    for pile in (["warp", "edge", "skip"], ["skip", "edge", "warp"]):
        save_state(duel, two_player(piles={"blue": pile}, **base))
        pages.append(outlooks(client_for(alice).get(page_url(duel)).content.decode()))
    assert pages[0] == pages[1] == {"draw2": "You will see two cards and keep one."}

    save_state(duel, two_player(piles={"blue": []}, **base))
    empty = outlooks(client_for(alice).get(page_url(duel)).content.decode())
    assert "Your draw pile is empty: it would just be discarded." in empty["draw2"]


def test_the_turn_order_follows_skip_and_reverse(duel, carol):
    state = two_player(hands={"blue": ["skip", "reverse"]}, direction=-1)
    save_state(duel, play(state, {"card": "skip"}))  # blue to place; the next colour is skipped

    content = client_for(carol).get(page_url(duel)).content.decode()

    order = re.search(r'<ol class="order-list">(.*?)</ol>', content, re.S).group(1)
    rows = [" ".join(re.sub(r"<[^>]+>", " ", li).split()) for li in order.split("</li>")[:-1]]
    assert rows == [
        "G Green (bob) · skipped (R6.1)",  # direction -1: blue → green → red → yellow
        "R Red (alice)",
        "Y Yellow (bob)",
        "B Blue (alice)",
        "G Green (bob)",
    ]


def test_the_scores_so_far_follow_the_engine(duel, bob):
    play_setup(duel)

    content = client_for(bob).get(page_url(duel)).content.decode()

    standings = re.search(r'<section class="standings".*?</section>', content, re.S).group(0)
    result = engine.score(engine.State.from_json(duel.state))
    for p in result["players"]:
        name = '<a href="/players/bob/">bob</a> (you)' if p["seat"] == 1 else "alice"
        if p["seat"] != 1:
            name = '<a href="/players/alice/">alice</a>'
        assert re.search(
            rf"<td>{p['place']}</td><td>{re.escape(name)}</td><td>[^<]*</td><td>{p['score']}</td>",
            standings,
        )


def test_the_tray_puts_the_pieces_that_can_be_placed_first_the_largest_first(duel, alice, bob):
    # Blue's one corner, b2, is walled in by red: only the monomino can go there (R5.3).
    pieces = {**CORNERS, "red": ["t20", "a3,b3,c3,c2,c1"]}
    supply = {"blue": list(PIECE_SIZE)}
    save_state(duel, two_player(mode="classic", pieces=pieces, supply=supply))

    content = client_for(alice).get(page_url(duel)).content.decode()

    tray = embedded(content, "legal")["tray"]  # the deciding seat's own order
    assert tray[0] == "1"  # the only piece that fits comes first
    sizes = [PIECE_SIZE[p] for p in tray[1:]]
    assert sizes == sorted(sizes, reverse=True) and tray[1] == "F"  # then the largest first
    # The public picture is the same for everyone: the supply, the largest first.
    public = embedded(client_for(bob).get(page_url(duel)).content.decode(), "board-data")
    assert embedded(content, "board-data") == public
    assert [PIECE_SIZE[p] for p in public["tray"]][:2] == [5, 5] and public["tray"][-1] == "1"
