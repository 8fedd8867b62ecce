"""Turn emails: who gets one, what it says, the one-click unsubscribe link, exactly once."""

from __future__ import annotations

import email.policy
import smtplib
from datetime import UTC, datetime

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.mail.backends import locmem
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.jobs import emails
from games.jobs.tasks import send_turn_email
from games.live import presence
from games.models import Game, TurnNotice


def first_move(game: Game, user) -> None:
    """Blue's setup placement by alice: then it is bob's (yellow's) turn."""
    game.refresh_from_db()
    action = engine.legal_actions(game.current_state())[0]
    services.action_submit(game=game, user=user, action=action, expected_ply=game.ply)


def to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


def test_a_player_who_wants_every_turn_gets_one_email_when_it_becomes_their_turn(
    duel, alice, bob, verified, on_commit
):
    verified(alice, bob)
    with on_commit():
        first_move(duel, alice)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [bob.email]
    assert "Your turn" in message.subject and message.subject.startswith("[Blokus Shuffle]")
    notice = TurnNotice.objects.get()
    assert (notice.user, notice.ply, notice.kind, notice.status) == (bob, 1, "turn", "sent")


def test_a_second_delivery_of_the_same_email_sends_nothing(duel, alice, bob, verified, on_commit):
    verified(bob)
    with on_commit():
        first_move(duel, alice)
    assert len(mail.outbox) == 1
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "turn").get() == "duplicate"
    assert len(mail.outbox) == 1
    assert TurnNotice.objects.get().attempts == 1


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"email_turns": "reminders"}, id="reminders only"),
        pytest.param({"email_turns": "never"}, id="never"),
        pytest.param({"is_active": False}, id="deactivated"),
    ],
)
def test_no_turn_email_unless_the_player_wants_every_turn(
    duel, alice, bob, verified, on_commit, change
):
    verified(bob)
    type(bob).objects.filter(pk=bob.pk).update(**change)
    with on_commit():
        first_move(duel, alice)
    assert mail.outbox == []
    assert not TurnNotice.objects.exists()


def test_no_email_to_an_unverified_address(duel, alice, bob, on_commit):
    # bob's address is his primary one, but he never clicked the confirmation link.
    EmailAddress.objects.create(user=bob, email=bob.email, primary=True, verified=False)
    with on_commit():
        first_move(duel, alice)
    assert mail.outbox == []


def test_no_email_to_an_address_that_is_not_the_primary_verified_one(
    duel, alice, bob, verified, on_commit
):
    verified(bob)
    type(bob).objects.filter(pk=bob.pk).update(email="bob-new@example.com")  # not verified yet
    with on_commit():
        first_move(duel, alice)
    assert mail.outbox == []


def test_no_email_while_the_player_is_at_the_board(duel, alice, bob, verified, on_commit):
    verified(bob)
    presence.page_report(bob.pk, "tab", visible=True, active_ms_ago=2000)
    with on_commit():
        first_move(duel, alice)
    assert mail.outbox == []


# -- at the board: a visible page with recent input, over all of a player's
# pages; a page merely open does not count.


def bob_to_move(duel, alice):
    first_move(duel, alice)  # queued emails do not run: the test's transaction never commits
    duel.refresh_from_db()
    return duel.turn_started_at.timestamp()


def test_closing_one_of_two_visible_tabs_leaves_the_player_at_the_board(duel, alice, bob, verified):
    verified(bob)
    began = bob_to_move(duel, alice)
    presence.page_report(bob.pk, "tab-1", visible=True, active_ms_ago=0, now=began - 5)
    presence.page_report(bob.pk, "tab-2", visible=True, active_ms_ago=0, now=began - 4)
    presence.page_closed(bob.pk, "tab-1", now=began - 3)
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "turn").get() == "online"
    assert mail.outbox == []


def test_a_tab_left_open_in_the_background_gets_the_email(duel, alice, bob, verified):
    verified(bob)
    began = bob_to_move(duel, alice)
    presence.page_report(bob.pk, "tab", visible=True, active_ms_ago=0, now=began - 30)
    presence.page_report(bob.pk, "tab", visible=False, active_ms_ago=0, now=began - 20)
    presence.page_report(bob.pk, "tab", visible=False, active_ms_ago=0, now=began + 5)  # a ping
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "turn").get() == "sent"
    assert len(to(bob)) == 1


