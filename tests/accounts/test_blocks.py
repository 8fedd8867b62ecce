"""Blocking: alice blocks bob. He cannot take a seat in a game she sits in, or be seen in her
chat; his invitations to her are silenced (tests/games/test_silent_blocks.py); she can unblock
him; moderators see blocks in the admin."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import Block
from games import services
from games.models import Seat
from games.services import SeatSpec, chat

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_blocks_bob(client, alice, bob):
    client.force_login(alice)
    response = client.post(reverse("block", args=["bob"]), {"action": "block"})
    assert response.status_code == 302
    client.logout()
    return Block.objects.get(blocker=alice, blocked=bob)


def open_game(creator, *, players=2, kind=Seat.Kind.OPEN):
    seats = [SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(kind) for _ in range(players - 1)]
    return services.game_create(creator=creator, mode="classic", players=players, seats=seats)


def test_the_blocker_cannot_invite_whom_she_blocked_either(alice, bob, alice_blocks_bob):
    with pytest.raises(services.GameError, match="you have blocked"):
        services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        )


@pytest.mark.parametrize("kind", [Seat.Kind.OPEN, Seat.Kind.LINK])
def test_a_blocked_player_cannot_take_a_seat_in_her_game(alice, bob, carol, alice_blocks_bob, kind):
    game = open_game(alice, players=3, kind=kind)
    token = game.invite_token if kind == "link" else ""

    with pytest.raises(services.NotAllowed):
        services.game_join(game=game, user=bob, token=token)
    services.game_join(game=game, user=carol, token=token)  # others still may

    assert game.seats.filter(user=bob).count() == 0


@pytest.mark.parametrize("kind", [Seat.Kind.OPEN, Seat.Kind.LINK])
def test_the_page_never_offers_a_seat_the_service_would_refuse(
    client, alice, bob, carol, alice_blocks_bob, kind
):
    """One rule (selectors.seating) for the page and the write path: no "Take a seat" for him."""
    game = open_game(alice, players=3, kind=kind)
    query = f"?token={game.invite_token}" if kind == "link" else ""
    url = reverse("game", args=[game.public_id]) + query
    join = f'action="{reverse("game_join", args=[game.public_id])}"'

    client.force_login(bob)
    assert join not in client.get(url).content.decode()
    client.force_login(carol)
    assert join in client.get(url).content.decode()


def test_a_blocked_player_cannot_join_a_game_where_she_sits(alice, bob, carol, alice_blocks_bob):
    game = open_game(carol, players=3)
    services.game_join(game=game, user=alice)

    with pytest.raises(services.NotAllowed):
        services.game_join(game=game, user=bob)


def test_her_open_games_are_not_listed_for_him(client, alice, bob, carol, dave, alice_blocks_bob):
    hers, carols = open_game(alice), open_game(carol)

    client.force_login(bob)
    page = client.get(reverse("home")).content.decode()
    assert carols.public_id in page
    assert hers.public_id not in page
    client.force_login(dave)  # anyone else still sees both
    page = client.get(reverse("home")).content.decode()
    assert carols.public_id in page and hers.public_id in page


def test_his_chat_lines_are_not_shown_to_her(client, duel, alice, bob, dave):
    chat.chat_post(game=duel, user=bob, text="a line from bob")
    chat.chat_post(game=duel, user=alice, text="a line from alice")
    url = reverse("game_chat", args=[duel.public_id])

    client.force_login(alice)
    assert "a line from bob" in client.get(url).content.decode()
    client.post(reverse("block", args=["bob"]), {"action": "block"})
    shown = client.get(url).content.decode()
    assert "a line from bob" not in shown
    assert "a line from alice" in shown
    client.force_login(dave)  # staff still see everything
    assert "a line from bob" in client.get(url).content.decode()


def test_she_can_unblock_him_from_her_settings(client, alice, bob, alice_blocks_bob):
    client.force_login(alice)
    settings_page = client.get(reverse("settings")).content.decode()
    assert reverse("profile", args=["bob"]) in settings_page

    client.post(reverse("block", args=["bob"]), {"action": "unblock", "next": "settings"})

    assert not Block.objects.exists()
    game = open_game(alice)
    services.game_join(game=game, user=bob)


def test_nobody_blocks_themselves_or_by_a_get(client, alice):
    client.force_login(alice)
    client.post(reverse("block", args=["alice"]), {"action": "block"})
    assert client.get(reverse("block", args=["alice"])).status_code == 405
    assert not Block.objects.exists()


def test_the_profile_offers_block_and_unblock(client, alice, bob):
    client.force_login(alice)
    assert "Block this player" in client.get(reverse("profile", args=["bob"])).content.decode()
    client.post(reverse("block", args=["bob"]), {"action": "block"})
    assert "Unblock" in client.get(reverse("profile", args=["bob"])).content.decode()
    assert (
        "Block this player" not in client.get(reverse("profile", args=["alice"])).content.decode()
    )


def test_moderators_see_blocks_in_the_admin(client, dave, alice_blocks_bob):
    client.force_login(dave)
    page = client.get(reverse("admin:accounts_block_changelist")).content.decode()
    assert ">alice<" in page and ">bob<" in page
    assert (
        client.get(reverse("admin:accounts_block_change", args=[alice_blocks_bob.pk])).status_code
        == 200
    )
