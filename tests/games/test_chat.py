"""Chat and reports: alice and bob talk in their duel, carol watches (or may not), dave is staff."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import services
from games.models import ChatMessage, Game, Report, Seat
from games.services import SeatSpec, chat

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def fresh_cache():
    # The rate limit counts in the cache: every test starts with a clean slate.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def private_duel(alice, bob):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        visibility=Game.Visibility.PRIVATE,
    )
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    return game


def chat_url(game: Game) -> str:
    return reverse("game_chat", args=[game.public_id])


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post_line(client: Client, game: Game, text: str, **extra):
    return client.post(chat_url(game), {"text": text}, **HTMX, **extra)


# -- reading and writing ----------------------------------------------------------------------


def test_a_player_posts_and_the_panel_comes_back_with_the_line(duel, alice):
    response = post_line(as_user(alice), duel, "  good luck!  ")

    assert response.status_code == 200
    assert b'id="chat-panel"' in response.content
    assert b"good luck!" in response.content
    line = ChatMessage.objects.get()
    assert (line.game, line.user, line.text) == (duel, alice, "good luck!")


def test_the_lines_read_oldest_first_for_players_and_spectators(duel, alice, bob, carol):
    for user, text in [(alice, "first line"), (bob, "second line"), (alice, "third line")]:
        assert post_line(as_user(user), duel, text).status_code == 200

    for client in (as_user(bob), as_user(carol), Client()):
        page = client.get(chat_url(duel)).content.decode()
        assert page.index("first line") < page.index("second line") < page.index("third line")


def test_an_htmx_get_renders_the_panel_alone_and_a_plain_get_the_whole_page(duel, alice):
    client = as_user(alice)

    panel = client.get(chat_url(duel), **HTMX)
    page = client.get(chat_url(duel))
    log = client.get(chat_url(duel) + "?part=log", **HTMX)

    assert panel.status_code == page.status_code == log.status_code == 200
    assert b"<html" not in panel.content and b'id="chat-panel"' in panel.content
    assert b"<html" in page.content and b"css/chat.css" in page.content
    assert b'id="chat-log"' in log.content and b'id="chat-panel"' not in log.content


def test_a_plain_post_redirects_back_to_the_chat(duel, alice):
    response = as_user(alice).post(chat_url(duel), {"text": "no javascript here"})

    assert response.status_code == 302
    assert response["Location"] == chat_url(duel)
    assert ChatMessage.objects.filter(text="no javascript here").exists()


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_an_empty_message_is_refused(duel, alice, text):
    response = post_line(as_user(alice), duel, text)

    assert response.status_code == 400
    assert b"empty" in response.content
    assert not ChatMessage.objects.exists()


def test_a_message_of_501_characters_is_refused_and_500_are_accepted(duel, alice):
    client = as_user(alice)

    too_long = post_line(client, duel, "x" * 501)
    just_right = post_line(client, duel, "y" * 500)

    assert too_long.status_code == 400
    assert b"at most 500 characters" in too_long.content
    assert just_right.status_code == 200
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["y" * 500]


def test_a_refused_message_stays_in_the_box_to_be_fixed(duel, alice):
    response = post_line(as_user(alice), duel, "z" * 501)

    assert f'value="{"z" * 501}"'.encode() in response.content


def test_markup_in_a_message_is_escaped_on_output(duel, alice, bob):
    post_line(as_user(alice), duel, "<script>alert('hi')</script>")

    page = as_user(bob).get(chat_url(duel)).content.decode()

    assert "<script>alert(" not in page
    assert "&lt;script&gt;alert(&#x27;hi&#x27;)&lt;/script&gt;" in page


def test_control_characters_become_spaces(duel, alice):
    post_line(as_user(alice), duel, "one\ntwo\x1b[31mthree")

    assert ChatMessage.objects.get().text == "one two [31mthree"


# -- who may read and write -------------------------------------------------------------------


def test_a_spectator_reads_a_public_chat_and_writes_to_the_spectators(duel, alice, carol):
    post_line(as_user(alice), duel, "hello")
    client = as_user(carol)

    read = client.get(chat_url(duel))
    write = post_line(client, duel, "nice opening")

    assert read.status_code == 200 and b"hello" in read.content
    assert b"Message to the spectators" in read.content
    assert write.status_code == 200
    line = ChatMessage.objects.get(user=carol)
    assert line.room == ChatMessage.Room.SPECTATORS
    assert b"nice opening" in client.get(chat_url(duel)).content  # spectators see both rooms


def test_players_see_the_spectators_room_only_after_the_game(duel, alice, bob, carol, dave):
    """lichess's rule: nobody coaches a player during a game."""
    post_line(as_user(carol), duel, "bob should play the long piece")
    post_line(as_user(alice), duel, "good luck")

    during = as_user(bob).get(chat_url(duel)).content
    assert b"good luck" in during
    assert b"long piece" not in during
    services.game_abort(game=duel, staff=dave, reason="over")
    after = as_user(bob).get(chat_url(duel)).content
    assert b"long piece" in after and b"(spectator)" in after


