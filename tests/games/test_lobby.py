"""The lobby: creating games through the form, joining and leaving, invite links, my games, help."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.forms import MAX_SEATS, GameForm
from games.models import Action, Game, Seat
from games.services import SeatSpec
from tests.support.lobby import new_game_data  # noqa: F401

pytestmark = pytest.mark.django_db


def open_game(creator, *, visibility="public", seats=None, players=2):
    return services.game_create(
        creator=creator,
        mode="classic",
        players=players,
        seats=seats or [SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
        visibility=visibility,
    )


def row_counts() -> tuple[int, int, int]:
    return Game.objects.count(), Seat.objects.count(), Action.objects.count()


# -- the lobby ------------------------------------------------------------------------------


def test_the_lobby_lists_public_open_games_and_not_private_ones(client, alice):
    public = open_game(alice)
    private = open_game(alice, visibility="private")

    response = client.get(reverse("home"))

    assert response.status_code == 200
    assert public.public_id.encode() in response.content
    assert private.public_id.encode() not in response.content
    assert b"Sign in to join" in response.content


def test_the_lobby_shows_a_signed_in_player_the_games_waiting_for_their_move(client, duel, alice):
    client.force_login(alice)

    response = client.get(reverse("home"))

    assert response.status_code == 200
    assert [g.public_id for g in response.context["your_turn"]] == [duel.public_id]
    assert reverse("game", args=[duel.public_id]).encode() in response.content


def test_the_lobby_offers_a_join_button_to_others_and_not_to_the_creator(client, alice, bob):
    game = open_game(alice)
    client.force_login(bob)
    join_url = reverse("game_join", args=[game.public_id]).encode()
    assert join_url in client.get(reverse("home")).content

    client.force_login(alice)
    assert join_url not in client.get(reverse("home")).content


# -- creating games -------------------------------------------------------------------------


def test_the_new_game_form_needs_a_signed_in_user(client):
    response = client.get(reverse("game_new"))

    assert response.status_code == 302
    assert "login" in response["Location"]


def test_the_new_game_form_shows_every_choice(client, alice):
    client.force_login(alice)

    response = client.get(reverse("game_new"))

    assert response.status_code == 200
    for text in (b"Custom deck", b"Edge to Edge", b"Shared colour", b"Computer", b"invite link"):
        assert text in response.content


def test_it_creates_a_two_player_game_with_an_invitation(client, alice, bob):
    client.force_login(alice)

    response = client.post(
        reverse("game_new"),
        new_game_data(mode="classic", seat1_kind=Seat.Kind.INVITED, seat1_username="bob"),
    )

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[game.public_id])
    assert (game.mode, game.players, game.status) == ("classic", 2, "open")
    assert game.deck_recipe is None
    seats = list(game.seats.order_by("index"))
    assert [(s.kind, s.user) for s in seats] == [("human", alice), ("invited", bob)]


def test_it_creates_a_four_player_game_with_seats_of_every_kind(client, alice, bob):
    client.force_login(alice)

    response = client.post(
        reverse("game_new"),
        new_game_data(
            players=4,
            scoring="advanced",
            visibility="private",
            seating="random",
            move_seconds=3600,
            seat0_kind=Seat.Kind.OPEN,
            seat1_kind=Seat.Kind.INVITED,
            seat1_username="BOB",
            seat2_kind=Seat.Kind.HUMAN,
            seat3_kind=Seat.Kind.LINK,
        ),
    )

    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.players, game.scoring, game.visibility, game.seating, game.move_seconds) == (
        4,
        "advanced",
        "private",
        "random",
        3600,
    )
    kinds = [(s.index, s.kind, s.user) for s in game.seats.order_by("index")]
    assert kinds == [(0, "open", None), (1, "invited", bob), (2, "human", alice), (3, "link", None)]


# -- one seat vocabulary: the form offers Seat.Kind, the game stores it -----------------------


def test_the_seat_kinds_are_the_values_the_database_holds():
    # Stored in Seat.kind: changing one of these needs a data migration of the existing rows.
    assert Seat.Kind.values == ["human", "invited", "open", "link", "ai"]


def test_the_form_offers_every_seat_kind_and_nothing_else():
    form = GameForm()
    for i in range(MAX_SEATS):
        choices = form.fields[f"seat{i}_kind"].choices
        assert [value for value, _ in choices] == Seat.Kind.values
        assert [label for _, label in choices] == [kind.offer for kind in Seat.Kind]
    assert dict(choices)[Seat.Kind.HUMAN] == "Me"  # at creation, the creator's own seat


@pytest.mark.parametrize("kind", [kind for kind in Seat.Kind if kind != Seat.Kind.HUMAN])
def test_each_seat_kind_the_form_offers_is_the_kind_the_game_stores(client, alice, bob, kind):
    client.force_login(alice)
    # The username and level are sent for every kind, as the browser does: only INVITED reads
    # the one, only AI the other.
    data = new_game_data(seat1_kind=kind, seat1_username="bob", seat1_level="beginner")

    response = client.post(reverse("game_new"), data)

    assert response.status_code == 302
    human, other = Game.objects.get().seats.order_by("index")
    assert (human.kind, human.user) == (Seat.Kind.HUMAN, alice)
    assert other.kind == kind
    assert other.user == (bob if kind == Seat.Kind.INVITED else None)
    assert other.ai_level == ("beginner" if kind == Seat.Kind.AI else "")


def test_the_new_game_page_styles_only_real_seat_kinds():
    # lobby.css shows the username box for an invitation and the level for a computer, by the
    # <option> values: a renamed kind would silently hide them.
    css = (Path(settings.BASE_DIR) / "static" / "css" / "lobby.css").read_text()
    assert set(re.findall(r'option\[value="(\w+)"\]', css)) == {Seat.Kind.INVITED, Seat.Kind.AI}


def test_a_game_refuses_a_seat_kind_outside_the_vocabulary(alice):
    with pytest.raises(services.GameError, match="unknown seat kind 'me'"):
        open_game(alice, seats=[SeatSpec("me"), SeatSpec(Seat.Kind.OPEN)])
    assert row_counts() == (0, 0, 0)


def test_it_creates_a_game_against_the_computer_that_starts_at_once(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("game_new"),
        new_game_data(seat0_kind=Seat.Kind.AI, seat0_level="expert", seat1_kind=Seat.Kind.HUMAN),
    )

    assert response.status_code == 302
    game = Game.objects.get()
    assert game.status == "active"
    ai = game.seats.get(kind="ai")
    assert ai.ai_level == "expert"


def level_options(page: str, seat: int) -> dict[str, str]:
    """The level select of a seat on the new-game page: {value: the text shown}."""
    select = re.search(rf'<select name="seat{seat}_level".*?</select>', page, re.S).group(0)
    return {
        value: html.unescape(text.strip())
        for value, text in re.findall(r'<option value="(\w+)"[^>]*>(.*?)</option>', select, re.S)
    }


def test_the_new_game_form_offers_every_level_with_its_thinking_time(client, alice):
    client.force_login(alice)

    page = client.get(reverse("game_new")).content.decode()

    for seat in range(MAX_SEATS):
        assert level_options(page, seat) == {
            "beginner": "Beginner (moves at once)",
            "casual": "Casual (moves at once)",
            "expert": "Expert (about 2 s a move)",
            "master": "Master (about 10 s a move)",
        }


@pytest.mark.parametrize(
    "language, master",
    [
        ("sv", "Mästare (cirka 10 s per drag)"),
        ("fi", "Mestari (noin 10 s siirtoa kohden)"),
        ("da", "Mester (cirka 10 s pr. træk)"),
        ("nb", "Mester (omtrent 10 s per trekk)"),
        ("ja", "名人（1手約 10 秒）"),
    ],
)
def test_the_masters_time_is_shown_in_the_players_language(client, alice, language, master):
    client.force_login(alice)
    client.cookies["django_language"] = language

    page = client.get(reverse("game_new")).content.decode()

    assert level_options(page, 1)["master"] == master


def test_it_creates_a_game_with_a_master_seat(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("game_new"), new_game_data(seat1_kind=Seat.Kind.AI, seat1_level="master")
    )

    assert response.status_code == 302
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.get(index=1).ai_level == Seat.Level.MASTER


def test_a_master_seat_plays_at_experts_budget_outside_a_worker(
    client, alice, monkeypatch, on_commit
):
    """The tests' Celery is eager, as a site without workers runs the computer's turn inside the
    request: there Master plays at Expert's budget (only a worker thinks for MASTER_BUDGET)."""
    import games.ai
    from games.ai.players import casual_action

    budgets = []

    def recorder(seat_view, state, rng, *, budget, max_sims=None):
        budgets.append(budget)
        return casual_action(state, seat_view["seat"])

    monkeypatch.setattr(games.ai, "expert_action", recorder)
    client.force_login(alice)

    with on_commit():  # Master holds seat 1, blue: it places its setup piece at once
        response = client.post(
            reverse("game_new"),
            new_game_data(
                seat0_kind=Seat.Kind.AI, seat0_level="master", seat1_kind=Seat.Kind.HUMAN
            ),
        )

    assert response.status_code == 302
    game = Game.objects.get()
    assert game.seats.get(index=0).ai_level == Seat.Level.MASTER
    assert game.ply == 1  # the computer moved
    assert budgets == [games.ai.DEFAULT_BUDGET] and games.ai.MASTER_BUDGET > games.ai.DEFAULT_BUDGET


