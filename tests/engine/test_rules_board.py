"""Rule-book tests for the board, pieces, modes, seats, setup and placement: RULES.md R1–R4.

Expected values are derived from RULES.md (and from independent geometry written here), never
copied from the engine's output.
"""

from __future__ import annotations

import random

import pytest

from games.engine import (
    COLOURS,
    DEFAULT_RECIPE,
    IllegalAction,
    RecordError,
    apply,
    legal_actions,
    new_game,
    score,
    view,
)
from games.engine.pieces import ORIENTATIONS, SHAPES
from tests.engine.helpers import make_state, play

COLUMNS = "abcdefghijklmnopqrst"
CORNERS = ("a1", "t1", "t20", "a20")

# R1.3's table: piece name → number of squares.
TABLE = {
    "1": 1,
    "2": 2,
    "I3": 3,
    "V3": 3,
    "I4": 4,
    "O": 4,
    "T4": 4,
    "L4": 4,
    "Z4": 4,
    **{name: 5 for name in ("F", "I5", "L5", "N", "P", "T5", "U", "V5", "W", "X", "Y", "Z5")},
}

# R1.4's default deck, as written in the rule book.
RULE_RECIPE = {
    "skip": 2,
    "reverse": 2,
    "draw2": 2,
    "edge": 2,
    "double": 2,
    "recycle": 2,
    "wild": 1,
    "warp": 1,
}


# -- helpers (independent of the engine) ----------------------------------------------------


def cell(square: str) -> tuple[int, int]:
    """``c5`` → (2, 4): column index and row index, both from 0 (R1.1)."""
    return COLUMNS.index(square[0]), int(square[1:]) - 1


def cells(text: str) -> set[tuple[int, int]]:
    return {cell(sq) for sq in text.split(",")}


def norm(text: str) -> str:
    """Squares in the order legal_actions lists them: by column, then row."""
    return ",".join(sorted(text.split(","), key=cell))


def placements(state) -> set[str]:
    return {a["place"] for a in legal_actions(state) if "place" in a}


