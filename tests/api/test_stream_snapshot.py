"""The player's stream never reads a game that ends as "gone": My games reads the current
games and the history in two statements, and a game that ends between them must not fall
between the two (it did: the history was read first, the current games second, and the stream
told "game_gone" where the game was over). On PostgreSQL both statements read one snapshot;
on SQLite the current games are read first, so such a game is in both for a moment."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from api import stream
from games import services
from tests.support.tables import alice_against_bob

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_game_ending_between_the_lists_two_reads_is_told_over_once(alice, bob):
    game = alice_against_bob(alice, bob)
    before = stream.me_snapshot(bob)
    assert game.public_id in before["current"]

    selects, resigned, failed = [], [], []

    def resign_before_the_second_read(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith("SELECT"):
            selects.append(sql)
            if len(selects) == 2:
                # Alice resigns on another connection, committed before the list reads on.
                def resign():
                    try:
                        services.game_resign(game=game, user=alice)
                        resigned.append(True)
                    except Exception as exc:  # the assertion below names it
                        failed.append(exc)
                    finally:
                        connection.close()

                worker = threading.Thread(target=resign)
                worker.start()
                worker.join()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(resign_before_the_second_read):
        during = stream.me_snapshot(bob)
    assert resigned, failed
    after = stream.me_snapshot(bob)
    told = stream.me_events(before, during) + stream.me_events(during, after)
    assert [event["type"] for event in told] == ["game_over"]
    assert told[0]["game"] == game.public_id and told[0]["my_place"] == 1
