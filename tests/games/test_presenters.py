"""games/presenters: every game-page and replay context comes from what one seat may know.

The presenters are handed ``engine.view(state, seat)`` and ``engine.table(state, seat)`` (the
seat's legal actions only when it decides), never a State. These tests go through the views, as a
browser does, and check that nothing outside the engine reads a State's hidden fields (R9.2,
R9.3), that the presenter's output depends on nothing a seat may not know, and that the game page
and the replay speak with one voice.
"""

from __future__ import annotations

import ast
import html
import re
import sys
from pathlib import Path

import pytest

from games import engine
from games.engine.state import State
from games.models import Game
from games.presenters import game as game_presenter
from games.selectors import table
from games.selectors.access import Viewed
from games.views.links import Links
from tests.engine.helpers import make_state
from tests.support.pages import (
    CORNERS,
    act_url,
    client_for,
    page_url,
    panel_url,
    save_state,
    section,
    text,
)
from tests.support.records import play as play_random

pytestmark = pytest.mark.django_db

PRESENTERS = Path(__file__).resolve().parents[2] / "games" / "presenters"
HIDDEN = {"hands", "piles", "seed", "known_bottom", "drawn"}  # State fields private or secret


def replay_url(game, ply=None) -> str:
    return f"/games/{game.public_id}/replay/" + ("" if ply is None else f"?ply={ply}")


@pytest.fixture
def hidden_reads(monkeypatch):
    """Every read of a hidden State field, with the module that made it."""
    reads: list[tuple[str, str]] = []
    original = State.__getattribute__

    def spy(self, name):
        if name in HIDDEN:
            reads.append((name, sys._getframe(1).f_globals.get("__name__", "?")))
        return original(self, name)

    monkeypatch.setattr(State, "__getattribute__", spy)
    return reads


def mid_game(duel):
    """Alice (blue, red) to play a card; Bob (yellow, green) holds distinctive cards."""
    state = make_state(
        players=2,
        pieces=CORNERS,
        hands={"blue": ["wild", "skip", "draw2"], "yellow": ["recycle", "warp", "edge"]},
        piles={"blue": ["double", "reverse"], "yellow": ["double", "skip"]},
    )
    return save_state(duel, state)


def test_r9_no_presenter_or_view_reads_a_hidden_state_field(duel, alice, bob, hidden_reads):
    mid_game(duel)
    pages = []
    for user in (alice, bob, None):
        client = client_for(user)
        pages += [client.get(page_url(duel)), client.get(panel_url(duel))]
        pages.append(client.get(replay_url(duel)))
    post = client_for(alice).post(
        act_url(duel), {"action": '{"card": "wild"}', "ply": duel.ply}, HTTP_HX_REQUEST="true"
    )
    assert post.status_code == 204 and all(p.status_code == 200 for p in pages)
    outside = {(name, module) for name, module in hidden_reads if "engine" not in module}
    assert hidden_reads  # the spy works: the engine itself reads hands to build the views
    assert outside == set()


