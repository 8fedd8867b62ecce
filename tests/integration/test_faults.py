"""Faults on real services: a worker killed mid-turn, a task delivered twice, a rolled-back
move, a reminder that came too late, a mail server that fails. Each ends with what the player
sees exactly once, or not at all."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.jobs import deadlines
from games.jobs.tasks import ai_play
from games.models import Action, Game, TurnNotice
from tests.integration.helpers import game_row_locked, human_move, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

AI_PLAY = "games.tasks.ai_play"
SEND_EMAIL = "games.tasks.send_turn_email"
VISIBILITY = 1  # seconds: how soon the restarted worker's broker hands out an unacknowledged task


def computer_moves(game: Game) -> list[tuple[int, int, bool]]:
    return list(
        Action.objects.filter(game=game, ply__gt=1)
        .order_by("ply")
        .values_list("ply", "seat", "by_ai")
    )


def test_a_worker_killed_during_the_computers_turn_plays_it_once_after_a_restart(
    alice, vs_computer, broker, workers
):
    game = vs_computer
    broker.connect()
    human_move(game, alice)  # ply 1: the computer's turn is queued
    assert broker.queued() == [(AI_PLAY, [game.pk, 1])]

    # A slow transaction holds the game's row: the worker takes the task, chooses its move and
    # waits to record it. It dies there, the task unacknowledged.
    with game_row_locked(game) as waiting:
        first = workers.start()
        wait_for(waiting, what="the worker to wait for the game's lock", log=first.log)
        first.kill()
    taken = list(broker.taken().values())  # the killed worker's, never acknowledged
    assert [task for task, _at in taken] == [(AI_PLAY, [game.pk, 1])] and broker.queued() == []
    taken_at = taken[0][1]
    game.refresh_from_db()
    assert game.ply == 1 and computer_moves(game) == []

    # Redis hands the task out again once it has been out longer than the visibility timeout.
    time.sleep(max(0.0, taken_at + VISIBILITY + 0.1 - time.time()))
    second = workers.start(CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY))
    wait_for(lambda: computer_moves(game), what="the computer's move", log=second.log)
    second.wait_ran(AI_PLAY, 1)

    game.refresh_from_db()
    assert game.ply == 2 and computer_moves(game) == [(2, 1, True)]
    # Everything the second worker took is acknowledged: the computer's move at once, the turn
    # email after its grace period (TURN_EMAIL_GRACE_SECONDS: it waits for a player away).
    wait_for(lambda: broker.taken() == {}, what="every task acknowledged", log=second.log)


def test_two_deliveries_of_the_computers_turn_make_one_move(alice, vs_computer, broker, workers):
    game = vs_computer
    broker.connect()
    human_move(game, alice)  # queues ai_play(game, 1) ...
    ai_play.delay(game.pk, 1)  # ... and the same task again: a redelivery, a second scan
    assert broker.queued() == [(AI_PLAY, [game.pk, 1])] * 2

    # Two workers take one delivery each and both wait for the game's lock; released, one plays
    # and the other finds its move recorded.
    with game_row_locked(game) as waiting:
        one, two = workers.start(), workers.start()

        def logs() -> str:
            return f"{one.log()}\n--- the other worker ---\n{two.log()}"

        wait_for(lambda: waiting() == 2, what="both workers to wait for the lock", log=logs)
    wait_for(lambda: one.ran(AI_PLAY) + two.ran(AI_PLAY) >= 2, what="both deliveries", log=logs)
    assert (one.ran(AI_PLAY), two.ran(AI_PLAY)) == (1, 1)

    game.refresh_from_db()
    assert game.ply == 2 and computer_moves(game) == [(2, 1, True)]


def test_a_rolled_back_move_queues_nothing(alice, vs_computer, broker, workers):
    game = vs_computer
    broker.connect()
    with pytest.raises(RuntimeError), transaction.atomic():
        human_move(game, alice)
        raise RuntimeError("something after the move failed")
    assert broker.queued() == []
    game.refresh_from_db()
    assert game.ply == 0 and not Action.objects.filter(game=game).exists()

    # The same move committed: one task, the only one the worker ever gets.
    worker = workers.start()
    human_move(game, alice)
    wait_for(lambda: computer_moves(game), what="the computer's move", log=worker.log)
    worker.wait_ran(AI_PLAY, 1)
    assert computer_moves(game) == [(2, 1, True)]


def test_a_reminder_that_comes_after_the_turn_was_played_sends_nothing(
    duel, alice, bob, verified, broker, workers, mailbox
):
    User.objects.filter(pk=alice.pk).update(email_turns=User.EmailTurns.NEVER)
    User.objects.filter(pk=bob.pk).update(email_turns=User.EmailTurns.REMINDERS, reminder_hours=1)
    verified(alice, bob)
    broker.connect()
    human_move(duel, alice)  # bob's turn, and bob wants reminders only: nothing queued
    assert broker.queued() == []

    # Two hours later the scan (Celery beat's, every minute) finds the reminder due ...
    Game.objects.filter(pk=duel.pk).update(turn_started_at=timezone.now() - timedelta(hours=2))
    assert deadlines.scan() == {"reminders": 1, "overdue": 0, "digests": 0}
    assert broker.queued() == [(SEND_EMAIL, [duel.pk, 1, bob.pk, "reminder"])]
    # ... and bob plays before a worker gets to it (alice wants no email: nothing more queued).
    human_move(duel, bob)
    assert broker.queued() == [(SEND_EMAIL, [duel.pk, 1, bob.pk, "reminder"])]

    worker = workers.start()
    worker.wait_ran(SEND_EMAIL, 1)
    assert mailbox.messages() == [] and mailbox.attempts() == 0
    assert not TurnNotice.objects.exists()


def test_a_mail_server_that_fails_twice_then_answers_sends_one_email(
    duel, alice, bob, verified, broker, workers, mailbox
):
    verified(bob)  # bob wants an email for every turn (the default)
    broker.connect()
    # The first two attempts fail like a dropped SMTP connection; the task retries after a
    # random 0-1 s, then 0-2 s (retry_backoff with full jitter).
    worker = workers.start(TEST_MAILBOX_FAILURES="2")
    human_move(duel, alice)  # bob's turn: the turn email is queued
    wait_for(mailbox.messages, what="the email, third time lucky", log=worker.log)
    worker.wait_ran(SEND_EMAIL, 3)  # the first try and two retries, nothing after

    assert mailbox.attempts() == 3
    (message,) = mailbox.messages()
    assert message["To"] == bob.email and "Your turn" in message["Subject"]
    notice = TurnNotice.objects.get()
    assert (notice.user, notice.ply, notice.kind, notice.status, notice.attempts) == (
        bob,
        1,
        "turn",
        "sent",
        3,
    )