def test_it_creates_a_shuffle_game_with_a_custom_deck(client, alice):
    client.force_login(alice)
    recipe = {kind: 0 for kind in engine.CARD_KINDS} | {"wild": 7, "warp": 7}
    cards = {f"card_{kind}": count for kind, count in recipe.items()}

    response = client.post(reverse("game_new"), new_game_data(recipe="custom", **cards))

    assert response.status_code == 302
    assert Game.objects.get().deck_recipe == recipe


def test_a_custom_deck_is_ignored_unless_chosen(client, alice):
    client.force_login(alice)

    client.post(reverse("game_new"), new_game_data(card_wild=9))

    assert Game.objects.get().deck_recipe is None


def test_it_refuses_a_deck_of_the_wrong_size_with_the_rule(client, alice):
    client.force_login(alice)

    response = client.post(reverse("game_new"), new_game_data(recipe="custom", card_skip=3))

    assert response.status_code == 400
    assert b"must hold 14 cards, not 15 (R1.4)" in response.content
    assert Game.objects.count() == 0


def test_it_creates_a_three_player_game_with_the_shared_colour_chosen(client, alice):
    client.force_login(alice)

    client.post(reverse("game_new"), new_game_data(players=3, shared_color="red"))

    game = Game.objects.get()
    assert (game.players, game.shared_color) == (3, "red")
    assert game.seats.count() == 3


