""" "Play now": matching by rating window, tables that form, the computer filling a table whose
wait is over, cancels and refusals (games.services.seeks). The concurrent cases on PostgreSQL
are in test_seeks_concurrency.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Block
from games import services
from games.models import Game, Rating, Seat, Seek, SeekTable
from games.selectors import seeks as seek_reads
from games.services import ratings, seeks

DAY = 24 * 3600


def rate(user, shown: int, mode: str = "shuffle") -> None:
    """Give ``user`` a rating that shows as ``shown`` (sigma at its newcomer value)."""
    sigma = 25 / 3
    mu = (shown - 1000) / 40 + 3 * sigma
    Rating.objects.update_or_create(
        user=user, mode=mode, defaults={"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma}
    )


def ask(user, *, now=None, players=2, mode="shuffle", seconds=DAY, rated=True, fill=None, **kw):
    return seeks.seek_ask(
        user=user,
        mode=mode,
        players=players,
        move_seconds=seconds,
        rated=rated,
        fill_after=fill,
        now=now,
        **kw,
    )


@pytest.fixture
def now():
    return timezone.now()


def test_two_players_asking_for_the_same_game_start_it(alice, bob, now):
    first = ask(alice, now=now)
    assert first.status == Seek.Status.WAITING and first.table.status == SeekTable.Status.FORMING
    second = ask(bob, now=now)
    assert second.table_id == first.table_id
    first.refresh_from_db()
    assert first.status == second.status == Seek.Status.STARTED
    game = first.table.game
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # R2.6: seats drawn at random, the game on
    assert game.seating == Game.Seating.RANDOM and game.visibility == Game.Visibility.PUBLIC
    assert {s.user_id for s in game.seats.all()} == {alice.pk, bob.pk}
    assert all(s.kind == Seat.Kind.HUMAN for s in game.seats.all())
    assert (game.mode, game.players, game.move_seconds, game.rated) == ("shuffle", 2, DAY, True)


def test_different_settings_do_not_meet(alice, bob, carol, now):
    ask(alice, now=now, mode="classic")
    ask(bob, now=now, seconds=3600)
    ask(carol, now=now, rated=False)
    assert SeekTable.objects.filter(status=SeekTable.Status.FORMING).count() == 3
    assert not Game.objects.exists()


def test_a_far_rating_waits_until_the_window_has_grown(alice, bob, carol, settings, now):
    settings.MATCH_WINDOW, settings.MATCH_WINDOW_GROWTH = 100, 100
    rate(alice, 1000)
    rate(bob, 1400)
    ask(alice, now=now)
    ask(bob, now=now)  # 400 apart: beyond both windows (100 each)
    assert SeekTable.objects.filter(status=SeekTable.Status.FORMING).count() == 2
    # Two minutes on, each window is 300 wide: still apart.
    assert seeks.sweep(now=now + timedelta(minutes=2))["joined"] == 0
    # Three minutes on, 400: the sweep joins the two tables and the game starts.
    counts = seeks.sweep(now=now + timedelta(minutes=3))
    assert counts["joined"] == 1 and counts["started"] == 1
    game = Game.objects.get()
    assert {s.user_id for s in game.seats.all()} == {alice.pk, bob.pk}


def test_the_window_is_mutual_and_shown(alice, bob, settings, now):
    settings.MATCH_WINDOW, settings.MATCH_WINDOW_GROWTH = 100, 100
    rate(alice, 1500)
    seek = ask(alice, now=now)
    assert seek_reads.window(seek.rating, seek.created_at, now) == (1400, 1600)
    later = now + timedelta(minutes=2)
    assert seek_reads.window(seek.rating, seek.created_at, later) == (1200, 1800)
    # bob (1000) asks two minutes later: alice would take him at 1200? No: 500 apart, and his
    # own window is 100 wide when he asks; the narrower window decides.
    rate(bob, 1250)
    bob_seek = ask(bob, now=later)
    assert bob_seek.table_id != seek.table_id  # 250 apart: alice accepts, bob's 100 does not
    counts = seeks.sweep(now=later + timedelta(seconds=90))  # bob's window: 250
    assert counts["started"] == 1


def test_a_blocked_player_is_never_seated_with_the_blocker(alice, bob, carol, now):
    Block.objects.create(blocker=bob, blocked=alice)
    ask(alice, now=now, players=3)
    ask(bob, now=now, players=3)
    assert Seek.objects.values("table").distinct().count() == 2
    # Even once every window is wide open.
    seeks.sweep(now=now + timedelta(hours=5))
    tables = {s.user_id: s.table_id for s in Seek.objects.all()}
    assert tables[alice.pk] != tables[bob.pk]
    ask(carol, now=now + timedelta(hours=5), players=3)
    carols = Seek.objects.get(user=carol).table_id
    assert carols in (tables[alice.pk], tables[bob.pk])


def test_the_computer_takes_the_empty_seats_when_the_wait_is_over(alice, bob, now):
    rate(alice, 1000)
    ask(alice, now=now, players=4, fill=120)
    assert seeks.sweep(now=now + timedelta(seconds=119))["filled"] == 0
    counts = seeks.sweep(now=now + timedelta(seconds=120))
    assert counts["filled"] == 1
    table = SeekTable.objects.get()
    assert table.status == SeekTable.Status.STARTED and table.computer_seats == 3
    game = table.game
    ai = [s for s in game.seats.all() if s.kind == Seat.Kind.AI]
    assert len(ai) == 3
    # The level whose rating is nearest alice's 1000.
    assert {s.ai_level for s in ai} == {seeks.computer_level(1000)}
    assert game.status == Game.Status.ACTIVE


def test_the_level_nearest_the_rating(settings):
    levels = {level: ratings.computer_rating(level) for level in ("beginner", "casual", "expert")}
    for level, rating in levels.items():
        assert seeks.computer_level(rating) == level
        assert seeks.computer_level(rating + 1) == level or abs(
            levels[seeks.computer_level(rating + 1)] - rating - 1
        ) < abs(rating + 1 - rating)
    assert seeks.computer_level(5000) == "expert"
    assert seeks.computer_level(-5000) == "beginner"


def test_never_means_never(alice, now):
    ask(alice, now=now, fill=None)
    assert seeks.sweep(now=now + timedelta(days=30))["filled"] == 0
    assert SeekTable.objects.get().status == SeekTable.Status.FORMING


def test_any_number_of_players_joins_a_forming_table_of_any_size(alice, bob, carol, now):
    ask(alice, now=now, players=3)
    ask(bob, now=now, players=Seek.ANY_PLAYERS)
    assert Seek.objects.get(user=bob).table_id == Seek.objects.get(user=alice).table_id
    ask(carol, now=now, players=3)
    game = Game.objects.get()
    assert game.players == 3 and game.seats.count() == 3


def test_an_any_table_joins_a_larger_table_later(alice, bob, carol, settings, now):
    settings.MATCH_WINDOW, settings.MATCH_WINDOW_GROWTH = 100, 100
    rate(alice, 1000)
    rate(bob, 1300)
    rate(carol, 1300)
    ask(alice, now=now, players=Seek.ANY_PLAYERS)  # opens a two-player table
    ask(bob, now=now, players=3)
    assert Seek.objects.values("table").distinct().count() == 2
    seeks.sweep(now=now + timedelta(minutes=2))  # 300 apart, windows 300: they meet at 3
    assert Seek.objects.filter(status=Seek.Status.WAITING).values("table").distinct().count() == 1
    assert SeekTable.objects.get(status=SeekTable.Status.FORMING).players == 3
    ask(carol, now=now + timedelta(minutes=2), players=3)  # 300 from alice: her window is 100
    assert seeks.sweep(now=now + timedelta(minutes=5))["started"] == 1
    assert Game.objects.get().players == 3


def test_one_request_at_a_time(alice, now):
    ask(alice, now=now)
    with pytest.raises(services.Conflict, match="already looking for a game"):
        ask(alice, now=now, mode="classic")
    assert Seek.objects.count() == 1


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"mode": "chess"}, "unknown mode"),
        ({"players": 5}, "2, 3 or 4 players"),
        ({"seconds": 60}, "time per move"),
        ({"fill": 5}, "wait before the computer"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(alice, now, change, reason):
    with pytest.raises(services.GameError, match=reason):
        ask(alice, now=now, **change)
    assert not Seek.objects.exists() and not SeekTable.objects.exists()


def test_cancel_and_the_limit_on_cancels(alice, settings, now):
    settings.MATCH_CANCELS_PER_HOUR = 3
    for minute in range(3):
        ask(alice, now=now + timedelta(minutes=minute))
        seeks.seek_cancel(user=alice, now=now + timedelta(minutes=minute))
    assert not SeekTable.objects.filter(status=SeekTable.Status.FORMING).exists()
    with pytest.raises(services.TooMany, match="cancelled 3 requests"):
        ask(alice, now=now + timedelta(minutes=4))
    assert not Seek.objects.filter(status=Seek.Status.WAITING).exists()
    ask(alice, now=now + timedelta(minutes=61))  # an hour later it is allowed again


def test_cancel_after_the_start_is_refused(alice, bob, now):
    ask(alice, now=now)
    ask(bob, now=now)
    with pytest.raises(services.Conflict, match="not looking for a game"):
        seeks.seek_cancel(user=alice, now=now)
    assert Game.objects.get().status == Game.Status.ACTIVE


def test_joining_a_table_from_the_lobby(alice, bob, carol, settings, now):
    settings.MATCH_WINDOW, settings.MATCH_WINDOW_GROWTH = 100, 100
    rate(alice, 1000)
    rate(bob, 1050)
    rate(carol, 1500)
    table = ask(alice, now=now, players=3).table
    rows, total = seek_reads.lobby_tables(carol, now=now)
    assert total == 1 and not rows[0].joinable and (rows[0].low, rows[0].high) == (900, 1100)
    with pytest.raises(services.NotAllowed, match="rated 900-1100 and your rating is 1500"):
        ask(carol, now=now, players=3, table_id=table.pk)
    assert Seek.objects.filter(user=carol).count() == 0
    rows, _total = seek_reads.lobby_tables(bob, now=now)
    assert rows[0].joinable
    seek = ask(bob, now=now, players=3, table_id=table.pk)
    assert seek.table_id == table.pk


def test_a_blocked_joiner_is_told_there_is_no_seat_without_whose_block(alice, bob, now):
    table = ask(alice, now=now).table
    Block.objects.create(blocker=alice, blocked=bob)
    rows, _total = seek_reads.lobby_tables(bob, now=now)
    assert not rows[0].joinable
    with pytest.raises(services.NotAllowed) as refused:
        ask(bob, now=now, table_id=table.pk)
    assert "block" not in str(refused.value) and "alice" not in str(refused.value)


def test_sweep_joins_the_nearest_tables_first(make_user, settings, now):
    settings.MATCH_WINDOW, settings.MATCH_WINDOW_GROWTH = 50, 100
    players = {}
    for name, shown in [("p1", 1000), ("p2", 1180), ("p3", 1110), ("p4", 1350)]:
        players[name] = make_user(name)
        rate(players[name], shown)
        ask(players[name], now=now)
    assert SeekTable.objects.filter(status=SeekTable.Status.FORMING).count() == 4
    counts = seeks.sweep(now=now + timedelta(minutes=1))  # windows 150 wide
    # p1 (the oldest) with p3 (110 away; p2 is 180 away); p2 (1180) and p4 (1350): 170 apart.
    assert counts["started"] == 1
    game = Game.objects.get()
    assert {s.user.username for s in game.seats.all()} == {"p1", "p3"}
    counts = seeks.sweep(now=now + timedelta(minutes=2))
    assert counts["started"] == 1


def test_no_table_is_ever_overfilled_by_the_sweep(make_user, now):
    for i in range(9):
        ask(make_user(f"p{i}"), now=now, players=4)
    seeks.sweep(now=now + timedelta(hours=2))
    for game in Game.objects.all():
        assert game.seats.count() == 4
    waiting = Seek.objects.filter(status=Seek.Status.WAITING)
    assert Game.objects.count() == 2 and waiting.count() == 1
    users = [s.user_id for g in Game.objects.all() for s in g.seats.all()]
    assert len(users) == len(set(users))


def test_a_game_found_after_a_long_wait_is_told_by_email(
    alice, bob, settings, mailoutbox, verified, on_commit
):
    settings.MATCH_NOTICE_AFTER_SECONDS = 300
    verified(alice, bob)
    long_ago = timezone.now() - timedelta(minutes=10)
    ask(alice, now=long_ago)
    with on_commit():
        ask(bob)  # bob's own request starts it: he is on the page, and waited no time
    game = Game.objects.get()
    told = [m.to[0] for m in mailoutbox if "Your game has started" in m.subject]
    assert told == [alice.email]
    (email,) = [m for m in mailoutbox if m.to == [alice.email] and "started" in m.subject]
    assert game.public_id in email.body and "bob" in email.body


# -- the pages -------------------------------------------------------------------------------


def test_the_play_now_page_asks_waits_and_cancels(client, alice, bob):
    client.force_login(alice)
    page = client.get("/play/")
    assert page.status_code == 200 and 'name="fill_after"' in page.content.decode()
    answer = client.post(
        "/play/",
        {
            "mode": "classic",
            "players": "2",
            "move_seconds": "3600",
            "rated": "on",
            "fill_after": "600",
        },
    )
    assert answer.status_code == 302 and answer["Location"] == "/play/"
    waiting = client.get("/play/").content.decode()
    assert "Looking for players rated 900-1100" in waiting
    assert "1 seat left" in waiting and "alice (you)" in waiting
    status = client.get("/play/status/", HTTP_HX_REQUEST="true")
    assert status.status_code == 200 and 'id="seek"' in status.content.decode()
    # The lobby lists the table; bob may join it.
    client.force_login(bob)
    lobby = client.get("/").content.decode()
    assert "Looking for players" in lobby and "900-1100" in lobby and "Join (1 free)" in lobby
    table = SeekTable.objects.get()
    joined = client.post(f"/play/join/{table.pk}/")
    game = Game.objects.get()
    assert joined.status_code == 302 and joined["Location"] == f"/games/{game.public_id}/"
    # alice's waiting page, refetched, opens the game.
    client.force_login(alice)
    status = client.get("/play/status/", HTTP_HX_REQUEST="true")
    assert status["HX-Redirect"] == f"/games/{game.public_id}/"


def test_the_form_refuses_a_time_not_offered_and_changes_nothing(client, alice):
    client.force_login(alice)
    answer = client.post(
        "/play/", {"mode": "shuffle", "players": "2", "move_seconds": "60", "fill_after": "120"}
    )
    assert (
        answer.status_code == 400 and "not one of the available choices" in answer.content.decode()
    )
    assert not Seek.objects.exists()


def test_a_second_request_is_refused_with_a_reason(client, alice):
    client.force_login(alice)
    data = {"mode": "shuffle", "players": "2", "move_seconds": "3600", "fill_after": "never"}
    client.post("/play/", data)
    client.post("/play/cancel/")
    client.post("/play/", data)
    # A second tab still shows the form: its request is refused, the first one stands.
    again = client.post("/play/", {**data, "mode": "classic"})
    assert again.status_code == 409 and "already looking for a game" in again.content.decode()
    assert Seek.objects.filter(status=Seek.Status.WAITING).get().mode == "shuffle"


def test_an_empty_lobby_says_what_to_do(client, alice):
    client.force_login(alice)
    lobby = client.get("/").content.decode()
    assert "Nobody is looking for players right now." in lobby and 'href="/play/"' in lobby


def test_a_deactivated_player_stops_waiting_and_their_table_closes(alice, dave, now):
    ask(alice, now=now)
    services.user_deactivate(user=alice, staff=dave, reason="spam")
    assert Seek.objects.get().status == Seek.Status.CANCELLED
    counts = seeks.sweep(now=now)
    assert counts["waiting"] == 0
    assert SeekTable.objects.get().status == SeekTable.Status.CANCELLED
