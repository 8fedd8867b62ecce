"""Players' addresses never make the site call its own network (config/outbound.py).

A webhook or a push endpoint is a URL a player gives: the worker POSTs to it. Checking its host
once and then letting an HTTP client connect left two ways into the site's network: a push
service answering ``307`` to ``http://127.0.0.1:...`` (the client followed it, POST and body
included), and a name whose DNS answers a public address to the check and the loopback to the
connection (DNS rebinding). Now the name is resolved once, the connection goes to the checked
address, and no redirect is followed. A private address is refused when it is saved, with the
reason; one refused when a notice is sent (saved before this check) is recorded as refused and
shown on the Notifications page.

The tests stand in for DNS and the internet (``network``): names resolve as a test says, and a
connection to a made-up public address reaches a stub server on the loopback. The site's own
network is another stub (``inside``) on 127.0.0.1."""

from __future__ import annotations

import json
import socket

import pytest
import requests
from django.test import override_settings

from config import outbound
from games import services
from games.jobs import push
from games.models import DeviceNotice, NoticeSettings, PushSubscription, Seat
from games.services import SeatSpec
from games.services.devices import webhook_refusal
from tests.support import push_stub
from tests.support.pages import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("vapid_keys")]

PUBLIC = "93.184.216.34"  # a public address: the network below routes it to a stub


class Network:
    """Names and routes the test decides. ``names[host]``: the answers of successive lookups
    (the last one stays); ``routes[(address, port)]``: where a connection there really goes."""

    def __init__(self):
        self.names: dict[str, list[str]] = {}
        self.routes: dict[tuple[str, int], tuple[str, int]] = {}
        self.lookups: list[str] = []


@pytest.fixture
def network(monkeypatch) -> Network:
    net = Network()
    real_lookup = socket.getaddrinfo
    real_connect = socket.socket.connect

    def getaddrinfo(host, port, *args, **kwargs):
        answers = net.names.get(host)
        if answers:
            net.lookups.append(host)
            host = answers.pop(0) if len(answers) > 1 else answers[0]
        return real_lookup(host, port, *args, **kwargs)

    def connect(sock, address):
        return real_connect(sock, net.routes.get(tuple(address[:2]), address))

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    return net


@pytest.fixture
def inside():
    """A service of the site's own network (Redis, a metadata service...): nothing may reach it."""
    server = push_stub.start()
    yield server
    server.close()


def bobs_turn(alice, bob):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    services.action_submit(game=game, user=alice, action={"place": "a1"}, expected_ply=0)
    return game


def deliver(game, bob, channel: str) -> str:
    return push.deliver(game_id=game.pk, ply=1, user_id=bob.pk, kind="turn", channel=channel)


@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_a_push_services_redirect_into_the_sites_network_is_not_followed(
    alice, bob, network, stub, inside
):
    network.names["push.example.test"] = [PUBLIC]
    network.routes[(PUBLIC, stub.port)] = ("127.0.0.1", stub.port)
    stub.answers.append(307)
    stub.location = f"{inside.url}/internal"
    device = push_stub.Device(f"http://push.example.test:{stub.port}/push/phone")
    PushSubscription.objects.create(
        user=bob, endpoint=device.endpoint, p256dh=device.p256dh, auth=device.auth
    )
    game = bobs_turn(alice, bob)

    assert deliver(game, bob, "push") == "refused:redirect"
    assert len(stub.on("/push/phone")) == 1  # the push service was asked, once
    assert inside.received == []  # and its answer led nowhere
    assert DeviceNotice.objects.get(user=bob).status == "refused"


@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_a_webhook_redirect_is_not_followed_either(alice, bob, network, stub, inside):
    network.names["hook.example.test"] = [PUBLIC]
    network.routes[(PUBLIC, stub.port)] = ("127.0.0.1", stub.port)
    stub.answers.append(308)
    stub.location = f"{inside.url}/internal"
    NoticeSettings.objects.create(
        user=bob, webhook_url=f"http://hook.example.test:{stub.port}/hook"
    )
    game = bobs_turn(alice, bob)

    assert deliver(game, bob, "webhook") == "refused:redirect"
    assert len(stub.on("/hook")) == 1 and inside.received == []


@pytest.mark.parametrize("channel", ["webhook", "push"])
@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_a_name_that_answers_the_loopback_after_the_check_reaches_only_the_checked_address(
    alice, bob, network, stub, inside, channel
):
    """DNS rebinding: the first lookup answers a public address, every later one 127.0.0.1.
    The connection goes to the address that was checked, with the name in the Host header."""
    network.names["evil.example.test"] = [PUBLIC, "127.0.0.1"]
    network.routes[(PUBLIC, inside.port)] = ("127.0.0.1", stub.port)
    url = f"http://evil.example.test:{inside.port}/{channel}"
    if channel == "webhook":
        NoticeSettings.objects.create(user=bob, webhook_url=url)
    else:
        device = push_stub.Device(url)
        PushSubscription.objects.create(
            user=bob, endpoint=url, p256dh=device.p256dh, auth=device.auth
        )
    game = bobs_turn(alice, bob)

    assert deliver(game, bob, channel) == "sent"
    assert inside.received == []
    (received,) = stub.on(f"/{channel}")
    assert received.headers["host"] == f"evil.example.test:{inside.port}"
    assert network.lookups == ["evil.example.test"]  # looked up once