def test_the_shared_colour_is_green_unless_chosen_and_dropped_for_other_counts(client, alice):
    client.force_login(alice)

    client.post(reverse("game_new"), new_game_data(players=3))
    client.post(reverse("game_new"), new_game_data(players=4, shared_color="red"))

    three, four = Game.objects.order_by("created_at")
    assert three.shared_color == "green"
    assert four.shared_color == ""


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"seat1_kind": Seat.Kind.HUMAN}, "Take exactly one seat yourself"),
        ({"seat0_kind": Seat.Kind.OPEN}, "Take exactly one seat yourself"),
        ({"seat1_kind": Seat.Kind.INVITED}, "Give the username of the player to invite."),
        (
            {"seat1_kind": Seat.Kind.INVITED, "seat1_username": "nobody"},
            "there is no player called",
        ),
        ({"seat1_kind": Seat.Kind.INVITED, "seat1_username": "alice"}, "you already have a seat"),
        ({"players": "5"}, "Select a valid choice"),
    ],
)
def test_it_refuses_bad_seats_inline(client, alice, overrides, message):
    client.force_login(alice)

    response = client.post(reverse("game_new"), new_game_data(**overrides))

    assert response.status_code == 400
    assert message in response.content.decode()
    assert Game.objects.count() == 0


