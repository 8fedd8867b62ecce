"""Web Push and chat webhooks (games.jobs.push), against a stub push service and a
stub webhook receiver: the notice arrives encrypted for the device and says only the game's
title and link (R9); it replaces the email; none goes to a player whose page is open; a device
its push service forgot is dropped; a push service that is down makes the task retry."""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.test import override_settings

from games import services
from games.jobs import push
from games.live import presence
from games.models import DeviceNotice, NoticeSettings, PushSubscription, Seat
from games.services import SeatSpec
from tests.support import push_stub
from tests.support.pages import client_for
from tests.support.tables import alice_against_bob

pytestmark = pytest.mark.usefixtures("vapid_keys")


def subscribe(user, stub, name="phone") -> push_stub.Device:
    device = push_stub.Device(f"{stub.url}/push/{name}")
    response = client_for(user).post(
        "/settings/notifications/subscribe/",
        json.dumps(device.subscription()),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return device


def first_move(game, alice):
    services.action_submit(game=game, user=alice, action={"place": "a1"}, expected_ply=0)


def test_a_turn_notice_reaches_the_device_encrypted_and_says_nothing_secret(
    alice, bob, stub, verified, on_commit
):
    verified(bob)
    device = subscribe(bob, stub)
    game = alice_against_bob(alice, bob, mode="shuffle")
    with on_commit():
        first_move(game, alice)  # bob's turn: his phone is told, not his inbox
    (received,) = stub.on("/push/phone")
    assert received.headers["authorization"].startswith("vapid t=")
    assert f"k={push.public_key()}" in received.headers["authorization"]
    notice = device.read(received)
    assert notice["body"].startswith("Your turn: alice vs bob · Shuffle")
    assert notice["url"].endswith(f"/games/{game.public_id}/")
    text = json.dumps(notice)
    game.refresh_from_db()
    state = game.current_state()
    for secret in [game.seed, game.salt, *state.hands[1]]:
        assert secret not in text  # R9: no seed, salt or card of any hand
    assert not [m for m in mail.outbox if m.to == [bob.email]]  # instead of the email
    assert DeviceNotice.objects.get(user=bob).status == "sent"


def test_a_player_whose_page_is_open_gets_no_push(alice, bob, stub, on_commit):
    subscribe(bob, stub)
    presence.page_report(bob.pk, "tab", visible=True, active_ms_ago=0)  # at the board
    game = alice_against_bob(alice, bob, mode="shuffle")
    with on_commit():
        first_move(game, alice)
    assert stub.on("/push/") == []
    assert push.deliver(game_id=game.pk, ply=1, user_id=bob.pk, kind="turn", channel="push") == (
        "online"
    )


def test_without_a_device_the_email_goes_out_as_before(alice, bob, verified, on_commit):
    verified(bob)
    game = alice_against_bob(alice, bob, mode="shuffle")
    with on_commit():
        first_move(game, alice)
    assert [m for m in mail.outbox if m.to == [bob.email]]


def test_a_notice_is_sent_once_however_often_the_task_runs(alice, bob, stub, on_commit):
    subscribe(bob, stub)
    game = alice_against_bob(alice, bob, mode="shuffle")
    with on_commit():
        first_move(game, alice)
    again = push.deliver(game_id=game.pk, ply=1, user_id=bob.pk, kind="turn", channel="push")
    assert again == "duplicate" and len(stub.on("/push/")) == 1


def test_a_device_its_push_service_forgot_is_dropped(alice, bob, stub, on_commit):
    subscribe(bob, stub)
    stub.answers.append(410)
    game = alice_against_bob(alice, bob, mode="shuffle")
    with on_commit():
        first_move(game, alice)
    assert not PushSubscription.objects.filter(user=bob).exists()


def test_a_push_service_that_is_down_makes_the_task_retry(alice, bob, stub):
    subscribe(bob, stub)
    game = alice_against_bob(alice, bob, mode="shuffle")
    first_move(game, alice)
    stub.answers.append(503)
    with pytest.raises(push.Failed):
        push.deliver(game_id=game.pk, ply=1, user_id=bob.pk, kind="turn", channel="push")
    # The claim was released: the retry sends it.
    assert push.deliver(game_id=game.pk, ply=1, user_id=bob.pk, kind="turn", channel="push") == (
        "sent"
    )


def test_invitation_and_game_over_notices(alice, bob, stub, on_commit):
    device = subscribe(bob, stub)
    with on_commit():
        game = services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        )
    (invite,) = stub.on("/push/phone")
    assert device.read(invite)["body"].startswith("alice invites you to a game")
    services.game_join(game=game, user=bob)
    from games.services.resign import game_resign

    for corner, user in (("a1", alice), ("t1", bob), ("t20", alice)):
        game.refresh_from_db()
        services.action_submit(
            game=game, user=user, action={"place": corner}, expected_ply=game.ply
        )
    with on_commit():
        game_resign(game=game, user=alice)
    bodies = [device.read(r)["body"] for r in stub.on("/push/phone")]
    assert any(b.startswith("Game over: alice vs bob · Classic") for b in bodies)


