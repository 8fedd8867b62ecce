"""A challenge from a player's profile, and a rematch that rotates the seats."""

from __future__ import annotations

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from games.services.resign import game_resign
from tests.support.lobby import new_game_data
from tests.support.pages import client_for


def resigned_at_once(game: Game, user) -> Game:
    """Finish a started game the quickest way: ``user`` resigns (a two-player game ends)."""
    for corner in ("a1", "t1", "t20", "a20"):  # the setup round (R3.1), by whoever controls it
        game.refresh_from_db()
        seat = game.seats.get(index=game.current_state().controller())
        services.action_submit(
            game=game, user=seat.user, action={"place": corner}, expected_ply=game.ply
        )
    game_resign(game=game, user=user)
    game.refresh_from_db()
    return game


def test_r2_6_each_rematch_rotates_the_seats_so_another_player_moves_first(alice, bob):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    firsts = []
    for _ in range(3):
        game.refresh_from_db()
        firsts.append(game.seats.get(index=0).user.username)  # blue moves first (R2.6)
        game = resigned_at_once(game, alice)
        rematch = services.game_rematch(game=game, user=alice)
        services.game_rematch(game=game, user=bob)  # the other accepts by asking too
        rematch.refresh_from_db()
        assert rematch.status == Game.Status.ACTIVE and rematch.rematch_of == game
        game = rematch
    assert firsts == ["alice", "bob", "alice"]


def test_a_four_player_rematch_moves_everyone_one_seat_round(alice, bob, carol):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=4,
        seats=[
            SeatSpec(Seat.Kind.HUMAN),
            SeatSpec(Seat.Kind.AI, level="beginner"),
            SeatSpec(Seat.Kind.INVITED, username="bob"),
            SeatSpec(Seat.Kind.INVITED, username="carol"),
        ],
    )
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    Seat.objects.filter(game=game, kind=Seat.Kind.INVITED).update(kind=Seat.Kind.HUMAN)
    game.refresh_from_db()
    rematch = services.game_rematch(game=game, user=carol)
    seats = [(s.kind, s.user.username if s.user else s.ai_level) for s in rematch.seats.all()]
    assert seats == [
        (Seat.Kind.AI, "beginner"),
        (Seat.Kind.INVITED, "bob"),
        (Seat.Kind.HUMAN, "carol"),
        (Seat.Kind.INVITED, "alice"),
    ]


def test_a_profile_has_a_challenge_button_that_invites_the_player(alice, bob):
    page = client_for(alice).get("/players/bob/").content.decode()
    assert 'name="challenge" value="bob"' in page and "Challenge" in page
    assert 'name="challenge"' not in client_for(bob).get("/players/bob/").content.decode()  # self
    assert 'name="challenge"' not in client_for(None).get("/players/bob/").content.decode()
    form = client_for(alice).get("/games/new/?challenge=bob").content.decode()
    assert "bob is invited to seat 2" in form
    assert 'name="seat1_username" value="bob"' in form


def test_a_challenge_accepted_starts_the_game(alice, bob):
    data = new_game_data(mode="classic", seat1_kind=Seat.Kind.INVITED, seat1_username="bob")
    response = client_for(alice).post("/games/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(created_by=alice)
    client_for(bob).post(f"/games/{game.public_id}/invitation/accept/")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.get(index=1).user == bob


def test_a_blocked_player_shows_no_challenge_button(alice, bob):
    from accounts.models import Block

    Block.objects.create(blocker=alice, blocked=bob)
    assert 'name="challenge"' not in client_for(alice).get("/players/bob/").content.decode()
