"""Behaviours that one-line mutations used to break with the suite still green: each test here
fails when its behaviour is broken."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.live import nudges
from games.models import Game, Seat
from games.services import SeatSpec

pytestmark = pytest.mark.django_db


def private_game(alice, bob) -> Game:
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        visibility=Game.Visibility.PRIVATE,
    )
    services.game_join(game=game, user=bob)
    return game


def decide(game: Game, user) -> None:
    game.refresh_from_db()
    state = game.current_state()
    services.action_submit(
        game=game, user=user, action=engine.legal_actions(state)[0], expected_ply=game.ply
    )


def alice_plays_to_a_main_turn(duel, alice, bob) -> None:
    """Through the setup round (R3.1): every colour's first piece, as each seat controls it."""
    while duel.current_state().step == "setup":
        state = duel.current_state()
        decide(duel, alice if state.controller() == 0 else bob)
        duel.refresh_from_db()


def test_staff_may_see_a_private_game_and_others_may_not(alice, bob, carol, dave):
    game = private_game(alice, bob)
    url = reverse("game", args=[game.public_id])
    staff, stranger = Client(), Client()
    staff.force_login(dave)
    stranger.force_login(carol)

    assert staff.get(url).status_code == 200
    assert stranger.get(url).status_code == 404


def test_a_turn_notice_goes_out_only_when_control_changes(
    duel, alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    """Shuffle (R5): a turn is several decisions; the next player hears once, when it is theirs."""
    sent = []
    monkeypatch.setattr(nudges, "your_turn", lambda user_id, *a: sent.append(user_id))
    alice_plays_to_a_main_turn(duel, alice, bob)
    while duel.current_state().controller() != 0:
        decide(duel, bob)
        duel.refresh_from_db()
    sent.clear()
    decisions = 0
    with django_capture_on_commit_callbacks(execute=True):
        while duel.current_state().controller() == 0:
            decide(duel, alice)
            duel.refresh_from_db()
            decisions += 1
    assert decisions >= 2  # a card, then a piece at least
    assert sent == [bob.pk]


def test_the_move_clock_restarts_only_when_control_changes(duel, alice, bob):
    alice_plays_to_a_main_turn(duel, alice, bob)
    while duel.current_state().controller() != 0:
        decide(duel, bob)
        duel.refresh_from_db()
    began = duel.turn_started_at
    decide(duel, alice)  # the card: still alice's turn
    duel.refresh_from_db()
    assert duel.current_state().controller() == 0
    assert duel.turn_started_at == began
    while duel.current_state().controller() == 0:
        decide(duel, alice)
        duel.refresh_from_db()
    assert duel.turn_started_at > began


def test_declining_an_invitation_leaves_a_seat_for_the_invite_link(alice, bob):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_leave(game=game, user=bob)

    seat = game.seats.get(index=1)
    assert (seat.kind, seat.user) == (Seat.Kind.LINK, None)


def test_an_abort_clears_whose_turn_it_is(duel, dave):
    assert duel.to_move_seat is not None
    services.game_abort(game=duel, staff=dave, reason="pinned")
    duel.refresh_from_db()
    assert duel.status == Game.Status.ABORTED
    assert duel.to_move_seat is None