def test_a_private_games_chat_is_for_its_players_only(private_duel, carol):
    write = post_line(as_user(carol), private_duel, "let me in")
    assert write.status_code in (403, 404)
    assert not ChatMessage.objects.filter(user=carol).exists()


def test_an_anonymous_visitor_reads_a_public_chat_and_is_sent_to_log_in_to_post(duel, alice):
    post_line(as_user(alice), duel, "hello")

    read = Client().get(chat_url(duel))
    write = Client().post(chat_url(duel), {"text": "hi"})

    assert read.status_code == 200 and b"hello" in read.content
    assert write.status_code == 302 and "login" in write["Location"]
    assert ChatMessage.objects.count() == 1


def test_carol_cannot_read_or_write_in_a_private_games_chat(private_duel, alice, carol):
    post_line(as_user(alice), private_duel, "just between us")
    client = as_user(carol)

    assert client.get(chat_url(private_duel)).status_code == 404
    assert post_line(client, private_duel, "hi").status_code == 404
    assert Client().get(chat_url(private_duel)).status_code == 404


def test_the_players_of_a_private_game_chat(private_duel, alice, bob):
    post_line(as_user(alice), private_duel, "just between us")

    response = as_user(bob).get(chat_url(private_duel))

    assert response.status_code == 200 and b"just between us" in response.content


def test_an_unknown_game_is_a_404(alice):
    assert as_user(alice).get("/games/nope/chat/").status_code == 404


def test_the_chat_of_an_aborted_game_is_closed(duel, alice, dave):
    services.game_abort(game=duel, staff=dave, reason="test")

    response = post_line(as_user(alice), duel, "hello?")

    assert response.status_code == 403
    assert not ChatMessage.objects.exists()


def test_hidden_messages_are_gone_for_players_and_marked_for_staff(duel, alice, bob, dave):
    post_line(as_user(alice), duel, "something rude")
    services.chat_hide(message=ChatMessage.objects.get(), staff=dave, reason="rude")

    for_bob = as_user(bob).get(chat_url(duel))
    for_alice = as_user(alice).get(chat_url(duel))
    for_staff = as_user(dave).get(chat_url(duel))

    assert b"something rude" not in for_bob.content
    assert b"something rude" not in for_alice.content
    assert b"something rude" in for_staff.content and b"hidden by a moderator" in for_staff.content


