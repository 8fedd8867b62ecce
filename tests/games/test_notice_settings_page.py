"""Settings > Notifications explains itself and lets each channel be tried: one switch per
device (games.services.devices.device_switch; games.jobs.push skips a device switched off), a
test notice to a device or to the chat webhook that goes the way real notices go (the notices'
task, config/outbound.py) against the stub push service and webhook (tests/support/push_stub.py),
its outcome recorded and shown, a few a minute; another player's device is a 404."""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.test import override_settings

from games import services
from games.jobs import push
from games.models import DeviceNotice, NoticeSettings, NoticeTest, PushSubscription
from games.services.devices import TEST_NOTICES_PER_MINUTE
from tests.support import push_stub
from tests.support.pages import client_for
from tests.support.tables import alice_against_bob

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("vapid_keys")]

JSON = {"HTTP_ACCEPT": "application/json"}
PAGE = "/settings/notifications/"
ANDROID_FIREFOX = "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0"


def subscribe(user, stub, name="phone", agent="") -> tuple[push_stub.Device, PushSubscription]:
    device = push_stub.Device(f"{stub.url}/push/{name}")
    response = client_for(user).post(
        "/settings/notifications/subscribe/",
        json.dumps(device.subscription()),
        content_type="application/json",
        HTTP_USER_AGENT=agent,
    )
    assert response.status_code == 200, response.content
    return device, PushSubscription.objects.get(endpoint=device.endpoint)


def switch(user, row: PushSubscription, on: bool):
    return client_for(user).post(
        f"/settings/notifications/devices/{row.pk}/", {"enabled": "1" if on else "0"}
    )


@pytest.fixture
def send_test(on_commit):
    """POST a test notice as the page's script does, and run what the commit queues (the
    notices' task, eager in the tests); the answer is then asked for again as the script asks."""

    def send(user, **data):
        with on_commit():
            response = client_for(user).post("/settings/notifications/test/", data, **JSON)
        return response

    return send


def outcome(user, response) -> dict:
    assert response.status_code == 202, response.content
    return client_for(user).get(response.json()["url"], **JSON).json()


# -- one switch per device ---------------------------------------------------------------------


def test_a_device_switched_off_is_told_nothing_while_the_others_are(alice, bob, stub, on_commit):
    _phone, phone = subscribe(bob, stub, "phone")
    _laptop, laptop = subscribe(bob, stub, "laptop")
    assert switch(bob, laptop, on=False).status_code == 302
    game = alice_against_bob(alice, bob, mode="shuffle")
    with on_commit():
        services.action_submit(game=game, user=alice, action={"place": "a1"}, expected_ply=0)
    assert len(stub.on("/push/phone")) == 1 and stub.on("/push/laptop") == []
    assert PushSubscription.objects.get(pk=laptop.pk).enabled is False
    assert PushSubscription.objects.get(pk=phone.pk).enabled is True


def test_with_every_device_switched_off_the_email_comes_back(alice, bob, stub, verified, on_commit):
    verified(bob)
    _device, row = subscribe(bob, stub)
    switch(bob, row, on=False)
    game = alice_against_bob(alice, bob, mode="shuffle")
    with on_commit():
        services.action_submit(game=game, user=alice, action={"place": "a1"}, expected_ply=0)
    assert stub.on("/push/") == []
    assert [m for m in mail.outbox if m.to == [bob.email]]  # no device stands in for it now
    switch(bob, row, on=True)
    assert push.replaces_email(bob, "turn")


def test_switching_another_player_s_device_is_a_404_and_changes_nothing(alice, bob, stub):
    _device, row = subscribe(bob, stub)
    assert switch(alice, row, on=False).status_code == 404
    assert PushSubscription.objects.get(pk=row.pk).enabled is True


def test_a_device_is_named_by_its_browser_and_system(bob, stub):
    _device, row = subscribe(bob, stub, agent=ANDROID_FIREFOX)
    assert row.label == "Firefox on Android"
    page = client_for(bob).get(PAGE).content.decode()
    assert "Firefox on Android" in page and "Switch off" in page


# -- test notices ------------------------------------------------------------------------------


def test_a_test_push_reaches_that_device_only_and_reports_it_sent(bob, stub, send_test):
    phone, row = subscribe(bob, stub, "phone")
    subscribe(bob, stub, "laptop")
    response = send_test(bob, channel="push", device=row.pk)
    assert response.json()["text"] == "Sending the test…"  # the worker has it
    answer = outcome(bob, response)
    assert answer["done"] and answer["status"] == "sent"
    assert answer["text"].startswith("Sent:")
    (received,) = stub.on("/push/")
    assert received.path == "/push/phone"
    notice = phone.read(received)  # encrypted for the device, as a real notice
    assert "test notice" in notice["body"] and notice["url"].endswith(PAGE)
    assert answer["text"] in client_for(bob).get(PAGE).content.decode()  # shown on the page


