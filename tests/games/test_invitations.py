"""Invitations people notice: an email (as the invitee's preferences say), a lobby notice with
Accept and Decline, and the invite link with a copy button on the creator's page."""

from __future__ import annotations

from django.core import mail
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.games.test_play import client_for, page_url


def invite_bob(alice, **kwargs) -> Game:
    return services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec("me"), SeatSpec("invite", username="bob")],
        **kwargs,
    )


def test_the_invited_player_gets_an_email(alice, bob, verified, on_commit):
    verified(bob)
    with on_commit():
        game = invite_bob(alice)

    [message] = [m for m in mail.outbox if m.to == [bob.email]]
    assert message.subject.endswith(
        "alice invites you to a game: Blokus Shuffle: UNO Edition (2 players)"
    )
    assert page_url(game) in message.body and "1 day per move" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert game.seed is None and "seed" not in message.body  # nothing secret: not even started


def test_no_invitation_email_for_a_player_who_wants_none(alice, bob, verified, on_commit):
    verified(bob)
    User.objects.filter(pk=bob.pk).update(email_turns=User.EmailTurns.NEVER)
    with on_commit():
        invite_bob(alice)
    assert not [m for m in mail.outbox if m.to == [bob.email]]


def test_the_lobby_shows_the_invitation_with_accept_and_decline(alice, bob, carol):
    game = invite_bob(alice, move_seconds=3600)

    home = client_for(bob).get(reverse("home")).content.decode()
    others = client_for(carol).get(reverse("home")).content.decode()

    assert '<section class="invitations"' in home and '<section class="invitations"' not in others
    assert "<strong>alice</strong> invites you to" in home and "1 hour per move" in home
    assert f'action="{reverse("game_join", args=[game.public_id])}"' in home
    assert f'action="{reverse("game_leave", args=[game.public_id])}"' in home


def test_accept_takes_the_seat_and_starts_the_game(alice, bob):
    game = invite_bob(alice)

    response = client_for(bob).post(reverse("game_join", args=[game.public_id]))

    game.refresh_from_db()
    assert response.status_code == 302 and response["Location"] == page_url(game)
    assert game.status == Game.Status.ACTIVE
    assert game.seats.get(index=1).kind == Seat.Kind.HUMAN
    assert '<section class="invitations"' not in client_for(bob).get("/").content.decode()


def test_decline_frees_the_seat_for_the_invite_link_and_says_so(alice, bob):
    game = invite_bob(alice)

    response = client_for(bob).post(
        reverse("game_leave", args=[game.public_id]), {"back": "lobby"}, follow=True
    )

    seat = game.seats.get(index=1)
    assert seat.kind == Seat.Kind.LINK and seat.user is None  # the creator can pass the link on
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "You declined alice&#x27;s invitation." in response.content.decode()
    creator = client_for(alice).get(page_url(game)).content.decode()
    assert "Seat for the invite link" in creator and "Waiting for 1 more player" in creator


def test_the_creator_lands_on_the_invite_link_with_a_copy_button(alice, bob, carol):
    game = invite_bob(alice, visibility=Game.Visibility.PRIVATE)
    link = f"/games/{game.public_id}/invite/{game.invite_token}/"

    creator = client_for(alice).get(page_url(game)).content.decode()
    invited = client_for(bob).get(page_url(game)).content.decode()

    assert f'value="http://testserver{link}"' in creator
    assert 'data-copy="#invite-url"' in creator and "js/copy" in creator
    assert game.invite_token not in invited  # only the seated players get the link to pass on
    assert client_for(carol).get(page_url(game)).status_code == 404  # a private game


def test_my_games_offers_accept_and_decline_to_the_invited(alice, bob):
    game = invite_bob(alice)

    content = client_for(bob).get(reverse("my_games")).content.decode()

    item = content[content.index(f'data-game="{game.public_id}"') :]
    assert "Accept the invitation" in item and ">Decline</button>" in item
    assert f'action="{reverse("game_join", args=[game.public_id])}"' in item
