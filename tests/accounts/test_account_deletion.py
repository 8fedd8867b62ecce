"""Closing and deleting an account (accounts.closing, games.services.accounts_deletion).

Deletion waits DELETION_GRACE_DAYS (a sign-in cancels it), then the hourly sweep removes what is
personal: afterwards no table holds the player's email address, names, chat text, devices or
webhook (a walk over every model's text), while the games other players played still replay and
verify, with "deleted player N" in the seat, and their results and ratings stand. Running games
are resigned (R11.1, R11.2) or handed to the computer, as the player chose."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import models
from django.utils import timezone

from accounts.models import AccountDeletion, Block, DataExport, User, Vacation
from games import engine, services
from games.jobs import accounts as account_jobs
from games.jobs import emails
from games.models import (
    ChatMessage,
    Game,
    ModerationLog,
    NoticeSettings,
    PushSubscription,
    RatingChange,
    Report,
    Seat,
)
from games.selectors.history import record_document
from games.services import accounts_deletion
from games.services.errors import NotAllowed
from tests.support.pages import client_for
from tests.support.records import play
from tests.support.tables import alice_against_bob

PASSWORD = "zq-Password-quartz-77"
SECRETS = {
    "username": "zelda_q",
    "display name": "Zelda Quartz",
    "email": "zelda.quartz@example.org",
    "chat": "meet me at the quartz mine",
    "report": "zq thinks this was unfair",
    "webhook": "zq-hook-secret",
    "device": "zq-device-secret",
}


@pytest.fixture(autouse=True)
def _exports_in_tmp(settings, tmp_path):
    settings.EXPORT_ROOT = tmp_path / "exports"


@pytest.fixture
def zelda(db):
    user = User.objects.create_user(
        SECRETS["username"], SECRETS["email"], PASSWORD, display_name=SECRETS["display name"]
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def _sweep_after_grace():
    return account_jobs.sweep(now=timezone.now() + timedelta(days=8))


def _ask_deletion(user, running_games="resign"):
    client = client_for(None)
    assert client.login(username=user.username, password=PASSWORD)
    response = client.post(
        "/settings/account/delete/", {"password": PASSWORD, "running_games": running_games}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return client


def _text_values(row) -> list[str]:
    out = []
    for field in row._meta.concrete_fields:
        value = getattr(row, field.attname)
        if isinstance(field, models.JSONField):
            out.append(json.dumps(value, ensure_ascii=False))
        elif isinstance(value, str):
            out.append(value)
    if isinstance(row, Session):
        out.append(json.dumps(row.get_decoded(), ensure_ascii=False, default=str))
    return out


def _personal_left(secrets: dict[str, str]) -> list[str]:
    """Every (model, row, what) where a secret still appears in a text or JSON column."""
    found = []
    for model in apps.get_models():
        for row in model._base_manager.all():
            for text in _text_values(row):
                for what, secret in secrets.items():
                    if secret.casefold() in text.casefold():
                        found.append(f"{model._meta.label} #{row.pk}: {what}")
    return found


def _sessions_of(user) -> int:
    return sum(s.get_decoded().get("_auth_user_id") == str(user.pk) for s in Session.objects.all())


def test_nothing_personal_is_left_in_any_table_after_deletion(zelda, bob, dave):
    """A walk over every model's text and JSON columns (sessions decoded) finds none of the
    player's email address, names, chat text, report, webhook or device after deletion."""
    finished_game = alice_against_bob(zelda, bob)
    play(finished_game, seed=4)
    running = alice_against_bob(zelda, bob)
    line = ChatMessage.objects.create(game=finished_game, user=zelda, text=SECRETS["chat"])
    ChatMessage.objects.create(game=running, user=zelda, text=SECRETS["chat"] + " again")
    services.chat_hide(message=line, staff=dave, reason="spam")
    Report.objects.create(reporter=zelda, reported_user=bob, reason=SECRETS["report"])
    Report.objects.create(reporter=bob, reported_user=zelda, reason="zelda_q was rude")
    Block.objects.create(blocker=zelda, blocked=bob)
    Block.objects.create(blocker=bob, blocked=zelda)
    now = timezone.now()
    Vacation.objects.create(user=zelda, starts_at=now - timedelta(days=9), ends_at=now)
    PushSubscription.objects.create(
        user=zelda, endpoint=f"https://push.example.net/{SECRETS['device']}", p256dh="k", auth="a"
    )
    NoticeSettings.objects.create(
        user=zelda, webhook_url=f"https://hooks.example.org/{SECRETS['webhook']}"
    )
    LogEntry.objects.create(
        user=dave,
        content_type=ContentType.objects.get_for_model(User),
        object_id=str(zelda.pk),
        object_repr=str(zelda),
        action_flag=CHANGE,
        change_message="[]",
    )
    client_for(zelda).get("/settings/")  # a session of her own, besides the one below
    client = _ask_deletion(zelda)
    client.post("/settings/data/export/")  # signed out already: nothing is made
    DataExport.objects.create(user=zelda, status=DataExport.Status.READY, file_name="x.zip")
    before = {what: _personal_left({what: secret}) for what, secret in SECRETS.items()}
    assert all(before.values()), before  # each one is somewhere before the deletion
    assert _sessions_of(zelda) == 1

    assert _sweep_after_grace()["deleted"] == 1

    assert _personal_left(SECRETS) == []
    assert _sessions_of(zelda) == 0
    zelda.refresh_from_db()
    assert zelda.deleted_at is not None and not zelda.is_active and not zelda.has_usable_password()
    assert str(zelda) == f"deleted player {zelda.pk}"
    for model in (PushSubscription, NoticeSettings, Vacation, EmailAddress, DataExport):
        assert not model.objects.filter(user=zelda).exists(), model
    assert not Block.objects.filter(blocker=zelda).exists()
    assert not Block.objects.filter(blocked=zelda).exists()
    assert set(ChatMessage.objects.filter(user=zelda).values_list("text", flat=True)) == {
        "(deleted)"
    }
    assert ModerationLog.objects.get(action="hide chat message").target.endswith(": (deleted)")


