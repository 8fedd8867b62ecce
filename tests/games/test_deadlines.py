"""Reminders and move deadlines: the every-minute scan, timeouts played by the computer, and the
seat handed to the computer after three timeouts in a row. Time is "frozen" by moving a turn's
start into the past (``Game.turn_started_at``), never by sleeping."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import engine, services
from games.jobs import computer, deadlines
from games.jobs.tasks import scan_deadlines, send_turn_email
from games.models import Action, Game, Seat, TurnNotice
from games.services import SeatSpec


@pytest.fixture
def scan(on_commit):
    """One run of the every-minute beat task, with its queued work run as after a commit."""

    def run() -> dict:
        with on_commit():
            result = scan_deadlines.delay().get()
        return result

    return run


def controller(game: Game) -> int:
    game.refresh_from_db()
    return game.current_state().controller()


def play(game: Game, *users) -> None:
    """One decision by whoever of ``users`` controls the game now (its first legal action)."""
    game.refresh_from_db()
    state = game.current_state()
    user = next(u for u in users if u.pk == game.seats.get(index=state.controller()).user_id)
    action = engine.legal_actions(state)[0]
    services.action_submit(game=game, user=user, action=action, expected_ply=game.ply)


def play_turn(game: Game, user) -> None:
    """Every decision of ``user``'s turn, until another seat has control."""
    seat = game.seats.get(user=user).index
    while controller(game) == seat:
        play(game, user)


def waited(game: Game, **delta) -> None:
    """The current turn began this long ago."""
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(**delta))


def overdue(game: Game) -> None:
    game.refresh_from_db()
    waited(game, seconds=game.move_seconds + 60)


def subjects(user) -> list[str]:
    return [m.subject for m in mail.outbox if m.to == [user.email]]


def prefer(user, **fields) -> None:
    type(user).objects.filter(pk=user.pk).update(**fields)


# -- reminders ------------------------------------------------------------------------------


def test_a_reminder_goes_out_once_after_the_chosen_hours(
    duel, alice, bob, verified, on_commit, scan
):
    verified(bob)
    prefer(bob, email_turns="reminders", reminder_hours=3)
    with on_commit():
        play(duel, alice)  # bob's turn now; "reminders" means no email for that
    assert subjects(bob) == []
    waited(duel, hours=2, minutes=59)
    assert scan()["reminders"] == 0
    waited(duel, hours=3, minutes=1)
    assert scan()["reminders"] == 1
    assert len(subjects(bob)) == 1 and "Reminder" in subjects(bob)[0]
    assert scan()["reminders"] == 0  # the next minute's scan: already reminded
    assert len(subjects(bob)) == 1
    notice = TurnNotice.objects.get(kind="reminder")
    assert (notice.user, notice.ply, notice.status) == (bob, 1, "sent")


def test_every_turn_means_a_turn_email_and_then_a_reminder(
    duel, alice, bob, verified, on_commit, scan
):
    verified(bob)
    prefer(bob, reminder_hours=1)
    with on_commit():
        play(duel, alice)
    waited(duel, hours=2)
    scan()
    scan()
    assert [s.split("]")[1].split(":")[0].strip() for s in subjects(bob)] == [
        "Your turn",
        "Reminder",
    ]


def test_no_reminder_for_a_player_who_wants_none(duel, alice, bob, verified, scan):
    verified(bob)
    prefer(bob, email_turns="never", reminder_hours=1)
    play(duel, alice)
    waited(duel, hours=2)
    assert scan()["reminders"] == 0
    assert mail.outbox == []


def test_no_reminder_after_the_turn_was_played(duel, alice, bob, verified, scan):
    verified(bob)
    prefer(bob, email_turns="reminders", reminder_hours=1)
    play(duel, alice)
    play(duel, bob)  # alice's turn again (her address is not verified: no email to her)
    waited(duel, hours=2)
    scan()
    # A reminder queued before bob moved, delivered after: nothing either.
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "reminder").get() == "played"
    assert mail.outbox == []


