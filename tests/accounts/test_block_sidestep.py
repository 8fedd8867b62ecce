"""A block cannot be sidestepped through a pending invitation. Bob blocked carol; alice
invites bob to a public game with an open seat. Carol may not take the open seat while bob's
invitation is pending (bob would accept and sit at her table), and an invited player does not sit
down with a player at the table who blocked them."""

from __future__ import annotations

import pytest

from accounts.models import Block
from games import services
from games.models import Game, Seat
from games.services import SeatSpec

pytestmark = pytest.mark.django_db


def three_seats(creator, *, invited: list[str], open_seats: int = 1) -> Game:
    seats = [SeatSpec(Seat.Kind.HUMAN)]
    seats += [SeatSpec(Seat.Kind.INVITED, username=name) for name in invited]
    seats += [SeatSpec(Seat.Kind.OPEN) for _ in range(open_seats)]
    return services.game_create(creator=creator, mode="classic", players=3, seats=seats)


def test_a_blocked_player_cannot_take_a_seat_next_to_a_pending_invitation(alice, bob, carol):
    Block.objects.create(blocker=bob, blocked=carol)
    game = three_seats(alice, invited=["bob"])

    with pytest.raises(services.NotAllowed):
        services.game_join(game=game, user=carol)
    services.invitation_accept(game=game, user=bob)

    sitting = set(game.seats.filter(kind=Seat.Kind.HUMAN).values_list("user__username", flat=True))
    assert sitting == {"alice", "bob"}


def test_an_invitee_blocked_by_another_invitee_does_not_join_him(alice, bob, carol):
    Block.objects.create(blocker=bob, blocked=carol)
    game = three_seats(alice, invited=["bob", "carol"], open_seats=0)
    services.invitation_accept(game=game, user=bob)

    with pytest.raises(services.NotAllowed):
        services.invitation_accept(game=game, user=carol)
    assert not game.seats.filter(user=carol, kind=Seat.Kind.HUMAN).exists()


def test_others_still_take_the_open_seat(alice, bob, carol, dave):
    Block.objects.create(blocker=bob, blocked=carol)
    game = three_seats(alice, invited=["bob"])

    services.game_join(game=game, user=dave)
    services.invitation_accept(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
