"""Blocks are silent. Alice blocked bob; bob was told "alice does not take invitations
from you" when he invited her. Now his invitation is made like any other and shows as pending to
him, while alice hears nothing of it: no email, no notice, nothing in her lobby, no seat offered
(selectors.seating). Only alice's own block is said to her when she invites bob: she can lift it.
The write path (services.games) and the lobby's read (selectors.lists.lobby) ask seating's rules."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import Block
from games import services
from games.models import Game, Seat
from games.selectors import seating
from games.services import SeatSpec

pytestmark = pytest.mark.django_db


def invite(creator, invitee) -> Game:
    return services.game_create(
        creator=creator,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username=invitee.username)],
    )


def test_an_invitation_from_someone_she_blocked_later_is_not_offered_to_her(alice, bob):
    game = invite(bob, alice)
    Block.objects.create(blocker=alice, blocked=bob)

    assert seating.seat_for_joiner(game, list(game.seats.all()), alice) is None
    with pytest.raises(services.NotAllowed):
        services.invitation_accept(game=game, user=alice)
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("game", args=[game.public_id])).content.decode()
    assert reverse("invitation_accept", args=[game.public_id]) not in page


def test_only_the_blockers_own_block_is_said(alice, bob):
    Block.objects.create(blocker=alice, blocked=bob)

    assert "you have blocked bob" in seating.invitation_refusal(alice, bob)
    assert seating.invitation_refusal(bob, alice) == ""  # never "alice does not take ..."
    assert seating.silenced(bob, [alice.pk]) == {alice.pk}
    assert seating.silenced(alice, [bob.pk]) == set()


def test_her_lobby_list_leaves_out_invitations_from_players_she_blocked(alice, bob, carol):
    from_bob, from_carol = invite(bob, alice), invite(carol, alice)
    Block.objects.create(blocker=alice, blocked=bob)

    assert seating.visible_invitations(alice, [from_bob, from_carol]) == [from_carol]


def test_the_sender_is_not_told_of_the_block(alice, bob):
    Block.objects.create(blocker=alice, blocked=bob)

    game = invite(bob, alice)  # refused before, naming the block
    assert game.seats.get(index=1).kind == Seat.Kind.INVITED  # pending, as any invitation


def test_the_blocker_hears_nothing_of_the_invitation(alice, bob, verified, on_commit):
    Block.objects.create(blocker=alice, blocked=bob)
    verified(alice)

    with mock.patch("games.live.nudges.your_turn") as notice, on_commit():
        game = invite(bob, alice)
    assert mail.outbox == [] and not notice.called
    client = Client()
    client.force_login(alice)
    home = client.get(reverse("home")).content.decode()
    assert reverse("invitation_accept", args=[game.public_id]) not in home


# -- her devices and her chat webhook -------------------------------------------------------------


@pytest.fixture
def alices_devices(alice, stub, settings):
    """alice's phone (Web Push) and her chat webhook, both on the stub."""
    from games.jobs import push
    from games.models import NoticeSettings, PushSubscription
    from games.selectors import vapid
    from tests.support import push_stub

    settings.VAPID_PRIVATE_KEY = push.new_private_key()
    vapid.private_key.cache_clear()
    phone = push_stub.Device(f"{stub.url}/push/alice")
    PushSubscription.objects.create(
        user=alice, endpoint=phone.endpoint, p256dh=phone.p256dh, auth=phone.auth
    )
    NoticeSettings.objects.create(user=alice, webhook_url=f"{stub.url}/hook/alice")
    yield stub
    vapid.private_key.cache_clear()


def test_her_devices_and_webhook_hear_nothing_of_the_invitation(
    alice, bob, alices_devices, on_commit
):
    Block.objects.create(blocker=alice, blocked=bob)

    with on_commit():
        invite(bob, alice)
    assert alices_devices.received == []


def test_her_devices_and_webhook_hear_nothing_of_a_rematch_either(
    alice, bob, alices_devices, on_commit
):
    game = invite(bob, alice)
    services.invitation_accept(game=game, user=alice)
    from games.services.resign import game_resign

    for corner, user in (("a1", bob), ("t1", alice), ("t20", bob)):
        game.refresh_from_db()
        services.action_submit(
            game=game, user=user, action={"place": corner}, expected_ply=game.ply
        )
    game = game_resign(game=game, user=alice)
    alices_devices.received.clear()
    Block.objects.create(blocker=alice, blocked=bob)

    with on_commit():
        services.game_rematch(game=game, user=bob)
    assert alices_devices.received == []


@pytest.mark.parametrize("channel", ["push", "webhook"])
def test_a_block_made_after_the_invitation_was_queued_stops_its_device_notice(
    alice, bob, alices_devices, channel
):
    """The push service was down when the invitation went out; she blocks bob before the
    task's retry: the retry tells her nothing (nor does the email's)."""
    from games import notices
    from games.jobs import emails, push

    game = invite(bob, alice)  # queued, not sent yet (the tasks run at the commit)
    Block.objects.create(blocker=alice, blocked=bob)

    number = notices.INVITE_NUMBER
    outcome = push.deliver(
        game_id=game.pk, ply=number, user_id=alice.pk, kind="invite", channel=channel
    )
    assert outcome == "silenced"
    assert alices_devices.received == []
    assert emails.invite(game_id=game.pk, user_id=alice.pk) == "silenced"
    assert mail.outbox == []
