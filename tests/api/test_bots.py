"""Bot accounts: made on their Settings page by typing the username, only without games; a
token with the bot scope only for them; their session refused by the pages that play; never at
a rated Play now table with people; out of tournaments that do not allow bots; marked "bot"
where their name shows; listed and disabled by staff."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from api import tokens
from api.bots import BotError, bot_account_make
from api.models import BotAccount
from games import engine, services
from games.models import Game, Seat, Seek, Tournament
from games.selectors import lists
from games.services import SeatSpec, seeks, tournaments
from tests.support.pages import client_for, post_action

pytestmark = pytest.mark.django_db

DAY = 24 * 3600


@pytest.fixture
def robo(make_user):
    user = make_user("robo")
    bot_account_make(user=user, confirm="robo")
    return user


def challenge(creator, invited, *, rated=True, mode="classic") -> Game:
    return services.game_create(
        creator=creator,
        mode=mode,
        players=2,
        rated=rated,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username=invited.username)],
    )


# -- becoming a bot ----------------------------------------------------------------------------


def test_an_account_becomes_a_bot_on_its_page_by_typing_its_username(make_user):
    user = make_user("robo")
    client = client_for(user)
    page = client.get("/settings/tokens/")
    assert 'href="/settings/bot/"' in page.content.decode()
    wrong = client.post("/settings/bot/", {"confirm": "Robo "})
    assert wrong.status_code == 400 and "type your username exactly" in wrong.content.decode()
    assert not BotAccount.objects.filter(user=user).exists()
    done = client.post("/settings/bot/", {"confirm": "robo"})
    assert done.status_code == 302 and done["Location"] == "/settings/tokens/"
    assert BotAccount.objects.filter(user=user).exists()
    assert 'data-testid="is-bot"' in client.get("/settings/bot/").content.decode()
    # Now, and only now, the bot scope: a token with it is made.
    issued = tokens.token_issue(user=user, name="bridge", scopes=["bot"])
    assert issued.token.has_scope("play")


def test_an_account_with_a_game_cannot_become_a_bot(alice, bob):
    challenge(alice, bob)
    with pytest.raises(BotError, match="never played"):
        bot_account_make(user=bob, confirm="bob")
    response = client_for(alice).post("/settings/bot/", {"confirm": "alice"})
    assert response.status_code == 400 and "never played" in response.content.decode()
    assert not BotAccount.objects.exists()


def test_a_person_gets_no_bot_scope(alice):
    with pytest.raises(tokens.TokenError, match="only a bot account"):
        tokens.token_issue(user=alice, name="x", scopes=["bot"])


# -- the pages refuse a bot's session ----------------------------------------------------------


def test_a_bot_session_cannot_move_from_the_game_page(alice, robo):
    game = challenge(alice, robo)
    services.invitation_accept(game=game, user=robo)  # the API's accept: the same service
    game.refresh_from_db()
    state = game.current_state()
    services.action_submit(
        game=game, user=alice, action=engine.legal_actions(state)[0], expected_ply=game.ply
    )
    game.refresh_from_db()
    assert game.to_move_seat == 1  # the bot's turn
    action = engine.legal_actions(game.current_state())[0]
    response = post_action(client_for(robo), game, action)
    assert response.status_code == 403
    assert "plays through the API only" in response.content.decode()
    game.refresh_from_db()
    assert game.ply == 1  # nothing played
    # The same move through the write path the API uses is played.
    services.action_submit(game=game, user=robo, action=action, expected_ply=1)
    game.refresh_from_db()
    assert game.ply == 2


def test_a_bot_session_cannot_open_a_game_or_play_now_from_the_pages(robo, alice):
    client = client_for(robo)
    new = client.post(
        "/games/new/",
        {"mode": "classic", "players": 2, "seat0_kind": "human", "seat1_kind": "open"},
    )
    assert new.status_code == 403 and "plays through the API only" in new.content.decode()
    play = client.post(
        "/play/", {"mode": "classic", "players": 2, "move_seconds": DAY, "fill_after": "never"}
    )
    assert play.status_code == 403 and "plays through the API only" in play.content.decode()
    assert not Game.objects.exists() and not Seek.objects.exists()


# -- rated games with people -------------------------------------------------------------------


def test_a_bot_invites_people_to_unrated_games_only(robo, alice):
    with pytest.raises(services.NotAllowed, match="unrated games only"):
        challenge(robo, alice, rated=True)
    assert not Game.objects.exists()
    assert challenge(robo, alice, rated=False).status == Game.Status.OPEN
    # A person's rated challenge to the bot is theirs to make.
    assert challenge(alice, robo, rated=True).rated


def ask(user, *, rated=True, now=None):
    return seeks.seek_ask(
        user=user,
        mode="classic",
        players=2,
        move_seconds=DAY,
        rated=rated,
        fill_after=None,
        now=now,
    )


def test_play_now_never_seats_a_bot_with_people_at_a_rated_table(alice, robo, make_user):
    now = timezone.now()
    ask(alice, now=now)
    bot_seek = ask(robo, now=now)
    assert bot_seek.status == Seek.Status.WAITING
    assert bot_seek.table_id != Seek.objects.get(user=alice).table_id
    # Nor does the sweep join their tables, however long they wait.
    counts = seeks.sweep(now=now + timedelta(days=2))
    assert counts["joined"] == 0 and counts["started"] == 0
    assert not Game.objects.exists()
    # Another bot does sit with the bot at once.
    other = make_user("droid")
    bot_account_make(user=other, confirm="droid")
    assert ask(other, now=now).status == Seek.Status.STARTED


def test_an_unrated_play_now_table_seats_a_bot_with_people(alice, robo):
    ask(alice, rated=False)
    assert ask(robo, rated=False).status == Seek.Status.STARTED


# -- tournaments -------------------------------------------------------------------------------


def a_tournament(creator, **kw) -> Tournament:
    return tournaments.tournament_create(
        creator=creator,
        name="Autumn cup",
        format=Tournament.Format.SWISS,
        mode="classic",
        size=2,
        move_seconds=3600,
        rounds=3,
        min_players=2,
        max_players=32,
        starts_at=timezone.now() + timedelta(hours=2),
        **kw,
    )


def test_a_tournament_refuses_a_bot_unless_it_allows_bots(alice, robo, bob):
    cup = a_tournament(alice)
    assert not cup.allow_bots
    with pytest.raises(services.NotAllowed, match="does not allow bot accounts"):
        tournaments.tournament_register(tournament=cup, user=robo)
    assert not cup.entries.filter(user=robo).exists()
    tournaments.tournament_register(tournament=cup, user=bob)  # people as before
    Tournament.objects.filter(pk=cup.pk).update(allow_bots=True)
    cup.refresh_from_db()
    assert tournaments.tournament_register(tournament=cup, user=robo).user == robo


def test_the_tournament_form_lets_its_creator_allow_bots(alice, robo, bob):
    """The creation form's "Bot accounts may play" box (unticked at first) sets allow_bots, which
    the tournament's page tells and registration reads."""
    client = client_for(alice)
    form = client.get("/tournaments/new/").content.decode()
    box = re.search(r'<input type="checkbox" name="allow_bots"[^>]*>', form)
    assert box and "checked" not in box.group(0) and "Bot accounts may play" in form
    starts = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    fields = {
        "format": "swiss",
        "mode": "classic",
        "size": "2",
        "move_seconds": str(DAY),
        "rounds": "3",
        "min_players": "2",
        "max_players": "8",
        "starts_at": starts,
        "late_join_until": "0",
    }
    with_bots = client.post("/tournaments/new/", fields | {"name": "Robots", "allow_bots": "on"})
    assert with_bots.status_code == 302
    cup = Tournament.objects.get(name="Robots")
    assert cup.allow_bots
    assert "bot accounts may play" in client_for(bob).get(with_bots["Location"]).content.decode()
    assert tournaments.tournament_register(tournament=cup, user=robo).user == robo
    people = client_for(bob).post("/tournaments/new/", fields | {"name": "People"})
    assert people.status_code == 302
    cup = Tournament.objects.get(name="People")
    assert not cup.allow_bots
    assert "bot accounts may play" not in client_for(bob).get(people["Location"]).content.decode()
    with pytest.raises(services.NotAllowed, match="does not allow bot accounts"):
        tournaments.tournament_register(tournament=cup, user=robo)


