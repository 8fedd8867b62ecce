"""Moderation services check their own preconditions (issue "Code health": services are the only
write path, check then do): a second caller, not only the admin, is refused the same way, and a
refusal changes nothing and logs nothing."""

from __future__ import annotations

import pytest

from games import services
from games.models import ChatMessage, Game, ModerationLog, Report, Seat
from games.services import SeatSpec


@pytest.fixture
def staff(dave):
    dave.is_staff = True
    dave.save(update_fields=["is_staff"])
    return dave


def refused(call, **kwargs) -> str:
    before = ModerationLog.objects.count()
    with pytest.raises(services.GameError) as caught:
        call(**kwargs)
    assert ModerationLog.objects.count() == before
    return str(caught.value)


def test_no_computer_for_an_empty_seat_or_a_game_that_is_over(alice, staff):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    empty = game.seats.get(index=1)
    assert "not a player's seat" in refused(
        services.seat_hand_to_ai, seat=empty, staff=staff, reason="r"
    )
    mine = game.seats.get(index=0)
    assert "no computer level" in refused(
        services.seat_hand_to_ai, seat=mine, staff=staff, reason="r", level="grandmaster"
    )
    services.game_abort(game=game, staff=staff, reason="test")
    assert "the game is over" in refused(
        services.seat_hand_to_ai, seat=mine, staff=staff, reason="r"
    )
    assert not Seat.objects.filter(game=game, ai_takeover=True).exists()


def test_no_deactivating_yourself_or_an_inactive_account(bob, staff):
    assert "yourself" in refused(services.user_deactivate, user=staff, staff=staff, reason="r")
    services.user_deactivate(user=bob, staff=staff, reason="spam")
    assert "already inactive" in refused(
        services.user_deactivate, user=bob, staff=staff, reason="r"
    )
    staff.refresh_from_db()
    assert staff.is_active


def test_a_message_is_hidden_once_and_a_report_closed_once(duel, alice, bob, staff):
    message = ChatMessage.objects.create(game=duel, user=bob, text="rude")
    report = Report.objects.create(reporter=alice, reported_user=bob, reason="rude")

    services.chat_hide(message=message, staff=staff, reason="rude")
    services.report_resolve(report=report, staff=staff, status=Report.Status.RESOLVED, reason="ok")

    assert "already hidden" in refused(services.chat_hide, message=message, staff=staff, reason="r")
    assert "already Resolved" in refused(
        services.report_resolve, report=report, staff=staff, status="dismissed", reason="r"
    )
    assert "not 'open'" in refused(
        services.report_resolve,
        report=Report.objects.create(reporter=alice, reported_user=bob, reason="x"),
        staff=staff,
        status="open",
        reason="r",
    )
    report.refresh_from_db()
    assert report.status == Report.Status.RESOLVED
    assert Game.objects.filter(pk=duel.pk).exists()