def test_seats_past_the_player_count_are_ignored(client, alice):
    client.force_login(alice)

    client.post(reverse("game_new"), new_game_data(players=2, seat3_kind=Seat.Kind.HUMAN))

    assert Game.objects.get().seats.count() == 2


# -- joining, leaving, invite links ---------------------------------------------------------


def test_a_player_joins_an_open_public_game(client, alice, bob):
    game = open_game(alice)
    client.force_login(bob)

    response = client.post(reverse("game_join", args=[game.public_id]))

    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[game.public_id])
    game.refresh_from_db()
    assert game.status == "active"
    assert game.seats.get(index=1).user == bob
    follow = client.get(reverse("my_games"))
    assert "You took seat 2. The game has started." in follow.content.decode()


def test_joining_a_started_game_is_refused_with_a_message(client, duel, carol):
    client.force_login(carol)

    response = client.post(reverse("game_join", args=[duel.public_id]))

    assert response.status_code == 302
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages == ["this game is no longer taking players"]


def test_a_refused_join_answers_htmx_with_its_status(client, duel, carol):
    client.force_login(carol)

    response = client.post(
        reverse("game_join", args=[duel.public_id]), headers={"HX-Request": "true"}
    )

    assert response.status_code == 409
    assert b"no longer taking players" in response.content
    assert b"<html" not in response.content


def test_a_successful_htmx_join_redirects_the_page(client, alice, bob):
    game = open_game(alice)
    client.force_login(bob)

    response = client.post(
        reverse("game_join", args=[game.public_id]), headers={"HX-Request": "true"}
    )

    assert response.headers["HX-Redirect"] == reverse("game", args=[game.public_id])


def test_a_private_game_does_not_exist_for_carol_without_its_token(client, alice, carol):
    game = open_game(alice, visibility="private")
    client.force_login(carol)

    assert client.post(reverse("game_join", args=[game.public_id])).status_code == 404
    assert client.get(reverse("game_invite", args=[game.public_id, "wrong"])).status_code == 404
    assert (
        client.post(reverse("game_join", args=[game.public_id]), {"token": "wrong"}).status_code
        == 404
    )
    assert game.seats.filter(user=carol).count() == 0


def test_carol_joins_a_private_game_with_the_invite_link(client, alice, carol):
    game = open_game(
        alice, visibility="private", seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.LINK)]
    )
    client.force_login(carol)
    invite_url = reverse("game_invite", args=[game.public_id, game.invite_token])

    page = client.get(invite_url)
    assert page.status_code == 200
    assert b"Take a seat" in page.content
    assert game.invite_token.encode() in page.content  # the form carries it to game_join

    response = client.post(
        reverse("game_join", args=[game.public_id]), {"token": game.invite_token}
    )

    assert response.status_code == 302
    assert game.seats.get(index=1).user == carol
    game.refresh_from_db()
    assert game.status == "active"
    again = client.get(invite_url)
    assert b"You already have a seat" in again.content


