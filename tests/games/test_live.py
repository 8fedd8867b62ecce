"""Live updates: websocket nudges (Channels) after committed moves, turn notices, presence."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from games import engine, services
from games.live import presence
from games.live.routing import websocket_urlpatterns
from games.models import Game, Seat
from games.services import SeatSpec

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def first_move(game: Game, user) -> None:
    game.refresh_from_db()
    action = engine.legal_actions(game.current_state())[0]
    services.action_submit(game=game, user=user, action=action, expected_ply=game.ply)


async def connect(path: str, user) -> tuple[WebsocketCommunicator, bool]:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    if connected and path.startswith("/ws/games/"):
        # The game's socket opens by saying the game's ply (a page that missed a move catches up).
        opening = await communicator.receive_json_from(timeout=5)
        assert opening["type"] == "game.changed" and isinstance(opening["ply"], int)
    return communicator, connected


async def test_players_and_spectators_get_a_nudge_after_each_move(duel, alice, bob, carol):
    watchers = []
    for user in (alice, bob, carol, AnonymousUser()):  # duel is public: spectators may watch
        communicator, connected = await connect(f"/ws/games/{duel.public_id}/", user)
        assert connected
        watchers.append(communicator)
    await sync_to_async(first_move)(duel, alice)
    for communicator in watchers:
        message = await communicator.receive_json_from(timeout=2)
        assert message == {"type": "game.changed", "ply": 1}  # a nudge, nothing hidden
        await communicator.disconnect()


async def test_a_private_game_refuses_spectators(alice, bob, carol):
    game = await sync_to_async(services.game_create)(
        creator=alice,
        mode="shuffle",
        players=2,
        visibility=Game.Visibility.PRIVATE,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    for user in (carol, AnonymousUser()):
        communicator, connected = await connect(f"/ws/games/{game.public_id}/", user)
        assert not connected
    communicator, connected = await connect(f"/ws/games/{game.public_id}/", bob)
    assert connected  # invited
    await communicator.disconnect()
    communicator, connected = await connect("/ws/games/nonexistent/", alice)
    assert not connected


async def test_the_next_player_is_told_it_is_their_turn_on_any_page(duel, alice, bob):
    communicator, connected = await connect("/ws/me/", bob)
    assert connected
    await sync_to_async(first_move)(duel, alice)  # blue's setup: yellow (bob) is next
    message = await communicator.receive_json_from(timeout=2)
    assert message["type"] == "your.turn" and message["game"] == duel.public_id
    await communicator.disconnect()


async def test_a_page_says_with_its_pings_whether_the_player_is_at_the_board(bob):
    first, connected = await connect("/ws/me/", bob)
    second, connected_too = await connect("/ws/me/", bob)
    assert connected and connected_too
    assert not await sync_to_async(presence.is_attentive)(bob.pk)  # open is not enough
    for tab in (first, second):
        await tab.send_json_to({"type": "ping", "visible": True, "active_ms_ago": 500})
        assert (await tab.receive_json_from(timeout=2))["type"] == "pong"
    await first.disconnect()  # one of two tabs closed: the other still counts
    assert await sync_to_async(presence.is_attentive)(bob.pk)
    await second.send_json_to({"type": "ping", "visible": False, "active_ms_ago": 500})
    assert (await second.receive_json_from(timeout=2))["type"] == "pong"
    assert not await sync_to_async(presence.is_attentive)(bob.pk)  # in the background
    await second.disconnect()


async def test_anonymous_users_have_no_user_channel():
    communicator, connected = await connect("/ws/me/", AnonymousUser())
    assert not connected


async def test_a_rolled_back_move_sends_nothing(duel, alice):
    communicator, connected = await connect(f"/ws/games/{duel.public_id}/", alice)
    assert connected

    def move_then_fail():
        with pytest.raises(RuntimeError), transaction.atomic():
            first_move(duel, alice)
            raise RuntimeError("something after the move failed")

    await sync_to_async(move_then_fail)()
    assert await communicator.receive_nothing(timeout=0.3)
    duel_ply = await sync_to_async(lambda: Game.objects.get(pk=duel.pk).ply)()
    assert duel_ply == 0
    await communicator.disconnect()


async def test_the_asgi_app_refuses_a_foreign_origin(duel):
    from config.asgi import application

    communicator = WebsocketCommunicator(
        application, f"/ws/games/{duel.public_id}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{duel.public_id}/", headers=[(b"origin", b"http://localhost")]
    )
    connected, _ = await communicator.connect()
    assert connected  # public game, anonymous spectator, allowed origin
    await communicator.disconnect()


async def test_a_ping_gets_a_pong_on_both_sockets(duel, alice):
    """Keepalive (live.consumers): the live client pings every 25 s; no pong: a dead socket."""
    for path in (f"/ws/games/{duel.public_id}/", "/ws/me/"):
        communicator, connected = await connect(path, alice)
        assert connected
        await communicator.send_json_to({"type": "ping"})
        assert await communicator.receive_json_from(timeout=2) == {"type": "pong"}
        await communicator.send_json_to({"type": "nonsense", "x": 1})  # ignored, no error
        await communicator.send_json_to(["not", "an", "object"])
        assert await communicator.receive_nothing(timeout=0.2)
        await communicator.disconnect()


async def test_the_waiting_room_hears_a_seat_taken_and_chat_lines(alice, bob):
    game = await sync_to_async(services.game_create)(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    communicator, connected = await connect(f"/ws/games/{game.public_id}/", alice)
    assert connected

    def join_and_chat():
        from games.services import chat

        with transaction.atomic():
            services.game_join(game=game, user=bob)
        with transaction.atomic():
            chat.chat_post(game=game, user=bob, text="hi")

    await sync_to_async(join_and_chat)()
    heard = [await communicator.receive_json_from(timeout=2) for _ in range(2)]
    assert {"type": "game.seats"} in heard  # the waiting room refetches: the game started
    assert {"type": "game.changed", "ply": 0} in heard
    assert await communicator.receive_json_from(timeout=2) == {"type": "chat.posted"}
    await communicator.disconnect()