def test_one_reminder_per_turn_even_when_the_turn_has_several_decisions(
    duel, alice, bob, verified, scan
):
    verified(alice)
    prefer(alice, email_turns="reminders", reminder_hours=1)
    for _ in range(4):  # the four setup placements: then blue's main turn, alice's
        play(duel, alice, bob)
    assert controller(duel) == 0 and duel.current_state().step == "card"
    waited(duel, hours=2)
    scan()
    assert len(subjects(alice)) == 1
    play(duel, alice)  # her card: still her turn, on the same clock
    assert controller(duel) == 0
    scan()
    assert len(subjects(alice)) == 1


def test_a_reminder_waits_until_the_player_leaves_the_site(duel, alice, bob, verified, scan):
    import time

    from games.live import presence

    verified(bob)
    prefer(bob, email_turns="reminders", reminder_hours=1)
    play(duel, alice)
    waited(duel, hours=2)
    presence.page_report(bob.pk, "tab", visible=True, active_ms_ago=0)
    scan()
    assert mail.outbox == []
    presence.page_closed(bob.pk, "tab", now=time.time() - 1)
    scan()
    assert len(subjects(bob)) == 1


# -- timeouts -------------------------------------------------------------------------------


def test_an_overdue_turn_is_played_by_the_computer_and_the_player_is_told(
    duel, alice, bob, verified, scan
):
    verified(alice, bob)
    waited(duel, seconds=duel.move_seconds - 60)
    assert scan()["overdue"] == 0
    overdue(duel)
    assert scan()["overdue"] == 1
    duel.refresh_from_db()
    assert duel.ply == 1 and duel.to_move_seat == 1
    action = Action.objects.get(game=duel)
    assert action.by_ai and action.seat == 0 and action.user is None
    assert duel.seats.get(index=0).timeouts_in_row == 1
    assert any("The computer played your turn" in s for s in subjects(alice))
    assert any("Your turn" in s for s in subjects(bob))  # the game goes on
    assert scan()["overdue"] == 0  # bob's clock has just started


def test_the_computer_plays_the_whole_rest_of_an_overdue_turn(duel, alice, bob, scan):
    for _ in range(4):
        play(duel, alice, bob)
    play(duel, alice)  # alice's card, then she leaves in the middle of her turn
    assert controller(duel) == 0
    mine = duel.ply
    overdue(duel)
    scan()
    assert controller(duel) == 1
    rows = list(Action.objects.filter(game=duel, ply__gt=4).order_by("ply"))
    assert not rows[0].by_ai and rows[0].ply == mine
    assert len(rows) >= 2 and all(r.by_ai and r.seat == 0 for r in rows[1:])


def test_a_timeout_that_lost_the_race_to_a_move_does_nothing(duel, alice):
    overdue(duel)
    play(duel, alice)
    assert not computer.play_overdue_turn(duel, 0)  # the ply moved on
    assert not computer.play_overdue_turn(duel, 1)  # bob's turn is not overdue
    assert Action.objects.filter(game=duel, by_ai=True).count() == 0


def test_a_human_move_resets_the_count_of_timeouts(duel, alice, bob, scan):
    overdue(duel)
    scan()
    assert duel.seats.get(index=0).timeouts_in_row == 1
    play_turn(duel, bob)
    play(duel, alice)
    assert duel.seats.get(index=0).timeouts_in_row == 0


def test_the_third_timeout_in_a_row_hands_the_seat_to_the_computer(
    duel, alice, bob, verified, on_commit, scan
):
    verified(alice, bob)
    for timeouts in (1, 2, 3):
        assert controller(duel) == 0
        overdue(duel)
        scan()
        seat = duel.seats.get(index=0)
        assert seat.timeouts_in_row == timeouts
        assert seat.ai_takeover == (timeouts == 3)
        with on_commit():
            play_turn(duel, bob)
    assert seat.ai_level == Seat.Level.CASUAL and seat.kind == Seat.Kind.HUMAN
    assert seat.user == alice  # kept, for the history
    assert sum("The computer played your turn" in s for s in subjects(alice)) == 2
    assert any("The computer now plays your seat" in s for s in subjects(alice))
    assert any("The computer now plays for alice" in s for s in subjects(bob))
    # From now on the computer plays alice's turns at once, without waiting for the clock.
    assert controller(duel) == 1
    last = Action.objects.filter(game=duel).order_by("-ply").first()
    assert last.seat == 0 and last.by_ai


