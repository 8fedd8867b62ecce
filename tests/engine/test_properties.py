"""Property tests over random legal play in every mode × player count × scoring (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import apply, legal_actions, make_record, new_game, replay, score, view
from games.engine.cards import recipe_cards
from games.engine.pieces import (
    ALL_PIECES_MASK,
    BOARD,
    PIECE_INDEX,
    PLACEMENT_PIECE,
    W,
    shape_of_mask,
)
from games.engine.state import LETTERS, State
from tests.engine.helpers import disguise

games = st.tuples(
    st.sampled_from(["classic", "shuffle"]),
    st.sampled_from([2, 3, 4]),
    st.sampled_from(["basic", "advanced"]),
    st.integers(min_value=10**12, max_value=2**63 - 1),  # long enough to search for
)


def check_invariants(s: State) -> None:
    # No two colours share a square; each board is the union of its pieces.
    for a in range(4):
        for b in range(a + 1, 4):
            assert not s.boards[a] & s.boards[b]
    for c in range(4):
        union = 0
        placed = 0
        for value in s.pieces[c]:
            mask = value & BOARD
            assert not union & mask, "pieces of one colour overlap"
            union |= mask
            # Every piece on the board is a valid shape, and the one it claims to be (R1.3).
            assert shape_of_mask(mask) == PLACEMENT_PIECE[value]
            bit = 1 << PIECE_INDEX[PLACEMENT_PIECE[value]]
            assert not placed & bit, "a piece is on the board twice"
            placed |= bit
        assert union == s.boards[c]
    # The snapshot's board rows (RECORD.md: row 20 first) say which colour holds each square.
    rows = s.board_rows()
    for y in range(20):
        for x in range(20):
            held = [c for c in range(4) if s.boards[c] >> (y * W + x) & 1]
            assert rows[19 - y][x] == (LETTERS[held[0]] if held else "."), (x, y)
        # Supply and board together are exactly the colour's 21 pieces.
        assert not placed & s.supply[c]
        assert placed | s.supply[c] == ALL_PIECES_MASK
    # Each deck's hand + draw pile + discard pile (+ cards a Draw 2 holds) is exactly its cards.
    per_owner = recipe_cards(s.recipe) * (2 if s.players == 2 else 1)
    for owner in s.owners():
        cards = s.hands[owner] + s.piles[owner] + s.discards[owner]
        if s.drawn and s.owner(s.turn) == owner:
            cards += s.drawn
        assert Counter(cards) == Counter(per_owner)
        assert 0 <= s.known_bottom[owner] <= len(s.piles[owner])


def play_out(mode, players, scoring, seed, *, check_views: bool):
    rng = random.Random(seed)
    s = new_game(mode=mode, players=players, scoring=scoring, seed=seed)
    initial = s
    actions = []
    while not s.over:
        options = legal_actions(s)
        assert options, f"no legal action at step {s.step}"
        before = json.dumps(s.to_json(), sort_keys=True)
        action = rng.choice(options)
        s2 = apply(s, action)
        # apply never mutates its input.
        assert json.dumps(s.to_json(), sort_keys=True) == before
        s = s2
        actions.append(action)
        check_invariants(s)
        if check_views and not s.over and rng.random() < 0.25:
            seats = [None, *range(players)]
            for seat in seats:
                seen = view(s, seat)
                text = json.dumps(seen)
                assert "draw_piles" not in seen and "seed" not in seen and "hands" not in seen
                assert str(s.seed) not in text
                assert seen == view(disguise(s, seat, rng), seat)
        assert len(actions) < 1500, "the game does not end"
    return initial, actions, s


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_every_random_game_ends_with_invariants_and_no_leak(game):
    mode, players, scoring, seed = game
    initial, actions, final = play_out(mode, players, scoring, seed, check_views=True)
    assert final.over and final.turn is None
    # R8.1: at the end no colour in play can have an unpassed turn left.
    assert not final.in_play() & ~final.passed
    result = score(final)
    assert result["over"] is True
    assert len(result["players"]) == players


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.integers(min_value=0, max_value=200))
def test_a_record_replays_to_the_same_state(game, cut):
    mode, players, scoring, seed = game
    initial, actions, final = play_out(mode, players, scoring, seed, check_views=False)
    cut = min(cut, len(actions))
    # The exported record (decks, seed and salt revealed) and the seed-only record give the same
    # states.
    record = json.loads(json.dumps(make_record(initial, actions, reveal=True)))
    assert replay(record).to_json() == final.to_json()
    assert (
        replay(record, upto=cut).to_json()["board"] == replay(record, upto=cut).to_json()["board"]
    )
    if mode == "shuffle":
        seeded = make_record(initial, actions[:cut], reveal=False)
        assert "decks" not in seeded and "seed" not in seeded
        seeded["seed"] = seed
        expected = play_prefix(mode, players, scoring, seed, actions[:cut])
        assert replay(seeded).to_json() == expected.to_json()
    # The state round-trips through JSON.
    assert State.from_json(json.loads(json.dumps(final.to_json()))).to_json() == final.to_json()


def play_prefix(mode, players, scoring, seed, actions):
    s = new_game(mode=mode, players=players, scoring=scoring, seed=seed)
    for action in actions:
        s = apply(s, action)
    return s


@given(st.sets(st.tuples(st.integers(0, 19), st.integers(0, 19)), min_size=1, max_size=30))
def test_a_mask_is_written_column_by_column_and_read_back(squares):
    # RECORD.md: squares comma-separated, column by column (a1, a2, ..., a20, b1, ...).
    from games.engine.pieces import COLUMNS, mask_text, parse_squares

    mask = sum(1 << (y * W + x) for x, y in squares)
    want = ",".join(f"{COLUMNS[x]}{y + 1}" for x, y in sorted(squares))
    assert mask_text(mask) == want
    assert parse_squares(want) == mask