def test_csrf_is_enforced_on_chat_posts(duel, alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = client.post(chat_url(duel), {"text": "forged"})

    assert response.status_code == 403
    assert not ChatMessage.objects.exists()


def test_the_panel_is_a_csrf_protected_htmx_form(duel, alice):
    page = as_user(alice).get(chat_url(duel), **HTMX).content.decode()

    assert f'hx-post="{chat_url(duel)}"' in page
    assert 'name="csrfmiddlewaretoken"' in page


# -- rate limit -------------------------------------------------------------------------------


def test_the_sixth_message_in_ten_seconds_is_refused_with_429(duel, alice, monkeypatch):
    monkeypatch.setattr(chat, "_now", lambda: 1_000_000.0)
    client = as_user(alice)

    answers = [post_line(client, duel, f"line {n}").status_code for n in range(6)]

    assert answers == [200] * 5 + [429]
    refused = post_line(client, duel, "and another")
    assert refused.status_code == 429
    assert (
        b"Slow down: at most 5 messages in 10 seconds" in refused.content
        and int(refused["Retry-After"]) >= 1
    )
    assert ChatMessage.objects.count() == 5


def test_the_limit_is_per_user_and_lifts_after_the_window(duel, alice, bob, monkeypatch):
    clock = [1_000_000.0]
    monkeypatch.setattr(chat, "_now", lambda: clock[0])
    for n in range(5):
        post_line(as_user(alice), duel, f"line {n}")

    assert post_line(as_user(alice), duel, "too fast").status_code == 429
    assert post_line(as_user(bob), duel, "my turn to talk").status_code == 200
    clock[0] += 10
    assert post_line(as_user(alice), duel, "later").status_code == 200


def test_thirty_messages_in_ten_minutes_is_the_most(duel, alice, monkeypatch):
    clock = [600.0 * 2000]  # the start of a ten-minute window
    monkeypatch.setattr(chat, "_now", lambda: clock[0])
    client = as_user(alice)

    answers = []
    for n in range(31):
        answers.append(post_line(client, duel, f"line {n}").status_code)
        clock[0] += 3  # slow enough for the ten-second window
    assert answers == [200] * 30 + [429]
    assert ChatMessage.objects.count() == 30


def test_refused_messages_do_not_count_against_the_limit(duel, alice, monkeypatch):
    monkeypatch.setattr(chat, "_now", lambda: 1_000_000.0)
    client = as_user(alice)
    for _ in range(10):
        post_line(client, duel, "")

    assert [post_line(client, duel, f"line {n}").status_code for n in range(5)] == [200] * 5


# -- reports ----------------------------------------------------------------------------------


def report(client: Client, **data):
    return client.post(reverse("report"), data, **HTMX)


def test_each_line_of_someone_else_has_a_report_button(duel, alice, bob):
    post_line(as_user(alice), duel, "mine")
    line = ChatMessage.objects.get()

    for_bob = as_user(bob).get(chat_url(duel)).content.decode()
    for_alice = as_user(alice).get(chat_url(duel)).content.decode()

    assert f"{reverse('report')}?message={line.pk}" in for_bob
    assert "?message=" not in for_alice


def test_a_chat_message_is_reported_into_the_queue(duel, alice, bob):
    post_line(as_user(alice), duel, "you are bad")
    line = ChatMessage.objects.get()

    response = report(as_user(bob), message=line.pk, reason="insulting")

    assert response.status_code == 200
    assert b"moderators" in response.content
    filed = Report.objects.get()
    assert (filed.reporter, filed.reported_user, filed.game, filed.message) == (
        bob,
        alice,
        duel,
        line,
    )
    assert filed.reason == "insulting" and filed.status == Report.Status.OPEN


def test_a_player_is_reported_with_a_game(duel, alice, carol):
    response = report(as_user(carol), user="alice", game=duel.public_id, reason="stalling")

    assert response.status_code == 200
    filed = Report.objects.get()
    assert (filed.reporter, filed.reported_user, filed.game, filed.message) == (
        carol,
        alice,
        duel,
        None,
    )


def test_a_player_is_reported_without_a_game(alice, bob):
    response = report(as_user(bob), user="ALICE", reason="rude name")

    assert response.status_code == 200
    assert Report.objects.get().reported_user == alice


def test_the_same_open_report_is_not_filed_twice(duel, alice, bob):
    post_line(as_user(alice), duel, "you are bad")
    line = ChatMessage.objects.get()
    client = as_user(bob)

    report(client, message=line.pk, reason="insulting")
    again = report(client, message=line.pk, reason="still insulting")
    report(client, user="alice", reason="rude")
    report(client, user="alice", game=duel.public_id, reason="rude again")

    assert again.status_code == 200 and b"already reported" in again.content
    assert Report.objects.filter(message=line).count() == 1
    assert Report.objects.filter(message=None).count() == 1


def test_nobody_reports_themselves(duel, alice):
    post_line(as_user(alice), duel, "mine")
    line = ChatMessage.objects.get()
    client = as_user(alice)

    by_message = report(client, message=line.pk, reason="oops")
    by_name = report(client, user="alice", reason="oops")
    form = client.get(reverse("report") + "?user=alice")

    assert by_message.status_code == by_name.status_code == form.status_code == 400
    assert b"report yourself" in by_name.content
    assert not Report.objects.exists()


@pytest.mark.parametrize("reason", ["", "   ", "r" * 501])
def test_a_report_needs_a_reason_of_at_most_500_characters(alice, bob, reason):
    response = report(as_user(bob), user="alice", reason=reason)

    assert response.status_code == 400
    assert not Report.objects.exists()


def test_a_reason_of_500_characters_is_accepted(alice, bob):
    assert report(as_user(bob), user="alice", reason="r" * 500).status_code == 200
    assert Report.objects.get().reason == "r" * 500


def test_the_report_form_names_its_target(duel, alice, bob):
    post_line(as_user(alice), duel, "<b>bold</b> words")
    line = ChatMessage.objects.get()
    client = as_user(bob)

    by_message = client.get(reverse("report") + f"?message={line.pk}", **HTMX)
    by_name = client.get(reverse("report") + "?user=alice")
    nothing = client.get(reverse("report"))

    assert by_message.status_code == 200
    assert b"&lt;b&gt;bold&lt;/b&gt; words" in by_message.content
    assert b'name="reason"' in by_message.content and b"<html" not in by_message.content
    assert by_name.status_code == 200 and b'value="alice"' in by_name.content
    assert nothing.status_code == 400
    assert not Report.objects.exists()  # a GET never writes


def test_unknown_or_unseen_targets_are_404(private_duel, alice, carol):
    post_line(as_user(alice), private_duel, "secret")
    line = ChatMessage.objects.get()
    client = as_user(carol)

    assert report(client, message=line.pk, reason="x").status_code == 404
    for bad_id in ("12x", "²", "9" * 40, "-1"):
        assert report(client, message=bad_id, reason="x").status_code == 404
    assert report(client, user="nobody", reason="x").status_code == 404
    assert report(client, user="alice", game=private_duel.public_id, reason="x").status_code == 404
    assert not Report.objects.exists()


def test_reporting_needs_a_login(alice):
    response = Client().post(reverse("report"), {"user": "alice", "reason": "x"})

    assert response.status_code == 302 and "login" in response["Location"]
    assert not Report.objects.exists()


def test_csrf_is_enforced_on_reports(alice, bob):
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)

    response = client.post(reverse("report"), {"user": "alice", "reason": "x"})

    assert response.status_code == 403
    assert not Report.objects.exists()


def test_a_plain_report_post_renders_the_thank_you_page(duel, alice, bob):
    response = as_user(bob).post(
        reverse("report"), {"user": "alice", "game": duel.public_id, "reason": "stalling"}
    )

    assert response.status_code == 200
    assert b"<html" in response.content and b"moderators" in response.content
    assert Report.objects.count() == 1


def test_a_player_cannot_read_the_spectators_room_through_the_report_form(duel, alice, carol):
    """While the game runs a seated player does not read the spectators' room, so
    the report form does not quote its lines either (ids are sequential: no probing)."""
    post_line(as_user(carol), duel, "the spectators think blue is losing")
    line = ChatMessage.objects.get()
    assert line.room == ChatMessage.Room.SPECTATORS

    for method in ("get", "post"):
        client = as_user(alice)
        if method == "get":
            response = client.get(reverse("report"), {"message": line.pk}, **HTMX)
        else:
            response = report(client, message=line.pk, reason="x")
        assert response.status_code == 404
        assert b"blue is losing" not in response.content
    assert not Report.objects.exists()
