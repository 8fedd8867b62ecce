"""Staff moderation (the admin collects a reason and calls these): every action is logged."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import ChatMessage, Game, ModerationLog, Report, Seat, Seek
from games.services.actions import after_change, locked, tournament_moves_on
from games.services.errors import Conflict, GameError, NotAllowed

# -- moderation -----------------------------------------------------------------------------


def _check_reason(reason: str) -> None:
    if not reason.strip():
        raise GameError("a moderation action needs a reason")


def _log(staff, action: str, target: str, reason: str) -> None:
    _check_reason(reason)
    ModerationLog.objects.create(staff=staff, action=action, target=target[:200], reason=reason)


def game_abort(*, game: Game, staff, reason: str) -> None:
    with transaction.atomic():
        game = locked(game)
        if game.is_over:
            raise Conflict(_("the game is already over"))
        game.status = Game.Status.ABORTED
        game.to_move_seat = None
        game.abort_reason = reason[:200]
        game.finished_at = timezone.now()
        game.save()
        _log(staff, "abort game", str(game), reason)
        tournament_moves_on(game)


def seat_hand_to_ai(*, seat: Seat, staff, reason: str, level: str = Seat.Level.CASUAL) -> None:
    """The computer plays a player's seat from now on. Refused for a seat with no player (an
    empty seat has no one to replace), a game that is over, and a seat the computer plays."""
    if level not in Seat.Level.values:
        raise GameError(f"no computer level {level!r}")
    with transaction.atomic():
        game = locked(seat.game)
        seat = game.seats.get(pk=seat.pk)
        if seat.kind != Seat.Kind.HUMAN:
            raise Conflict(_("it is not a player's seat"))
        if game.is_over:
            raise Conflict(_("the game is over"))
        if seat.is_ai:
            raise Conflict(_("the computer already plays this seat"))
        seat.ai_takeover, seat.ai_level = True, level
        seat.save(update_fields=["ai_takeover", "ai_level"])
        _log(staff, "hand seat to AI", f"{game} seat {seat.index + 1} ({seat.user})", reason)
        if game.status == Game.Status.ACTIVE:
            after_change(game, game.current_state())


def user_deactivate(*, user, staff, reason: str) -> None:
    """Refused for the staff member themself and for an inactive account."""
    if user.pk == staff.pk:
        raise NotAllowed(_("you can't deactivate yourself"))
    with transaction.atomic():
        user = type(user).objects.select_for_update().get(pk=user.pk)
        if not user.is_active:
            raise Conflict(_("%(name)s is already inactive") % {"name": user.username})
        user.is_active = False
        user.save(update_fields=["is_active"])
        # A "Play now" request stops waiting (the sweep closes a table left empty).
        Seek.objects.filter(user=user, status=Seek.Status.WAITING).update(
            status=Seek.Status.CANCELLED, ended_at=timezone.now()
        )
        _log(staff, "deactivate user", user.username, reason)


def chat_hide(*, message: ChatMessage, staff, reason: str) -> None:
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().get(pk=message.pk)
        if message.hidden:
            raise Conflict(_("message #%(id)s is already hidden") % {"id": message.pk})
        message.hidden = True
        message.save(update_fields=["hidden"])
        _log(
            staff,
            "hide chat message",
            f"#{message.pk} by {message.user}: {message.text[:80]}",
            reason,
        )


def report_resolve(*, report: Report, staff, status: str, reason: str) -> None:
    if status not in (Report.Status.RESOLVED, Report.Status.DISMISSED):
        raise GameError(f"a report is closed as resolved or dismissed, not {status!r}")
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        if report.status != Report.Status.OPEN:
            raise Conflict(
                _("report #%(id)s is already %(status)s")
                % {"id": report.pk, "status": report.get_status_display()}
            )
        report.status = status
        report.save(update_fields=["status"])
        _log(staff, f"report {status}", str(report), reason)


def tournament_stop(*, tournament, staff, reason: str) -> None:
    """Cancel a tournament: its running games go on as ordinary games."""
    from games.services import tournaments

    _check_reason(reason)
    tournaments.tournament_cancel(tournament=tournament, reason=f"cancelled by staff: {reason}")
    _log(staff, "cancel tournament", str(tournament), reason)


def tournament_player_remove(*, entry, staff, reason: str) -> None:
    """Take a player out of a tournament (a withdrawal: a running game is resigned)."""
    from games.services import tournaments

    _check_reason(reason)
    tournaments.tournament_remove(tournament=entry.tournament, user=entry.user, reason=reason)
    _log(staff, "remove from tournament", f"{entry.user} from {entry.tournament}", reason)


def tournament_result_adjust(*, table, points: dict[int, float], staff, reason: str) -> None:
    """Set a tournament table's points instead of what its game gave."""
    from games.services import tournaments

    _check_reason(reason)
    tournaments.table_adjust(table=table, points=points)
    _log(staff, "adjust tournament result", f"{table} -> {points}", reason)