def refused(state, action: dict, rule: str) -> str:
    """Assert ``apply`` refuses ``action`` naming ``rule`` and leaves ``state`` untouched."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert rule in str(info.value), str(info.value)
    assert state.to_json() == before
    return str(info.value)


def normalise(shape) -> frozenset[tuple[int, int]]:
    mx = min(x for x, _ in shape)
    my = min(y for _, y in shape)
    return frozenset((x - mx, y - my) for x, y in shape)


def orientations(shape) -> set[frozenset[tuple[int, int]]]:
    """Every rotation and mirror image of a shape, each translated to touch both axes."""
    out = set()
    current = list(shape)
    for _ in range(4):
        current = [(-y, x) for x, y in current]  # a quarter turn
        out.add(normalise(current))
        out.add(normalise([(-x, y) for x, y in current]))  # and its mirror image
    return out


def canonical(shape) -> tuple[tuple[int, int], ...]:
    return min(tuple(sorted(o)) for o in orientations(shape))


def free_polyominoes(size: int) -> set[tuple[tuple[int, int], ...]]:
    """Every polyomino of ``size`` squares up to rotation and mirror image, grown one by one."""
    found = {canonical([(0, 0)])}
    for _ in range(size - 1):
        grown = set()
        for shape in found:
            for x, y in shape:
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    new = (x + dx, y + dy)
                    if new not in shape:
                        grown.add(canonical([*shape, new]))
        found = grown
    return found


def side_neighbours(sq: tuple[int, int]) -> set[tuple[int, int]]:
    x, y = sq
    return {(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)}


def corner_neighbours(sq: tuple[int, int]) -> set[tuple[int, int]]:
    x, y = sq
    return {(x + 1, y + 1), (x - 1, y + 1), (x + 1, y - 1), (x - 1, y - 1)}


def is_connected(squares: set[tuple[int, int]]) -> bool:
    start = next(iter(squares))
    seen, todo = {start}, [start]
    while todo:
        for n in side_neighbours(todo.pop()) & squares:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == squares


ALL_SHAPES = {canonical(shape) for size in range(1, 6) for shape in free_polyominoes(size)}
# A placement covering corner a1 must put an orientation's own bottom-left square (0, 0) on a1:
# any other translation would push a square off the board. So each orientation that contains
# (0, 0) gives exactly one placement on a1, and by symmetry as many on each other corner.
PER_CORNER = sum(
    1 for shape in SHAPES.values() for o in orientations(shape) if (0, 0) in o
)  # R1.3 shapes, counted here independently of the engine's placement tables


def corners_position(**kw):
    """A classic main-turn position: every colour holds its corner with a ``2``."""
    pieces = {
        "blue": ["a1,b1"],
        "yellow": ["s1,t1"],
        "red": ["s20,t20"],
        "green": ["a20,b20"],
    }
    pieces.update(kw.pop("pieces", {}))
    return make_state(kw.pop("mode", "classic"), pieces=pieces, **kw)


# -- R1 Components --------------------------------------------------------------------------


def test_r1_1_board_is_20_by_20_with_columns_a_to_t_and_rows_1_to_20():
    s = new_game(mode="classic")
    board = s.to_json()["board"]
    assert len(board) == 20 and all(len(row) == 20 for row in board)
    # One piece on each corner, in turn order: blue a1, yellow t1, red t20, green a20.
    s = play(s, {"place": "a1"}, {"place": "t1"}, {"place": "t20"}, {"place": "a20"})
    board = s.to_json()["board"]  # row 20 first, column a first
    assert board[19][0] == "B"  # a1: bottom left
    assert board[19][19] == "Y"  # t1: bottom right
    assert board[0][19] == "R"  # t20: top right
    assert board[0][0] == "G"  # a20: top left
    assert sum(row.count(".") for row in board) == 400 - 4


def test_r1_1_the_four_corner_squares_are_a1_t1_t20_a20():
    s = new_game(mode="classic")
    covered = {
        sq for text in placements(s) for sq in text.split(",") if sq in CORNERS
    }  # which corners setup placements use
    assert covered == set(CORNERS)
    for text in placements(s):
        assert len(set(text.split(",")) & set(CORNERS)) == 1


@pytest.mark.parametrize("square", ["u1", "a21", "a0", "t21", "u20"])
def test_r1_1_squares_off_the_board_do_not_exist(square):
    s = new_game(mode="classic")
    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        apply(s, {"place": square})
    assert "R1.1" in str(info.value) or "R4.1" in str(info.value)
    assert s.to_json() == before


def test_r1_2_colours_in_turn_order_blue_yellow_red_green():
    assert COLOURS == ("blue", "yellow", "red", "green")
    s = new_game(mode="classic")
    seen = []
    for corner in CORNERS:
        seen.append(s.to_json()["to_move"])
        s = apply(s, {"place": corner})
    assert seen == ["blue", "yellow", "red", "green"]
    # The main turns follow the same order.
    for expected in ("blue", "yellow", "red", "green", "blue"):
        assert s.to_json()["to_move"] == expected
        while s.to_json()["to_move"] == expected:
            s = apply(s, legal_actions(s)[0])


def test_r1_3_twenty_one_pieces_named_as_in_the_table():
    assert len(SHAPES) == 21
    assert set(SHAPES) == set(TABLE)
    for name, shape in SHAPES.items():
        assert len(set(shape)) == TABLE[name], name
        assert is_connected(set(shape)), name


def test_r1_3_eighty_nine_squares_per_colour():
    assert sum(len(shape) for shape in SHAPES.values()) == 89
    assert sum(TABLE.values()) == 89
    s = new_game(mode="classic")
    assert score(s)["remaining"] == {c: 89 for c in COLOURS}
    assert all(len(names) == 21 for names in s.to_json()["supply"].values())


def test_r1_3_the_pieces_are_every_shape_of_one_to_five_squares_once():
    engine = [canonical(shape) for shape in SHAPES.values()]
    assert len(set(engine)) == 21  # no two pieces are the same shape
    assert set(engine) == ALL_SHAPES  # 1 + 1 + 2 + 5 + 12 free polyominoes


def test_r1_3_named_shapes_straight_corner_square():
    for name in ("I3", "I4", "I5", "2"):
        xs = {x for x, _ in SHAPES[name]}
        ys = {y for _, y in SHAPES[name]}
        assert len(xs) == 1 or len(ys) == 1, name  # straight
    v3 = set(SHAPES["V3"])
    assert len({x for x, _ in v3}) == 2 and len({y for _, y in v3}) == 2  # a corner
    assert normalise(SHAPES["O"]) == {(0, 0), (1, 0), (0, 1), (1, 1)}  # a 2 × 2 square
    x = set(SHAPES["X"])
    assert any(side_neighbours(sq) <= x for sq in x)  # a plus sign


def test_r1_3_ninety_one_orientations_with_rotations_and_mirror_images():
    counts = {name: len(orientations(shape)) for name, shape in SHAPES.items()}
    assert sum(counts.values()) == 91
    # The engine knows exactly these orientations of each piece.
    for name, shape in SHAPES.items():
        assert {normalise(o) for o in ORIENTATIONS[name]} == orientations(shape), name


def test_r1_3_golden_count_232_setup_placements_58_per_corner():
    assert PER_CORNER == 58
    s = new_game(mode="shuffle", seed=11)
    found = placements(s)
    assert len(found) == 4 * PER_CORNER == 232
    for corner in CORNERS:
        assert sum(1 for text in found if corner in text.split(",")) == PER_CORNER
    for text in found:  # every placement is a piece shape lying on the board
        sq = cells(text)
        assert canonical(sq) in ALL_SHAPES
        assert all(0 <= x < 20 and 0 <= y < 20 for x, y in sq)


def test_r1_3_golden_count_yellow_has_174_after_blue_takes_a_corner():
    for corner_piece in ("a1", "a1,a2,a3,a4,a5", "a1,a2,b1,b2"):
        s = apply(new_game(mode="classic"), {"place": corner_piece})
        found = placements(s)
        assert len(found) == 3 * PER_CORNER == 174
        assert not any("a1" in text.split(",") for text in found)


def test_r1_3_a_piece_may_be_rotated_and_mirrored_freely():
    # Every one of L5's eight orientations is offered somewhere among the setup placements ...
    s = new_game(mode="classic")
    found = placements(s)
    used = {normalise(cells(text)) for text in found if len(text.split(",")) == 5}
    l5 = orientations(SHAPES["L5"])
    assert len(l5) == 8 and l5 <= used
    # ... and each orientation that fits on corner a1 is accepted there.
    for o in l5:
        if (0, 0) in o:
            text = ",".join(f"{COLUMNS[x]}{y + 1}" for x, y in o)
            assert norm(text) in found
            apply(s, {"place": text})


def test_r1_4_default_deck_of_14_cards():
    assert sum(RULE_RECIPE.values()) == 14
    assert dict(DEFAULT_RECIPE) == RULE_RECIPE
    s = new_game(mode="shuffle", players=4, seed=5)
    expected = sorted(k for k, n in RULE_RECIPE.items() for _ in range(n))
    piles = s.to_json()["draw_piles"]
    assert set(piles) == set(COLOURS)
    for cards in piles.values():
        assert sorted(cards) == expected


def test_r1_4_creator_may_pick_another_recipe_of_14_cards():
    recipe = {"wild": 7, "warp": 7}
    s = new_game(mode="shuffle", deck_recipe=recipe, seed=2)
    for cards in s.to_json()["draw_piles"].values():
        assert sorted(cards) == ["warp"] * 7 + ["wild"] * 7
    with pytest.raises(ValueError, match="R1.4"):
        new_game(mode="shuffle", deck_recipe={"wild": 13}, seed=2)
    with pytest.raises(ValueError, match="R1.4"):
        new_game(mode="shuffle", deck_recipe={"wild": 14, "skip": 1}, seed=2)


def test_r1_4_classic_mode_has_no_cards():
    s = new_game(mode="classic")
    data = s.to_json()
    assert data["hands"] == {} and data["draw_piles"] == {} and data["discards"] == {}


# -- R2 Modes and seats ---------------------------------------------------------------------


def test_r2_1_two_modes_classic_and_shuffle():
    with pytest.raises(RecordError, match="R2.1"):
        new_game(mode="uno")
    corners = [{"place": c} for c in CORNERS]
    classic = play(new_game(mode="classic"), *corners)
    shuffle = play(new_game(mode="shuffle", seed=4), *corners)
    # Classic: a turn is only the placement (R5.3), never a card.
    assert classic.step == "place"
    assert all("place" in a for a in legal_actions(classic))
    before = classic.to_json()
    with pytest.raises(IllegalAction):
        apply(classic, {"card": "skip"})
    assert classic.to_json() == before
    # Shuffle: the turn starts with a card from the hand.
    assert shuffle.step == "card"
    assert legal_actions(shuffle) and all("card" in a for a in legal_actions(shuffle))
    assert len(shuffle.to_json()["hands"]["blue"]) == 2


def test_r2_1_classic_turns_never_play_or_draw_cards():
    s = new_game(mode="classic")
    rng = random.Random(7)
    for _ in range(30):
        s = apply(s, rng.choice(legal_actions(s)))
        assert all(e["event"] in ("place", "pass") for e in s.events)


def test_r2_2_four_players_one_colour_each():
    s = new_game(mode="shuffle", players=4, seed=9)
    assert [s.seat_colours(seat) for seat in range(4)] == [[0], [1], [2], [3]]
    for _ in range(12):
        assert s.controller() == s.turn  # the seat at a colour decides for it
        s = apply(s, legal_actions(s)[0])
    players = score(s)["players"]
    assert [p["colours"] for p in players] == [[c] for c in COLOURS]
    for seat in range(4):  # each seat holds its own colour's hand
        assert view(s, seat)["hand"] == s.to_json()["hands"][COLOURS[seat]]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["classic", "shuffle"])
def test_r2_6_blue_always_moves_first(mode, players):
    s = new_game(mode=mode, players=players, seed=1)
    assert s.to_json()["to_move"] == "blue"
    assert s.step == "setup"
    # Whoever sits at blue moves first: seat 0 in every seating the engine numbers.
    assert s.controller() == 0
    assert 0 in s.seat_colours(0)


# -- R3 Setup -------------------------------------------------------------------------------


def test_r3_1_setup_in_turn_order_each_colour_covers_a_free_corner():
    s = new_game(mode="shuffle", seed=8)
    taken = []
    for colour, corner, piece in zip(
        COLOURS,
        ("t20", "a1", "a20", "t1"),
        ("t20", "a1,a2,b1", "a20,b20,c20,d20,e20", "t1,t2"),
        strict=True,
    ):
        assert s.to_json()["to_move"] == colour and s.step == "setup"
        found = placements(s)
        free = [c for c in CORNERS if c not in taken]
        assert len(found) == PER_CORNER * len(free)  # no pass: a placement always exists
        for text in found:
            assert set(text.split(",")) & set(free)
        s = apply(s, {"place": piece})
        taken.append(corner)
    assert s.to_json()["to_move"] == "blue" and s.step == "card"


def test_r3_1_setup_piece_must_cover_a_corner():
    s = new_game(mode="classic")
    refused(s, {"place": "b2"}, "R3.1")
    refused(s, {"place": "b1,c1"}, "R3.1")  # touches the corner's side, does not cover it
    s = apply(s, {"place": "a1,b1"})
    refused(s, {"place": "c2"}, "R3.1")  # yellow, diagonal to blue: still not a corner
    refused(s, {"place": "a1"}, "R4.1")  # the corner blue took is not free
    assert "a1" not in {sq for text in placements(s) for sq in text.split(",")}


def test_r3_1_no_cards_in_the_setup_round():
    s = new_game(mode="shuffle", seed=12)
    refused(s, {"card": "skip"}, "R3.1")
    s = apply(s, {"place": "a1"})  # blue now holds two cards, yet yellow's setup has none
    hand = s.to_json()["hands"]["blue"]
    assert len(hand) == 2
    refused(s, {"card": hand[0]}, "R3.1")
    assert all("place" in a for a in legal_actions(s))
    for corner in ("t1", "t20", "a20"):
        s = apply(s, {"place": corner})
        assert not any(e["event"] == "card" for e in s.events)
    assert all(d == [] for d in s.to_json()["discards"].values())


def test_r3_2_first_setup_placement_draws_the_top_two_cards():
    decks = {
        c: ["skip", "wild", "reverse", "reverse", "skip", "draw2", "draw2", "edge"]
        + ["edge", "double", "double", "recycle", "recycle", "warp"]
        for c in COLOURS
    }
    decks["yellow"] = decks["yellow"][::-1]
    s = new_game(mode="shuffle", decks=decks)
    assert all(h == [] for h in s.to_json()["hands"].values())
    s = apply(s, {"place": "a1"})
    data = s.to_json()
    assert data["hands"]["blue"] == decks["blue"][:2]
    assert data["draw_piles"]["blue"] == decks["blue"][2:]
    assert data["hands"]["yellow"] == []  # yellow has not placed yet
    s = apply(s, {"place": "t1"})
    assert s.to_json()["hands"]["yellow"] == decks["yellow"][:2]
    assert s.to_json()["hands"]["blue"] == decks["blue"][:2]  # nobody else draws


def test_r3_2_two_players_draw_once_after_their_first_setup_placement():
    s = new_game(mode="shuffle", players=2, seed=21)
    deck = {o: list(cards) for o, cards in s.to_json()["draw_piles"].items()}
    assert set(deck) == {"blue", "yellow"} and len(deck["blue"]) == 28
    s = play(s, {"place": "a1"}, {"place": "t1"}, {"place": "t20"}, {"place": "a20"})
    data = s.to_json()
    for owner in ("blue", "yellow"):  # red's and green's setup placements draw nothing more
        assert data["hands"][owner] == deck[owner][:2]
        assert data["draw_piles"][owner] == deck[owner][2:]


def test_r3_2_decks_are_shuffled_from_the_seed():
    piles = [new_game(mode="shuffle", seed=seed).to_json()["draw_piles"] for seed in range(6)]
    assert new_game(mode="shuffle", seed=3).to_json()["draw_piles"] == piles[3]
    orders = {tuple(p["blue"]) for p in piles}
    assert len(orders) > 1  # not the recipe's order every time


@pytest.mark.parametrize("mode, step", [("classic", "place"), ("shuffle", "card")])
def test_r3_3_after_setup_the_first_colour_takes_its_main_turn(mode, step):
    s = new_game(mode=mode, seed=6)
    s = play(s, *({"place": c} for c in CORNERS))
    assert s.to_json()["to_move"] == "blue"
    assert s.step == step
    if mode == "classic":  # a main-turn placement follows R4, not the corner rule
        assert "b2,c2" in placements(s)


# -- R4 Placing a piece ---------------------------------------------------------------------


def r4_position(**kw):
    """Classic, blue to move. Blue: ``1`` on a1, ``2`` on b2–c2. Yellow sits right next to blue
    (d3–d4), which R4.4 allows; how yellow got there does not matter here."""
    return make_state(
        "classic",
        pieces={
            "blue": ["a1", "b2,c2"],
            "yellow": ["t1", "d3,d4"],
            "red": ["t20"],
            "green": ["a20"],
        },
        **kw,
    )


def test_r4_1_piece_covers_only_free_squares():
    s = r4_position()
    refused(s, {"place": "d2,d3,d4"}, "R4.1")  # yellow's squares
    refused(s, {"place": "c2,c3,c4"}, "R4.1")  # blue's own square
    refused(s, {"place": "a1,a2,a3"}, "R4.1")
    for text in placements(s):
        sq = cells(text)
        assert not sq & cells("a1,b2,c2,t1,d3,d4,t20,a20")


def test_r4_1_piece_lies_fully_on_the_board():
    s = r4_position()
    before = s.to_json()
    for text in ("t2,u2", "a21,a20"):
        with pytest.raises(IllegalAction) as info:
            apply(s, {"place": text})
        assert "R1.1" in str(info.value) or "R4.1" in str(info.value)
    assert s.to_json() == before
    for text in placements(s):
        assert all(0 <= x < 20 and 0 <= y < 20 for x, y in cells(text))


def test_r4_2_piece_must_touch_its_own_colour_at_a_corner():
    s = r4_position()
    refused(s, {"place": "f5,f6,g5,g6"}, "R4.2")  # touches nothing
    refused(s, {"place": "e5,e6,e7"}, "R4.2")  # touches yellow at a corner only
    found = placements(s)
    assert "a3,a4,a5" in found  # a3 touches blue b2 at a corner
    assert "d1,e1,f1" in found  # d1 touches blue c2 at a corner
    assert "f5,f6,g5,g6" not in found
    blue = cells("a1,b2,c2")
    corner_touch = set().union(*(corner_neighbours(q) for q in blue))
    for text in found:
        assert cells(text) & corner_touch, text


def test_r4_3_piece_may_not_share_a_side_with_its_own_colour():
    s = r4_position()
    message = refused(s, {"place": "a3,a4,b3"}, "R4.3")  # a3 at b2's corner, but b3 on b2's side
    assert "R4.2" not in message
    refused(s, {"place": "c1,d1,e1"}, "R4.3")  # c1 at b2's corner, but right under c2
    refused(s, {"place": "a2,a3,a4"}, "R4.3")  # a2 sits on a1's side
    found = placements(s)
    assert "a3,a4,b3" not in found and "c1,d1,e1" not in found
    blue = cells("a1,b2,c2")
    sides = set().union(*(side_neighbours(q) for q in blue))
    for text in found:
        assert not cells(text) & sides, text


def test_r4_4_contact_with_other_colours_is_allowed():
    s = r4_position()
    text = "d1,e1,e2,e3"  # L4: d1 at blue c2's corner, e3 beside yellow d3
    assert text in placements(s)
    n = apply(s, {"place": text})
    assert n.to_json()["pieces"]["blue"][-1] == text
    # ... and a piece may touch another colour at a corner as well as along a side.
    s = make_state(
        "classic",
        pieces={"blue": ["a1"], "yellow": ["b3,c3", "t1"], "red": ["t20"], "green": ["a20"]},
    )
    assert "b2,c2" in placements(s)  # b2 at a1's corner; along yellow b3/c3's side
    apply(s, {"place": "b2,c2"})


def test_r4_5_colour_with_no_piece_on_the_board_must_cover_a_free_corner():
    s = make_state(
        "classic", pieces={"yellow": ["t1"], "red": ["t20"], "green": ["a20"]}, to_move="blue"
    )
    found = placements(s)
    assert len(found) == PER_CORNER  # exactly the setup placements on a1
    assert all("a1" in text.split(",") for text in found)
    refused(s, {"place": "b2"}, "R4.5")
    refused(s, {"place": "e5,e6"}, "R4.5")
    refused(s, {"place": "s2"}, "R4.5")  # next to yellow's corner: still not a corner
    n = apply(s, {"place": "a1,a2,b1"})
    assert n.to_json()["board"][19][0] == "B"


def test_r4_5_after_recycle_took_the_last_piece_back_the_colour_covers_a_corner():
    s = make_state(
        "shuffle",
        pieces={"blue": ["a1,b1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]},
        hands={"blue": ["recycle"]},
    )
    s = play(s, {"card": "recycle"}, {"recycle": "a1,b1"})
    assert s.step == "place" and s.to_json()["pieces"]["blue"] == []
    found = placements(s)
    assert len(found) == PER_CORNER and all("a1" in t.split(",") for t in found)
    refused(s, {"place": "c2"}, "R4.5")  # where a second piece would have gone
    apply(s, {"place": "a1"})


def test_r4_5_no_free_corner_means_the_colour_cannot_place_and_passes():
    # Green, with no piece on the board, takes the last free corner; then blue, also with no
    # piece on the board, finds no free corner and passes by itself (R5.3).
    s = make_state(
        "classic",
        pieces={"yellow": ["t1", "a20,a19"], "red": ["t20"]},
        to_move="green",
    )
    assert all("a1" in t.split(",") for t in placements(s))
    n = apply(s, {"place": "a1,b1,c1"})
    kinds = [(e["colour"], e["event"]) for e in n.events]
    assert kinds == [("green", "place"), ("blue", "pass")]
    assert n.to_json()["to_move"] == "yellow"
    assert not n.over


def test_r4_6_pieces_never_move_once_placed():
    s = new_game(mode="classic")
    rng = random.Random(3)
    for _ in range(40):
        before = s.to_json()
        s = apply(s, rng.choice(legal_actions(s)))
        after = s.to_json()
        for colour in COLOURS:
            old = before["pieces"][colour]
            assert after["pieces"][colour][: len(old)] == old
        for row_before, row_after in zip(before["board"], after["board"], strict=True):
            for a, b in zip(row_before, row_after, strict=True):
                assert a == "." or a == b


def test_r4_6_no_move_without_recycle_or_warp():
    s = r4_position()
    refused(s, {"recycle": "b2,c2"}, "R5.3")
    refused(s, {"warp": "d3,d4", "to": "e5,e6"}, "R5.3")
    s = corners_position(mode="shuffle", hands={"blue": ["skip"]})
    refused(s, {"recycle": "a1,b1"}, "R5.1")
