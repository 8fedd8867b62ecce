"""The replay steps by turn as well as by action, marks the last move, and uses no glyph that
renders as an empty box (issue "A game table players enjoy", item 7)."""

from __future__ import annotations

from django.urls import reverse

from tests.games.test_game_table import (
    four_humans,
    play_until_alice_has_been_skipped_and_reversed,
)
from tests.games.test_play import client_for


def test_turns_cover_every_action_once_and_step_turn_by_turn(alice, bob, carol, dave):
    game = four_humans(alice, bob, carol, dave)
    play_until_alice_has_been_skipped_and_reversed(game, {0: alice, 1: bob, 2: carol, 3: dave})
    url = reverse("game_replay", args=[game.public_id])
    client = client_for(bob)

    context = client.get(url).context
    turns = context["turns"]

    covered = [p for t in turns for p in range(t["first_ply"], t["ply"] + 1)]
    assert covered == list(range(1, game.ply + 1))  # every action in exactly one turn, in order
    # In Shuffle mode a main turn starts with its card (R5.1) and is one colour's.
    for t in turns[4:]:
        assert t["lines"][0]["text"].startswith(f"{t['colour'].capitalize()} played ")
    # Stepping: from the middle of a turn, back goes to the end of the turn before it, on to
    # the end of this one; from its end, on goes to the end of the next.
    middle = next(t for t in turns if t["ply"] > t["first_ply"])
    steps = client.get(f"{url}?ply={middle['first_ply']}").context["steps"]
    index = turns.index(middle)
    assert steps["prev_turn"] == (turns[index - 1]["ply"] if index else 0)
    assert steps["next_turn"] == middle["ply"]
    steps = client.get(f"{url}?ply={middle['ply']}").context["steps"]
    assert steps["next_turn"] == turns[index + 1]["ply"]
    assert steps["current"] == middle["number"]


def test_the_last_move_is_marked_and_the_controls_are_words(duel, alice):
    client = client_for(alice)
    client.post(
        reverse("game_act", args=[duel.public_id]),
        {"action": '{"place": "a1"}', "ply": "0", "key": "k1"},
    )
    content = client.get(reverse("game_replay", args=[duel.public_id])).content.decode()

    assert content.count('class="rb-sq blue last"') == 1  # a1, the 1 (R3.1)
    for glyph in "⏮⏭◀▶":
        assert glyph not in content
    for word in ("First", "« Turn", "‹ Action", "Action ›", "Turn »", "Last"):
        assert word in content
    assert 'rel="prev"' in content and 'data-rel="next-turn"' in content and "js/replay" in content
