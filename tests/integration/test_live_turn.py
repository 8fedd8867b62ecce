"""A live game on real services: a player's move commits on PostgreSQL, a Celery worker process
plays the computer's answer, the player's page hears of both moves through Redis, and the
player gets one turn email."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.live.routing import websocket_urlpatterns
from games.models import Action
from tests.integration.helpers import WAIT, human_move, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_the_computer_answers_a_move_and_the_page_hears_of_both_and_one_email_goes_out(
    alice, vs_computer, verified, broker, workers, mailbox, redis_channel_layer
):
    game = vs_computer
    # alice wants an email for every turn (the default), at her verified address.
    await database_sync_to_async(verified)(alice)
    broker.connect()
    worker = workers.start()
    page = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.public_id}/")
    page.scope["user"] = alice
    connected, _ = await page.connect()
    assert connected
    opening = await page.receive_json_from(timeout=5)  # the game's ply as the socket opens
    assert opening["type"] == "game.changed"
    try:
        await database_sync_to_async(human_move)(game, alice)  # blue's setup; yellow's next
        assert await page.receive_json_from(timeout=WAIT) == {"type": "game.changed", "ply": 1}
        # The worker plays yellow's setup and nudges the page from its own process.
        assert await page.receive_json_from(timeout=WAIT) == {"type": "game.changed", "ply": 2}

        # Red's setup is alice's again: the worker emails her.
        await sync_to_async(wait_for)(mailbox.messages, what="the turn email", log=worker.log)
        await sync_to_async(worker.wait_ran)("games.tasks.send_turn_email", 1)
        assert await page.receive_nothing(timeout=0.3)
    finally:
        await page.disconnect()

    assert await sync_to_async(worker.ran)("games.tasks.ai_play") == 1
    (message,) = mailbox.messages()
    assert message["To"] == alice.email
    assert message["Subject"].startswith("[Blokus Shuffle]") and "Your turn" in message["Subject"]
    link = f"http://testserver/games/{game.public_id}/"
    assert link in message.get_body(("plain",)).get_content()
    assert message["List-Unsubscribe"].startswith("<http://testserver/")
    actions = await database_sync_to_async(list)(Action.objects.filter(game=game).order_by("ply"))
    assert [(a.ply, a.seat, a.by_ai) for a in actions] == [(1, 0, False), (2, 1, True)]
