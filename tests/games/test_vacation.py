"""Vacation (accounts.vacations, selectors.clock): bob goes away; his move clocks stand still in
every game, nobody plays for him, no reminder goes out, alice sees he is away;
the yearly allowance."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts import vacations
from accounts.models import Vacation
from games import engine, services
from games.jobs import computer
from games.jobs.tasks import scan_deadlines
from games.models import Action, Game

pytestmark = pytest.mark.django_db

NOW = timezone.now


def bobs_turn(duel, alice) -> None:
    while True:
        duel.refresh_from_db()
        state = duel.current_state()
        if state.controller() != 0:
            return
        services.action_submit(
            game=duel, user=alice, action=engine.legal_actions(state)[0], expected_ply=duel.ply
        )


def turn_began(game, hours_ago: float) -> None:
    Game.objects.filter(pk=game.pk).update(turn_started_at=NOW() - timedelta(hours=hours_ago))
    game.refresh_from_db()


def away(user, *, since_hours: float, until_hours: float) -> None:
    """A vacation that began ``since_hours`` ago and ends ``until_hours`` from now (or ago, < 0)."""
    start, end = NOW() - timedelta(hours=since_hours), NOW() + timedelta(hours=until_hours)
    Vacation.objects.create(user=user, starts_at=start, ends_at=end)
    type(user).objects.filter(pk=user.pk).update(vacation_until=end)  # the latest one's end
    user.refresh_from_db()


def bobs_actions(game, bob) -> int:
    seat = game.seats.get(user=bob).index
    return Action.objects.filter(game=game, seat=seat).count()


def test_going_on_vacation_takes_days_from_the_yearly_allowance(bob):
    vacations.vacation_start(user=bob, days=3)
    bob.refresh_from_db()

    assert bob.on_vacation()
    assert vacations.days_left(bob) == 11
    with pytest.raises(vacations.VacationError, match="on vacation already"):
        vacations.vacation_start(user=bob, days=1)
    vacations.vacation_end(user=bob)  # back after a few seconds: two whole days given back
    bob.refresh_from_db()
    assert not bob.on_vacation()
    assert vacations.days_left(bob) == 13
    with pytest.raises(vacations.VacationError, match="13 vacation days left"):
        vacations.vacation_start(user=bob, days=14)
    with pytest.raises(vacations.VacationError, match="at least one day"):
        vacations.vacation_start(user=bob, days=0)


@override_settings(VACATION_DAYS_PER_YEAR=5)
def test_the_allowance_is_configurable(bob):
    assert vacations.days_left(bob) == 5


def test_a_player_away_has_no_deadline_running(duel, alice, bob, on_commit):
    bobs_turn(duel, alice)
    turn_began(duel, hours_ago=25)  # a 1-day move time: overdue by an hour without a vacation
    away(bob, since_hours=20, until_hours=24)
    before = bobs_actions(duel, bob)

    with on_commit():
        assert scan_deadlines.delay().get()["overdue"] == 0
    assert computer.play_overdue_turn(duel, duel.ply) is False  # the task re-checks too
    assert bobs_actions(duel, bob) == before


def test_the_clock_runs_again_after_the_vacation_with_the_time_away_added(
    duel, alice, bob, on_commit
):
    bobs_turn(duel, alice)
    away(bob, since_hours=30, until_hours=-20)  # away for 10 hours, back 20 hours ago

    turn_began(duel, hours_ago=33)  # 33 h - 10 h away = 23 h of clock: not yet out
    with on_commit():
        assert scan_deadlines.delay().get()["overdue"] == 0
    turn_began(duel, hours_ago=35)  # 25 h of clock: the computer plays his turn
    with on_commit():
        assert scan_deadlines.delay().get()["overdue"] == 1
    assert bobs_actions(duel, bob) > 0


def test_no_reminder_while_away(duel, alice, bob, verified, on_commit):
    verified(bob)
    type(bob).objects.filter(pk=bob.pk).update(email_turns="reminders", reminder_hours=1)
    bobs_turn(duel, alice)
    turn_began(duel, hours_ago=3)
    away(bob, since_hours=2.5, until_hours=24)

    with on_commit():
        assert scan_deadlines.delay().get()["reminders"] == 0
    assert mail.outbox == []


def test_opponents_see_the_player_is_away(client, duel, alice, bob):
    away(bob, since_hours=1, until_hours=48)
    until = f"{bob.vacation_until:%B} {bob.vacation_until.day}"  # UTC: no zone activated

    assert duel.seats.get(user=bob).label == f"{bob} (on vacation until {until})"
    client.force_login(alice)
    page = client.get(reverse("game", args=[duel.public_id])).content.decode()
    assert "on vacation until" in page


def test_the_settings_page_starts_and_ends_a_vacation(client, bob):
    client.force_login(bob)
    page = client.get(reverse("settings")).content.decode()
    assert "14 of 14 days left" in page

    client.post(reverse("vacation"), {"days": "2"})
    bob.refresh_from_db()
    assert bob.on_vacation()
    assert "I am back" in client.get(reverse("settings")).content.decode()

    client.post(reverse("vacation"), {"action": "end"})
    bob.refresh_from_db()
    assert not bob.on_vacation()


@pytest.mark.parametrize("days", ["", "x", "0", "15", "-3", "1.5"])
def test_bad_vacation_requests_are_refused_and_change_nothing(client, bob, days):
    client.force_login(bob)
    response = client.post(reverse("vacation"), {"days": days}, follow=True)

    assert response.status_code == 200
    assert "No vacation" in response.content.decode() or "whole number" in (
        response.content.decode()
    )
    assert not Vacation.objects.exists()


# -- the table says what the rules say -------------------------------------------------------


@pytest.mark.parametrize(
    "vacation",
    [
        pytest.param((30, 24), id="away since before the turn"),
        pytest.param((0.05, 24), id="went away a few minutes before the deadline"),
        pytest.param((1, 0.5), id="back in half an hour"),
    ],
)
@pytest.mark.parametrize("past_deadline_hours", [0, 1, 23])
def test_the_computer_never_plays_for_a_player_on_vacation_at_the_deadline(
    duel, alice, bob, on_commit, vacation, past_deadline_hours
):
    """Whenever the scan (or a late task) looks, from the deadline the turn would have had
    without the vacation to a day later: the player's clock stands still while away."""
    bobs_turn(duel, alice)
    before_deadline, until = vacation
    away(bob, since_hours=before_deadline + past_deadline_hours, until_hours=until)
    turn_began(duel, hours_ago=duel.move_seconds / 3600 + past_deadline_hours + 0.01)
    before = bobs_actions(duel, bob)

    with on_commit():
        scan_deadlines.delay().get()
    assert computer.play_overdue_turn(duel, duel.ply) is False
    duel.refresh_from_db()
    assert bobs_actions(duel, bob) == before
    assert duel.current_state().controller() == duel.seats.get(user=bob).index


