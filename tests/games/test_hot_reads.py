"""The lean request path: the reads every game request makes (games.selectors.hot) give
the same objects as the ORM's queries they replace: the game with every field, its seats in
Seat.Meta.ordering with every field, their users (or none for an open or computer seat) with
every field, the seats' game, and the move log without the actions taken back. One query for
the game and its seats, one for the log."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.models import Prefetch
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Action, Game, Seat
from games.selectors import hot
from games.selectors.access import game_for_viewer
from games.selectors.table import turn_log
from games.services import SeatSpec
from tests.support.records import play
from tests.support.tables import alice_against_bob

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def orm_game(public_id: str) -> Game:
    return (
        Game.objects.filter(public_id=public_id)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .get()
    )


def test_the_game_and_its_seats_are_the_orms(alice, bob):
    game = play(alice_against_bob(alice, bob), 6)
    Seat.objects.filter(game=game, index=1).update(ai_takeover=True, timeouts_in_row=2)
    expected = orm_game(game.public_id)
    with CaptureQueriesContext(connection) as queries:
        got, seats = hot.game_with_seats(game.public_id)
        users = [s.user for s in seats]
        owners = [s.game for s in seats]
        labels = [s.label for s in seats]  # a seat's words read its user and its game
    assert len(queries) == 1  # the game joined with its seats and their users
    assert fields(got) == fields(expected)
    assert got.state == expected.state and got.state is not None
    want = list(expected.seats.all())
    assert [fields(s) for s in seats] == [fields(s) for s in want]
    assert [s.index for s in seats] == sorted(s.index for s in seats)
    assert [fields(u) for u in users] == [fields(s.user) for s in want]
    assert all(owner is got for owner in owners)
    assert seats[1].ai_takeover is True and seats[1].timeouts_in_row == 2
    assert labels == [s.label for s in want]


def test_the_viewers_value_is_the_one_read(alice, bob):
    """game_for_viewer hands out the game, the reader's seat and the table's seats from the
    one joined query: nothing is read again to name the table or find the reader's seat."""
    game = play(alice_against_bob(alice, bob), 4)
    with CaptureQueriesContext(connection) as queries:
        viewed = game_for_viewer(game.public_id, bob)
        names = [s.label for s in viewed.seats]
    assert len(queries) == 1
    assert viewed.game.pk == game.pk and viewed.seat is viewed.seats[1]
    assert viewed.seat.user_id == bob.pk and names == ["alice", "bob"]
    assert game_for_viewer(game.public_id, None).seat is None  # a visitor of a public game


def test_a_seat_without_a_user_has_none(alice):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    _game, seats = hot.game_with_seats(game.public_id)
    assert [s.user for s in seats] == [alice, None]
    assert seats[0].user.username == alice.username and seats[1].user_id is None
    assert fields(seats[1]) == fields(Seat.objects.get(game=game, index=1))


def test_no_such_game_is_none_and_a_404_for_the_viewer(alice):
    assert hot.game_with_seats("no-such-game") is None
    with pytest.raises(Http404):
        game_for_viewer("no-such-game", alice)


def test_the_move_log_is_the_orms_without_taken_back_actions(alice, bob):
    game = play(alice_against_bob(alice, bob), 8)
    last = Action.objects.filter(game=game).order_by("-ply").first()
    Action.objects.filter(pk=last.pk).update(taken_back=True)
    expected = list(
        Action.objects.filter(game=game).order_by("ply").values_list("ply", "seat", "events")
    )
    with CaptureQueriesContext(connection) as queries:
        got = turn_log(game)
    assert len(queries) == 1
    assert got == expected
    assert len(got) == 7 and last.ply not in [ply for ply, _seat, _events in got]
    assert all(isinstance(events, list) for _ply, _seat, events in got)
    # What the log shows is what the engine recorded for each action.
    assert got[0][2] == Action.objects.get(game=game, ply=got[0][0]).events


def test_the_move_lock_reads_the_game_by_id_or_public_id(alice, bob):
    from django.db import transaction

    game = play(alice_against_bob(alice, bob), 3)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        by_public_id = hot.locked_game(public_id=game.public_id)
        by_pk = hot.locked_game(pk=game.pk)
    assert fields(by_public_id) == fields(by_pk) == fields(Game.objects.get(pk=game.pk))
    if connection.features.has_select_for_update:
        assert all(q["sql"].rstrip().endswith("FOR UPDATE") for q in queries.captured_queries)
    assert hot.locked_game(public_id="no-such-game") is None
    assert hot.locked_game(pk=-1) is None


@pytest.mark.parametrize("push, hook", [(False, False), (True, False), (False, True), (True, True)])
def test_seats_with_device_flags_are_the_orms_annotation(alice, bob, push, hook):
    from games.models import NoticeSettings, PushSubscription

    game = alice_against_bob(alice, bob)
    if push:
        PushSubscription.objects.create(
            user=bob, endpoint="https://p.example/1", p256dh="p", auth="a"
        )
    # A settings row with an empty webhook is no webhook.
    NoticeSettings.objects.update_or_create(
        user=bob, defaults={"webhook_url": "https://hook.example/" if hook else ""}
    )
    expected = flagged_by_the_orm(game)
    with transaction.atomic():
        got = hot.locked_with_seats(game.public_id)[1]
    assert [(s.index, s.user_id, s.pushes, s.hooks) for s in got] == [
        (s.index, s.user_id, s.pushes, s.hooks) for s in expected
    ]
    assert [s.pushes for s in got] == [False, push] and [s.hooks for s in got] == [False, hook]


def flagged_by_the_orm(game: Game) -> list[Seat]:
    """The game's seats with their users, annotated as the move's read flags them: the player
    has a subscribed device (``pushes``), a webhook (``hooks``)."""
    from django.db.models import Exists, OuterRef

    from games.models import NoticeSettings, PushSubscription

    return list(
        game.seats.select_related("user").annotate(
            pushes=Exists(PushSubscription.objects.filter(user=OuterRef("user"))),
            hooks=Exists(
                NoticeSettings.objects.filter(user=OuterRef("user")).exclude(webhook_url="")
            ),
        )
    )


def test_the_move_read_is_the_lock_and_the_seats_in_one_query(alice, bob):
    from games.models import PushSubscription

    game = play(alice_against_bob(alice, bob), 5)
    PushSubscription.objects.create(user=bob, endpoint="https://p.example/2", p256dh="p", auth="a")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        got, seats = hot.locked_with_seats(game.public_id)
    assert len(queries) == 1
    if connection.features.has_select_for_update_of:
        assert queries.captured_queries[0]["sql"].rstrip().endswith("FOR UPDATE OF g")
    assert fields(got) == fields(Game.objects.get(pk=game.pk))
    assert got.state == Game.objects.get(pk=game.pk).state
    assert [(fields(s), fields(s.user), s.pushes, s.hooks) for s in seats] == [
        (fields(s), fields(s.user), s.pushes, s.hooks) for s in flagged_by_the_orm(game)
    ]
    assert [s.pushes for s in seats] == [False, True]
    assert all(s.game is got for s in seats)
    assert hot.locked_with_seats("no-such-game") is None