def test_other_players_games_still_replay_and_verify(zelda, bob, duel):
    """The finished Shuffle game keeps its record: it replays, and its shuffle verifies against
    the commitment; the seat reads "deleted player N"; bob's result and rating stand."""
    game = alice_against_bob(zelda, bob, mode="shuffle")
    play(game, seed=5)
    assert game.status == Game.Status.FINISHED
    bobs_place = game.seats.get(user=bob).final_place
    bobs_changes = list(RatingChange.objects.filter(user=bob).values_list("before", "after"))
    _ask_deletion(zelda)
    _sweep_after_grace()
    game.refresh_from_db()
    record = record_document(game, None)
    assert engine.replay(record).over
    assert engine.verify(record)["ok"], engine.verify(record)
    assert game.seats.get(user=bob).final_place == bobs_place
    assert list(RatingChange.objects.filter(user=bob).values_list("before", "after")) == (
        bobs_changes
    )
    page = client_for(bob).get(f"/games/{game.public_id}/replay/").content.decode()
    assert f"deleted player {zelda.pk}" in page and "Zelda" not in page


def test_running_games_are_resigned_by_default(zelda, bob):
    """R11.1, R11.2: with two players the other wins at once."""
    game = alice_against_bob(zelda, bob)
    _ask_deletion(zelda, "resign")
    _sweep_after_grace()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.seats.get(user=bob).final_place == 1
    assert game.actions.last().payload == {"resign": "blue"}


def test_running_games_go_to_the_computer_when_the_player_chose_so(zelda, bob):
    game = alice_against_bob(zelda, bob, mode="shuffle")
    _ask_deletion(zelda, "computer")
    _sweep_after_grace()
    game.refresh_from_db()
    seat = game.seats.get(index=0)
    assert game.status == Game.Status.ACTIVE and seat.ai_takeover and seat.user_id == zelda.pk


def test_a_seat_in_a_game_not_started_is_given_up(zelda, bob):
    game = services.game_create(
        creator=bob,
        mode="classic",
        players=2,
        seats=[
            services.SeatSpec(Seat.Kind.HUMAN),
            services.SeatSpec(Seat.Kind.INVITED, username=zelda.username),
        ],
    )
    _ask_deletion(zelda)
    _sweep_after_grace()
    assert not game.seats.filter(user=zelda).exists()


