"""The replay steps by turn as well as by action, lists the moves by turn with a link to every
action, marks the last move, and uses no glyph that renders as an empty box (issue "A game table
players enjoy")."""

from __future__ import annotations

import re

from django.urls import reverse

from games import engine, services
from games.models import Seat
from games.presenters.captions import event_text
from games.services import SeatSpec
from tests.support.pages import client_for
from tests.support.records import play, state_at, upload_file
from tests.support.tables import (
    four_humans,
    play_until_alice_has_been_skipped_and_reversed,
)


def four_player_game(alice, bob, carol, dave):
    game = four_humans(alice, bob, carol, dave)
    play_until_alice_has_been_skipped_and_reversed(game, {0: alice, 1: bob, 2: carol, 3: dave})
    game.refresh_from_db()
    return game


def last_squares(content: str) -> set[str]:
    """The board squares the page marks as the last move, by the cells' order (a20 … t1)."""
    cells = re.findall(r'<span class="rb-sq([^"]*)">', content)
    assert len(cells) == 400
    names = [f"{c}{20 - i // 20}" for i, c in enumerate("abcdefghijklmnopqrst" * 20)]
    return {names[i] for i, classes in enumerate(cells) if " last" in classes}


def test_turns_cover_every_action_once_and_step_turn_by_turn(alice, bob, carol, dave):
    game = four_player_game(alice, bob, carol, dave)
    url = reverse("game_replay", args=[game.public_id])
    client = client_for(bob)

    context = client.get(url).context
    turns = context["turns"]

    covered = [p for t in turns for p in range(t["first_ply"], t["ply"] + 1)]
    assert covered == list(range(1, game.ply + 1))  # every action in exactly one turn, in order
    assert len(turns) < game.ply  # turns, not single actions
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
    assert (steps["in_turn"], steps["turn_actions"]) == (1, middle["ply"] - middle["first_ply"] + 1)
    steps = client.get(f"{url}?ply={middle['ply']}").context["steps"]
    assert steps["next_turn"] == turns[index + 1]["ply"]
    assert steps["current"] == middle["number"]
    assert steps["colour"] == middle["colour"]


def test_the_move_list_links_every_action_and_marks_the_current_one(alice, bob, carol, dave):
    game = four_player_game(alice, bob, carol, dave)
    url = reverse("game_replay", args=[game.public_id])
    client = client_for(carol)
    turns = client.get(url).context["turns"]
    middle = next(t for t in turns[4:] if t["ply"] > t["first_ply"])
    ply = middle["first_ply"]  # its card: the first of its actions

    response = client.get(f"{url}?ply={ply}")
    content = response.content.decode()

    for p in range(1, game.ply + 1):  # ?ply=N for every action, from the list
        assert f'href="{url}?ply={p}" hx-get="{url}?ply={p}"' in content
    # One current turn (its row in its colour) and one current action: the ply shown.
    rows = re.findall(r'<li class="turn-row (\w+)( current)?" data-turn="(\d+)"', content)
    assert len(rows) == len(turns)
    assert [(c, n) for c, cur, n in rows if cur] == [(middle["colour"], str(middle["number"]))]
    assert all(c in ("blue", "yellow", "red", "green") for c, _, _ in rows)
    marked = r'href="([^"]+)" hx-get="[^"]+" class="current" aria-current="step"'
    current = re.findall(marked, content)
    assert current == [f"{url}?ply={ply}"]
    assert f'data-ply="{ply}"' in content
    assert f"step 1 of {middle['ply'] - middle['first_ply'] + 1}" in content


def test_r9_the_move_list_tells_only_the_public_events_while_the_game_runs(client, duel, carol):
    play(duel, 14)
    client.force_login(carol)  # a spectator (R9)

    turns = client.get(reverse("game_replay", args=[duel.public_id])).context["turns"]

    texts = {a["ply"]: a["text"] for t in turns for a in t["actions"]}
    assert sorted(texts) == list(range(1, 15))
    for ply, text in texts.items():
        public = engine.view(state_at(duel, ply), None)["events"]  # what every seat saw (R9.1)
        assert text == " · ".join(event_text(e) for e in public)
    assert all("hand" not in text.lower() for text in texts.values())


