"""The write path: games.services (creating, joining, action_submit, moderation)."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection

from games import engine, services
from games.models import Action, Game, ModerationLog, Seat
from games.services import SeatSpec


def legal(game: Game) -> list[dict]:
    return engine.legal_actions(game.current_state())


def mover(game: Game, *users):
    state = game.current_state()
    seat = game.seats.get(index=state.controller())
    return next(u for u in users if u.pk == seat.user_id)


def snapshot(game: Game):
    game.refresh_from_db()
    return (game.ply, json.dumps(game.state, sort_keys=True), Action.objects.count())


def test_a_game_starts_when_every_seat_is_filled(alice, bob):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    assert game.status == Game.Status.OPEN and game.state is None
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seed is None  # classic: no decks, no seed (R2.1)
    state = game.current_state()
    assert state.turn == 0 and state.step == "setup"  # R2.6: blue moves first
    assert game.to_move_seat == 0


def test_a_shuffle_game_gets_a_secret_seed(duel):
    # 256 bits from secrets, as 64 hex digits, with a 128-bit salt and a public commitment.
    assert len(duel.seed) == 64 and int(duel.seed, 16) > 0 and len(duel.salt) == 32
    state = duel.current_state()
    assert (state.seed, state.salt) == (duel.seed, duel.salt)
    assert state.commitment == engine.cards.commitment(duel.seed, duel.salt)
    other = duel.initial_state()
    assert other.piles == duel.current_state().piles  # nothing drawn before the first move


def test_it_accepts_a_move_from_the_player_to_move(duel, alice):
    action = legal(duel)[0]
    result = services.action_submit(game=duel, user=alice, action=action, expected_ply=0)
    duel.refresh_from_db()
    assert result.ply == 1 and not result.duplicate
    assert duel.ply == 1
    row = Action.objects.get(game=duel)
    assert row.ply == 1 and row.seat == 0 and row.payload == action and row.user == alice
    assert row.events and row.events[0]["event"] == "place"


def test_it_refuses_a_move_out_of_turn(duel, bob):
    before = snapshot(duel)
    with pytest.raises(services.NotAllowed):
        services.action_submit(game=duel, user=bob, action=legal(duel)[0], expected_ply=0)
    assert snapshot(duel) == before


def test_it_refuses_a_player_who_is_not_seated(duel, carol):
    before = snapshot(duel)
    with pytest.raises(services.NotAllowed):
        services.action_submit(game=duel, user=carol, action=legal(duel)[0], expected_ply=0)
    assert snapshot(duel) == before


def test_it_refuses_a_stale_ply(duel, alice):
    before = snapshot(duel)
    with pytest.raises(services.StalePly) as caught:
        services.action_submit(game=duel, user=alice, action=legal(duel)[0], expected_ply=3)
    assert caught.value.status == 409
    assert snapshot(duel) == before


def test_it_refuses_an_illegal_action_naming_the_rule(duel, alice):
    before = snapshot(duel)
    with pytest.raises(services.Refused, match=r"R3\.1"):
        services.action_submit(game=duel, user=alice, action={"place": "k10"}, expected_ply=0)
    with pytest.raises(services.Refused, match="unknown key"):
        services.action_submit(game=duel, user=alice, action={"jump": "k10"}, expected_ply=0)
    with pytest.raises(services.Refused):
        services.action_submit(game=duel, user=alice, action="a1", expected_ply=0)
    assert snapshot(duel) == before


def test_the_same_idempotency_key_gets_the_same_answer(duel, alice):
    action = legal(duel)[0]
    first = services.action_submit(game=duel, user=alice, action=action, expected_ply=0, key="k1")
    again = services.action_submit(game=duel, user=alice, action=action, expected_ply=0, key="k1")
    assert (first.ply, first.duplicate) == (1, False)
    assert (again.ply, again.duplicate) == (1, True)
    assert Action.objects.filter(game=duel).count() == 1


def test_a_finished_game_refuses_moves(alice, bob):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        who = mover(game, alice, bob)
        services.action_submit(game=game, user=who, action=legal(game)[0], expected_ply=game.ply)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert game.to_move_seat is None
    assert engine.score(game.current_state())["over"] is True
    before = snapshot(game)
    with pytest.raises(services.Conflict):
        services.action_submit(game=game, user=alice, action={"place": "a1"}, expected_ply=game.ply)
    assert snapshot(game) == before
    # The stored actions replay to the stored snapshot.
    record = engine.make_record(
        game.initial_state(), [a.payload for a in game.actions.all()], reveal=True
    )
    assert engine.replay(record).to_json()["board"] == game.state["board"]


@pytest.mark.django_db(transaction=True)
def test_an_ai_seat_plays_right_after_the_human_commits(alice):
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    services.action_submit(game=game, user=alice, action=legal(game)[0], expected_ply=0)
    game.refresh_from_db()
    # Yellow's setup was the AI's; it is blue's player's turn again (red's setup).
    assert game.ply == 2
    assert Action.objects.get(game=game, ply=2).by_ai
    assert game.current_state().controller() == 0


@pytest.mark.django_db(transaction=True)
def test_a_game_against_three_ai_seats_reaches_the_end(alice):
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=4,
        seats=[SeatSpec(Seat.Kind.HUMAN)] + [SeatSpec(Seat.Kind.AI, level="beginner")] * 3,
    )
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        assert game.current_state().controller() == 0
        services.action_submit(game=game, user=alice, action=legal(game)[0], expected_ply=game.ply)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.actions.filter(by_ai=True).count() > 0


def test_ai_play_is_a_no_op_when_the_ply_moved_on(duel, alice):
    from games.jobs.tasks import ai_play

    assert ai_play(duel.pk, 0) is None  # not the computer's seat
    assert ai_play(duel.pk, 5) is None  # stale
    assert Action.objects.filter(game=duel).count() == 0


def test_moderation_is_logged_with_who_what_and_why(duel, dave, bob):
    seat = duel.seats.get(user=bob)
    with pytest.raises(services.GameError):
        services.seat_hand_to_ai(seat=seat, staff=dave, reason="  ")
    services.seat_hand_to_ai(seat=seat, staff=dave, reason="left the site")
    seat.refresh_from_db()
    assert seat.is_ai and seat.ai_takeover
    services.game_abort(game=duel, staff=dave, reason="test")
    duel.refresh_from_db()
    assert duel.status == Game.Status.ABORTED
    logs = list(ModerationLog.objects.order_by("created_at"))
    assert [(log.staff, log.action, log.reason) for log in logs] == [
        (dave, "hand seat to AI", "left the site"),
        (dave, "abort game", "test"),
    ]


def test_seats_can_be_drawn_at_random(alice, bob):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=4,
        seating=Game.Seating.RANDOM,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")]
        + [SeatSpec(Seat.Kind.AI, level="casual")] * 2,
    )
    services.game_join(game=game, user=bob)
    indexes = sorted(Seat.objects.filter(game=game).values_list("index", flat=True))
    assert indexes == [0, 1, 2, 3]


def test_bad_settings_are_refused(alice):
    with pytest.raises(services.GameError, match="14"):
        services.game_create(
            creator=alice,
            mode="shuffle",
            players=2,
            deck_recipe={"skip": 13},
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        )
    with pytest.raises(services.GameError, match="no player called"):
        services.game_create(
            creator=alice,
            mode="shuffle",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="nobody")],
        )
    assert Game.objects.count() == 0


# -- locking: PostgreSQL only (SQLite ignores select_for_update) ------------------------------


def on_postgres() -> bool:
    return connection.vendor == "postgresql"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same_key", [True, False])
def test_sixteen_concurrent_identical_submissions_make_exactly_one_move(
    alice, bob, same_key, require_postgres
):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    action = legal(game)[0]
    barrier = threading.Barrier(16)
    outcomes: list[object] = []
    lock = threading.Lock()

    def submit(n: int) -> None:
        from django.db import connections

        try:
            barrier.wait()
            result = services.action_submit(
                game=game,
                user=alice,
                action=action,
                expected_ply=0,
                key="same" if same_key else f"key-{n}",
            )
            outcome: object = result
        except services.GameError as exc:
            outcome = exc
        finally:
            connections.close_all()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=submit, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    accepted = [o for o in outcomes if isinstance(o, services.SubmitResult) and not o.duplicate]
    assert len(outcomes) == 16
    assert len(accepted) == 1
    assert Action.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.ply == 1
    others = [o for o in outcomes if o is not accepted[0]]
    if same_key:
        assert all(isinstance(o, services.SubmitResult) and o.duplicate for o in others)
    else:
        assert all(isinstance(o, services.StalePly) for o in others)