def test_a_visible_tab_without_input_for_minutes_gets_the_email(duel, alice, bob, verified):
    verified(bob)
    began = bob_to_move(duel, alice)
    idle = (presence.ATTENTION_SECONDS + 60) * 1000
    presence.page_report(bob.pk, "tab", visible=True, active_ms_ago=idle, now=began + 5)
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "turn").get() == "sent"


def test_a_player_who_saw_the_turn_during_the_grace_period_gets_no_email(
    duel, alice, bob, verified
):
    verified(bob)
    began = bob_to_move(duel, alice)
    presence.page_report(bob.pk, "phone", visible=True, active_ms_ago=0, now=began + 10)
    presence.page_closed(bob.pk, "phone", now=began + 20)  # seen, then left
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "turn").get() == "online"


def test_a_player_may_ask_for_emails_even_at_the_board(duel, alice, bob, verified):
    verified(bob)
    type(bob).objects.filter(pk=bob.pk).update(email_when_open=True)
    began = bob_to_move(duel, alice)
    presence.page_report(bob.pk, "tab", visible=True, active_ms_ago=0, now=began + 1)
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "turn").get() == "sent"


def test_the_turn_email_waits_the_grace_period(
    duel, alice, bob, verified, settings, monkeypatch, on_commit
):
    from games import jobs

    settings.TURN_EMAIL_GRACE_SECONDS = 45
    queued = []
    monkeypatch.setattr(jobs, "queue_later", lambda *args, **kw: queued.append(args))
    verified(bob)
    with on_commit():
        first_move(duel, alice)
    assert queued == [("send_turn_email", 45, duel.pk, 1, bob.pk, "turn")]


def test_no_email_about_a_turn_already_played(duel, alice, bob, verified):
    verified(bob)
    first_move(duel, alice)  # queued emails do not run: the test's transaction never commits
    first_move(duel, bob)
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "turn").get() == "played"
    assert mail.outbox == []


def test_the_email_has_text_and_html_the_link_the_local_deadline_and_unsubscribe_headers(
    duel, alice, bob, verified, settings
):
    settings.SITE_URL = "https://blokus.example"
    verified(bob)
    type(bob).objects.filter(pk=bob.pk).update(time_zone="America/New_York")
    first_move(duel, alice)
    Game.objects.filter(pk=duel.pk).update(
        turn_started_at=datetime(2025, 6, 3, 12, 0, tzinfo=UTC), move_seconds=3600
    )
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "turn").get() == "sent"
    (message,) = mail.outbox
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    game_url = f"https://blokus.example/games/{duel.public_id}/"
    deadline = "Tuesday 3 June 2025, 09:00 (America/New_York)"  # 13:00 UTC is 09:00 EDT
    for part in (message.body, html):
        assert game_url in part
        assert deadline in part
        assert "alice" in part  # who else is at the table
    token = emails.unsubscribe_token(bob)
    unsubscribe_url = f"https://blokus.example{reverse('unsubscribe', args=[token])}"
    assert unsubscribe_url in message.body and unsubscribe_url in html
    # As the SMTP backend writes it: on one line, not folded into RFC 2047 encoded words.
    raw = message.message(policy=email.policy.SMTP).as_bytes()
    assert f"\r\nList-Unsubscribe: <{unsubscribe_url}>\r\n".encode() in raw
    assert b"\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n" in raw


def test_the_email_tells_nothing_hidden(duel, alice, bob, verified):
    verified(bob)
    first_move(duel, alice)
    send_turn_email.delay(duel.pk, 1, bob.pk, "turn")
    (message,) = mail.outbox
    duel.refresh_from_db()
    text = (message.subject + message.body + message.alternatives[0][0]).lower()
    assert str(duel.seed) not in text
    state = duel.current_state()
    cards = {card for owner in range(len(state.hands)) for card in state.hands[owner]}
    cards |= {card for owner in range(len(state.piles)) for card in state.piles[owner]}
    assert cards and not any(card in text for card in cards)  # no hand, no pile


# -- unsubscribe ----------------------------------------------------------------------------


def test_the_unsubscribe_link_asks_then_switches_turn_emails_off_without_a_login(bob):
    url = reverse("unsubscribe", args=[emails.unsubscribe_token(bob)])
    client = Client(enforce_csrf_checks=True)  # a mail client has no CSRF token
    page = client.get(url)
    assert page.status_code == 200
    assert b"Stop turn emails" in page.content and b"<form" in page.content
    bob.refresh_from_db()
    assert bob.email_turns == "every"  # GET changes nothing
    done = client.post(url)
    assert done.status_code == 200 and b"no more turn emails" in done.content
    bob.refresh_from_db()
    assert bob.email_turns == "never"


