"""Resigning through the write path (games.services.resign): a two-player resignation finishes the
game with the other player first and rates it as a loss; with four players the others play on;
bad requests change nothing."""

from __future__ import annotations

import json

import pytest

from games import engine, services
from games.models import Action, Game, RatingChange, Seat
from games.services import SeatSpec
from games.services.resign import game_resign


def snapshot(game: Game):
    game.refresh_from_db()
    return (game.ply, game.status, json.dumps(game.state, sort_keys=True), Action.objects.count())


def play_setup(game: Game, users: dict) -> None:
    """Every colour's setup piece on a corner (R3.1), by whoever controls it."""
    for corner in ("a1", "t1", "t20", "a20"):
        game.refresh_from_db()
        seat = game.current_state().controller()
        services.action_submit(
            game=game, user=users[seat], action={"place": corner}, expected_ply=game.ply
        )
    game.refresh_from_db()


def classic(players, creator, *invited, rated=True) -> Game:
    seats = [SeatSpec(Seat.Kind.HUMAN)] + [
        SeatSpec(Seat.Kind.INVITED, username=u.username) for u in invited
    ]
    game = services.game_create(
        creator=creator, mode="classic", players=players, seats=seats, rated=rated
    )
    for user in invited:
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def test_r8_3_a_two_player_resignation_ends_the_game_and_rates_it_a_loss(alice, bob):
    game = classic(2, alice, bob)
    play_setup(game, {0: alice, 1: bob})
    game_resign(game=game, user=bob)  # not bob's turn: a resignation may come any time
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    places = dict(game.seats.values_list("user__username", "final_place"))
    assert places == {"alice": 1, "bob": 2}
    changes = {c.user.username: c.after - c.before for c in RatingChange.objects.filter(game=game)}
    assert changes["alice"] > 0 > changes["bob"]
    last = Action.objects.filter(game=game).order_by("-ply").first()
    assert last.payload == {"resign": "yellow"} and last.seat == 1 and last.user == bob
    assert any(e["event"] == "resign" for e in last.events)


def test_r7_2_with_four_players_the_others_play_on(alice, bob, carol, dave):
    game = classic(4, alice, bob, carol, dave)
    users = {0: alice, 1: bob, 2: carol, 3: dave}
    play_setup(game, users)
    assert game.to_move_seat == 0
    game_resign(game=game, user=alice)  # on her turn: it ends, bob (yellow) moves
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.to_move_seat == 1
    state = game.current_state()
    assert state.resigned == 1
    with pytest.raises(services.NotAllowed):  # a resigned player has no more turns to play
        services.action_submit(
            game=game, user=alice, action=engine.legal_actions(state)[0], expected_ply=game.ply
        )
    for user in (carol, dave):
        game_resign(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    places = dict(game.seats.values_list("user__username", "final_place"))
    assert places["bob"] == 1 and all(places[n] > 1 for n in ("alice", "carol", "dave"))


def test_a_resignation_is_refused_and_changes_nothing_when_it_cannot_be(alice, bob, carol):
    game = classic(2, alice, bob)
    before = snapshot(game)
    with pytest.raises(services.NotAllowed):
        game_resign(game=game, user=carol)  # no seat
    play_setup(game, {0: alice, 1: bob})
    game_resign(game=game, user=alice)
    before = snapshot(game)
    with pytest.raises(services.Conflict):
        game_resign(game=game, user=bob)  # the game is over
    assert snapshot(game) == before


def test_r3_1_no_resignation_in_the_setup_round_of_a_four_player_game(alice, bob, carol, dave):
    game = classic(4, alice, bob, carol, dave)
    before = snapshot(game)
    with pytest.raises(services.Refused, match=r"R3\.1"):
        game_resign(game=game, user=carol)
    assert snapshot(game) == before


def test_an_unrated_resignation_changes_no_rating(alice, bob):
    game = classic(2, alice, bob, rated=False)
    play_setup(game, {0: alice, 1: bob})
    game_resign(game=game, user=alice)
    assert not RatingChange.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.seats.get(user=bob).final_place == 1


def test_the_computer_never_resigns_a_players_seat(alice):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )
    game.refresh_from_db()
    state = game.current_state()
    # The computer chooses among the legal actions, and a resignation is never one of them.
    assert all("resign" not in a for a in engine.legal_actions(state))
    seat = game.seats.get(kind=Seat.Kind.AI)
    with pytest.raises(services.NotAllowed):  # and a computer seat has no user to resign
        game_resign(game=game, user=seat.user)


