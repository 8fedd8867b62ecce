"""The game table: the move log, the colour panels and
clocks, the end of the game and the rematch, computers named by colour, the confirm setting.

Games are played through the services with real actions; the decks are a custom recipe of Skip
and Reverse only (R1.4 allows any 14 cards), so that the other players' turns are sure to skip
and reverse.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.pages import client_for, page_url
from tests.support.tables import (  # noqa: F401
    SKIPS_AND_REVERSES,
    finished,
    four_humans,
    play_until_alice_has_been_skipped_and_reversed,
)


def test_the_move_log_marks_the_skip_and_the_reverse_since_the_viewers_last_turn(
    alice, bob, carol, dave
):
    game = four_humans(alice, bob, carol, dave)
    play_until_alice_has_been_skipped_and_reversed(game, {0: alice, 1: bob, 2: carol, 3: dave})

    content = client_for(alice).get(page_url(game)).content.decode()

    log = re.search(r'<section class="move-log".*?</section>', content, re.S).group(0)
    turns = re.findall(r'<li class="log-turn (\w+)( new)?">(.*?)</ul>\s*</li>', log, re.S)
    assert turns, "the log lists the turns"
    new = [body for _, is_new, body in turns if is_new]
    assert new, "turns since Alice's last one are marked"
    since = " ".join(new)
    assert "played Skip" in since and "played Reverse" in since
    # Newest first; the first turn not marked new is Alice's own (blue) last turn.
    first_old = next(colour for colour, is_new, _ in turns if not is_new)
    assert first_old == "blue"
    assert f"{len(new)} turn{'s' if len(new) != 1 else ''} since yours" in log
    # Each turn links to the replay at its last action.
    plies = [int(p) for p in re.findall(r'href="/games/[^/]+/replay/\?ply=(\d+)"', log)]
    assert plies == sorted(plies, reverse=True) and plies[0] == game.ply
    # Every line is a public caption: no card of a hand that was not played (R9.2).
    assert "Warp" not in log and "Wild" not in log


def test_each_colour_panel_shows_its_player_deck_and_clock(alice, bob, carol, dave):
    game = four_humans(alice, bob, carol, dave)

    content = client_for(bob).get(page_url(game)).content.decode()

    panels = re.findall(r'<li class="colour-row (\w+)(.*?)</li>', content, re.S)
    assert [colour for colour, _ in panels] == ["blue", "yellow", "red", "green"]
    blue = dict(panels)["blue"]
    assert "to-move" in blue and "alice" in blue and "89 squares left" in blue
    assert "in hand" in blue and "pile " in blue
    # The running turn's clock: its deadline and the time left (1 day per move by default).
    deadline = game.turn_started_at + timedelta(seconds=game.move_seconds)
    assert f'data-deadline="{deadline.isoformat()}"' in blue
    assert re.search(r'<span class="clock-left">23\xa0hours, 59\xa0minutes</span> left', blue)
    assert "At the deadline the computer plays this turn" in content
    assert "1 day per move" in dict(panels)["yellow"]


def test_computer_seats_are_named_by_colour_and_level(alice):
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=4,
        seats=[SeatSpec(Seat.Kind.HUMAN)]
        + [SeatSpec(Seat.Kind.AI, level=lv) for lv in ("casual", "expert", "beginner")],
    )
    labels = [s.label for s in game.seats.order_by("index")]
    assert labels == [
        "alice",
        "Computer - Yellow (Casual)",
        "Computer - Red (Expert)",
        "Computer - Green (Beginner)",
    ]
    duel_ai = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="casual")],
    )
    assert duel_ai.seats.get(index=1).label == "Computer - Yellow & Green (Casual)"  # R2.5


def test_the_end_shows_the_winner_your_place_and_each_colours_points(duel, alice, bob):
    finished(duel)

    mine = client_for(alice).get(page_url(duel)).content.decode()
    theirs = client_for(bob).get(page_url(duel)).content.decode()

    # R8.4, two players in Shuffle mode: a player scores their worse colour. Alice placed
    # everything (+20 each), Bob has the 5-square I5 left in yellow (−5).
    assert re.search(r'<section class="result won".*?You won!', mine, re.S)
    assert "Your place: <strong>1</strong> of 2." in mine
    assert "alice wins" in theirs and "Your place: <strong>2</strong> of 2." in theirs
    result = re.search(r'<section class="result.*?</ul>', theirs, re.S).group(0)
    assert "−1 for each of 5 squares left (R8.4)" in result
    # Each of Alice's colours placed its 1 last (the corner squares): +15 and +5 (R8.5).
    assert (
        "<strong>Blue</strong> 20 — every piece placed: +15, and +5 for the 1 placed last" in result
    )
    assert "Finished" in theirs and "In play" not in theirs
    assert f'action="/games/{duel.public_id}/rematch/"' in mine


def test_a_rematch_has_the_same_settings_and_invites_the_others(duel, alice, bob, verified):
    finished(duel)
    Game.objects.filter(pk=duel.pk).update(move_seconds=3600, rated=False)
    duel.refresh_from_db()

    response = client_for(bob).post(reverse("game_rematch", args=[duel.public_id]))

    rematch = Game.objects.get(rematch_of=duel)
    assert response.status_code == 302 and response["Location"] == page_url(rematch)
    for field in ("mode", "players", "scoring", "deck_recipe", "move_seconds", "visibility"):
        assert getattr(rematch, field) == getattr(duel, field), field
    assert rematch.rated is False and rematch.status == Game.Status.OPEN
    seats = {s.index: s for s in rematch.seats.all()}
    # The seats rotate: Bob, second before, sits at blue and moves first (R2.6).
    assert seats[0].user == bob and seats[0].kind == Seat.Kind.HUMAN
    assert seats[1].user == alice and seats[1].kind == Seat.Kind.INVITED
    # Alice asks too: the same rematch, and she takes her seat; it starts.
    response = client_for(alice).post(reverse("game_rematch", args=[duel.public_id]))
    assert response["Location"] == page_url(rematch)
    rematch.refresh_from_db()
    assert Game.objects.filter(rematch_of=duel).count() == 1
    assert rematch.status == Game.Status.ACTIVE


def test_no_rematch_before_the_end_or_for_a_spectator(duel, alice, carol):
    before = Game.objects.count()
    url = reverse("game_rematch", args=[duel.public_id])

    early = client_for(alice).post(url, follow=True)
    finished(duel)
    spectator = client_for(carol).post(url, follow=True)
    anonymous = Client().post(url)

    assert early.redirect_chain[-1][0] == page_url(duel)
    assert "No rematch: a rematch can be asked for once the game is over." in early.content.decode()
    assert "No rematch: only the players of this game" in spectator.content.decode()
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert Game.objects.count() == before


def test_new_game_with_these_settings_fills_the_form(duel, alice):
    finished(duel)
    Game.objects.filter(pk=duel.pk).update(move_seconds=3 * 24 * 3600)

    content = client_for(alice).get(reverse("game_new") + f"?like={duel.public_id}")

    html = content.content.decode()
    assert re.search(r'<option value="259200" selected>', html)
    assert re.search(r'name="seat1_kind"[^>]*>.*?<option value="invited" selected>', html, re.S)
    assert re.search(r'name="seat1_username" value="bob"', html)


def test_the_confirm_moves_setting_reaches_the_board(duel, alice):
    assert 'data-confirm-moves="1"' in client_for(alice).get(page_url(duel)).content.decode()
    alice.confirm_moves = False
    alice.save(update_fields=["confirm_moves"])
    assert 'data-confirm-moves="0"' in client_for(alice).get(page_url(duel)).content.decode()


def test_the_clock_counts_from_a_cached_panel_without_going_stale(duel, alice):
    """The panel is cached per position; the time left is worked out per request."""
    client = client_for(alice)
    first = client.get(page_url(duel)).content.decode()
    Game.objects.filter(pk=duel.pk).update(
        turn_started_at=timezone.now() - timedelta(hours=5), move_seconds=24 * 3600
    )
    duel.refresh_from_db()
    later = client.get(page_url(duel)).content.decode()
    left = re.compile(r'<span class="clock-left">([^<]*)</span>')
    assert left.search(first).group(1) != left.search(later).group(1)
    assert left.search(later).group(1).startswith("18\xa0hours")
