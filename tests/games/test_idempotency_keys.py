"""Idempotency keys belong to whoever sent them. A player who sends the key the computer or
the deadline code would use (``ai:<ply>``, ``timeout:<ply>``) does not make the computer's turn
look done, nor get an opponent's turn counted as timed out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine, services
from games.jobs import computer
from games.jobs.tasks import ai_play
from games.models import Action, Game, Seat
from games.services import SeatSpec

pytestmark = pytest.mark.django_db


def first_action(game: Game) -> dict:
    game.refresh_from_db()
    return engine.legal_actions(game.current_state())[0]


def test_a_players_ai_key_does_not_freeze_the_computer(alice):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )
    # alice plays blue's setup with the key the computer will use for its answer at ply 1.
    services.action_submit(
        game=game, user=alice, action=first_action(game), expected_ply=0, key="ai:1"
    )
    game.refresh_from_db()
    assert game.current_state().controller() == 1  # the computer's turn

    assert ai_play(game.pk, 1) == 2  # it plays: its key is not alice's
    assert Action.objects.filter(game=game).count() == 2


def test_a_players_timeout_key_does_not_count_as_a_timeout(duel, alice, bob):
    services.action_submit(
        game=duel, user=alice, action=first_action(duel), expected_ply=0, key="timeout:2"
    )
    Game.objects.filter(pk=duel.pk).update(turn_started_at=timezone.now() - timedelta(days=2))
    duel.refresh_from_db()

    assert computer.play_overdue_turn(duel, duel.ply) is True  # the computer plays for bob
    seat = Seat.objects.get(game=duel, user=bob)
    assert seat.timeouts_in_row == 1
    assert Action.objects.filter(game=duel, seat=seat.index, by_ai=True).exists()


def test_a_players_key_answers_only_that_player(duel, alice, bob):
    action = first_action(duel)
    first = services.action_submit(game=duel, user=alice, action=action, expected_ply=0, key="mine")
    assert not first.duplicate
    again = services.action_submit(game=duel, user=alice, action=action, expected_ply=0, key="mine")
    assert again.duplicate and again.ply == first.ply  # a retry finds its own move
    # bob reusing alice's key on his turn plays his own move.
    duel.refresh_from_db()
    own = services.action_submit(
        game=duel, user=bob, action=first_action(duel), expected_ply=duel.ply, key="mine"
    )
    assert not own.duplicate and own.ply == 2


def test_a_key_sent_again_with_another_move_is_refused_as_stale(duel, alice):
    """A page shown again from the browser's cache carries the key its first move used: sent
    with another move, it is refused as coming from an old position (409), never answered as a
    retry (the click would be dropped without a word)."""
    action = first_action(duel)
    services.action_submit(game=duel, user=alice, action=action, expected_ply=0, key="k")
    other = {"place": "t20"} if action != {"place": "t20"} else {"place": "a20"}
    with pytest.raises(services.StalePly):
        services.action_submit(game=duel, user=alice, action=other, expected_ply=0, key="k")
    assert duel.actions.count() == 1


def test_an_old_moves_key_sent_at_the_games_ply_is_refused_and_writes_nothing(duel, alice, bob):
    """The key is looked up only for a ply the game has left; at the game's own ply an old
    move's key is refused by the insert's unique key: the same 409, nothing written."""
    players = {0: alice, 1: bob}

    def send(key: str = ""):
        duel.refresh_from_db()
        user = players[duel.current_state().controller()]
        key = key or f"k{duel.ply}"
        result = services.action_submit(
            game=duel, user=user, action=first_action(duel), expected_ply=duel.ply, key=key
        )
        return user, key, result

    used = {}
    while True:  # each player moves once with a key of their own
        user, key, _ = send()
        used.setdefault(user.pk, key)
        duel.refresh_from_db()
        if players[duel.current_state().controller()].pk in used and len(used) == 2:
            break
    before = (duel.ply, duel.state, duel.actions.count())
    user = players[duel.current_state().controller()]
    with pytest.raises(services.StalePly, match="the game has moved on"):
        services.action_submit(
            game=duel,
            user=user,
            action=first_action(duel),
            expected_ply=duel.ply,
            key=used[user.pk],
        )
    duel.refresh_from_db()
    assert (duel.ply, duel.state, duel.actions.count()) == before
    _, _, again = send("new")
    assert not again.duplicate and again.ply == before[0] + 1