# -- marked where names show -------------------------------------------------------------------


def test_a_bot_is_marked_on_its_profile_and_in_the_lists(alice, robo):
    game = challenge(alice, robo)
    profile = client_for(alice).get("/players/robo/")
    assert 'data-testid="bot-mark"' in profile.content.decode()
    assert 'data-testid="bot-mark"' not in client_for(robo).get("/players/alice/").content.decode()
    page = lists.my_games(alice)
    (row,) = [r for r in page.open if r.public_id == game.public_id]
    assert "robo (bot) (invited)" in row.seat_labels
    assert "alice" in row.seat_labels


def test_the_game_page_marks_a_bots_seat_from_its_one_read(alice, robo, bob):
    """The game page's names say "bot" for a bot account's seat, read with the seats in the
    page's one query (games.selectors.hot), and the panel cached before the player became a
    bot is not the one served after (its key reads the flag)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.selectors import hot
    from tests.support.pages import page_url, panel_url

    game = challenge(alice, robo, rated=False)
    services.invitation_accept(game=game, user=robo)
    page = client_for(alice).get(page_url(game)).content.decode()
    assert "robo (bot)" in page and "alice (bot)" not in page
    assert "robo (bot)" in client_for(bob).get(panel_url(game)).content.decode()  # a spectator
    with CaptureQueriesContext(connection) as queries:
        _game, seats = hot.game_with_seats(game.public_id)
        labels = [s.label for s in seats]
        bots = [getattr(s.user, "api_bot", None) for s in seats]
    assert len(queries) == 1 and labels == ["alice", "robo (bot)"]
    assert bots[0] is None and bots[1] == BotAccount.objects.get(user=robo)
    assert bots[1].user is seats[1].user


def test_a_panel_cached_before_a_player_became_a_bot_is_not_served(alice, bob):
    game = challenge(alice, bob, rated=False)
    services.invitation_accept(game=game, user=bob)
    client = client_for(alice)
    from tests.support.pages import panel_url

    assert "bob (bot)" not in client.get(panel_url(game)).content.decode()  # now cached
    BotAccount.objects.create(user=bob)  # the flag alone (an account with games cannot become one)
    assert "bob (bot)" in client.get(panel_url(game)).content.decode()


# -- staff -------------------------------------------------------------------------------------


def test_staff_list_the_bots_and_disable_one(robo, dave):
    secret = tokens.token_issue(user=robo, name="bridge", scopes=["bot"]).secret
    assert tokens.authenticate(secret) is not None
    client = client_for(dave)
    listing = client.get("/admin/api/botaccount/")
    assert listing.status_code == 200 and "robo" in listing.content.decode()
    bot = BotAccount.objects.get(user=robo)
    done = client.post(
        "/admin/api/botaccount/",
        {"action": "disable", "_selected_action": [bot.pk]},
    )
    assert done.status_code == 302
    robo.refresh_from_db()
    assert not robo.is_active
    assert tokens.authenticate(secret) is None  # its tokens stop at once