def test_a_test_to_another_player_s_device_is_a_404_and_sends_nothing(alice, bob, stub, send_test):
    _device, row = subscribe(bob, stub)
    response = send_test(alice, channel="push", device=row.pk)
    assert response.status_code == 404
    assert not NoticeTest.objects.exists() and stub.received == []
    form = client_for(alice).post(
        "/settings/notifications/test/", {"channel": "push", "device": row.pk}
    )
    assert form.status_code == 404 and not NoticeTest.objects.exists()


def test_nobody_reads_another_player_s_test(alice, bob, stub, send_test):
    _device, row = subscribe(bob, stub)
    answer = send_test(bob, channel="push", device=row.pk).json()
    assert client_for(alice).get(answer["url"], **JSON).status_code == 404


def test_a_switched_off_device_is_not_tested(bob, stub, send_test):
    _device, row = subscribe(bob, stub)
    switch(bob, row, on=False)
    response = send_test(bob, channel="push", device=row.pk)
    assert response.status_code == 409 and "switched off" in response.json()["error"]
    assert not NoticeTest.objects.exists() and stub.received == []


def test_test_notices_are_limited_to_a_few_a_minute(bob, stub, send_test):
    _device, row = subscribe(bob, stub)
    for _ in range(TEST_NOTICES_PER_MINUTE):
        assert send_test(bob, channel="push", device=row.pk).status_code == 202
    refused = send_test(bob, channel="push", device=row.pk)
    assert refused.status_code == 429
    assert f"{TEST_NOTICES_PER_MINUTE} test notices a minute" in refused.json()["error"]
    assert NoticeTest.objects.count() == TEST_NOTICES_PER_MINUTE
    assert len(stub.on("/push/")) == TEST_NOTICES_PER_MINUTE


def test_a_webhook_test_goes_out_and_its_error_is_reported(bob, stub, send_test):
    NoticeSettings.objects.create(user=bob, webhook_url=f"{stub.url}/hook")
    stub.answers = [503]
    failed = outcome(bob, send_test(bob, channel="webhook"))
    assert failed["status"] == "failed" and "503" in failed["text"]
    assert failed["text"] in client_for(bob).get(PAGE).content.decode()
    stub.answers = [204]
    sent = outcome(bob, send_test(bob, channel="webhook"))
    assert sent["status"] == "sent"
    message = json.loads(stub.on("/hook")[-1].body)
    assert "test notice" in message["content"] and message["content"] == message["text"]


@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_a_webhook_test_is_held_to_the_outbound_checks(bob, stub, send_test):
    """A webhook whose address has become a local one since it was saved (its DNS changed):
    the test is refused by config/outbound.py like any notice, and the page says why."""
    NoticeSettings.objects.create(user=bob, webhook_url=f"https://127.0.0.1:{stub.port}/hook")
    answer = outcome(bob, send_test(bob, channel="webhook"))
    assert answer["status"] == "refused" and "not on the public internet" in answer["text"]
    assert stub.received == []


def test_a_webhook_test_needs_a_webhook(bob, send_test):
    response = send_test(bob, channel="webhook")
    assert response.status_code == 409 and "webhook" in response.json()["error"]
    assert not NoticeTest.objects.exists()


def test_the_webhook_s_last_delivery_error_shows_until_a_test_goes_through(
    alice, bob, stub, send_test
):
    NoticeSettings.objects.create(user=bob, webhook_url=f"{stub.url}/hook")
    game = alice_against_bob(alice, bob, mode="shuffle")
    services.action_submit(game=game, user=alice, action={"place": "a1"}, expected_ply=0)
    stub.answers = [404]
    push.deliver(game_id=game.pk, ply=1, user_id=bob.pk, kind="turn", channel="webhook")
    assert DeviceNotice.objects.get(user=bob).status == "refused"
    page = client_for(bob).get(PAGE).content.decode()
    assert "The last notice to your chat webhook was refused" in page and "404" in page
    send_test(bob, channel="webhook")  # fixed: the stub answers 201 again
    page = client_for(bob).get(PAGE).content.decode()
    assert "The last notice to your chat webhook was refused" not in page


# -- the page explains itself ------------------------------------------------------------------


def test_the_page_says_what_happens(bob):
    page = client_for(bob).get(PAGE).content.decode()
    assert "the browser asks whether this site may show them" in page
    assert "add the site to the home screen first" in page  # an iPhone
    assert "instead of an email of the same news" in page
    assert "while a page of the site is open" in page


def test_each_box_says_whether_it_also_governs_emails(bob):
    page = client_for(bob).get(PAGE).content.decode()
    form = page

    def help_of(box: str) -> str:
        start = form.index(f'id="id_{box}_helptext"')
        return form[start : form.index("</div>", start)]

    for box in ("turn", "invite"):  # their emails follow the turn emails setting
        assert "Not the emails" in help_of(box)
    assert "never emailed" in help_of("over")
    for box in ("resigned", "takeback", "matched", "round"):
        assert "and by email" in help_of(box)