def test_the_players_preferences_decide(alice, bob, stub, on_commit):
    subscribe(bob, stub)
    NoticeSettings.objects.create(user=bob, turn=False)
    game = alice_against_bob(alice, bob, mode="shuffle")
    with on_commit():
        first_move(game, alice)
    assert stub.on("/push/") == []


def test_a_webhook_gets_a_discord_and_slack_compatible_message(alice, bob, stub, on_commit):
    response = client_for(bob).post(
        "/settings/notifications/",
        {"turn": "on", "invite": "on", "over": "on", "webhook_url": f"{stub.url}/hook"},
    )
    assert response.status_code == 302
    game = alice_against_bob(alice, bob, mode="shuffle")
    with on_commit():
        first_move(game, alice)
    (received,) = stub.on("/hook")
    message = json.loads(received.body)
    assert message["content"] == message["text"]  # Discord reads one, Slack the other
    assert message["content"].startswith("Your turn:")
    assert f"/games/{game.public_id}/" in message["content"]


@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_a_webhook_must_be_https_and_bad_subscriptions_are_refused(bob):
    response = client_for(bob).post(
        "/settings/notifications/", {"turn": "on", "webhook_url": "http://example.com/hook"}
    )
    assert response.status_code == 400 and "https://" in response.content.decode()
    bad = client_for(bob).post(
        "/settings/notifications/subscribe/",
        json.dumps({"endpoint": "ftp://x", "keys": {"p256dh": "a", "auth": "b"}}),
        content_type="application/json",
    )
    assert bad.status_code == 400 and not PushSubscription.objects.exists()
    assert not NoticeSettings.objects.exists()


def test_the_notifications_page_the_service_worker_and_the_manifest(client, bob):
    page = client_for(bob).get("/settings/notifications/").content.decode()
    assert f'data-key="{push.public_key()}"' in page and "Turn on for this device" in page
    worker = client.get("/sw.js")
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/"
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone"
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}


@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_no_notice_goes_to_an_address_inside_the_sites_network(alice, bob, stub):
    """SSRF: a webhook or a push endpoint on a local address is never called."""
    NoticeSettings.objects.create(user=bob, webhook_url=f"{stub.url}/hook")
    device = push_stub.Device(f"{stub.url}/push/phone")
    PushSubscription.objects.create(
        user=bob, endpoint=device.endpoint, p256dh=device.p256dh, auth=device.auth
    )
    game = alice_against_bob(alice, bob, mode="shuffle")
    first_move(game, alice)
    for channel in ("push", "webhook"):
        push.deliver(game_id=game.pk, ply=1, user_id=bob.pk, kind="turn", channel=channel)
    assert stub.received == []
    assert not push.outside("https://127.0.0.1/hook") and not push.outside("https://10.0.0.1/")


def subscribe_as(user, device: push_stub.Device):
    return client_for(user).post(
        "/settings/notifications/subscribe/",
        json.dumps(device.subscription()),
        content_type="application/json",
    )