def test_the_unsubscribe_link_supports_rfc_8058_one_click(bob):
    url = reverse("unsubscribe", args=[emails.unsubscribe_token(bob)])
    response = Client(enforce_csrf_checks=True).post(
        url, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    bob.refresh_from_db()
    assert bob.email_turns == "never"


def test_a_tampered_unsubscribe_link_is_refused(alice, bob):
    token = emails.unsubscribe_token(bob)
    signed_for_alice = emails.unsubscribe_token(alice)
    value, signature = token.rsplit(":", 1)
    forged = [
        value + ":" + signature[:-1] + ("A" if signature[-1] != "A" else "B"),
        value.replace(value[0], "x" if value[0] != "x" else "y", 1) + ":" + signature,
        signed_for_alice.rsplit(":", 1)[0] + ":" + signature,
        "nonsense",
    ]
    client = Client()
    for bad in forged:
        url = reverse("unsubscribe", args=[bad])
        assert client.get(url).status_code == 400
        assert client.post(url).status_code == 400
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.email_turns == bob.email_turns == "every"


# -- failures and retries -------------------------------------------------------------------


class FlakyBackend(locmem.EmailBackend):
    """A mail server that fails the first ``failures_left`` sends."""

    failures_left = 0
    attempts = 0

    def send_messages(self, messages):
        FlakyBackend.attempts += 1
        if FlakyBackend.failures_left:
            FlakyBackend.failures_left -= 1
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return super().send_messages(messages)


@pytest.fixture
def flaky(settings, monkeypatch):
    """A flaky mail server, and eager tasks that retry the way a worker does.

    With task_eager_propagates (the project's setting, so that eager tasks fail loudly), the
    Retry that autoretry_for raises propagates out of the first attempt. Without it, eager
    Task.apply() applies the retry signature at once with retries + 1 (no backoff wait), so the
    retry count and max_retries work as on a worker.
    """
    monkeypatch.setitem(send_turn_email.app.conf, "task_eager_propagates", False)
    settings.EMAIL_BACKEND = "tests.games.test_emails.FlakyBackend"
    FlakyBackend.attempts = 0

    def fail(times: int):
        FlakyBackend.failures_left = times

    yield fail
    FlakyBackend.failures_left = 0


def test_a_mail_server_failing_twice_still_delivers_exactly_one_email(
    duel, alice, bob, verified, on_commit, flaky
):
    verified(bob)
    flaky(2)
    with on_commit():
        first_move(duel, alice)
    assert FlakyBackend.attempts == 3
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [bob.email]
    notice = TurnNotice.objects.get()
    assert (notice.status, notice.attempts) == ("sent", 3)
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "turn").get() == "duplicate"
    assert len(mail.outbox) == 1


def test_a_mail_server_that_stays_down_does_not_undo_the_move(
    duel, alice, bob, verified, on_commit, flaky
):
    verified(bob)
    flaky(100)
    with on_commit():
        first_move(duel, alice)  # the email task gives up after 5 retries, and says so in the log
    duel.refresh_from_db()
    assert duel.ply == 1
    assert FlakyBackend.attempts == 6 and mail.outbox == []
    notice = TurnNotice.objects.get()
    assert notice.status == "pending"  # released: a later delivery may still send it
    flaky(0)
    assert send_turn_email.delay(duel.pk, 1, bob.pk, "turn").get() == "sent"
    assert len(mail.outbox) == 1


def test_the_creator_of_a_game_against_the_computer_gets_no_email_the_moment_it_starts(
    alice, verified, settings, monkeypatch, on_commit
):
    from games import jobs
    from games.models import Seat
    from games.services import SeatSpec

    settings.TURN_EMAIL_GRACE_SECONDS = 60
    queued = []
    monkeypatch.setattr(jobs, "queue_later", lambda *args, **kw: queued.append(args))
    verified(alice)
    with on_commit():
        game = services.game_create(
            creator=alice,
            mode="shuffle",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
        )
    assert mail.outbox == []  # not the moment it starts: a grace period later, if she is away
    assert queued == [("send_turn_email", 60, game.pk, 0, alice.pk, "turn")]
    presence.page_report(alice.pk, "the new game's page", visible=True, active_ms_ago=900)
    assert send_turn_email.delay(*queued[0][2:]).get() == "online"
    assert mail.outbox == []
