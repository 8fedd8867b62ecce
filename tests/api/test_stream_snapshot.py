"""The player's stream reads My games from one snapshot of the database (PostgreSQL): a game
that ends between the list's two statements (the history first, the current games second)
is still seen as current, and the next read tells "game_over", never "game_gone"."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from api import stream
from games import services
from games.selectors import lists
from tests.support.tables import alice_against_bob

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_game_ending_between_the_lists_two_reads_is_over_not_gone(
    require_postgres, alice, bob, monkeypatch
):
    game = alice_against_bob(alice, bob)
    before = stream.me_snapshot(bob)
    assert game.public_id in before["current"]

    real = lists.listed_seats
    resigned = []

    def resign_meanwhile(seats):
        # Between the history's statement and the current games' statement, alice resigns
        # on another connection, committed before the list reads on.
        if not resigned:
            def resign():
                services.game_resign(game=game, user=alice)
                connection.close()

            worker = threading.Thread(target=resign)
            worker.start()
            worker.join()
            resigned.append(True)
        return real(seats)

    monkeypatch.setattr(lists, "listed_seats", resign_meanwhile)
    during = stream.me_snapshot(bob)
    assert resigned
    # One snapshot: the game is still bob's current game, not missing from both halves.
    assert game.public_id in during["current"]
    assert game.public_id not in during["finished"]
    assert stream.me_events(before, during) == []

    monkeypatch.setattr(lists, "listed_seats", real)
    after = stream.me_snapshot(bob)
    events = stream.me_events(during, after)
    assert [e["type"] for e in events] == ["game_over"]
    assert events[0]["game"] == game.public_id and events[0]["my_place"] == 1
