"""A resigned game's replay, record and Pentobi file: the resignation is one action
of the record (``{"resign": "<colour>"}``) that every export and the replay read."""

from __future__ import annotations

import json

from games import engine, services
from games.services.resign import game_resign
from tests.support.pages import client_for
from tests.support.tables import alice_against_bob


def resigned_duel(alice, bob, mode="shuffle"):
    game = alice_against_bob(alice, bob, mode=mode)
    for corner, user in (("a1", alice), ("t1", bob), ("t20", alice), ("a20", bob)):
        game.refresh_from_db()
        services.action_submit(
            game=game, user=user, action={"place": corner}, expected_ply=game.ply
        )
    game_resign(game=game, user=bob)
    game.refresh_from_db()
    return game


def test_the_record_holds_the_resignation_and_replays_to_the_same_end(alice, bob):
    game = resigned_duel(alice, bob)
    record = json.loads(client_for(alice).get(f"/games/{game.public_id}/record.json").content)
    assert record["actions"][-1] == {"resign": "yellow"}
    final = engine.replay(record)
    assert final.over and [p["place"] for p in engine.score(final)["players"]] == [1, 2]


def test_the_replay_and_the_pentobi_file_of_a_resigned_game(alice, bob):
    game = resigned_duel(alice, bob)
    replay = client_for(alice).get(f"/games/{game.public_id}/replay/?ply=5")
    assert replay.status_code == 200 and "resigned" in replay.content.decode()


def test_a_resigned_classic_game_saves_for_pentobi_with_its_moves(alice, bob):
    game = resigned_duel(alice, bob, mode="classic")
    sgf = client_for(alice).get(f"/games/{game.public_id}/game.blksgf")
    assert sgf.status_code == 200, sgf.content
    assert sgf.content.decode().count(";") == 5  # the root and the four setup pieces