def test_a_computer_seat_whose_task_was_lost_is_played_by_the_scan(alice, scan):
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.AI, level="beginner"), SeatSpec(Seat.Kind.HUMAN)],
    )  # the AI's first move was queued on commit, which never came: as if the task was lost
    assert game.status == Game.Status.ACTIVE and controller(game) == 0
    overdue(game)
    assert scan()["overdue"] == 1
    assert controller(game) == 1
    assert Action.objects.get(game=game).by_ai


def test_the_scan_leaves_finished_and_aborted_games_alone(duel, alice, dave, scan):
    services.game_abort(game=duel, staff=dave, reason="test")
    overdue(duel)
    assert scan() == {"reminders": 0, "overdue": 0, "digests": 0}


def test_the_scan_query_is_a_few_statements_however_many_games(
    duel, alice, bob, carol, django_assert_max_num_queries
):
    for _ in range(5):
        game = services.game_create(
            creator=carol,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        )
        services.game_join(game=game, user=bob)
    Game.objects.update(turn_started_at=timezone.now() - timedelta(hours=13))  # reminders: 12 h
    now = timezone.now()
    with django_assert_max_num_queries(4):
        assert len(deadlines.reminders_due(now)) == 6  # every game waits for its first move
    with django_assert_max_num_queries(2):
        assert deadlines.overdue_turns(now) == []


def test_the_timeout_move_is_chosen_before_the_game_is_locked(duel, monkeypatch):
    """A slow choice must not hold the game's row (ai_play does the same)."""
    from games.services import timeouts

    events = []
    locked, choose = timeouts.locked, computer.choose_action
    monkeypatch.setattr(timeouts, "locked", lambda g: events.append("lock") or locked(g))
    monkeypatch.setattr(
        computer, "choose_action", lambda *a, **k: events.append("choose") or choose(*a, **k)
    )
    overdue(duel)

    assert computer.play_overdue_turn(duel, duel.ply)

    assert "choose" in events and "lock" in events
    assert events.index("lock") > max(i for i, e in enumerate(events) if e == "choose")
    duel.refresh_from_db()
    assert duel.ply >= 1 and duel.actions.filter(by_ai=True).exists()


def test_a_queued_reminder_is_checked_by_the_scans_own_rule(duel, alice, bob, verified, on_commit):
    """One definition of "reminder due" (clock.reminder_due) for the scan and the email task: a
    reminder queued for a player who has since been away long enough is not sent (the task used
    to check the wait without the time away)."""
    from accounts.models import Vacation
    from games.selectors import clock

    verified(bob)
    prefer(bob, email_turns="reminders", reminder_hours=3)
    with on_commit():
        play(duel, alice)  # bob's turn, at ply 1
    waited(duel, hours=3, minutes=5)
    duel.refresh_from_db()
    seat = duel.seats.select_related("user").get(index=1)
    assert clock.reminder_due(duel, seat, timezone.now())
    now = timezone.now()  # bob was away for an hour of that wait: 2 h 05 min count
    back = now - timedelta(hours=1)
    Vacation.objects.create(user=bob, starts_at=now - timedelta(hours=2), ends_at=back)
    type(bob).objects.filter(pk=bob.pk).update(vacation_until=back)  # as vacation_end leaves it
    seat = duel.seats.select_related("user").get(index=1)

    assert not clock.reminder_due(duel, seat, timezone.now())
    assert send_turn_email(duel.pk, 1, bob.pk, "reminder") == "played"
    assert subjects(bob) == []
