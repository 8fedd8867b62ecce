"""determinize(view, rng): a full State that agrees with everything the seat knows (R9)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.ai.determinize import determinize
from games.engine import view
from games.engine.cards import recipe_cards
from tests.ai.positions import MODES, PLAYERS, built, random_positions


def seats(state):
    return [*range(state.players), None]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("mode", MODES)
def test_the_sample_shows_the_seat_exactly_its_view(mode, players):
    for state in random_positions(mode, players, seed=players)[::6]:
        for seat in seats(state):
            seen = view(state, seat)
            sample = determinize(seen, random.Random(state.ply))
            assert view(sample, seat) == seen
            # The public parts and the seat's own hand, explicitly.
            full, mine = sample.to_json(), view(sample, seat)
            for key in ("board", "supply", "pieces", "discards", "to_move", "step", "effect"):
                assert full[key] == seen[key]
            assert mine["hand"] == seen["hand"] and mine["pile_bottom"] == seen["pile_bottom"]


@pytest.mark.parametrize("players", PLAYERS)
def test_every_deck_is_complete_in_the_sample(players):
    for state in random_positions("shuffle", players, seed=20 + players)[::5]:
        seat = state.controller()
        sample = determinize(view(state, seat), random.Random(1))
        deck = Counter(recipe_cards(state.recipe) * (2 if players == 2 else 1))
        for owner in sample.owners():
            cards = sample.hands[owner] + sample.piles[owner] + sample.discards[owner]
            if sample.drawn and sample.owner(sample.turn) == owner:
                cards += sample.drawn
            assert Counter(cards) == deck
        assert sample.changed == state.changed


def test_hidden_parts_are_sampled_and_seeded():
    state = random_positions("shuffle", 2, seed=3)[30]
    seen = view(state, 0)
    a = determinize(seen, random.Random(5)).to_json()
    b = determinize(seen, random.Random(5)).to_json()
    assert a == b
    others = {
        tuple(determinize(seen, random.Random(k)).to_json()["hands"]["yellow"]) for k in range(40)
    }
    assert len(others) > 1  # the opponent's hand is a guess, not a copy of the truth


def test_the_seats_known_bottom_cards_stay_at_the_bottom():
    # Blue keeps one of its Draw 2 cards: the other goes to the bottom of its pile (R6.3).
    from tests.engine.helpers import play

    s = play(built(2, "keep"), {"keep": "warp"})
    seen = view(s, 0)
    assert seen["pile_bottom"] == ["wild"]
    for k in range(10):
        sample = determinize(seen, random.Random(k))
        assert sample.piles[0][-1] == "wild"
        assert sample.known_bottom[0] == 1


def test_another_seats_draw2_cards_are_sampled():
    s = built(4, "keep")  # blue must keep one of two drawn cards
    seen = view(s, 1)  # yellow does not know which
    assert seen["drawn"] == [] and seen["drawn_count"] == 2
    sample = determinize(seen, random.Random(2))
    assert len(sample.drawn) == 2
    assert view(sample, 1) == seen
    assert view(sample, 0)["hand"] is not None


def test_a_finished_game_is_taken_as_it_is():
    state = random_positions("shuffle", 2, seed=9, plies=2000)[-1]
    from games.engine import apply, legal_actions

    while not state.over:
        state = apply(state, legal_actions(state)[0])
    seen = view(state, 0)
    assert determinize(seen, random.Random(0)).to_json() == state.to_json()
