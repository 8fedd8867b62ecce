"""Telling players of a game's news after a commit: each kind of notice as its entry in
games.notices says (who is told, by email, on devices and webhooks), queued by task name
(games.jobs.emails and games.jobs.push send them, and check again that each is still due and
wanted). Device and webhook tasks are queued only for players who have a subscribed device or a
webhook, so that a move queues nothing more for the others."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef

from accounts.models import User
from games import jobs, notices
from games.models import Game, NoticeSettings, PushSubscription, Seat


def told(*, kind: str, game: Game, number: int, about: int | None = None, seats=None) -> list[int]:
    """After commit: the notice ``kind`` about the event ``number`` (games.notices: the ply at
    which a turn began, a resignation's ply, ...) to everyone its entry names; ``about``: the
    seat the event is about (whose turn, who resigned, who asked). ``seats``: the game's seats
    with their players, where the caller has read them (a move's, under its lock, also carry
    the ``pushes`` and ``hooks`` flags: no query then). Returns the ids of the players told."""
    notice = notices.notice(kind)
    seats = list(seats) if seats is not None else list(game.seats.select_related("user"))
    recipients = notice.recipients(game, seats, about)
    user_ids = [seat.user_id for seat in recipients]
    if notice.device:
        devices_told(game_id=game.pk, ply=number, user_ids=user_ids, kind=kind, seats=seats)
    if notice.email:
        for seat in recipients:
            # Spares a task for a player whose settings refuse it anyway (the task asks again).
            if seat.user.email_turns in notice.email:
                _email(notice, game.pk, number, seat, about)
    return user_ids


def _email(notice: notices.Notice, game_id: int, number: int, seat: Seat, about) -> None:
    user_id = seat.user_id
    if notice.seen == notices.Seen.SINCE_TURN:
        # A turn email waits a grace period and is sent only if the player was not at the board
        # meanwhile (jobs.emails). Published after the answer (jobs.queue_later_soon): a turn
        # email may wait a moment.
        grace = settings.TURN_EMAIL_GRACE_SECONDS
        transaction.on_commit(
            lambda: jobs.queue_later_soon(
                "send_turn_email", grace, game_id, number, user_id, notice.kind
            ),
            robust=True,
        )
        return
    # The email names the seat the news is about when it is not the recipient's own.
    extra = {"about": about} if about is not None and about != seat.index else {}
    transaction.on_commit(
        lambda: jobs.queue("send_turn_email", game_id, number, user_id, notice.kind, **extra),
        robust=True,
    )


def devices_told(*, game_id: int, ply: int, user_ids: list[int], kind: str, seats=()) -> None:
    """After commit: the notice ``kind`` to each player's devices and webhook.
    ``seats``: the game's seats read with their players' ``pushes`` and ``hooks`` flags
    (``selectors.hot.locked_with_seats``, under a move's lock): no query then."""
    user_ids = [u for u in user_ids if u is not None]
    if not user_ids:
        return
    flagged = [s for s in seats if hasattr(s, "pushes")]
    if flagged:
        flags = [(s.user_id, s.pushes, s.hooks) for s in flagged if s.user_id in user_ids]
    else:
        # One query for both (it runs inside every move's transaction).
        flags = User.objects.filter(pk__in=user_ids).values_list(
            "pk",
            Exists(PushSubscription.objects.filter(user=OuterRef("pk"), enabled=True)),
            Exists(NoticeSettings.objects.filter(user=OuterRef("pk")).exclude(webhook_url="")),
        )
    pushed, hooked = set(), set()
    for user_id, push, hook in flags:
        if push:
            pushed.add(user_id)
        if hook:
            hooked.add(user_id)
    for user_id in user_ids:
        for task, wanted in (("send_push", pushed), ("send_webhook", hooked)):
            if user_id in wanted:
                transaction.on_commit(
                    lambda t=task, u=user_id: jobs.queue(t, game_id, ply, u, kind), robust=True
                )
