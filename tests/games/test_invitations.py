"""Invitations people notice: an email (as the invitee's preferences say), a lobby notice with
Accept and Decline, and the invite link with a copy button on the creator's page."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.lobby import new_game_data
from tests.support.pages import client_for, page_url


def invite_bob(alice, **kwargs) -> Game:
    return services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        **kwargs,
    )


def invite_bob_and_carol(alice, **kwargs) -> Game:
    """A 3-player game: it stays open after bob accepts (carol has not answered)."""
    return services.game_create(
        creator=alice,
        mode="classic",
        players=3,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")]
        + [SeatSpec(Seat.Kind.INVITED, username="carol")],
        **kwargs,
    )


def accept_url(game) -> str:
    return reverse("invitation_accept", args=[game.public_id])


def decline_url(game) -> str:
    return reverse("invitation_decline", args=[game.public_id])


def seats_of(game) -> list[tuple[str, int | None]]:
    return [(s.kind, s.user_id) for s in Seat.objects.filter(game=game).order_by("index")]


def test_the_invited_player_gets_an_email(alice, bob, verified, on_commit):
    verified(bob)
    with on_commit():
        game = invite_bob(alice)

    [message] = [m for m in mail.outbox if m.to == [bob.email]]
    assert message.subject.endswith("alice invites you to a game: alice vs bob · Shuffle")
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
    assert "<strong>alice</strong> invites you" in home and "1 hour per move" in home
    assert f'action="{accept_url(game)}"' in home and f'action="{decline_url(game)}"' in home
    assert 'name="csrfmiddlewaretoken"' in home


def test_accept_takes_the_seat_and_starts_the_game(alice, bob):
    game = invite_bob(alice)

    response = client_for(bob).post(accept_url(game), {"back": "home"})

    game.refresh_from_db()
    assert response.status_code == 302 and response["Location"] == page_url(game)
    assert game.status == Game.Status.ACTIVE
    assert game.seats.get(index=1).kind == Seat.Kind.HUMAN
    assert '<section class="invitations"' not in client_for(bob).get("/").content.decode()


def test_decline_frees_the_seat_for_the_invite_link_and_says_so(alice, bob):
    game = invite_bob(alice)

    response = client_for(bob).post(decline_url(game), {"back": "home"}, follow=True)

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
    assert f'action="{accept_url(game)}"' in item and f'action="{decline_url(game)}"' in item
    assert 'name="back" value="mine"' in item


def test_the_email_task_is_queued_on_commit_only(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    with mock.patch("games.jobs.tasks.send_invite_email.delay") as delay:
        with django_capture_on_commit_callbacks() as queued:
            game = invite_bob_and_carol(alice)
        assert not delay.called  # nothing leaves before the commit
        for callback in queued:
            callback()
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.GameError):
            services.game_create(  # refused: no game, no email
                creator=alice,
                mode="shuffle",
                players=2,
                seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="nobody")],
            )

    assert sorted(c.args for c in delay.call_args_list) == [(game.pk, bob.pk), (game.pk, carol.pk)]


def test_no_email_once_the_invitation_is_answered(alice, bob, verified):
    from games.jobs import emails

    verified(bob)
    game = invite_bob(alice)
    client_for(bob).post(decline_url(game))

    assert emails.invite(game_id=game.pk, user_id=bob.pk) == "gone"
    assert not mail.outbox


def test_the_game_page_offers_accept_and_decline_to_the_invited(alice, bob):
    game = invite_bob(alice)

    page = client_for(bob).get(page_url(game)).content.decode()
    seats = page[page.index('<section class="seats"') :]

    assert f'action="{accept_url(game)}"' in seats and f'action="{decline_url(game)}"' in seats
    assert "Take a seat" not in seats  # the invitation, not a generic join


def test_accept_from_the_game_page_lands_in_the_started_game(alice, bob):
    game = invite_bob(alice)

    response = client_for(bob).post(accept_url(game), {"back": "game"}, follow=True)

    assert response.redirect_chain[-1][0] == page_url(game)
    assert "You accepted and took seat 2. The game has started." in response.content.decode()


def test_decline_tells_the_creator_and_refreshes_the_waiting_room(alice, bob, on_commit):
    game = invite_bob(alice)

    with (
        mock.patch("games.live.nudges.your_turn") as toast,
        mock.patch("games.live.nudges.seats_changed") as seats_changed,
        on_commit(),
    ):
        client_for(bob).post(decline_url(game))

    news = "bob declined your invitation: their seat is now for the invite link"
    toast.assert_called_once_with(alice.pk, game.public_id, news)
    seats_changed.assert_called_once_with(game.public_id)


def test_accept_tells_the_creator(alice, bob, carol, on_commit):
    game = invite_bob_and_carol(alice)

    with mock.patch("games.live.nudges.your_turn") as toast, on_commit():
        client_for(bob).post(accept_url(game))

    toast.assert_any_call(alice.pk, game.public_id, "bob accepted your invitation")


def test_a_stale_decline_never_takes_an_accepted_player_out(alice, bob, carol):
    game = invite_bob_and_carol(alice)
    client_for(bob).post(accept_url(game))  # in one tab
    before = seats_of(game)

    response = client_for(bob).post(decline_url(game), {"back": "home"}, follow=True)

    assert seats_of(game) == before and before[1] == (Seat.Kind.HUMAN, bob.pk)
    assert "you have already accepted this invitation" in response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("home")


def test_a_stale_accept_takes_no_other_seat(alice, bob):
    # A public game with an open seat: declined in one tab, Accept in another must not join.
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=3,
        seats=[
            SeatSpec(Seat.Kind.HUMAN),
            SeatSpec(Seat.Kind.INVITED, username="bob"),
            SeatSpec(Seat.Kind.OPEN),
        ],
    )
    client_for(bob).post(decline_url(game))
    before = seats_of(game)

    response = client_for(bob).post(accept_url(game), {"back": "mine"}, follow=True)

    assert seats_of(game) == before and bob.pk not in [u for _, u in before]
    assert "you have no invitation to this game (any more)" in response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("my_games")


def test_answers_to_a_cancelled_game_are_refused(alice, bob):
    game = invite_bob(alice)
    client_for(alice).post(reverse("game_leave", args=[game.public_id]))  # she cancels
    before = seats_of(game)

    for url in (accept_url(game), decline_url(game)):
        response = client_for(bob).post(url, follow=True)
        assert "the game was cancelled" in response.content.decode()
    assert seats_of(game) == before
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED


def test_strangers_and_unknown_games_hear_the_same(alice, bob, carol):
    private = invite_bob(alice, visibility=Game.Visibility.PRIVATE)
    before = seats_of(private)

    stranger = client_for(carol).post(accept_url(private), follow=True).content.decode()
    unknown = (
        client_for(carol)
        .post(reverse("invitation_decline", args=["no-such-game"]), follow=True)
        .content.decode()
    )

    refusal = "you have no invitation to this game (any more)"
    assert refusal in stranger and refusal in unknown  # a private game is not given away
    assert seats_of(private) == before


def test_answers_need_a_post_with_csrf_and_a_login(alice, bob):
    game = invite_bob(alice)
    strict = client_for(bob)
    strict.handler.enforce_csrf_checks = True

    assert client_for(bob).get(accept_url(game)).status_code == 405
    assert strict.post(decline_url(game)).status_code == 403  # no CSRF token
    assert client_for(None).post(accept_url(game)).status_code == 302  # to the login page
    assert seats_of(game)[1] == (Seat.Kind.INVITED, bob.pk)


def test_an_htmx_refusal_is_the_reason_inline(alice, bob):
    game = invite_bob(alice)
    client_for(bob).post(decline_url(game))

    response = client_for(bob).post(decline_url(game), headers={"HX-Request": "true"})

    assert response.status_code == 403
    assert "you have no invitation to this game (any more)" in response.content.decode()


def test_one_player_cannot_flood_another_with_invitations(alice, bob, mailoutbox):
    """30 games inviting one player sent 30 emails; now the fourth invitation still
    waiting for bob's answer is refused with a message that says why, and sends nothing."""
    from games.services.games import MAX_PENDING_INVITATIONS

    seats = [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")]
    for _ in range(MAX_PENDING_INVITATIONS):
        services.game_create(creator=alice, mode="classic", players=2, seats=seats)
    sent = len(mailoutbox)
    with pytest.raises(services.TooMany, match="bob already has 3 invitations from you"):
        services.game_create(creator=alice, mode="classic", players=2, seats=seats)
    assert Game.objects.filter(created_by=alice).count() == MAX_PENDING_INVITATIONS
    assert len(mailoutbox) == sent


def test_the_new_game_form_says_why_a_game_past_the_limit_is_refused(alice, bob):
    from games.services.games import MAX_OPEN_GAMES

    seats = [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)]
    for _ in range(MAX_OPEN_GAMES):
        services.game_create(creator=alice, mode="classic", players=2, seats=seats)
    response = client_for(alice).post(reverse("game_new"), new_game_data())
    assert response.status_code == 429
    assert "games waiting for players" in response.content.decode()
    assert Game.objects.filter(created_by=alice).count() == MAX_OPEN_GAMES