@pytest.mark.parametrize("visibility", ["private", "public"])
def test_the_invite_link_says_when_the_only_free_seat_is_reserved_for_an_invitee(
    client, alice, bob, carol, visibility
):
    game = open_game(
        alice,
        visibility=visibility,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    invite_url = reverse("game_invite", args=[game.public_id, game.invite_token])
    client.force_login(carol)

    page = client.get(invite_url).content.decode()

    assert "Take a seat" not in page  # game_join would answer "there is no seat here for you"
    assert "reserved for the players invited by name" in page
    watch = f"{reverse('game', args=[game.public_id])}?token={game.invite_token}"
    assert f'<a href="{watch}">Watch the game</a>' in page
    assert client.get(watch).status_code == 200
    client.force_login(bob)  # the invitee himself: his seat
    page = client.get(invite_url).content.decode()
    assert ">Accept</button>" in page and "reserved" not in page


def test_a_link_seat_is_not_taken_without_the_link(client, alice, carol):
    game = open_game(alice, seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.LINK)])
    client.force_login(carol)

    response = client.post(reverse("game_join", args=[game.public_id]))

    assert response.status_code == 302
    assert [str(m) for m in response.wsgi_request._messages] == ["there is no seat here for you"]
    assert game.seats.filter(user=carol).count() == 0


def test_the_invite_page_needs_a_signed_in_user(client, alice):
    game = open_game(alice, visibility="private")

    response = client.get(reverse("game_invite", args=[game.public_id, game.invite_token]))

    assert response.status_code == 302
    assert "login" in response["Location"]


def test_a_wrong_token_is_no_invitation_even_to_a_public_game(client, alice, carol):
    game = open_game(alice)
    client.force_login(carol)

    response = client.get(reverse("game_invite", args=[game.public_id, "not-the-token"]))

    assert response.status_code == 404


def test_an_invited_player_joins_without_a_token(client, alice, bob):
    game = open_game(
        alice,
        visibility="private",
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    client.force_login(bob)

    client.post(reverse("game_join", args=[game.public_id]))

    assert game.seats.get(index=1).kind == "human"


def test_a_player_leaves_before_the_start_and_the_seat_opens_again(client, alice, bob, carol):
    game = open_game(
        alice,
        players=3,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN), SeatSpec(Seat.Kind.OPEN)],
    )
    services.game_join(game=game, user=bob)
    client.force_login(bob)

    response = client.post(reverse("game_leave", args=[game.public_id]))

    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[game.public_id])
    assert game.seats.filter(user=bob).count() == 0
    assert game.seats.filter(kind="open").count() == 2


def test_leaving_a_private_game_goes_back_to_my_games(client, alice, bob):
    game = open_game(
        alice,
        visibility="private",
        players=3,
        seats=[
            SeatSpec(Seat.Kind.HUMAN),
            SeatSpec(Seat.Kind.INVITED, username="bob"),
            SeatSpec(Seat.Kind.OPEN),
        ],
    )
    services.game_join(game=game, user=bob)
    client.force_login(bob)

    response = client.post(reverse("game_leave", args=[game.public_id]))

    assert response["Location"] == reverse("my_games")


def test_the_creator_leaving_cancels_the_game(client, alice):
    game = open_game(alice)
    client.force_login(alice)

    client.post(reverse("game_leave", args=[game.public_id]))

    game.refresh_from_db()
    assert game.status == "aborted"


def test_leaving_a_started_game_is_refused(client, duel, bob):
    client.force_login(bob)

    response = client.post(
        reverse("game_leave", args=[duel.public_id]), headers={"HX-Request": "true"}
    )

    assert response.status_code == 409
    assert duel.seats.get(index=1).user == bob


def test_join_and_leave_take_only_posts(client, alice, bob):
    game = open_game(alice)
    client.force_login(bob)

    assert client.get(reverse("game_join", args=[game.public_id])).status_code == 405
    assert client.get(reverse("game_leave", args=[game.public_id])).status_code == 405
    assert game.seats.filter(user=bob).count() == 0


# -- my games -------------------------------------------------------------------------------


def test_my_games_lists_my_turn_then_waiting_then_open_then_finished(client, alice, bob):
    mine_to_move = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
    )
    theirs_to_move = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.AI, level="beginner"), SeatSpec(Seat.Kind.HUMAN)],
    )
    waiting = open_game(alice)
    cancelled = open_game(alice)
    services.game_leave(game=cancelled, user=alice)
    client.force_login(alice)

    response = client.get(reverse("my_games"))

    assert response.status_code == 200
    content = response.content.decode()
    positions = [
        content.index(g.public_id) for g in (mine_to_move, theirs_to_move, waiting, cancelled)
    ]
    assert positions == sorted(positions)
    assert [s["key"] for s in response.context["sections"]] == [
        "your_turn",
        "waiting",
        "open",
        "finished",
    ]


