"""The daily digest (jobs.digests): one email a day at the player's local hour, listing every game
where it is their turn, never twice for one date, instead of turn emails and reminders."""

from __future__ import annotations

from datetime import UTC, datetime
from datetime import timedelta as td

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.jobs import digests
from games.jobs.emails import wants
from games.jobs.tasks import send_digest
from games.models import DigestNotice, Seat
from games.services import SeatSpec

pytestmark = pytest.mark.django_db

# 07:00 UTC is 08:00 in Paris in November (CET, UTC+1) and 16:00 in Tokyo.
MORNING_UTC = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)


def prefer(user, **fields) -> None:
    type(user).objects.filter(pk=user.pk).update(**fields)
    user.refresh_from_db()


def bobs_turn(duel, alice) -> None:
    """Alice plays her whole turn: bob decides next."""
    while True:
        duel.refresh_from_db()
        state = duel.current_state()
        if state.controller() != 0:
            return
        services.action_submit(
            game=duel, user=alice, action=engine.legal_actions(state)[0], expected_ply=duel.ply
        )


def test_a_digest_is_due_at_the_players_local_hour_only(duel, bob):
    prefer(bob, email_turns="digest", digest_hour=8, time_zone="Europe/Paris")

    assert digests.digests_due(MORNING_UTC) == [(bob.pk, "2026-11-23")]
    assert digests.digests_due(MORNING_UTC - td(hours=1)) == []
    prefer(bob, time_zone="Asia/Tokyo")
    assert digests.digests_due(MORNING_UTC) == []
    assert digests.digests_due(MORNING_UTC - td(hours=8)) == [(bob.pk, "2026-11-23")]


def test_players_on_other_settings_get_no_digest(duel, alice, bob):
    prefer(bob, email_turns="every", digest_hour=7)
    assert digests.digests_due(MORNING_UTC) == []


def test_the_digest_lists_every_game_waiting_and_is_sent_once(duel, alice, bob, verified):
    verified(bob)
    prefer(bob, email_turns="digest")
    other = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=other, user=bob)
    bobs_turn(duel, alice)
    bobs_turn(other, alice)

    assert send_digest.delay(bob.pk, "2026-11-23").get() == "sent"
    assert send_digest.delay(bob.pk, "2026-11-23").get() == "duplicate"  # a second delivery

    (message,) = mail.outbox
    assert message.to == [bob.email]
    assert "Your turn in 2 games" in message.subject
    for game in (duel, other):
        assert reverse("game", args=[game.public_id]) in message.body
    assert "List-Unsubscribe" in message.extra_headers
    # Once sent, the scan no longer finds it due that day.
    prefer(bob, digest_hour=MORNING_UTC.hour)
    assert digests.digests_due(MORNING_UTC) == []


def test_a_day_with_no_game_waiting_sends_nothing(duel, bob, verified):
    verified(bob)
    prefer(bob, email_turns="digest")

    assert send_digest.delay(bob.pk, "2026-11-23").get() == "empty"  # alice's turn
    assert mail.outbox == []
    assert DigestNotice.objects.get(user=bob).status == DigestNotice.Status.EMPTY


def test_a_digest_reader_gets_no_turn_email_and_no_reminder(duel, alice, bob, verified, on_commit):
    verified(bob)
    prefer(bob, email_turns="digest")
    with on_commit():
        bobs_turn(duel, alice)
    assert mail.outbox == []
    assert not wants(bob, "turn") and not wants(bob, "reminder")
    assert wants(bob, "timeout")  # news about a game still comes


def test_an_unverified_address_gets_no_digest(duel, alice, bob):
    prefer(bob, email_turns="digest")
    bobs_turn(duel, alice)
    assert send_digest.delay(bob.pk, "2026-11-23").get() == "declined"
    assert mail.outbox == []


def test_the_digest_holds_no_hidden_information(duel, alice, bob, verified):
    verified(bob)
    prefer(bob, email_turns="digest")
    bobs_turn(duel, alice)
    send_digest.delay(bob.pk, "2026-11-23").get()
    state = duel.current_state()
    text = mail.outbox[0].body + mail.outbox[0].alternatives[0][0]
    assert str(duel.seed) not in text
    for cards in state.hands.values():
        for card in set(cards):
            assert engine.CARD_NAMES[card] not in text


def test_the_settings_page_offers_the_digest_and_its_hour(bob):
    client = Client()
    client.force_login(bob)
    page = client.get(reverse("settings")).content.decode()
    assert "One email a day" in page
    response = client.post(
        reverse("settings"),
        {
            "display_name": "",
            "time_zone": "Europe/Paris",
            "email_turns": "digest",
            "reminder_hours": 12,
            "digest_hour": 19,
        },
    )
    assert response.status_code == 302
    bob.refresh_from_db()
    assert (bob.email_turns, bob.digest_hour) == ("digest", 19)