def test_r9_presenters_never_touch_a_state_or_its_hidden_fields():
    for path in sorted(PRESENTERS.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                assert node.attr not in HIDDEN, f"{path.name}:{node.lineno} reads .{node.attr}"
            if isinstance(node, ast.ImportFrom):
                names = {a.name for a in node.names}
                assert "State" not in names, f"{path.name} imports State"
                assert "services" not in names, f"{path.name} imports the write path"


def context_for(game, seat_index: int | None, state: State) -> dict:
    """The presenter's context for a seat, from that seat's view and table only."""
    seats = tuple(game.seats.select_related("user"))
    seat = next(s for s in seats if s.index == seat_index) if seat_index is not None else None
    snapshot = {
        "view": engine.view(state, seat_index),
        "table": engine.table(state, seat_index),
    }
    labels = table.seat_labels(seats)
    facts = table.table_facts(Viewed(game, seat, seats), seat.user if seat is not None else None)
    return game_presenter.playing(facts, labels, snapshot, {}, Links(game, "").link, lambda: [])


@pytest.mark.parametrize("seat_index", [1, None])
def test_r9_2_the_context_does_not_change_with_another_seats_secrets(duel, seat_index):
    """Bob's (or a spectator's) context is the same whatever Alice holds, whatever the piles'
    order and the seed: the presenter only sees what that seat may know."""
    base = dict(players=2, pieces=CORNERS, to_move="yellow")
    one = make_state(**base, hands={"blue": ["wild", "skip"], "yellow": ["edge"]})
    two = make_state(**base, hands={"blue": ["warp", "double"], "yellow": ["edge"]})
    one.piles, two.piles = (
        {0: ["skip", "wild"], 1: ["reverse"]},
        {0: ["wild", "skip"], 1: ["reverse"]},
    )
    one.seed, two.seed = 1, 2
    duel.state = one.to_json()
    first = context_for(duel, seat_index, one)
    second = context_for(duel, seat_index, two)
    assert repr(first) == repr(second)


def test_r9_2_only_the_deciding_seat_gets_legal_actions(duel):
    state = make_state(players=2, pieces=CORNERS, hands={"blue": ["wild"]})
    assert context_for(duel, 0, state)["deciding"] is True
    watching = context_for(duel, 1, state)
    assert watching["deciding"] is False and watching["legal"] is None
    assert watching["decision"] == {}


def events_of(content: str, css: str) -> list[str]:
    items = re.findall(r"<li>([^<]+)</li>", content.split(css, 1)[1].split("</ul>", 1)[0])
    return [item.strip() for item in items]


@pytest.mark.parametrize("count", [4, 9, 15])
def test_the_game_page_and_the_replay_caption_events_alike(duel, alice, count):
    play_random(duel, count)
    client = client_for(alice)
    page = html.unescape(text(client.get(page_url(duel))))  # "blue's" is "blue&#x27;s" there
    captions = client.get(replay_url(duel)).context["position"]["events"]
    assert captions and all(caption in page for caption in captions)
    # One tense on both pages: the replay used to say "places" and "plays".
    assert not [c for c in captions if re.search(r"\b(places|plays|draws|declares) ", c)]


def finished(duel, scoring: str) -> Game:
    state = make_state(
        players=2,
        pieces=CORNERS,
        supply={c: [] for c in engine.COLOURS},
        scoring=scoring,
        hands={"blue": [], "yellow": []},
    )
    assert state.over
    Game.objects.filter(pk=duel.pk).update(scoring=scoring, status=Game.Status.FINISHED)
    return save_state(duel, state)


@pytest.mark.parametrize(
    "scoring, rule",
    [
        ("basic", "Basic scoring: the fewest squares left wins (R8.3)."),
        ("advanced", "Advanced scoring: the highest score wins (R8.4)."),
    ],
)
def test_r8_the_game_page_and_the_replay_state_one_score_direction(duel, alice, scoring, rule):
    finished(duel, scoring)
    client = client_for(alice)
    page = client.get(page_url(duel))
    replay = client.get(replay_url(duel))
    assert rule in text(page) and rule in text(replay)
    assert replay.context["scores"]["lower_wins"] is (scoring == "basic")
    assert "higher_wins" not in replay.context["scores"]


def test_a_move_answer_and_a_reload_show_the_same_panel(duel, alice):
    """The cached panel (one render per viewer and position) equals a fresh render."""
    from django.core.cache import cache

    mid_game(duel)
    client = client_for(alice)
    first = text(client.get(panel_url(duel)))
    cache.clear()
    second = text(client.get(panel_url(duel)))
    strip = lambda s: re.sub(r'name="(key|csrfmiddlewaretoken)" value="[^"]*"', "", s)  # noqa: E731
    assert strip(first) == strip(second)
    assert not re.search(r"slot[0-9a-f]{16}", first)  # every slot of the cached panel filled


def test_r9_2_the_panel_cache_keeps_each_viewer_apart(duel, alice, bob):
    """One cached panel per viewer: after Alice's and Bob's renders of the same position, each
    still sees their own hand only, and a spectator none (R9.2)."""
    mid_game(duel)
    seen = {}
    for name, user in (("alice", alice), ("bob", bob), ("spectator", None), ("alice2", alice)):
        seen[name] = text(client_for(user).get(panel_url(duel)))
    assert "Wild" in section(seen["alice"], "hand") and "Warp" in section(seen["bob"], "hand")
    assert "Recycle" not in section(seen["alice"], "hand")  # Bob's card
    assert "Wild" not in section(seen["bob"], "hand")  # Alice's card
    assert 'id="hand"' not in seen["spectator"]
    strip = lambda s: re.sub(r'name="(key|csrfmiddlewaretoken)" value="[^"]*"', "", s)  # noqa: E731
    assert strip(section(seen["alice2"], "hand")) == strip(section(seen["alice"], "hand"))


def test_a_shared_colour_turn_in_the_log_says_who_played_it():
    from games.presenters import log

    rows = [
        (1, 2, [{"event": "pass", "colour": "red"}]),
        (2, 1, [{"event": "pass", "colour": "green"}]),
    ]
    turns = log.turns(
        rows,
        classic=True,
        colour_labels={"red": "carol", "green": "shared colour"},
        mine=set(),
        replay_url="/r/",
        seat_names={0: "alice", 1: "bob", 2: "carol"},
        shared="green",
    )["turns"]
    assert [t["player"] for t in turns] == ["shared colour, played by bob", "carol"]


def test_a_card_that_would_only_be_discarded_says_so_without_a_contradicting_count():
    from games.presenters.captions import outlook_text

    look = {"kind": "place", "no_effect": True, "placements": 209, "double": False}
    assert outlook_text(look) == {
        "text": "",
        "warn": "No effect now: it would just be discarded, then 209 placements.",
    }
    look = {"kind": "place", "no_effect": True, "placements": 0, "double": False}
    assert "you would pass" in outlook_text(look)["warn"]
