"""Take backs (games.services.takeback, R11.3): asked for by the player who moved, until the next
player acts; accepted or declined by the others (a computer seat accepts); never in a rated game;
a move that drew cards too, which go back on top of their piles, the others told so without the
cards' names; the record and the replay never show what was taken back, and a finished game's
shuffle still verifies."""

from __future__ import annotations

import json

import pytest

from games import engine, services
from games.models import Action, Game, Seat, TakeBack
from games.services import SeatSpec
from games.services.takeback import takeback_answer, takeback_request
from tests.support.pages import client_for


def snapshot(game: Game):
    game.refresh_from_db()
    return (game.ply, json.dumps(game.state, sort_keys=True), Action.every.count())


def make(creator, *others, mode="classic", rated=False, ai=False) -> Game:
    seats = [SeatSpec(Seat.Kind.HUMAN)]
    seats += [SeatSpec(Seat.Kind.INVITED, username=u.username) for u in others]
    if ai:
        seats.append(SeatSpec(Seat.Kind.AI, level="beginner"))
    game = services.game_create(
        creator=creator, mode=mode, players=len(seats), seats=seats, rated=rated
    )
    for user in others:
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def move(game: Game, user, action) -> None:
    game.refresh_from_db()
    services.action_submit(game=game, user=user, action=action, expected_ply=game.ply)
    game.refresh_from_db()


def test_an_accepted_take_back_undoes_the_move_and_the_record_forgets_it(alice, bob):
    game = make(alice, bob)
    move(game, alice, {"place": "a1"})
    move(game, bob, {"place": "t1"})
    move(game, alice, {"place": "t20"})
    request = takeback_request(game=game, user=alice)
    assert request.status == TakeBack.Status.PENDING
    takeback_answer(game=game, user=bob, accept=True)
    game.refresh_from_db()
    assert game.ply == 2 and game.to_move_seat == 0
    assert (
        game.current_state().to_json()["board"]
        == engine.replay(
            {
                "format": "blokus-record/1",
                "mode": "classic",
                "players": 2,
                "actions": [{"place": "a1"}, {"place": "t1"}],
            }
        ).to_json()["board"]
    )
    assert Action.every.filter(game=game, taken_back=True).count() == 1
    exported = json.loads(client_for(alice).get(f"/games/{game.public_id}/record.json").content)
    assert exported["actions"] == [{"place": "a1"}, {"place": "t1"}]  # what was undone is gone
    move(game, alice, {"place": "a20"})  # the ply is played again
    assert [a.payload for a in game.actions.order_by("ply")] == [
        {"place": "a1"},
        {"place": "t1"},
        {"place": "a20"},
    ]


def test_a_taken_back_moves_own_request_sent_again_is_refused_as_stale(alice, bob):
    """The request that made the move comes again after the take back (a retry, a page that
    reposts it): same idempotency key, same ply, and that ply is the game's again. The key
    stays spent, so it is a 409 with the game as it stands, and the move the others agreed to
    undo is not played again."""
    game = make(alice, bob)
    move(game, alice, {"place": "a1"})
    move(game, bob, {"place": "t1"})
    request = {"action": json.dumps({"place": "t20"}), "ply": "2", "key": "alice-t20"}
    client = client_for(alice)
    first = client.post(f"/games/{game.public_id}/act/", request, HTTP_HX_REQUEST="true")
    assert first.status_code == 204
    takeback_request(game=game, user=alice)
    takeback_answer(game=game, user=bob, accept=True)
    before = snapshot(game)
    assert before[0] == 2

    again = client.post(f"/games/{game.public_id}/act/", request, HTTP_HX_REQUEST="true")
    assert again.status_code == 409
    assert "here is the game now" in again.content.decode()
    assert snapshot(game) == before  # nothing played, nothing written
    with pytest.raises(services.StalePly):  # the service's answer, for any caller
        services.action_submit(
            game=game, user=alice, action={"place": "t20"}, expected_ply=2, key="alice-t20"
        )
    assert snapshot(game) == before
    move(game, alice, {"place": "t20"})  # the same move with a fresh key: a new decision
    assert game.ply == 3