def test_https_goes_to_the_checked_address_and_verifies_the_certificate_against_the_name():
    """TLS: the pool connects to the address, sends the name as SNI and checks the certificate
    against the name (not against the address)."""
    adapter = outbound.PinnedAdapter(PUBLIC)
    request = requests.Request("POST", "https://push.example.test/x").prepare()
    pool = adapter.get_connection_with_tls_context(request, True)
    connection = pool._new_conn()
    assert (pool.host, connection.host) == (PUBLIC, PUBLIC)
    assert connection.server_hostname == "push.example.test"
    assert pool.assert_hostname == "push.example.test"


PRIVATE_HOSTS = [
    "127.0.0.1",
    "localhost",
    "[::1]",
    "0.0.0.0",
    "[::ffff:127.0.0.1]",
    "169.254.169.254",
    "2130706433",
    "0x7f000001",
    "10.0.0.1",
    "[64:ff9b::7f00:1]",
]


@pytest.mark.parametrize("host", PRIVATE_HOSTS)
@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_a_private_webhook_is_refused_when_saved_with_the_reason(bob, host):
    response = client_for(bob).post(
        "/settings/notifications/", {"turn": "on", "webhook_url": f"https://{host}/hook"}
    )
    assert response.status_code == 400 and not NoticeSettings.objects.exists()
    # The form's URL check refuses some spellings first ("Enter a valid URL"); the service's
    # own check names the reason for every one.
    assert webhook_refusal(f"https://{host}/hook") == (
        "the webhook URL must be an address on the public internet"
    )


@pytest.mark.parametrize("host", PRIVATE_HOSTS)
@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_a_private_push_endpoint_is_refused_when_saved_with_the_reason(bob, host):
    device = push_stub.Device(f"https://{host}/push/phone")
    response = client_for(bob).post(
        "/settings/notifications/subscribe/",
        json.dumps(device.subscription()),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "public internet" in response.json()["error"]
    assert not PushSubscription.objects.exists()


@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_a_name_that_does_not_resolve_is_refused_when_saved(bob, network):
    response = client_for(bob).post(
        "/settings/notifications/",
        {"turn": "on", "webhook_url": "https://nowhere.invalid/hook"},
    )
    assert response.status_code == 400
    assert "does not resolve" in response.content.decode()


@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_a_public_webhook_is_saved(bob, network):
    network.names["hooks.example.test"] = [PUBLIC]
    response = client_for(bob).post(
        "/settings/notifications/",
        {"turn": "on", "webhook_url": "https://hooks.example.test/api/1"},
    )
    assert response.status_code == 302
    assert NoticeSettings.objects.get(user=bob).webhook_url == "https://hooks.example.test/api/1"


@override_settings(WEBHOOK_ALLOW_HTTP=False)
def test_a_private_address_saved_before_is_refused_at_send_time_and_the_page_says_so(
    alice, bob, inside
):
    NoticeSettings.objects.create(user=bob, webhook_url=f"{inside.url}/hook")
    device = push_stub.Device(f"{inside.url}/push/phone")
    PushSubscription.objects.create(
        user=bob, endpoint=device.endpoint, p256dh=device.p256dh, auth=device.auth
    )
    game = bobs_turn(alice, bob)

    assert deliver(game, bob, "webhook") == "refused:private"
    assert deliver(game, bob, "push") == "refused:private"
    assert inside.received == []
    statuses = set(DeviceNotice.objects.filter(user=bob).values_list("status", "detail"))
    assert statuses == {("refused", "private")}  # not "sent"
    page = client_for(bob).get("/settings/notifications/").content.decode()
    assert "The last notice to your chat webhook was refused" in page
    assert "The last notice to your devices was refused" in page
    assert "the address is not on the public internet" in page


def test_a_notice_sent_since_a_refusal_clears_it_from_the_page(alice, bob, stub):
    NoticeSettings.objects.create(user=bob, webhook_url=f"{stub.url}/hook")
    game = bobs_turn(alice, bob)
    stub.answers.append(404)
    assert deliver(game, bob, "webhook") == "refused:404"
    page = client_for(bob).get("/settings/notifications/").content.decode()
    assert "it answered with the HTTP status 404" in page

    game.refresh_from_db()
    services.action_submit(game=game, user=bob, action={"place": "t1"}, expected_ply=1)
    game.refresh_from_db()
    services.action_submit(game=game, user=alice, action={"place": "t20"}, expected_ply=2)
    assert push.deliver(game_id=game.pk, ply=3, user_id=bob.pk, kind="turn", channel="webhook") == (
        "sent"
    )
    page = client_for(bob).get("/settings/notifications/").content.decode()
    assert "was refused" not in page


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "::1", "::ffff:127.0.0.1", "64:ff9b::a00:1", "2002:7f00:1::", "224.0.0.1"],
)
def test_local_addresses_in_every_disguise_are_not_public(address):
    assert not outbound.public(address)


def test_public_addresses_are(network):
    assert outbound.public(PUBLIC) and outbound.public("2606:4700::1111")