def test_the_last_move_stays_marked_through_the_turn(alice, bob, carol, dave):
    game = four_player_game(alice, bob, carol, dave)
    url = reverse("game_replay", args=[game.public_id])
    client = client_for(alice)
    turns = client.get(url).context["turns"]
    placed = [t for t in turns if any(line["kind"] == "place" for line in t["lines"])]
    turn, before = placed[-1], placed[-2]

    def squares(t):
        return {
            sq
            for line in t["lines"]
            if line["kind"] == "place"
            for sq in line["text"].rsplit(" on ", 1)[1].split(",")
        }

    at_end = client.get(f"{url}?ply={turn['ply']}").content.decode()
    assert last_squares(at_end) == squares(turn)
    # On the card that opens a turn, the board still marks the turn before's placement.
    at_card = client.get(f"{url}?ply={turn['first_ply']}").content.decode()
    assert turn["lines"][0]["kind"] == "card"
    assert last_squares(at_card) == squares(before)
    assert last_squares(client.get(f"{url}?ply=0").content.decode()) == set()


def test_the_last_move_is_marked_and_the_controls_are_words(duel, alice):
    client = client_for(alice)
    client.post(
        reverse("game_act", args=[duel.public_id]),
        {"action": '{"place": "a1"}', "ply": "0", "key": "k1"},
    )
    url = reverse("game_replay", args=[duel.public_id])
    content = client.get(url).content.decode()

    assert content.count('class="rb-sq blue last"') == 1  # a1, the 1 (R3.1)
    for glyph in "⏮⏭⏪⏩◀▶":  # the glyphs Chromium drew as empty boxes
        assert glyph not in content
    for word in ("First", "Previous turn", "Previous action", "Next action", "Next turn", "Last"):
        assert f'<span class="step-label">{word}</span>' in content
    assert content.count('<svg viewBox="0 0 16 16"') == 6
    assert 'rel="prev"' in content and "js/replay" in content and "css/replay" in content
    # At the last position there is nothing further: the forward controls are switched off.
    assert 'rel="next"' not in content and 'data-rel="next-turn"' not in content
    assert content.count('class="step off" aria-disabled="true"') == 3
    start = client.get(f"{url}?ply=0").content.decode()
    assert 'rel="prev"' not in start and 'rel="next"' in start and "<strong>Start</strong>" in start


def test_an_uploaded_record_lists_its_turns_too(client, duel):
    play(duel)
    record = client.get(reverse("game_record", args=[duel.public_id]))
    client.force_login(duel.seats.get(index=0).user)
    client.post(reverse("replay_upload"), {"record": upload_file(record.content)})
    page = client.get(reverse("replay_upload") + "?ply=5")

    turns = page.context["turns"]
    covered = [a["ply"] for t in turns for a in t["actions"]]
    assert covered == list(range(1, duel.ply + 1))
    assert sum(a["current"] for t in turns for a in t["actions"]) == 1
    assert f'href="{reverse("replay_upload")}?ply=5"' in page.content.decode()


def test_the_shared_colours_turns_say_who_played_them(alice, bob, carol):
    """R2.4: in a 3-player game the players take the shared colour in rotation, player 1 first
    (its setup placement is player 1's, and the rotation goes on from there); the replay's move
    list says who played each of its turns, as the game page's log does."""
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=3,
        seats=[
            SeatSpec(Seat.Kind.HUMAN),
            SeatSpec(Seat.Kind.INVITED, username="bob"),
            SeatSpec(Seat.Kind.INVITED, username="carol"),
        ],
    )
    for user in (bob, carol):
        services.game_join(game=game, user=user)
    users = {0: alice, 1: bob, 2: carol}
    for _ in range(16):  # the setup round and three rounds: green played by each player once
        game.refresh_from_db()
        state = game.current_state()
        services.action_submit(
            game=game,
            user=users[state.controller()],
            action=engine.legal_actions(state)[0],
            expected_ply=game.ply,
        )
    turns = client_for(carol).get(reverse("game_replay", args=[game.public_id])).context["turns"]

    green = [t["player"] for t in turns if t["colour"] == "green"]
    assert green == [f"shared colour, played by {u}" for u in ("alice", "bob", "carol", "alice")]
    assert {t["player"] for t in turns if t["colour"] == "blue"} == {"alice"}