def test_the_game_page_offers_resign_with_a_confirm_step_and_the_post_resigns(client, alice, bob):
    game = classic(2, alice, bob)
    play_setup(game, {0: alice, 1: bob})
    client.force_login(bob)
    page = client.get(f"/games/{game.public_id}/").content.decode()
    assert 'id="resign"' in page and "Yes, resign" in page
    assert "This game is rated: it counts as a loss." in page
    response = client.post(f"/games/{game.public_id}/resign/", follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "You resigned." in page and 'id="resign"' not in page
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_spectator_sees_no_resign_and_cannot_post_one(client, alice, bob, carol):
    game = classic(2, alice, bob)
    play_setup(game, {0: alice, 1: bob})
    client.force_login(carol)
    assert 'id="resign"' not in client.get(f"/games/{game.public_id}/").content.decode()
    before = snapshot(game)
    client.post(f"/games/{game.public_id}/resign/")
    assert snapshot(game) == before


def test_a_resignation_out_of_turn_does_not_restart_the_turn_of_the_player_deciding(
    alice, bob, carol, dave
):
    from games.selectors.turns import turn_start_ply

    game = classic(4, alice, bob, carol, dave)
    play_setup(game, {0: alice, 1: bob, 2: carol, 3: dave})
    began, started_at = turn_start_ply(game.pk, 0), game.turn_started_at
    game_resign(game=game, user=carol)  # alice (blue) is deciding
    game.refresh_from_db()
    assert game.to_move_seat == 0 and game.turn_started_at == started_at
    assert turn_start_ply(game.pk, 0) == began  # her turn email and reminders still match
    game_resign(game=game, user=alice)  # on her own turn: bob's turn starts with it
    game.refresh_from_db()
    assert turn_start_ply(game.pk, 1) == game.ply


def test_the_table_names_a_resigned_player_so(client, alice, bob, carol, dave):
    game = classic(4, alice, bob, carol, dave)
    play_setup(game, {0: alice, 1: bob, 2: carol, 3: dave})
    game_resign(game=game, user=carol)
    client.force_login(alice)
    page = client.get(f"/games/{game.public_id}/").content.decode()
    assert "carol (resigned)" in page


@pytest.mark.parametrize("level", ["beginner", "casual"])  # Expert: the same engine path, slower
def test_the_computer_plays_on_after_a_player_resigns(alice, level):
    """The computer's seats play a Shuffle game to its end once the human player resigned; none
    of their moves is a resignation or a move for the resigned colour."""
    from games.jobs.computer import play_computer_turn

    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=4,
        rated=False,
        seats=[SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.AI, level=level)] * 3,
    )
    for _ in range(8):  # the setup round: alice's piece, the computers' three
        game.refresh_from_db()
        if game.current_state().step != "setup":
            break
        if game.to_move_seat == 0:
            services.action_submit(
                game=game, user=alice, action={"place": "a1"}, expected_ply=game.ply
            )
        else:
            play_computer_turn(game, game.ply, worker=False)
    game_resign(game=game, user=alice)
    for _ in range(40):  # a few rounds are enough: every decision is the computer's
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.to_move_seat != 0
        play_computer_turn(game, game.ply, worker=False)
    rows = Action.objects.filter(game=game, ply__gt=5)
    assert rows.exists() and all("resign" not in a.payload and a.seat != 0 for a in rows)


def test_r11_1_with_two_players_a_resignation_during_setup_ends_the_game(client, alice, bob):
    game = classic(2, alice, bob, rated=False)
    services.action_submit(game=game, user=alice, action={"place": "a1"}, expected_ply=0)
    client.force_login(alice)  # bob (yellow) places next: alice resigns out of turn
    assert 'id="resign"' in client.get(f"/games/{game.public_id}/").content.decode()
    game_resign(game=game, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert dict(game.seats.values_list("user__username", "final_place")) == {"alice": 2, "bob": 1}


def test_r11_1_no_resign_offered_during_setup_with_more_than_two_players(
    client, alice, bob, carol, dave
):
    game = classic(4, alice, bob, carol, dave)
    client.force_login(bob)
    assert 'id="resign"' not in client.get(f"/games/{game.public_id}/").content.decode()
    play_setup(game, {0: alice, 1: bob, 2: carol, 3: dave})
    assert 'id="resign"' in client.get(f"/games/{game.public_id}/").content.decode()


def test_r11_2_a_rated_resignation_is_a_loss_with_four_players_too(alice, bob, carol, dave):
    game = classic(4, alice, bob, carol, dave)  # rated
    play_setup(game, {0: alice, 1: bob, 2: carol, 3: dave})
    game_resign(game=game, user=carol)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # three play on
    for user in (alice, bob):
        game_resign(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # one player left (R11.2)
    places = dict(game.seats.values_list("user__username", "final_place"))
    assert places["dave"] == 1 and all(places[n] > 1 for n in ("alice", "bob", "carol"))
    changes = {c.user.username: c.after - c.before for c in RatingChange.objects.filter(game=game)}
    assert changes["dave"] > 0 and all(changes[n] < 0 for n in ("alice", "bob", "carol"))
