"""One test per kind of bad input: refused with a message naming the rule, nothing changed."""

from __future__ import annotations

import json

import pytest

from games.engine import IllegalAction, RecordError, apply, new_game, replay
from games.engine.record import parse
from tests.engine.helpers import make_state, play

CORNERS = {"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]}


def refused(state, action, *fragments):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    for fragment in fragments:
        assert fragment in str(caught.value)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    return str(caught.value)


def test_malformed_json_is_refused():
    with pytest.raises(RecordError, match="not valid JSON"):
        parse('{"format": "blokus-record/1", ')
    with pytest.raises(RecordError, match="JSON object"):
        parse("[1, 2]")


def test_unknown_key_in_a_record_is_refused():
    record = {"format": "blokus-record/1", "mode": "classic", "players": 4, "actions": [], "x": 1}
    with pytest.raises(RecordError, match="unknown key 'x'"):
        replay(record)


def test_unknown_key_in_an_action_is_refused():
    refused(new_game(mode="classic"), {"plaec": "a1"}, "unknown key 'plaec'")
    refused(new_game(mode="classic"), {"place": "a1", "card": "wild"}, "exactly one key")
    refused(new_game(mode="classic"), ["place", "a1"], "must be an object")
    refused(new_game(mode="classic"), {"place": 7}, "must be a string")


def test_unknown_square_is_refused():
    s = new_game(mode="classic")
    for bad in ("u1", "a21", "a0", "a01", "z9", "", "a1,,b1", "11"):
        refused(s, {"place": bad}, "R1.1")


def test_not_a_piece_shape_is_refused():
    s = new_game(mode="classic")
    refused(s, {"place": "a1,c1"}, "do not form a piece (R1.3)")
    refused(s, {"place": "a1,b1,c1,d1,e1,f1"}, "R1.3")
    refused(s, {"place": "a1,a1"}, "listed twice")


def test_piece_not_in_supply_is_refused():
    s = make_state("classic", pieces=CORNERS)  # every colour has used its 1
    refused(s, {"place": "b2"}, "piece 1 is not in blue's supply (R5.3)")


def test_card_not_in_hand_is_refused():
    s = make_state(pieces=CORNERS, hands={"blue": ["skip", "reverse"]}, piles={"blue": ["wild"]})
    refused(s, {"card": "wild"}, "Wild is not in your hand (R5.1)")
    refused(s, {"card": "joker"}, "unknown card 'joker'")


def test_action_in_the_wrong_step_is_refused():
    s = make_state(pieces=CORNERS, hands={"blue": ["skip", "reverse"]})
    message = refused(s, {"place": "b2,c2"}, "R5.1")
    assert "play a card" in message
    s = play(s, {"card": "skip"})
    refused(s, {"card": "reverse"}, "R5.3")
    refused(new_game(mode="classic"), {"declare": "red"}, "R3.1")


def test_action_after_the_end_is_refused():
    s = make_state("classic", pieces=CORNERS, supply={c: [] for c in CORNERS})
    assert s.over
    refused(s, {"place": "b2"}, "the game is over: no action can follow (R8.1)")


def test_a_record_names_the_index_of_the_bad_action():
    record = {
        "format": "blokus-record/1",
        "mode": "classic",
        "players": 4,
        "actions": [
            {"place": "a1"},
            {"place": "t1"},
            {"place": "t20,s20"},
            {"place": "a20"},
            {"place": "b1,c1"},
        ],
    }
    with pytest.raises(
        RecordError, match=r"^action 4: piece touches its own colour along a side \(R4\.3\)$"
    ):
        replay(record)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "blokus-record/2"}, "format"),
        ({"mode": "speed"}, "mode"),
        ({"players": 5}, "players"),
        ({"players": True}, "players"),
        ({"scoring": "golf"}, "scoring"),
        ({"seed": "12"}, "seed"),
        ({"actions": {}}, "actions"),
        ({"deck_recipe": {"skip": 14}}, "shuffle mode only"),
        ({"shared_color": "green"}, "shared_color"),
    ],
)
def test_a_record_with_a_wrong_value_is_refused(change, message):
    record = {"format": "blokus-record/1", "mode": "classic", "players": 4, "actions": []}
    with pytest.raises(RecordError, match=message):
        replay({**record, **change})


@pytest.mark.parametrize(
    "change, message",
    [
        ({}, "needs 'seed' or 'decks'"),
        ({"seed": 1, "deck_recipe": {"skip": 13}}, "14 cards"),
        ({"seed": 1, "deck_recipe": {"skip": 14, "joker": 0}}, "unknown card kind"),
        ({"decks": {"blue": ["skip"] * 14}}, "recipe's cards"),
        ({"decks": {"purple": []}}, "unknown deck owner"),
    ],
)
def test_a_shuffle_record_with_bad_decks_is_refused(change, message):
    record = {"format": "blokus-record/1", "mode": "shuffle", "players": 4, "actions": []}
    with pytest.raises(RecordError, match=message):
        replay({**record, **change})
