"""The page's forecasts are public engine functions (games/engine/forecast.py), and nothing
outside the engine reaches into its private names."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.engine import anchors, outlook, table, turn_order
from tests.engine.helpers import make_state, play

ROOT = Path(__file__).resolve().parents[2]


def colours(order):
    return [(o["colour"], o["skipped"]) for o in order]


def test_r7_3_turn_order_follows_the_direction_of_play():
    s = make_state("classic", 4, to_move="blue")
    assert colours(turn_order(s)) == [
        ("yellow", False),
        ("red", False),
        ("green", False),
        ("blue", False),
    ]
    s = make_state("classic", 4, to_move="blue", direction=-1)  # R6.2 Reverse
    assert [o["colour"] for o in turn_order(s)] == ["green", "red", "yellow", "blue"]


def test_r7_3_turn_order_leaves_out_colours_out_of_play():
    s = make_state("classic", 4, to_move="blue", supply={"red": []})
    assert [o["colour"] for o in turn_order(s)] == ["yellow", "green", "blue", "yellow"]


def test_r6_1_turn_order_marks_the_colour_a_pending_skip_passes_over():
    s = make_state(hands={"blue": ["skip", "wild"]}, to_move="blue")
    s = play(s, {"card": "skip"})
    order = turn_order(s)
    assert colours(order)[:2] == [("yellow", True), ("red", False)]
    assert sum(1 for o in order if not o["skipped"]) == 4


def test_r2_5_turn_order_names_the_seat_and_none_for_the_shared_colour():
    s = make_state("classic", 3, shared_color="green", to_move="blue")
    seats = {o["colour"]: o["seat"] for o in turn_order(s)}
    assert seats == {"yellow": 1, "red": 2, "green": None, "blue": 0}


def test_r4_5_anchors_at_the_start_are_the_free_corners():
    s = make_state("classic", 4, to_move="blue", settle=False)
    assert sorted(anchors(s)) == ["a1", "a20", "t1", "t20"]
    s = make_state("classic", 4, pieces={"yellow": ["a1"]}, to_move="blue")
    assert sorted(anchors(s)) == ["a20", "t1", "t20"]


def test_r4_2_anchors_touch_own_corners_only():
    s = make_state("classic", 4, pieces={"blue": ["a1"]}, to_move="blue")
    assert anchors(s) == ["b2"]


def test_r5_1_anchors_before_a_card_are_those_of_a_plain_placement():
    s = make_state(pieces={"blue": ["a1"]}, hands={"blue": ["wild"]}, to_move="blue")
    assert s.step == "card"
    assert anchors(s) == ["b2"]


def test_anchors_are_empty_once_the_game_is_over():
    s = make_state("classic", 4, supply={c: [] for c in engine.COLOURS}, to_move="blue")
    assert s.over and anchors(s) == [] and turn_order(s) == []


def test_r6_4_wild_outlook_counts_placements_for_each_declared_colour():
    s = make_state(pieces={"blue": ["a1"], "red": ["t20"]}, hands={"blue": ["wild"]})
    look = outlook(s, {"card": "wild"})
    assert look["kind"] == "declare"
    for colour, n in look["by_colour"].items():
        after = play(s, {"card": "wild"}, {"declare": colour})
        expected = len(engine.legal_actions(after)) if after.turn == s.turn else 0
        assert n == expected, colour
    assert look["by_colour"]["blue"] > 0


def test_r5_3_outlook_says_no_placement_when_the_turn_would_pass():
    s = make_state(pieces={"blue": ["a1"]}, supply={"blue": ["F"]}, hands={"blue": ["edge"]})
    look = outlook(s, {"card": "edge"})
    assert look["kind"] == "place"
    after = play(s, {"card": "edge"})
    assert look["placements"] == (len(engine.legal_actions(after)) if after.turn == 0 else 0)


@settings(max_examples=25, deadline=None)
@given(st.permutations(["skip", "wild", "reverse", "edge", "double"]))
def test_r9_3_draw2_outlook_does_not_depend_on_the_pile_order(pile):
    s = make_state(hands={"blue": ["draw2"]}, piles={"blue": list(pile)})
    look = outlook(s, {"card": "draw2"})
    assert look == {"kind": "draw2", "pile": 5, "no_effect": False}


def test_r9_2_table_gives_legal_actions_to_the_deciding_seat_only():
    s = make_state(players=2, hands={"blue": ["wild", "skip"]}, to_move="blue")
    mine, theirs = table(s, 0), table(s, 1)
    assert mine["legal"] == engine.legal_actions(s) and len(mine["outlooks"]) == 2
    assert theirs["legal"] == [] and theirs["outlooks"] == []
    assert table(s, None)["legal"] == []
    assert mine["order"] == theirs["order"] and mine["anchors"] == theirs["anchors"]
    assert mine["colour_seats"] == {"blue": 0, "yellow": 1, "red": 0, "green": 1}


# -- no private engine name outside the engine ----------------------------------------------


def private_engine_uses(path: Path) -> list[str]:
    """``from games.engine… import _x`` and ``module._x`` where module is an engine module."""
    tree = ast.parse(path.read_text())
    engine_names: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            is_engine = module.startswith("games.engine") or (node.level and "engine" in module)
            if module == "games" and any(a.name == "engine" for a in node.names):
                engine_names.add("engine")
            if is_engine:
                for alias in node.names:
                    if alias.name.startswith("_"):
                        found.append(f"{path}:{node.lineno} imports {alias.name}")
                    engine_names.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("games.engine"):
                    engine_names.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            base = ast.unparse(node.value)
            if base in engine_names or base.startswith("games.engine"):
                found.append(f"{path}:{node.lineno} uses {base}.{node.attr}")
    return found


def test_no_module_outside_the_engine_uses_a_private_engine_name():
    offenders = []
    for top in ("games", "accounts", "config", "bench"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if (ROOT / "games" / "engine") in path.parents:
                continue
            offenders += private_engine_uses(path)
    assert offenders == []


def test_the_private_name_scan_finds_a_private_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from games.engine import rules\nfrom games.engine.rules import _settle\n")
    bad.write_text(bad.read_text() + "rules._next_colour(None, 0, 1)\n")
    assert len(private_engine_uses(bad)) == 2