def panel(client, game, user, language="en") -> str:
    client.force_login(user)
    return client.get(
        reverse("game", args=[game.public_id]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()


def test_the_turn_box_says_the_clock_is_stopped_instead_of_counting_down(client, duel, alice, bob):
    bobs_turn(duel, alice)
    away(bob, since_hours=1, until_hours=48)
    for viewer, words in ((alice, "On vacation until"), (bob, "You are on vacation until")):
        page = panel(client, duel, viewer)
        assert words in page and "the clock is stopped" in page
        assert f'datetime="{bob.vacation_until.isoformat()}"' in page  # the reader's zone: JS
        assert "At the deadline the computer plays this turn" not in page
        assert "data-deadline" not in page  # no countdown


@pytest.mark.parametrize(
    "language, zone, written",
    [
        ("sv", "Europe/Stockholm", "28 november"),
        ("ja", "Asia/Tokyo", "11月28日"),
        ("fi", "Europe/Helsinki", "28. marraskuuta"),
        ("en", "America/New_York", "November 27"),
    ],
)
def test_the_vacation_date_is_in_the_readers_language_and_time_zone(
    duel, bob, language, zone, written
):
    from zoneinfo import ZoneInfo

    from django.utils import translation

    end = datetime(2099, 11, 28, 3, 30, tzinfo=UTC)  # still the 27th in New York
    type(bob).objects.filter(pk=bob.pk).update(vacation_until=end)
    with translation.override(language), timezone.override(ZoneInfo(zone)):
        seat = duel.seats.select_related("user").get(user=bob)
        assert f"(on vacation until {written})" in seat.label or written in seat.label


def test_a_finished_game_does_not_say_who_is_on_vacation(duel, bob):
    away(bob, since_hours=1, until_hours=48)
    Game.objects.filter(pk=duel.pk).update(status=Game.Status.FINISHED)
    seat = Game.objects.get(pk=duel.pk).seats.select_related("user").get(user=bob)
    assert seat.label == str(bob)


def test_coming_back_keeps_the_end_of_the_vacation_for_the_clocks(duel, alice, bob):
    """``vacation_until`` keeps the latest vacation's end once it is over: a turn that began
    after it has nothing to subtract (no vacation query), one that began before it still has."""
    vacations.vacation_start(user=bob, days=3)
    vacations.vacation_end(user=bob)
    bob.refresh_from_db()
    back = bob.vacation_until
    assert back is not None and back <= NOW() and not bob.on_vacation()
    assert Vacation.objects.get(user=bob).ends_at == back

    bobs_turn(duel, alice)
    turn_began(duel, hours_ago=1)  # the turn began before he went: his seconds away count
    paused = vacations.paused(bob.pk, duel.turn_started_at, NOW(), bob.vacation_until)
    assert timedelta() < paused < timedelta(minutes=1)
    assert paused == vacations.paused(bob.pk, duel.turn_started_at, NOW())

    later = back + timedelta(seconds=1)  # a turn that began after he came back
    with CaptureQueriesContext(connection) as queries:
        assert vacations.paused(bob.pk, later, NOW(), bob.vacation_until) == timedelta()
        assert vacations.paused(alice.pk, later, NOW(), alice.vacation_until) == timedelta()
    assert len(queries) == 0


def test_the_migration_fills_the_end_of_past_vacations(bob, alice):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("accounts.migrations.0011_vacation_until_latest_end")
    away(bob, since_hours=50, until_hours=-40)
    away(bob, since_hours=30, until_hours=-20)
    type(bob).objects.filter(pk=bob.pk).update(vacation_until=None)  # as before 0011

    migration.latest_end(apps, None)
    bob.refresh_from_db()
    alice.refresh_from_db()
    assert bob.vacation_until == Vacation.objects.filter(user=bob).latest("ends_at").ends_at
    assert alice.vacation_until is None  # never went
