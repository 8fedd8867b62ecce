"""Tournaments through the services: registration, the start (or a cancel for want of players),
rounds created at once and started one after the other as games end, withdrawals, late joins,
standings, and the notices (games.services.tournaments)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.jobs.computer import play_computer_turn
from games.models import Entry, Game, Seat, Tournament, TournamentTable
from games.selectors import tournaments as reads
from games.services import tournaments

HOUR = 3600


@pytest.fixture
def players(make_user):
    return [make_user(f"t{i:02d}") for i in range(12)]


def create(creator, **kw):
    settings = {
        "name": "Autumn cup",
        "format": Tournament.Format.SWISS,
        "mode": "classic",
        "size": 2,
        "move_seconds": HOUR,
        "rounds": 3,
        "min_players": 2,
        "max_players": 32,
        "starts_at": timezone.now() + timedelta(hours=2),
    }
    settings.update(kw)
    return tournaments.tournament_create(creator=creator, **settings)


def register(tournament, users):
    for user in users:
        if not Entry.objects.filter(tournament=tournament, user=user).exists():
            tournaments.tournament_register(tournament=tournament, user=user)


def start(tournament):
    later = tournament.starts_at + timedelta(seconds=1)
    result = tournaments.tournament_start(tournament.pk, now=later)
    tournament.refresh_from_db()
    return result


def round_games(tournament, number=None):
    number = number or tournament.round
    return list(
        Game.objects.filter(tournament_table__tournament=tournament, tournament_table__round=number)
    )


def play_out(game):
    """The computer plays every seat to the end (Beginner), through the write path."""
    Seat.objects.filter(game=game).update(ai_takeover=True, ai_level=Seat.Level.BEGINNER)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        play_computer_turn(game, game.ply, worker=False)
        game.refresh_from_db()


def test_the_creator_is_registered_and_the_limits_hold(players):
    tournament = create(players[0])
    assert list(tournament.entries.values_list("user", flat=True)) == [players[0].pk]
    create(players[0], name="Two")
    create(players[0], name="Three")
    with pytest.raises(services.TooMany, match="3 tournaments"):
        create(players[0], name="Four")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"name": ""}, "needs a name"),
        ({"format": "knockout"}, "unknown format"),
        ({"size": 5}, "2, 3 or 4 players"),
        ({"move_seconds": 60}, "time per move"),
        ({"rounds": 0}, "1 to 15 rounds"),
        ({"min_players": 3, "size": 4}, "at least 4"),
        ({"starts_at": timezone.now() - timedelta(minutes=1)}, "in the future"),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(players, change, reason):
    with pytest.raises(services.GameError, match=reason):
        create(players[0], **change)
    assert not Tournament.objects.exists()


def test_too_few_players_cancel_it_at_the_start(players):
    tournament = create(players[0], min_players=4)
    register(tournament, players[1:3])
    assert start(tournament) == "cancelled"
    assert tournament.status == Tournament.Status.CANCELLED
    assert "3 registered, 4 needed" in tournament.cancel_reason
    assert not Game.objects.exists()


def test_a_swiss_runs_its_rounds_to_the_end(players):
    tournament = create(players[0], rounds=3)
    register(tournament, players[1:6])  # six players: three games a round
    assert start(tournament) == "started"
    assert tournament.status == Tournament.Status.RUNNING and tournament.round == 1
    for number in (1, 2, 3):
        games = round_games(tournament, number)
        assert len(games) == 3
        seen = [s.user_id for g in games for s in g.seats.all()]
        assert len(seen) == len(set(seen)) == 6  # everyone plays once a round
        for game in games:
            assert game.seating == Game.Seating.CHOSEN and game.status == Game.Status.ACTIVE
            assert game.move_seconds == HOUR and game.mode == "classic"
        assert not tournaments.tournament_advance(tournament.pk)  # games still running
        for game in games:
            first = game.seats.get(index=0).user
            services.game_resign(game=game, user=first)
        assert tournaments.tournament_advance(tournament.pk)
        tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    names, rows = reads.standings(tournament)
    assert names == ["Buchholz", "Sonneborn-Berger"]
    assert sum(r.points for r in rows) == 9  # nine games, a point each
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)


def test_withdrawing_resigns_the_running_game_and_stops_pairing(players):
    tournament = create(players[0], rounds=2)
    register(tournament, players[1:4])
    start(tournament)
    quitter = players[1]
    game = next(g for g in round_games(tournament) if g.seats.filter(user=quitter).exists())
    tournaments.tournament_withdraw(tournament=tournament, user=quitter)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # R11: two players, a resignation ends it
    assert game.seats.get(user=quitter).final_place == 2
    for other in round_games(tournament):
        if other.status == Game.Status.ACTIVE:
            services.game_resign(game=other, user=other.seats.get(index=0).user)
    assert tournaments.tournament_advance(tournament.pk)
    tournament.refresh_from_db()
    second = [s.user_id for g in round_games(tournament, 2) for s in g.seats.all()]
    byes = TournamentTable.objects.filter(tournament=tournament, round=2, bye_user__isnull=False)
    assert quitter.pk not in second and not byes.filter(bye_user=quitter).exists()
    rows = {r.username: r for r in reads.standings(tournament)[1]}
    assert rows[quitter.username].withdrawn and rows[quitter.username].games == 1


def test_a_swiss_takes_late_joiners_until_the_round_set(players):
    tournament = create(players[0], rounds=3, late_join_until=2)
    register(tournament, players[1:4])
    start(tournament)
    entry = tournaments.tournament_register(tournament=tournament, user=players[4])
    assert entry.joined_round == 2
    for game in round_games(tournament):
        services.game_resign(game=game, user=game.seats.get(index=0).user)
    tournaments.tournament_advance(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.round == 2
    in_round_2 = {s.user_id for g in round_games(tournament, 2) for s in g.seats.all()}
    byes = set(
        TournamentTable.objects.filter(tournament=tournament, round=2).values_list(
            "bye_user", flat=True
        )
    )
    assert players[4].pk in in_round_2 | byes
    with pytest.raises(services.Conflict, match="no longer takes players"):
        tournaments.tournament_register(tournament=tournament, user=players[5])


def test_a_round_robin_of_four_player_tables_is_played_out_by_the_computer(players):
    tournament = create(
        players[0], format=Tournament.Format.ROUND_ROBIN, size=4, min_players=8, max_players=8
    )
    register(tournament, players[1:8])
    start(tournament)
    assert tournament.rounds == len(tournament.schedule) >= 1
    while tournament.status == Tournament.Status.RUNNING:
        games = round_games(tournament)
        assert len(games) == 2 and all(g.players == 4 for g in games)
        for game in games:
            play_out(game)
        assert tournaments.tournament_advance(tournament.pk)
        tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    names, rows = reads.standings(tournament)
    assert names == ["Opponents' points"]
    # Points by place: 3 + 2 + 1 + 0 = 6 a table (ties share), two tables a round.
    assert sum(r.points for r in rows) == pytest.approx(6 * 2 * tournament.rounds)


def test_the_round_notice_reaches_each_player_of_a_new_game(
    players, verified, on_commit, mailoutbox
):
    verified(*players[:2])
    tournament = create(players[0])
    register(tournament, players[1:2])
    with on_commit():
        start(tournament)
    subjects = [m.subject for m in mailoutbox if "round 1" in m.subject]
    assert len(subjects) == 2 and all("Autumn cup" in s for s in subjects)


def test_the_reminder_goes_an_hour_before_the_start(players, verified, mailoutbox):
    verified(players[0])
    create(players[0], starts_at=timezone.now() + timedelta(minutes=50))
    counts = tournaments.start_due()
    assert counts.get("reminded") == 1
    assert any("starts soon" in m.subject for m in mailoutbox)
    assert tournaments.start_due().get("reminded") is None  # once


def test_the_page_shows_standings_and_rounds(client, players):
    tournament = create(players[0])
    register(tournament, players[1:4])
    start(tournament)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Round 1 of 3 is in play." in page and "Buchholz" in page
    for game in round_games(tournament):
        assert game.public_id in page
    listing = client.get("/tournaments/").content.decode()
    assert "Autumn cup" in listing
    fragment = client.get(f"/tournaments/{tournament.pk}/live/").content.decode()
    assert 'id="tournament-live"' in fragment and "<html" not in fragment


def test_register_and_withdraw_from_the_page(client, players):
    tournament = create(players[0])
    client.force_login(players[1])
    client.post(f"/tournaments/{tournament.pk}/join/")
    assert Entry.objects.filter(tournament=tournament, user=players[1]).exists()
    again = client.post(f"/tournaments/{tournament.pk}/join/", follow=True)
    assert "already registered" in again.content.decode()
    client.post(f"/tournaments/{tournament.pk}/withdraw/")
    assert not Entry.objects.filter(tournament=tournament, user=players[1]).exists()


def test_staff_cancel_remove_and_adjust_each_with_a_logged_reason(players, dave):
    from games.models import ModerationLog

    tournament = create(players[0], rounds=2)
    register(tournament, players[1:4])
    start(tournament)
    table = TournamentTable.objects.filter(tournament=tournament, round=1).first()
    a, b = (s.user for s in table.game.seats.order_by("index"))
    with pytest.raises(services.GameError, match="needs a reason"):
        services.tournament_result_adjust(
            table=table, points={a.pk: 0, b.pk: 1}, staff=dave, reason=" "
        )
    services.tournament_result_adjust(
        table=table, points={a.pk: 0.0, b.pk: 1.0}, staff=dave, reason="a disconnect"
    )
    rows = {r.username: r.points for r in reads.standings(tournament)[1]}
    assert rows[b.username] == 1.0 and rows[a.username] == 0.0
    with pytest.raises(services.GameError, match="exactly the players"):
        services.tournament_result_adjust(table=table, points={a.pk: 1.0}, staff=dave, reason="x")
    entry = Entry.objects.get(tournament=tournament, user=players[3])
    services.tournament_player_remove(entry=entry, staff=dave, reason="abuse in chat")
    entry.refresh_from_db()
    assert entry.withdrawn_at is not None and entry.removed_reason == "abuse in chat"
    services.tournament_stop(tournament=tournament, staff=dave, reason="test event")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    logged = list(ModerationLog.objects.order_by("pk").values_list("action", flat=True))
    assert logged == ["adjust tournament result", "remove from tournament", "cancel tournament"]


def test_my_games_and_the_profile_name_the_tournament(client, players):
    tournament = create(players[0])
    register(tournament, players[1:2])
    start(tournament)
    client.force_login(players[0])
    mine = client.get("/games/mine/").content.decode()
    assert "Autumn cup, round 1" in mine
    game = round_games(tournament)[0]
    services.game_resign(game=game, user=players[1])
    mine = client.get("/games/mine/").content.decode()
    assert mine.count("Autumn cup, round 1") == 1  # now among the finished games
    profile = client.get(f"/players/{players[1].username}/").content.decode()
    assert "Autumn cup" in profile and f"/tournaments/{tournament.pk}/" in profile


def test_the_admin_adjusts_a_result_and_cancels_with_a_reason(client, players, dave):
    from games.models import ModerationLog

    tournament = create(players[0], rounds=2)
    register(tournament, players[1:2])
    start(tournament)
    table = TournamentTable.objects.get(tournament=tournament, round=1)
    a, b = (s.user for s in table.game.seats.order_by("index"))
    client.force_login(dave)
    changelist = "/admin/games/tournamenttable/"
    form = {"action": "adjust_result", "_selected_action": [table.pk], "index": 0}
    client.post(changelist, {**form, "reason": "", "points": f"{a.username}=1, {b.username}=0"})
    assert TournamentTable.objects.get(pk=table.pk).adjusted is None  # no reason: nothing
    answer = client.post(
        changelist,
        {**form, "reason": "a disconnect", "points": f"{a.username}=0.5; {b.username}=0.5"},
        follow=True,
    )
    assert "Results adjusted: 1." in answer.content.decode()
    assert TournamentTable.objects.get(pk=table.pk).adjusted == {str(a.pk): 0.5, str(b.pk): 0.5}
    bad = client.post(changelist, {**form, "reason": "x", "points": "nobody=1"}, follow=True)
    assert "no player called" in bad.content.decode()
    client.post(
        "/admin/games/tournament/",
        {
            "action": "cancel_tournaments",
            "_selected_action": [tournament.pk],
            "index": 0,
            "reason": "spam",
        },
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert ModerationLog.objects.filter(action="cancel tournament", reason="spam").exists()