def test_a_sign_in_during_the_grace_period_cancels_the_deletion(zelda):
    _ask_deletion(zelda)
    zelda.refresh_from_db()
    assert not zelda.is_active and zelda.closed_at is not None
    deletion = AccountDeletion.objects.get(user=zelda)
    assert deletion.due_at - deletion.requested_at == timedelta(days=7)
    response = client_for(None).post(
        "/accounts/login/", {"login": zelda.username, "password": PASSWORD}, follow=True
    )
    assert "Welcome back" in response.content.decode()
    zelda.refresh_from_db()
    deletion.refresh_from_db()
    assert zelda.is_active and zelda.closed_at is None
    assert deletion.status == AccountDeletion.Status.CANCELLED
    assert _sweep_after_grace()["deleted"] == 0


def test_a_wrong_password_changes_nothing(zelda):
    client = client_for(zelda)
    response = client.post(
        "/settings/account/delete/", {"password": "not it", "running_games": "resign"}
    )
    assert response.status_code == 400 and "password is not right" in response.content.decode()
    zelda.refresh_from_db()
    assert zelda.is_active and not AccountDeletion.objects.exists()


def test_closing_hides_the_profile_and_stops_notices_until_a_sign_in(zelda, bob):
    assert emails.reachable(zelda)
    client = client_for(zelda)
    client.post("/settings/account/close/")
    zelda.refresh_from_db()
    assert not zelda.is_active and zelda.closed_at is not None
    assert client_for(bob).get(f"/players/{zelda.username}/").status_code == 404
    assert not emails.reachable(zelda)  # every notice channel reads is_active
    assert client.get("/settings/").status_code == 302  # signed out
    client_for(None).post("/accounts/login/", {"login": zelda.username, "password": PASSWORD})
    zelda.refresh_from_db()
    assert zelda.is_active and zelda.closed_at is None
    assert client_for(bob).get(f"/players/{zelda.username}/").status_code == 200


def test_a_staff_deactivation_is_not_undone_by_signing_in(zelda, dave):
    services.user_deactivate(user=zelda, staff=dave, reason="abuse")
    client_for(None).post("/accounts/login/", {"login": zelda.username, "password": PASSWORD})
    zelda.refresh_from_db()
    assert not zelda.is_active


def test_a_staff_account_needs_another_staff_member(zelda, dave, make_user):
    User.objects.filter(pk=zelda.pk).update(is_staff=True)
    zelda.refresh_from_db()
    _ask_deletion(zelda)
    deletion = AccountDeletion.objects.get(user=zelda)
    assert _sweep_after_grace()["deleted"] == 0
    with pytest.raises(NotAllowed):
        accounts_deletion.deletion_approve(deletion=deletion, staff=zelda, reason="me")
    with pytest.raises(NotAllowed):
        accounts_deletion.deletion_approve(
            deletion=deletion, staff=make_user("nobody"), reason="not staff"
        )
    accounts_deletion.deletion_approve(deletion=deletion, staff=dave, reason="asked by mail")
    assert _sweep_after_grace()["deleted"] == 1
    zelda.refresh_from_db()
    assert not zelda.is_staff and zelda.deleted_at is not None


def test_a_moderation_hold_pauses_a_deletion(zelda, dave):
    _ask_deletion(zelda)
    deletion = AccountDeletion.objects.get(user=zelda)
    accounts_deletion.deletion_hold(deletion=deletion, staff=dave, reason="open report")
    assert _sweep_after_grace()["deleted"] == 0
    accounts_deletion.deletion_release(deletion=deletion, staff=dave, reason="report closed")
    assert _sweep_after_grace()["deleted"] == 1
    actions = set(ModerationLog.objects.values_list("action", flat=True))
    assert {"hold account deletion", "release account deletion"} <= actions


def test_the_admin_lists_pending_deletions_and_holds_one(zelda, dave):
    _ask_deletion(zelda)
    admin = client_for(dave)
    page = admin.get("/admin/accounts/accountdeletion/")
    assert page.status_code == 200 and str(zelda) in page.content.decode()
    deletion = AccountDeletion.objects.get(user=zelda)
    admin.post(
        "/admin/accounts/accountdeletion/",
        {"action": "hold_deletions", "_selected_action": [deletion.pk], "reason": "a case"},
    )
    deletion.refresh_from_db()
    assert deletion.held_at is not None and deletion.held_by == dave


@pytest.mark.parametrize("name", ["deleted-12", "Deleted player 3", "DELETED_PLAYER_10"])
def test_nobody_may_take_a_name_deletion_gives(zelda, name):
    assert zelda.name_taken(name)