def test_a_key_too_long_for_its_column_is_a_400_not_a_server_error(bob, stub):
    """The auth secret is 16 bytes (22 characters); a column of 100 refused a longer one with a
    database error on PostgreSQL (a 500)."""
    for keys in ({"auth": "A" * 101}, {"p256dh": "B" * 201}):
        device = push_stub.Device(f"{stub.url}/push/long").subscription()
        device["keys"].update(keys)
        response = client_for(bob).post(
            "/settings/notifications/subscribe/",
            json.dumps(device),
            content_type="application/json",
        )
        assert response.status_code == 400, response.content
        assert "keys are missing or malformed" in response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_another_account_cannot_take_a_device_over_nor_delete_it(alice, bob, carol, stub):
    """A device belongs to the account that turned it on: carol, who learnt the endpoint of
    bob's phone, neither moves it to her account nor turns it off."""
    device = subscribe(bob, stub)
    taken = subscribe_as(carol, device)
    assert taken.status_code == 409
    assert "another account" in taken.json()["error"]
    client_for(carol).post(
        "/settings/notifications/unsubscribe/",
        json.dumps({"endpoint": device.endpoint}),
        content_type="application/json",
    )
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]
    # Once bob has turned it off, the device is free for another account.
    client_for(bob).post(
        "/settings/notifications/unsubscribe/",
        json.dumps({"endpoint": device.endpoint}),
        content_type="application/json",
    )
    assert subscribe_as(carol, device).status_code == 200
    assert PushSubscription.objects.get().user == carol


def test_an_account_has_a_handful_of_devices_at_most(bob, stub):
    from games.services.devices import MAX_DEVICES

    for n in range(MAX_DEVICES):
        subscribe(bob, stub, name=f"device-{n}")
    again = subscribe(bob, stub, name="device-0")  # a device already on: its keys renewed
    assert again.endpoint.endswith("/device-0")
    refused = subscribe_as(bob, push_stub.Device(f"{stub.url}/push/one-more"))
    assert refused.status_code == 429
    assert f"notifications are on for {MAX_DEVICES} devices" in refused.json()["error"]
    assert PushSubscription.objects.filter(user=bob).count() == MAX_DEVICES


def test_every_device_is_sent_to_at_once(alice, bob, stub):
    """Three devices on a push service that answers nobody until all three have asked: they
    are sent to at the same time (one after the other, the first would wait for ever)."""
    import threading

    for n in range(3):
        subscribe(bob, stub, name=f"device-{n}")
    everyone = threading.Barrier(3, timeout=5)
    met = []

    def answer_once_all_have_asked(received):
        try:
            everyone.wait()
            met.append(received.path)
        except threading.BrokenBarrierError:
            pass

    stub.before_answer = answer_once_all_have_asked
    game = alice_against_bob(alice, bob, mode="shuffle")
    first_move(game, alice)
    push.deliver(game_id=game.pk, ply=1, user_id=bob.pk, kind="turn", channel="push")
    assert sorted(met) == [f"/push/device-{n}" for n in range(3)]


def test_a_slow_push_service_holds_the_notice_no_longer_than_the_deadline(
    alice, bob, stub, monkeypatch
):
    import threading
    import time

    monkeypatch.setattr(push, "DEVICES_DEADLINE", 1.0, raising=False)
    subscribe(bob, stub, name="quick")
    subscribe(bob, stub, name="stuck")
    release = threading.Event()
    stub.before_answer = lambda received: received.path.endswith("stuck") and release.wait(8)
    game = alice_against_bob(alice, bob, mode="shuffle")
    first_move(game, alice)
    started = time.monotonic()
    try:
        outcome = push.deliver(game_id=game.pk, ply=1, user_id=bob.pk, kind="turn", channel="push")
    finally:
        release.set()
    assert time.monotonic() - started < 4  # not the stuck service's 8 s, nor 10 s a device
    assert outcome == "sent"  # the quick device has it: no retry that would send it twice


def test_push_and_webhook_tasks_go_to_the_notices_queue_not_the_computers(settings):
    """A push service that takes its time must not hold up the computer's turns: the notices
    have a queue of their own (read by a worker of its own, README)."""
    from celery import Celery

    # The router the configuration makes, in an app of its own: the process's app is the one
    # the worker tests route to their own queues for a while (tests/integration/conftest.py).
    app = Celery("routes")
    app.config_from_object("django.conf:settings", namespace="CELERY")
    default = app.conf.task_default_queue
    for task in (
        "games.tasks.send_push",
        "games.tasks.send_webhook",
        "games.tasks.send_test_notice",
    ):
        route = app.amqp.router.route({}, task)
        assert route["queue"].name == settings.NOTICES_QUEUE != default
    assert app.amqp.router.route({}, "games.tasks.ai_play")["queue"].name == default