def test_a_declined_take_back_changes_nothing(alice, bob):
    game = make(alice, bob)
    move(game, alice, {"place": "a1"})
    takeback_request(game=game, user=alice)
    before = snapshot(game)
    request = takeback_answer(game=game, user=bob, accept=False)
    assert request.status == TakeBack.Status.DECLINED
    assert snapshot(game) == before
    with pytest.raises(services.Conflict):  # asked once per move
        takeback_request(game=game, user=alice)


def test_no_take_back_in_a_rated_game(alice, bob):
    game = make(alice, bob, rated=True)
    move(game, alice, {"place": "a1"})
    before = snapshot(game)
    with pytest.raises(services.Refused, match="unrated"):
        takeback_request(game=game, user=alice)
    assert snapshot(game) == before and not TakeBack.objects.exists()


def test_no_take_back_once_the_next_player_has_acted(alice, bob):
    game = make(alice, bob)
    move(game, alice, {"place": "a1"})
    move(game, bob, {"place": "t1"})
    with pytest.raises(services.Refused, match="until the next player acts"):
        takeback_request(game=game, user=alice)


def test_a_move_lapses_a_pending_take_back(alice, bob, carol):
    game = make(alice, bob, carol)  # three players: bob moves next
    move(game, alice, {"place": "a1"})
    takeback_request(game=game, user=alice)
    move(game, bob, {"place": "t1"})  # bob acts instead of answering
    before = snapshot(game)
    with pytest.raises(services.Conflict):
        takeback_answer(game=game, user=carol, accept=True)
    assert snapshot(game) == before


def test_every_other_player_must_accept(alice, bob, carol):
    game = make(alice, bob, carol)
    move(game, alice, {"place": "a1"})
    takeback_request(game=game, user=alice)
    takeback_answer(game=game, user=bob, accept=True)
    game.refresh_from_db()
    assert game.ply == 1  # carol has not answered
    with pytest.raises(services.NotAllowed):
        takeback_answer(game=game, user=alice, accept=True)  # not the asker's to answer
    takeback_answer(game=game, user=carol, accept=True)
    game.refresh_from_db()
    assert game.ply == 0


def test_a_computer_seat_accepts_at_once(alice, bob, django_capture_on_commit_callbacks):
    game = make(alice, bob, ai=True)  # three players, the computer plays red
    move(game, alice, {"place": "a1"})
    takeback_request(game=game, user=alice)
    takeback_answer(game=game, user=bob, accept=True)
    game.refresh_from_db()
    assert game.ply == 0 and game.takebacks.get().answers == {"1": True, "2": True}


def test_the_page_offers_the_take_back_and_the_answer(alice, bob):
    game = make(alice, bob)
    move(game, alice, {"place": "a1"})
    page = client_for(alice).get(f"/games/{game.public_id}/").content.decode()
    assert "Take back my last move" in page
    assert (
        "Take back my last move"
        not in client_for(bob).get(f"/games/{game.public_id}/").content.decode()
    )
    client_for(alice).post(f"/games/{game.public_id}/takeback/")
    page = client_for(bob).get(f"/games/{game.public_id}/").content.decode()
    assert "alice asks to take back their last move." in page
    response = client_for(bob).post(
        f"/games/{game.public_id}/takeback/", {"answer": "accept"}, follow=True
    )
    assert "You accepted the take back." in response.content.decode()
    game.refresh_from_db()
    assert game.ply == 0


def test_a_ply_played_again_after_a_take_back_may_be_taken_back_again(alice, bob, carol):
    game = make(alice, bob, carol)
    move(game, alice, {"place": "a1"})
    takeback_request(game=game, user=alice)
    move(game, bob, {"place": "t1"})  # lapses it (still "pending" at ply 1)
    takeback_request(game=game, user=bob)
    takeback_answer(game=game, user=alice, accept=True)
    takeback_answer(game=game, user=carol, accept=True)
    game.refresh_from_db()
    assert game.ply == 1  # back at ply 1, where alice's lapsed request was asked
    move(game, bob, {"place": "t20"})
    move(game, carol, {"place": "a20"})
    game.refresh_from_db()
    takeback_request(game=game, user=carol)  # at ply 3: a new question
    takeback_answer(game=game, user=alice, accept=True)
    takeback_answer(game=game, user=bob, accept=True)
    game.refresh_from_db()
    assert game.ply == 2
