"""F9, R3.2, R9.3: the cryptographic shuffle, its public commitment and ``verify``.

The decks are checked against a second implementation written here from the specification in
games/engine/cards.py's docstring (not from its code), so that another tool following the text
gets the same decks."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from collections import Counter
from itertools import permutations

import pytest

from games.engine import apply, legal_actions, make_record, new_game, replay, view
from games.engine.cards import (
    CARD_KINDS,
    DEFAULT_RECIPE,
    _uniform,
    commitment,
    recipe_cards,
    shuffled_decks,
)
from games.engine.verify import verify

MASK64 = (1 << 64) - 1


# -- a second implementation, from the docstring ------------------------------------------------


def reference_numbers(seed_hex: str):
    key = bytes.fromhex(seed_hex)
    k = 0
    while True:
        digest = hashlib.sha256(key + k.to_bytes(8, "big")).digest()
        yield from (int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4))
        k += 1


def reference_decks(seed, decks: list[list[str]]) -> list[list[str]]:
    if isinstance(seed, str):
        numbers = reference_numbers(seed)

        def uniform(m):
            while True:
                u = next(numbers)
                if u < 2**32 - 2**32 % m:
                    return u % m
    else:
        state = seed & MASK64

        def uniform(m):
            nonlocal state
            state = (state + 0x9E3779B97F4A7C15) & MASK64
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            return (z ^ (z >> 31)) % m

    out = []
    for deck in decks:
        deck = list(deck)
        for i in range(len(deck) - 1, 0, -1):
            j = uniform(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        out.append(deck)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r3_2_decks_follow_the_specification(players):
    rng = random.Random(players)
    for _ in range(10):
        seed = "".join(rng.choice("0123456789abcdef") for _ in range(64))
        game = new_game(mode="shuffle", players=players, seed=seed)
        owners = game.owners()
        per_owner = recipe_cards(DEFAULT_RECIPE) * (2 if players == 2 else 1)
        expected = reference_decks(seed, [per_owner] * len(owners))
        assert [game.piles[o] for o in owners] == expected


def test_older_integer_seeds_still_deal_their_old_decks():
    cards = recipe_cards(DEFAULT_RECIPE)
    for seed in (0, 1, 20261122, 2**63 - 1):
        game = new_game(mode="shuffle", players=4, seed=seed)
        assert [game.piles[o] for o in game.owners()] == reference_decks(seed, [cards] * 4)
        assert game.commitment is None  # no commitment for an older seed


def test_rejection_sampling_refuses_the_uneven_top_of_the_range():
    # 2**32 mod 3 == 1: the single value 2**32 - 1 would favour 0, so it is drawn again.
    assert _uniform(iter([2**32 - 1, 5]), 3) == 2
    assert _uniform(iter([2**32 - 2]), 3) == (2**32 - 2) % 3
    assert _uniform(iter([7]), 8) == 7  # a power of two: nothing rejected


def test_every_order_of_a_small_deck_is_about_equally_likely():
    cards = ["skip", "wild", "warp"]
    rng = random.Random(9)
    counts = Counter()
    trials = 3000
    for _ in range(trials):
        seed = rng.randbytes(32).hex()
        counts[tuple(shuffled_decks(seed, [0], {0: cards})[0])] += 1
    assert set(counts) == set(permutations(cards))
    expected = trials / 6
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001


def test_the_commitment_is_sha256_of_tag_seed_and_salt():
    seed, salt = "ab" * 32, "cd" * 16
    text = f"blokus-shuffle/1:{seed}:{salt}".encode()
    assert commitment(seed, salt) == hashlib.sha256(text).hexdigest()
    game = new_game(mode="shuffle", players=2, seed=seed, salt=salt)
    assert game.commitment == commitment(seed, salt)


def test_r9_3_every_seat_sees_the_commitment_and_nobody_the_seed_or_salt():
    game = new_game(mode="shuffle", players=4)
    for seat in (None, 0, 1, 2, 3):
        seen = view(game, seat)
        assert seen["commitment"] == game.commitment
        text = json.dumps(seen)
        assert game.seed not in text and game.salt not in text


# -- verify ---------------------------------------------------------------------------------


def finished(players=2, seed=3):
    rng = random.Random(seed)
    initial = state = new_game(mode="shuffle", players=players)
    actions = []
    while not state.over:
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        actions.append(action)
    return initial, actions, json.loads(json.dumps(make_record(initial, actions, reveal=True)))


def test_a_finished_games_record_verifies():
    initial, _actions, record = finished()
    assert record["seed"] == initial.seed and record["salt"] == initial.salt
    assert record["commitment"] == initial.commitment
    result = verify(record)
    assert result["ok"] is True, result


@pytest.mark.parametrize(
    "tamper, reason",
    [
        (lambda r: r.update(seed="0" * 64), "commitment"),
        (lambda r: r.update(salt="1" * 32), "commitment"),
        (lambda r: r.update(commitment="2" * 64), "commitment"),
        (lambda r: r["decks"]["blue"].reverse(), "decks"),
        (lambda r: r.pop("salt"), "lacks salt"),
        (lambda r: r.update(actions=r["actions"][:-3]), "not over"),
    ],
)
def test_a_tampered_record_does_not_verify(tamper, reason):
    _initial, _actions, record = finished()
    tamper(record)
    result = verify(record)
    assert result["ok"] is False and reason in result["reason"]


def test_a_card_the_decks_did_not_deal_does_not_verify():
    """Swap the first card played for another kind: it was never in that hand (R5.1)."""
    _initial, _actions, record = finished()
    index = next(i for i, a in enumerate(record["actions"]) if "card" in a)
    before = replay(record, upto=index)
    hand = set(before.hands[before.owner(before.turn)])
    other = next(k for k in CARD_KINDS if k not in hand)
    record["actions"][index] = {"card": other}
    result = verify(record)
    assert result["ok"] is False and f"action {index}" in result["reason"]


def run_cli(record) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "verify", "-"],
        input=json.dumps(record) if isinstance(record, dict) else record,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_verify_command_exits_0_1_or_2():
    _initial, _actions, record = finished()
    good = run_cli(record)
    assert good.returncode == 0 and json.loads(good.stdout)["ok"] is True
    record["salt"] = "f" * 32
    bad = run_cli(record)
    assert bad.returncode == 1 and json.loads(bad.stdout)["ok"] is False
    broken = run_cli("{not json")
    assert broken.returncode == 2 and broken.stdout == "" and "Traceback" not in broken.stderr
