"""Celery tasks: thin, take ids, safe to run twice (STYLE.md habit 7).

Each task keeps the name it had when this module was ``games.jobs.tasks`` (``name=``): a task queued
in Redis or scheduled by beat under that name still finds its function after a deploy."""

from __future__ import annotations

import smtplib

from celery import shared_task

from games import health
from games.jobs import accounts, analysis, computer, deadlines, digests, emails, exports, push
from games.models import Game
from games.services import seeks, tournaments


@shared_task(name="games.tasks.ai_play")
def ai_play(game_id: int, ply: int) -> int | None:
    """Play the computer's decision at ``ply``; a no-op if the game has moved on or ended."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    request = ai_play.request  # a worker's request has its hostname; an eager call is marked
    worker = bool(request.hostname) and not request.is_eager  # Master: workers only
    return computer.play_computer_turn(game, ply, worker=worker)


# Every task is acknowledged late and redelivered if its worker dies (CELERY_TASK_ACKS_LATE,
# CELERY_TASK_REJECT_ON_WORKER_LOST in config/settings.py). An email task also retries with
# backoff while the mail server refuses; each delivers at most once whatever happens.
EMAIL_TASK = {
    # smtplib.SMTPException is an OSError too; OSError alone also covers refused connections
    # and timeouts. Five retries, waiting a random 0-1, 0-2, 0-4, 0-8 and 0-16 s (full jitter).
    "autoretry_for": (smtplib.SMTPException, OSError),
    "retry_backoff": True,
    "max_retries": 5,
}


@shared_task(name="games.tasks.send_turn_email", **EMAIL_TASK)
def send_turn_email(
    game_id: int, ply: int, user_id: int, kind: str, about: int | None = None
) -> str:
    """Email one player about the turn that began at ``ply`` (games.jobs.emails); at most once."""
    return emails.deliver(game_id=game_id, ply=ply, user_id=user_id, kind=kind, about=about)


@shared_task(name="games.tasks.send_invite_email", **EMAIL_TASK)
def send_invite_email(game_id: int, user_id: int) -> str:
    """Email an invited player (see games.jobs.emails.invite); at most once, and not once they
    have answered or the game has started or been cancelled."""
    return emails.invite(game_id=game_id, user_id=user_id)


# Web Push and webhook notices retry the same way while the push service or the chat app is
# down (push.Failed); each goes out at most once (games.jobs.push).
PUSH_TASK = {"autoretry_for": (push.Failed,), "retry_backoff": True, "max_retries": 5}


@shared_task(name="games.tasks.send_push", **PUSH_TASK)
def send_push(game_id: int, ply: int, user_id: int, kind: str) -> str:
    """A Web Push notice (a kind of games.notices) to the player's devices; at most once."""
    return push.deliver(game_id=game_id, ply=ply, user_id=user_id, kind=kind, channel="push")


@shared_task(name="games.tasks.send_webhook", **PUSH_TASK)
def send_webhook(game_id: int, ply: int, user_id: int, kind: str) -> str:
    """The same notice to the player's chat webhook (Discord, Slack); at most once."""
    return push.deliver(game_id=game_id, ply=ply, user_id=user_id, kind=kind, channel="webhook")


@shared_task(name="games.tasks.send_test_notice")
def send_test_notice(test_id: int) -> str:
    """A test notice the player asked for on the Notifications page; once, never retried (its
    outcome is what the player waits to read)."""
    return push.deliver_test(test_id)


@shared_task(name="games.tasks.send_digest", **EMAIL_TASK)
def send_digest(user_id: int, day: str) -> str:
    """The daily digest for the player's local date ``day`` (games.jobs.digests); at most once."""
    return digests.deliver(user_id=user_id, day=day)


@shared_task(name="games.tasks.play_overdue_turn")
def play_overdue_turn(game_id: int, ply: int) -> bool:
    """The computer plays a human's overdue turn at ``ply``; a no-op if they moved meanwhile."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return False
    return computer.play_overdue_turn(game, ply)


@shared_task(name="games.tasks.sweep_computer_turns")
def sweep_computer_turns() -> int:
    """Every 15 s (CELERY_BEAT_SCHEDULE): queue again computer turns whose task was lost."""
    return deadlines.sweep()


@shared_task(name="games.tasks.scan_deadlines")
def scan_deadlines() -> dict[str, int]:
    """Every minute (CELERY_BEAT_SCHEDULE): queue due reminders and overdue turns."""
    health.mark_scan()  # /health/full/: beat and a worker are alive
    return deadlines.scan()


@shared_task(name="games.tasks.analyse_game")
def analyse_game(analysis_id: int) -> str:
    """One slice of a finished game's analysis (games.jobs.analysis), on the analysis queue
    (CELERY_TASK_ROUTES): resumable, and no decision judged twice however often it runs."""
    return analysis.run(analysis_id)


@shared_task(name="games.tasks.sweep_analyses")
def sweep_analyses() -> int:
    """Every minute (CELERY_BEAT_SCHEDULE): queue again analyses whose run was lost."""
    return analysis.sweep()


@shared_task(name="games.tasks.sweep_seeks")
def sweep_seeks() -> dict[str, int]:
    """Every MATCH_SWEEP_SECONDS (CELERY_BEAT_SCHEDULE): "Play now" tables whose rating windows
    now meet are joined; the computer takes the empty seats of those whose wait is over."""
    return seeks.sweep()


@shared_task(name="games.tasks.tournament_advance")
def tournament_advance(tournament_id: int) -> bool:
    """A game of the tournament ended (or a player withdrew): the next round if the round is
    over. Safe to run twice (the tournament's row lock, and the round's games are counted)."""
    return tournaments.tournament_advance(tournament_id)


@shared_task(name="games.tasks.sweep_tournaments")
def sweep_tournaments() -> dict[str, int]:
    """Every minute (CELERY_BEAT_SCHEDULE): start the tournaments whose time has come, remind
    players of those starting within the hour, and advance rounds whose games all ended."""
    return tournaments.start_due()


@shared_task(name="games.tasks.send_tournament_reminder", **EMAIL_TASK)
def send_tournament_reminder(tournament_id: int, user_id: int) -> str:
    """The "starts within the hour" email to one registered player."""
    return emails.tournament_reminder(tournament_id=tournament_id, user_id=user_id)


@shared_task(name="games.tasks.build_data_export")
def build_data_export(export_id: int) -> str:
    """Build a player's "Download my data" zip and email its link (games.jobs.exports); once."""
    return exports.build(export_id)


@shared_task(name="games.tasks.sweep_accounts")
def sweep_accounts() -> dict[str, int]:
    """Every hour (CELERY_BEAT_SCHEDULE): due account deletions, expired exports and sessions."""
    return accounts.sweep()