def test_my_games_shows_the_invite_link_of_my_open_games_only(client, alice, bob):
    mine = open_game(alice)
    theirs = open_game(
        bob,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN), SeatSpec(Seat.Kind.OPEN)],
        players=3,
    )
    services.game_join(game=theirs, user=alice)
    client.force_login(alice)

    content = client.get(reverse("my_games")).content.decode()

    assert reverse("game_invite", args=[mine.public_id, mine.invite_token]) in content
    assert theirs.invite_token not in content


def test_my_games_needs_a_signed_in_user(client):
    assert client.get(reverse("my_games")).status_code == 302


# -- help -----------------------------------------------------------------------------------


def test_the_help_page_explains_both_modes_and_the_sites_decisions(client):
    response = client.get(reverse("help"))

    assert response.status_code == 200
    content = response.content.decode()
    for text in (
        "classic",
        "Edge to Edge",
        "Double Play",
        "Two and three players",
        "How this site settles open points",
        "first main turn is player 2",
        "different</em> set of squares",
        "SplitMix64",
        "Skip ×2, Reverse ×2",
    ):
        assert text in content


def test_the_help_page_describes_the_computer_levels_and_their_times(client):
    page = client.get(reverse("help")).content.decode()

    assert '<a href="#computer">Computer players</a>' in page
    section = page[page.index('<section id="computer">') :]
    section = section[: section.index("</section>")]
    for text in ("<strong>Beginner</strong>", "<strong>Casual</strong>", "both answer at once"):
        assert text in section
    assert "<strong>Expert</strong> searches for about 2 s a move" in section
    assert "<strong>Master</strong> for about 10 s" in section
    assert "the whole turn" in section


@pytest.mark.parametrize(
    "language, master", [("sv", "cirka 10 s"), ("fi", "noin 10 s"), ("ja", "約 10 秒")]
)
def test_the_help_page_gives_the_masters_time_in_the_players_language(client, language, master):
    client.cookies["django_language"] = language

    page = client.get(reverse("help")).content.decode()

    section = page[page.index('<section id="computer">') :]
    section = section[: section.index("</section>")]
    assert master in section and "searches for about" not in section


# -- safety ---------------------------------------------------------------------------------


def test_the_posts_need_the_csrf_token(alice, bob):
    game = open_game(alice)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(bob)

    assert browser.post(reverse("game_new"), new_game_data()).status_code == 403
    assert browser.post(reverse("game_join", args=[game.public_id])).status_code == 403
    assert browser.post(reverse("game_leave", args=[game.public_id])).status_code == 403
    assert game.seats.filter(user=bob).count() == 0
    assert Game.objects.count() == 1


def test_the_lobby_pages_write_nothing(client, alice, duel):
    game = open_game(alice, visibility="private")
    client.force_login(alice)
    before = row_counts(), list(Game.objects.values().order_by("pk"))

    for url in (
        reverse("home"),
        reverse("help"),
        reverse("game_new"),
        reverse("my_games"),
        reverse("game_invite", args=[game.public_id, game.invite_token]),
    ):
        assert client.get(url).status_code == 200

    assert (row_counts(), list(Game.objects.values().order_by("pk"))) == before


def test_the_lobby_lists_public_games_in_play_to_watch(client, duel, alice, carol):
    private = services.game_create(
        creator=carol,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="beginner")],
        visibility=Game.Visibility.PRIVATE,
    )
    page = client.get(reverse("home")).content.decode()
    watch = page.split('id="watch-title"')[1].split("</section>")[0]

    assert reverse("game", args=[duel.public_id]) in watch
    assert "Watch" in watch
    assert private.public_id not in watch  # private: players only
