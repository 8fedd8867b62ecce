"""The admin: dave (staff) moderates alice and bob's duel through admin actions that call the
services; each action needs a reason and writes one ModerationLog row."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.admin import ActionInline, ReasonActionForm, deactivate_users
from games.models import Action, ChatMessage, Game, ModerationLog, Report, Seat

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def staff(dave) -> Client:
    client = Client()
    client.force_login(dave)
    return client


@pytest.fixture
def rude_line(duel, bob) -> ChatMessage:
    return ChatMessage.objects.create(game=duel, user=bob, text="you play like a toaster")


@pytest.fixture
def user_admin_with_deactivate():
    """The User admin offers deactivation with a reason (accounts/admin.py)."""
    user_admin = admin.site._registry[User]
    assert deactivate_users in user_admin.actions
    assert user_admin.action_form is ReasonActionForm
    return user_admin


def changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def run_action(client: Client, model, action: str, pks, reason: str | None, **extra):
    data = {"action": action, "_selected_action": [str(pk) for pk in pks], "index": "0", **extra}
    if reason is not None:
        data["reason"] = reason
    return client.post(changelist(model), data, follow=True)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def the_log(dave, action: str, target_part: str, reason: str) -> None:
    log = ModerationLog.objects.get()
    assert log.staff == dave
    assert log.action == action
    assert target_part in log.target
    assert log.reason == reason


# -- each action: its effect and one log row --------------------------------------------------


def test_abort_game(staff, duel, dave):
    response = run_action(staff, Game, "abort_games", [duel.pk], "players asked for it")

    assert response.status_code == 200
    duel.refresh_from_db()
    assert duel.status == Game.Status.ABORTED
    assert duel.abort_reason == "players asked for it"
    the_log(dave, "abort game", duel.public_id, "players asked for it")
    assert any("Games aborted: 1" in m for m in messages_of(response))


def test_aborting_a_finished_game_is_refused_with_a_message(staff, duel, dave):
    services.game_abort(game=duel, staff=dave, reason="first")

    response = run_action(staff, Game, "abort_games", [duel.pk], "again")

    assert ModerationLog.objects.count() == 1
    assert any("already over" in m for m in messages_of(response))


def test_hand_a_seat_to_the_computer(staff, duel, bob, dave):
    seat = duel.seats.get(user=bob)

    run_action(staff, Seat, "hand_to_ai", [seat.pk], "bob vanished", level="expert")

    seat.refresh_from_db()
    assert seat.ai_takeover and seat.ai_level == Seat.Level.EXPERT
    assert seat.user == bob  # the seat keeps its player for the record
    the_log(dave, "hand seat to AI", duel.public_id, "bob vanished")


def test_an_open_seat_is_not_handed_to_the_computer(staff, alice, dave):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[services.SeatSpec(Seat.Kind.HUMAN), services.SeatSpec(Seat.Kind.OPEN)],
    )
    seat = game.seats.get(kind=Seat.Kind.OPEN)

    response = run_action(staff, Seat, "hand_to_ai", [seat.pk], "test")

    seat.refresh_from_db()
    assert not seat.ai_takeover
    assert not ModerationLog.objects.exists()
    assert any("not a player's seat" in m for m in messages_of(response))


def test_hide_a_chat_message(staff, rude_line, dave):
    run_action(staff, ChatMessage, "hide_messages", [rude_line.pk], "insult")

    rude_line.refresh_from_db()
    assert rude_line.hidden
    the_log(dave, "hide chat message", f"#{rude_line.pk}", "insult")


@pytest.mark.parametrize(
    ("action", "status"),
    [("resolve_reports", Report.Status.RESOLVED), ("dismiss_reports", Report.Status.DISMISSED)],
)
def test_resolve_or_dismiss_a_report(staff, rude_line, alice, dave, action, status):
    filed = Report.objects.create(
        reporter=alice, reported_user=rude_line.user, message=rude_line, reason="rude"
    )

    run_action(staff, Report, action, [filed.pk], "looked into it")

    filed.refresh_from_db()
    assert filed.status == status
    the_log(dave, f"report {status}", "alice", "looked into it")


def test_a_closed_report_is_not_closed_again(staff, alice, bob, dave):
    filed = Report.objects.create(reporter=alice, reported_user=bob, reason="rude")
    services.report_resolve(report=filed, staff=dave, status=Report.Status.DISMISSED, reason="x")

    run_action(staff, Report, "resolve_reports", [filed.pk], "again")

    filed.refresh_from_db()
    assert filed.status == Report.Status.DISMISSED
    assert ModerationLog.objects.count() == 1


def test_deactivate_users(staff, user_admin_with_deactivate, carol, dave):
    run_action(staff, User, "deactivate_users", [carol.pk], "spam account")

    carol.refresh_from_db()
    assert not carol.is_active
    the_log(dave, "deactivate user", "carol", "spam account")


def test_staff_cannot_deactivate_themselves(staff, user_admin_with_deactivate, dave):
    run_action(staff, User, "deactivate_users", [dave.pk], "oops")

    dave.refresh_from_db()
    assert dave.is_active
    assert not ModerationLog.objects.exists()


# -- no reason, no change ---------------------------------------------------------------------


@pytest.mark.parametrize("reason", [None, "", "   ", "x" * 501])
def test_without_a_reason_nothing_changes(
    staff, duel, bob, carol, rude_line, user_admin_with_deactivate, reason
):
    filed = Report.objects.create(reporter=carol, reported_user=bob, reason="rude")
    seat = duel.seats.get(user=bob)
    cases = [
        (Game, "abort_games", duel.pk),
        (Seat, "hand_to_ai", seat.pk),
        (ChatMessage, "hide_messages", rude_line.pk),
        (Report, "resolve_reports", filed.pk),
        (Report, "dismiss_reports", filed.pk),
        (User, "deactivate_users", carol.pk),
    ]

    for model, action, pk in cases:
        response = run_action(staff, model, action, [pk], reason)
        assert response.status_code == 200
        assert any("needs a reason" in m or "at most 500" in m for m in messages_of(response)), (
            model,
            messages_of(response),
        )

    duel.refresh_from_db()
    seat.refresh_from_db()
    rude_line.refresh_from_db()
    filed.refresh_from_db()
    carol.refresh_from_db()
    assert duel.status == Game.Status.ACTIVE
    assert not seat.ai_takeover
    assert not rude_line.hidden
    assert filed.status == Report.Status.OPEN
    assert carol.is_active
    assert not ModerationLog.objects.exists()


def test_the_reason_field_sits_next_to_the_action_selector(staff, duel):
    page = staff.get(changelist(Game)).content.decode()

    assert 'name="reason"' in page and 'name="action"' in page
    assert "abort_games" in page
    assert "delete_selected" not in page  # nothing is deleted from here


# -- who may come in --------------------------------------------------------------------------


@pytest.mark.parametrize("model", [Game, Seat, ChatMessage, Report, ModerationLog])
def test_a_player_is_sent_to_the_admin_login(alice, model):
    client = Client()
    client.force_login(alice)

    response = client.get(changelist(model))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_a_players_action_post_changes_nothing(alice, duel):
    client = Client()
    client.force_login(alice)

    response = client.post(
        changelist(Game),
        {"action": "abort_games", "_selected_action": [duel.pk], "reason": "mine", "index": "0"},
    )

    assert response.status_code == 302
    duel.refresh_from_db()
    assert duel.status == Game.Status.ACTIVE
    assert not ModerationLog.objects.exists()


def test_csrf_is_enforced_on_admin_actions(dave, duel):
    client = Client(enforce_csrf_checks=True)
    client.force_login(dave)

    response = client.post(
        changelist(Game),
        {"action": "abort_games", "_selected_action": [duel.pk], "reason": "x", "index": "0"},
    )

    assert response.status_code == 403
    duel.refresh_from_db()
    assert duel.status == Game.Status.ACTIVE


# -- what the pages show ----------------------------------------------------------------------


def play_one_move(game: Game, *users) -> None:
    state = game.current_state()
    seat = game.seats.get(index=state.controller())
    user = next(u for u in users if u.pk == seat.user_id)
    action = engine.legal_actions(state)[0]
    services.action_submit(game=game, user=user, action=action, expected_ply=game.ply)
    game.refresh_from_db()


def test_the_game_pages_never_show_a_running_games_seed_or_state(staff, duel, alice, bob):
    play_one_move(duel, alice, bob)
    assert duel.seed is not None

    change = staff.get(reverse("admin:games_game_change", args=[duel.pk]))
    listing = staff.get(changelist(Game))

    for response in (change, listing):
        page = response.content.decode()
        assert response.status_code == 200
        assert duel.public_id in page
        assert str(duel.seed) not in page
        assert "draw_piles" not in page and "hands" not in page
        assert duel.invite_token not in page


def test_a_finished_games_seed_and_state_are_shown(staff, duel, dave):
    services.game_abort(game=duel, staff=dave, reason="over")

    page = staff.get(reverse("admin:games_game_change", args=[duel.pk])).content.decode()

    assert str(duel.seed) in page
    assert "draw_piles" in page


def test_the_game_page_lists_seats_and_a_read_only_record(staff, duel, alice, bob):
    play_one_move(duel, alice, bob)
    action = Action.objects.get()

    page = staff.get(reverse("admin:games_game_change", args=[duel.pk])).content.decode()

    assert "alice" in page and "bob" in page
    assert str(action.payload[next(iter(action.payload))]) in page
    for field in ("ply", "seat", "payload", "events", "DELETE"):  # shown, never editable
        assert f'name="actions-0-{field}"' not in page
    assert 'name="actions-1-' not in page  # no blank row to add one
    assert 'name="seats-0-kind"' not in page and 'name="seats-0-user"' not in page
    assert 'name="_save"' not in page  # the game itself is not edited here


def test_the_action_inline_has_no_add_change_or_delete(rf, dave, duel):
    inline = ActionInline(Game, admin.site)
    request = rf.get("/")
    request.user = dave

    assert not inline.has_add_permission(request, duel)
    assert not inline.has_change_permission(request, duel)
    assert not inline.has_delete_permission(request, duel)
    assert inline.has_view_permission(request, duel)


@pytest.mark.parametrize("model", [Game, Seat, ChatMessage, Report, ModerationLog])
def test_nothing_is_added_or_edited_by_hand(staff, model):
    response = staff.get(reverse(f"admin:games_{model._meta.model_name}_add"))

    assert response.status_code == 403


def test_the_moderation_log_is_read_only(staff, duel, dave):
    services.game_abort(game=duel, staff=dave, reason="test")
    log = ModerationLog.objects.get()
    url = reverse("admin:games_moderationlog_change", args=[log.pk])

    page = staff.get(url)
    edit = staff.post(url, {"reason": "rewritten"})
    delete = staff.post(reverse("admin:games_moderationlog_delete", args=[log.pk]), {"post": "yes"})

    assert page.status_code == 200 and b"test" in page.content
    assert b'name="_save"' not in page.content
    assert edit.status_code == 403 and delete.status_code == 403
    log.refresh_from_db()
    assert log.reason == "test"
    listing = staff.get(changelist(ModerationLog)).content.decode()
    assert 'name="action"' not in listing  # no actions at all


def test_the_report_queue_puts_open_reports_first(staff, alice, bob, carol, dave):
    older_open = Report.objects.create(reporter=alice, reported_user=bob, reason="a")
    closed = Report.objects.create(reporter=carol, reported_user=bob, reason="b")
    services.report_resolve(report=closed, staff=dave, status=Report.Status.DISMISSED, reason="x")
    newer_open = Report.objects.create(reporter=carol, reported_user=alice, reason="c")

    response = staff.get(changelist(Report))

    assert list(response.context["cl"].result_list) == [newer_open, older_open, closed]


def test_the_game_list_searches_by_username(staff, duel, alice):
    other = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[services.SeatSpec(Seat.Kind.HUMAN), services.SeatSpec(Seat.Kind.OPEN)],
    )

    by_name = staff.get(changelist(Game) + "?q=bob")
    by_id = staff.get(changelist(Game) + f"?q={other.public_id}")

    assert list(by_name.context["cl"].result_list) == [duel]
    assert list(by_id.context["cl"].result_list) == [other]
