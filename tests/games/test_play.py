"""The game page, its decision panel and the act endpoint (games/views/game.py, games/presenters).

alice (seat 0: blue and red) and bob (seat 1: yellow and green) play ``duel``; carol watches.
Positions are either played with ``services.action_submit`` or built with the engine helpers and
saved as the game's snapshot (no Action rows: nothing here needs them).
"""

from __future__ import annotations

import html
import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import engine, services
from games.engine.state import State
from games.models import Action, Game, Seat
from games.services import SeatSpec
from tests.engine.helpers import make_state, play
from tests.support.pages import (  # noqa: F401
    CORNERS,
    HTMX,
    act_url,
    client_for,
    page_url,
    panel_url,
    play_setup,
    post_action,
    save_state,
    section,
    text,
)

pytestmark = pytest.mark.django_db

SEED = 738291046573829104  # long and distinctive: searchable in a page


# -- helpers --------------------------------------------------------------------------------


def two_player(**kwargs) -> State:
    """A 2-player main-turn position: alice (blue) to move, every colour in its corner."""
    kwargs.setdefault("pieces", CORNERS)
    return make_state(players=2, **kwargs)


def current(game) -> State:
    game.refresh_from_db()
    return game.current_state()


def snapshot(game) -> tuple:
    game.refresh_from_db()
    return (Action.objects.filter(game=game).count(), game.ply, game.state, game.status)


def button_value(content: str, label: str) -> str:
    """The action a button with this aria-label posts."""
    match = re.search(
        r'<button[^>]*name="action" value="([^"]*)"[^>]*aria-label="'
        + re.escape(html.escape(label))
        + '"',
        content,
    )
    assert match, f"no button labelled {label!r}"
    return html.unescape(match.group(1))


def labels(content: str, prefix: str) -> list[str]:
    found = re.findall(r'aria-label="(' + re.escape(html.escape(prefix)) + r'[^"]*)"', content)
    return [html.unescape(label) for label in found]


# -- the page -------------------------------------------------------------------------------


def test_the_page_shows_a_seated_player_the_board_and_their_decision(duel, alice):
    response = client_for(alice).get(page_url(duel))

    content = text(response)
    assert response.status_code == 200
    assert 'aria-label="Board: columns a to t' in content
    assert content.count('<td class="cell') == 400
    assert '<th scope="row">20</th>' in content and '<th scope="col">t</th>' in content
    assert "<strong>Your turn</strong> (blue)" in content and "(you)" in content
    assert "Setup: place a piece covering a free corner square (R3.1)." in content
    assert 'aria-label="Choose piece F"' in content
    assert f'href="/games/{duel.public_id}/replay/"' in content
    assert f'href="/games/{duel.public_id}/record.json"' in content
    assert f'hx-get="/games/{duel.public_id}/chat/" hx-trigger="load"' in content


def test_the_board_shows_colours_with_letters_row_20_on_top(duel):
    state = two_player(hands={"blue": ["skip"]})
    save_state(duel, state)

    content = text(Client().get(page_url(duel)))

    rows = re.findall(r'<th scope="row">(\d+)</th>', content)
    assert rows == [str(n) for n in range(20, 0, -1)]
    assert re.search(r'<td class="cell blue[^"]*" title="a1 blue[^"]*">\s*B\s*</td>', content)
    assert re.search(r'<td class="cell yellow[^"]*" title="t1 yellow[^"]*">\s*Y\s*</td>', content)
    assert re.search(r'<td class="cell red[^"]*" title="t20 red[^"]*">\s*R\s*</td>', content)
    assert re.search(r'<td class="cell green[^"]*" title="a20 green[^"]*">\s*G\s*</td>', content)


def test_a_spectator_sees_board_and_counts_but_no_hand(duel, carol):
    save_state(duel, two_player(hands={"blue": ["wild"], "yellow": ["warp"]}))

    for client in (client_for(carol), Client()):
        content = text(client.get(page_url(duel)))
        assert 'aria-label="Board:' in content
        assert "Your hand" not in content and "Your move" not in content
        assert "Colours and pieces left" in content
        assert "Wild" not in content and "Warp" not in content
        assert "alice" in content and "bob" in content


def test_the_waiting_player_sees_whose_turn_it_is(duel, bob):
    content = text(client_for(bob).get(page_url(duel)))

    assert "Blue</strong> to move" in content and "(alice)" in content
    assert "Your move" not in content
    assert f'hx-get="{panel_url(duel)}" hx-trigger="every 60s"' in content
    # The live socket nudges the page as soon as a move lands (static/js/live.js).
    assert f'data-live="/ws/games/{duel.public_id}/"' in content
    assert f'data-refresh="{panel_url(duel)}"' in content


def test_the_page_shows_supply_counts_discards_direction_and_effects(duel, alice):
    state = two_player(
        hands={"blue": ["wild", "skip"], "yellow": ["edge"]},
        piles={"blue": ["double", "recycle", "warp"], "yellow": ["skip"]},
        discards={"yellow": ["reverse"]},
        direction=-1,
    )
    save_state(duel, play(state, {"card": "wild"}, {"declare": "red"}))

    content = text(client_for(alice).get(page_url(duel)))

    colours = section(content, "colours")  # each colour's panel: its deck's counts (R9.1)
    blue = re.search(r'<li class="colour-row blue.*?</li>', colours, re.S).group(0)
    yellow = re.search(r'<li class="colour-row yellow.*?</li>', colours, re.S).group(0)
    assert "1 in hand" in blue and "pile 3" in blue
    assert re.search(r"discard: <span[^>]*>Wild</span>", blue)
    assert "1 in hand" in yellow and "pile 1" in yellow
    assert re.search(r"discard: <span[^>]*>Reverse</span>", yellow)
    assert "88 squares left" in colours  # the 1 is on the board
    assert "I3 V3 I4" in colours
    assert "blue → green → red → yellow" in content
    assert "Wild: placing as if red" in content
    assert "Blue declared red" in content


def test_the_last_move_is_highlighted(duel, alice):
    client = client_for(alice)
    post_action(client, duel, {"place": "a1"})

    content = text(client.get(page_url(duel)))

    assert re.search(r'<td class="cell blue last" title="a1 blue, last move">', content)
    assert content.count(' last"') == 1
    assert "Blue placed 1 on a1" in content


def test_the_last_move_is_found_in_earlier_actions(duel, alice):
    play_setup(duel)
    green = duel.actions.get(ply=4).payload["place"]
    with_secrets(duel, hands={"blue": ["wild", "skip"]})

    content = text(post_action(client_for(alice), duel, {"card": "wild"}))  # no placement

    assert "Blue played Wild" in content
    for square in green.split(","):
        assert f'title="{square} green, last move"' in content
    assert content.count(", last move") == len(green.split(","))


def test_an_open_game_lists_the_seats_and_who_is_missing(alice, carol):
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )

    visitor = text(client_for(carol).get(page_url(game)))
    creator = text(client_for(alice).get(page_url(game)))
    anonymous = text(Client().get(page_url(game)))

    assert "Waiting for 1 more player" in visitor
    assert "Open seat <em>(missing)</em>" in visitor
    assert f'action="/games/{game.public_id}/join/"' in visitor and "Take a seat" in visitor
    assert f'action="/games/{game.public_id}/leave/"' in creator and "Cancel this game" in creator
    assert "Take a seat" not in creator
    assert "Log in to take a seat" in anonymous
    assert 'aria-label="Board:' not in visitor


def test_a_private_game_needs_its_invite_link(alice, bob, carol):
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.LINK)],
        visibility=Game.Visibility.PRIVATE,
    )

    assert client_for(carol).get(page_url(game)).status_code == 404
    assert Client().get(panel_url(game)).status_code == 404
    response = client_for(carol).get(page_url(game) + f"?token={game.invite_token}")
    assert response.status_code == 200
    assert f'name="token" value="{game.invite_token}"' in text(response)
    assert client_for(bob).get(page_url(game) + "?token=wrong").status_code == 404


def test_a_private_game_keeps_the_token_in_its_panel_links(alice, bob, carol):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        visibility=Game.Visibility.PRIVATE,
    )
    services.game_join(game=game, user=bob)

    content = text(client_for(carol).get(page_url(game) + f"?token={game.invite_token}"))

    assert f"/panel/?token={game.invite_token}" in content
    assert client_for(carol).get(panel_url(game, f"token={game.invite_token}")).status_code == 200


def test_a_classic_game_has_no_cards(alice, bob):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)

    content = text(client_for(alice).get(page_url(game)))

    assert "Your hand" not in content and '<section class="decks"' not in content
    assert 'aria-label="Choose piece I5"' in content


def test_a_finished_game_shows_the_scores(duel, alice):
    empty = {"blue": [], "yellow": [], "red": [], "green": []}
    over = make_state(players=2, pieces=CORNERS, supply=empty)  # nobody can move: R8.1
    assert over.over
    save_state(duel, over, status=Game.Status.FINISHED)

    content = text(client_for(alice).get(page_url(duel)))

    scores = section(content, "scores")
    assert "The game is over." in content
    assert "Basic scoring" in scores
    # Each name leads to the player's profile.
    alice_row = (
        r'<td>1</td><td><a href="/players/alice/">alice</a></td><td>blue, red</td><td>0</td>'
    )
    bob_row = r'<td>1</td><td><a href="/players/bob/">bob</a></td><td>yellow, green</td><td>0</td>'
    assert re.search(alice_row, scores) and re.search(bob_row, scores)
    assert "Your move" not in content and "Your hand" not in content


def test_a_finished_game_ranks_players_by_squares_left(duel, bob):
    state = two_player(supply={"blue": ["I5"], "yellow": ["1"], "red": [], "green": []})
    data = state.to_json()  # the end, declared directly: scores depend on the supplies only
    data.update(step="over", to_move=None)
    save_state(duel, State.from_json(data), status=Game.Status.FINISHED)

    scores = section(text(client_for(bob).get(page_url(duel))), "scores")

    bob_row = r'<td>1</td><td><a href="/players/bob/">bob</a></td><td>yellow, green</td><td>1</td>'
    alice_row = (
        r'<td>2</td><td><a href="/players/alice/">alice</a></td><td>blue, red</td><td>5</td>'
    )
    assert re.search(bob_row, scores) and re.search(alice_row, scores)


# -- one partial per phase ------------------------------------------------------------------


def test_the_card_step_offers_each_card_with_its_effect(duel, alice):
    save_state(duel, two_player(hands={"blue": ["skip", "skip", "warp"]}))

    content = text(client_for(alice).get(panel_url(duel)))

    assert 'class="step step-card"' in content
    assert json.loads(button_value(content, engine_label("Play Skip"))) == {"card": "skip"}
    assert "×2" in content
    assert 'aria-label="Play Warp: Move an opponent&#x27;s piece' in content
    hand = section(content, "hand")  # the hand is the choice: shown once (two kinds of card)
    assert hand.count('<button type="submit" class="card card-') == 2
    assert 'id="hand"' in hand and content.count('id="hand"') == 1


def engine_label(prefix: str) -> str:
    from games.engine.cards import CARD_EFFECTS, CARD_NAMES

    kind = next(k for k, name in CARD_NAMES.items() if prefix.endswith(name))
    return f"{prefix}: {CARD_EFFECTS[kind]}"


def test_keep_after_draw_2_shows_the_two_drawn_cards(duel, alice):
    save_state(
        duel, two_player(hands={"blue": ["draw2"]}, piles={"blue": ["warp", "edge", "skip"]})
    )

    response = post_action(client_for(alice), duel, {"card": "draw2"})

    content = text(response)
    assert response.status_code == 200
    assert 'class="step step-keep"' in content
    assert "Draw 2 drew Warp and Edge to Edge." in content
    assert json.loads(button_value(content, "Play Edge to Edge from Draw 2: " + edge_effect()))
    assert labels(content, "Play Warp from Draw 2")


def edge_effect() -> str:
    from games.engine.cards import CARD_EFFECTS

    return CARD_EFFECTS["edge"]


def test_wild_asks_for_a_colour_with_four_buttons(duel, alice):
    save_state(duel, two_player(hands={"blue": ["wild"]}))

    content = text(post_action(client_for(alice), duel, {"card": "wild"}))

    assert 'class="step step-declare"' in content
    assert labels(content, "Declare ") == [
        "Declare blue",
        "Declare yellow",
        "Declare red",
        "Declare green",
    ]
    assert json.loads(button_value(content, "Declare green")) == {"declare": "green"}


def test_recycle_lists_and_marks_your_pieces(duel, alice):
    save_state(duel, two_player(hands={"blue": ["recycle"]}))
    client = client_for(alice)

    content = text(post_action(client, duel, {"card": "recycle"}))

    assert 'class="step step-recycle"' in content
    assert labels(content, "Recycle ") == ["Recycle blue 1 at a1", "Recycle red 1 at t20"]
    assert '<td class="cell blue pick"' in content and '<td class="cell red pick"' in content
    assert '<td class="cell yellow pick"' not in content

    post_action(client, duel, json.loads(button_value(content, "Recycle red 1 at t20")))
    assert current(duel).pieces[2] == []


def test_warp_picks_a_piece_then_an_orientation_then_a_spot(duel, alice):
    pieces = {**CORNERS, "yellow": ["t1", "r2,s2"]}
    save_state(duel, two_player(pieces=pieces, hands={"blue": ["warp"]}))
    client = client_for(alice)

    content = text(post_action(client, duel, {"card": "warp"}))
    assert 'class="step step-warp"' in content
    assert "Warp yellow 2 from r2,s2" in labels(content, "Warp yellow 2 from")
    assert '<td class="cell yellow pick"' in content
    assert "Warp blue" not in content and "Warp red" not in content  # R6.8: opponents only

    content = text(client.get(panel_url(duel, "from=r2,s2")))
    assert "Warp: moving 2 from r2,s2." in content
    assert '<td class="cell yellow lifted"' in content
    orientation = re.search(r'hx-get="([^"]*o=(\d)[^"]*)"', content)
    content = text(client.get(html.unescape(orientation.group(1))))
    spots = labels(content, "Warp 2 to ")
    assert spots
    action = json.loads(button_value(content, spots[0]))
    assert action["warp"] == "r2,s2"

    response = post_action(client, duel, action)
    assert response.status_code == 200
    assert action["to"] in current(duel).to_json()["pieces"]["yellow"]


def test_double_play_offers_the_second_piece(duel, alice):
    save_state(duel, two_player(hands={"blue": ["double"]}))
    client = client_for(alice)
    post_action(client, duel, {"card": "double"})

    content = text(post_action(client, duel, {"place": "b2,b3"}))

    assert "Double Play: place a second piece touching the first one" in content
    assert '<td class="cell blue last first"' in content
    assert current(duel).step == "place_second"
    assert 'aria-label="Choose piece V3"' in content


def test_the_place_step_follows_the_card(duel, alice):
    save_state(duel, two_player(hands={"blue": ["reverse"]}))

    content = text(post_action(client_for(alice), duel, {"card": "reverse"}))

    assert "Place a blue piece (R5.3)." in content
    assert 'aria-label="Choose piece 2"' in content
    assert 'aria-label="Choose piece 1"' not in content  # already on the board


def test_pieces_offered_are_exactly_those_with_a_legal_spot(duel, alice):
    pieces = {**CORNERS, "green": ["a20", "c3,d3,e3,f3,g3"]}
    state = two_player(pieces=pieces, supply={"blue": ["2", "V3", "I5", "X"]})
    save_state(duel, state)

    content = text(client_for(alice).get(panel_url(duel)))

    offered = [label.removeprefix("Choose piece ") for label in labels(content, "Choose piece ")]
    legal = {piece_of(a["place"]) for a in engine.legal_actions(state)}
    assert set(offered) == legal
    assert "X" not in offered  # the X never touches a1 at a corner without a side


def piece_of(squares: str) -> str:
    from games.engine.pieces import parse_squares, shape_of_mask

    return shape_of_mask(parse_squares(squares))


# -- the placement flow, end to end ---------------------------------------------------------


def test_a_setup_placement_through_the_panel(duel, alice):
    client = client_for(alice)

    first = text(client.get(panel_url(duel)))
    assert f'hx-get="{panel_url(duel, "piece=V3")}"' in first
    picked = text(client.get(panel_url(duel, "piece=V3")))
    orientations = re.findall(r'aria-label="(Orientation \d of V3 \(3 spots\))"', picked)
    assert len(orientations) == 4  # each orientation fits three corners
    assert "Place V3 at" not in picked

    oriented = text(client.get(panel_url(duel, "piece=V3&o=0")))
    spots = labels(oriented, "Place V3 at ")
    assert len(spots) == 3 and 'aria-current="true"' in oriented
    action = json.loads(button_value(oriented, spots[0]))
    key = re.search(r'name="key" value="([^"]+)"', oriented).group(1)

    response = post_action(client, duel, action, ply=0, key=key)

    assert response.status_code == 200
    assert Action.objects.get(game=duel).payload == action
    content = text(response)
    assert "Yellow</strong> to move" in content and "(bob)" in content
    assert " last" in content
    duel.refresh_from_db()
    assert duel.ply == 1 and duel.state["pieces"]["blue"] == [action["place"]]


def test_a_piece_with_one_orientation_needs_no_orientation_click(duel, alice):
    content = text(client_for(alice).get(panel_url(duel, "piece=X")))

    # X has a single orientation but cannot cover a corner; the 1 has one and can
    assert "Choose piece X" not in content
    content = text(client_for(alice).get(panel_url(duel, "piece=1")))
    assert sorted(labels(content, "Place 1 at ")) == [
        "Place 1 at a1",
        "Place 1 at a20",
        "Place 1 at t1",
        "Place 1 at t20",
    ]


def test_a_nonsense_selection_falls_back_to_the_first_choice(duel, alice):
    client = client_for(alice)

    for query in ("piece=Q", "piece=F&o=99", "piece=F&o=x", "from=a1"):
        response = client.get(panel_url(duel, query))
        assert response.status_code == 200
        assert 'aria-label="Choose piece F"' in text(response)
    # A NUL byte is malformed input, not a selection: refused before the view.
    assert client.get(panel_url(duel, "piece=%00")).status_code == 400


def test_a_plain_form_post_redirects_to_the_page(duel, alice):
    response = post_action(client_for(alice), duel, {"place": "a1"}, htmx=False)

    assert response.status_code == 302 and response["Location"] == page_url(duel)
    assert Action.objects.filter(game=duel).count() == 1


def test_the_same_key_twice_plays_once(duel, alice):
    client = client_for(alice)
    post_action(client, duel, {"place": "a1"}, key="k-1")

    response = post_action(client, duel, {"place": "a1"}, ply=0, key="k-1")

    assert response.status_code == 200
    assert Action.objects.filter(game=duel).count() == 1


def test_the_page_works_without_htmx_at_a_selection(duel, alice):
    content = text(client_for(alice).get(page_url(duel) + "?piece=1"))

    assert "<!DOCTYPE html>" in content
    assert labels(content, "Place 1 at ")
    assert f'<form class="board-form" method="post" action="{act_url(duel)}"' in content


# -- refusals change nothing ----------------------------------------------------------------


def test_an_anonymous_post_is_refused(duel):
    before = snapshot(duel)

    htmx_response = post_action(Client(), duel, {"place": "a1"})
    plain = post_action(Client(), duel, {"place": "a1"}, htmx=False)

    assert htmx_response.status_code == 403 and "Log in to play." in text(htmx_response)
    assert plain.status_code == 302 and "login" in plain["Location"]
    assert snapshot(duel) == before


def test_a_spectator_cannot_play(duel, carol):
    before = snapshot(duel)

    response = post_action(client_for(carol), duel, {"place": "a1"})

    assert response.status_code == 403
    assert "Not played: it is not your turn" in text(response)
    assert snapshot(duel) == before


def test_a_player_cannot_move_out_of_turn(duel, bob):
    before = snapshot(duel)

    response = post_action(client_for(bob), duel, {"place": "t1"})

    assert response.status_code == 403 and "it is not your turn" in text(response)
    assert snapshot(duel) == before


def test_a_stale_ply_gets_409_and_the_fresh_panel(duel, alice):
    client = client_for(alice)
    post_action(client, duel, {"place": "a1"})
    post_action(client_for(duel.seats.get(index=1).user), duel, {"place": "t1"})
    before = snapshot(duel)

    response = post_action(client, duel, {"place": "t20"}, ply=1)

    content = text(response)
    assert response.status_code == 409
    assert "Your opponent moved meanwhile: here is the game now." in content
    assert "<strong>Your turn</strong> (red" in content and 'aria-label="Choose piece F"' in content
    assert snapshot(duel) == before


@pytest.mark.parametrize(
    ("raw", "ply", "message"),
    [
        ("{not json", 0, "the move could not be read"),
        ('["place", "a1"]', 0, "the move must be a JSON object"),
        ("", 0, "the move is missing"),
        ('{"place": "a1"}', "zero", "must be a whole number"),
        ('{"place": 5}', 0, "the value of &#x27;place&#x27; must be a string"),
        ('{"fly": "a1"}', 0, "unknown key &#x27;fly&#x27;"),
        ('{"place": "z99"}', 0, "unknown square"),
        ('{"card": "skip"}', 0, "(R3.1)"),
    ],
)
def test_a_malformed_action_is_a_400_with_a_message(duel, alice, raw, ply, message):
    before = snapshot(duel)

    response = post_action(client_for(alice), duel, None, raw=raw, ply=ply)

    assert response.status_code == 400
    assert message in text(response)
    assert "Traceback" not in text(response)
    assert snapshot(duel) == before


def test_an_illegal_placement_names_the_rule(duel, alice):
    client = client_for(alice)
    post_action(client, duel, {"place": "a1"})
    post_action(client_for(duel.seats.get(index=1).user), duel, {"place": "t1"})
    before = snapshot(duel)

    corner = post_action(client, duel, {"place": "k10"})
    assert corner.status_code == 400 and "(R3.1)" in text(corner)
    # a plain POST gets the whole page with the message and the same status
    plain = post_action(client, duel, {"place": "k10"}, htmx=False)
    assert plain.status_code == 400 and "<!DOCTYPE html>" in text(plain)
    assert "Not played: a setup piece must cover a free corner square (R3.1)" in text(plain)
    assert snapshot(duel) == before


def test_a_placement_touching_its_own_side_names_r4(duel, alice):
    save_state(duel, two_player(hands={}))
    before = snapshot(duel)

    response = post_action(client_for(alice), duel, {"place": "a2,a3"})

    assert response.status_code == 400 and "(R4.3)" in text(response)
    assert snapshot(duel) == before


def test_a_finished_game_refuses_moves(duel, alice):
    Game.objects.filter(pk=duel.pk).update(status=Game.Status.FINISHED)
    before = snapshot(duel)

    response = post_action(client_for(alice), duel, {"place": "a1"})

    assert response.status_code == 409 and "this game is not in play" in text(response)
    assert snapshot(duel) == before


def test_act_refuses_get(duel, alice):
    assert client_for(alice).get(act_url(duel)).status_code == 405


def test_csrf_is_enforced_on_act(duel, alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    before = snapshot(duel)

    response = post_action(client, duel, {"place": "a1"})

    assert response.status_code == 403
    assert snapshot(duel) == before


def test_a_post_with_the_rendered_csrf_token_passes(duel, alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    content = text(client.get(page_url(duel) + "?piece=1"))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', content).group(1)

    response = client.post(
        act_url(duel),
        {"action": '{"place": "a1"}', "ply": 0, "csrfmiddlewaretoken": token},
        **HTMX,
    )

    assert response.status_code == 204  # taken: the page fetches its panel
    assert Action.objects.filter(game=duel).count() == 1


# -- GETs write nothing; nothing hidden leaks -----------------------------------------------


def test_get_requests_write_nothing(duel, alice, bob, carol):
    play_setup(duel)
    before = snapshot(duel)
    queries = ["", "piece=F", "piece=F&o=0", "piece=F&o=1", "from=a1"]

    clients = [client_for(alice), client_for(bob), client_for(carol), Client()]

    with CaptureQueriesContext(connection) as captured:
        for client in clients:
            assert client.get(page_url(duel)).status_code == 200
            for query in queries:
                assert client.get(panel_url(duel, query)).status_code == 200

    sql = [q["sql"].lstrip().upper() for q in captured.captured_queries]
    assert not [q for q in sql if q.startswith(("INSERT", "UPDATE", "DELETE"))]
    assert snapshot(duel) == before


def normalized(content: str) -> str:
    """A page without what legitimately changes between two renders (key and CSRF token)."""
    content = re.sub(r'name="key" value="[^"]*"', 'name="key"', content)
    content = re.sub(r"this turn began .*? ago", "", content)
    content = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "csrf", content)
    return re.sub(r'"X-CSRFToken": "[^"]*"', "csrf", content)


def with_secrets(game, *, hands=None, reverse_piles=False, seed=SEED) -> Game:
    """The game's snapshot with some hands replaced, the piles reversed and another seed."""
    data = json.loads(json.dumps(game.state))
    for owner, cards in (hands or {}).items():
        assert len(cards) == len(data["hands"][owner])  # hand sizes are public
        data["hands"][owner] = list(cards)
    if reverse_piles:
        for owner in data["draw_piles"]:
            data["draw_piles"][owner].reverse()
    data["seed"] = seed
    Game.objects.filter(pk=game.pk).update(state=data, seed=seed)
    game.refresh_from_db()
    return game


def responses(game, client, queries) -> list[str]:
    pages = [text(client.get(page_url(game)))]
    pages += [text(client.get(panel_url(game, q))) for q in queries]
    return [normalized(p) for p in pages]


def check_secrets(game, clients, queries, words) -> None:
    """Secrets are the other seat's hand, every pile's order and the seed (R9.2, R9.3).

    ``words`` names, per owner, card names found in that owner's hand only. Each viewer's page
    and panels must not show another's hand, and changing only what a viewer may not know
    must leave every one of its responses the same, byte for byte.
    """
    original = game.state
    first = {name: responses(game, c, queries) for name, c in clients.items()}
    hand_html = {
        "blue": section(first["alice"][0], "hand"),
        "yellow": section(first["bob"][0], "hand"),
    }
    assert hand_html["blue"] != hand_html["yellow"]
    own = {"alice": "blue", "bob": "yellow", "carol": None, "anonymous": None}
    for name, pages in first.items():
        for content in pages:
            assert str(game.seed) not in content and "draw_piles" not in content
            for owner in ("blue", "yellow"):
                if owner != own[name]:
                    assert hand_html[owner] not in content
                    assert not [w for w in words[owner] if w in content], (name, owner)

    def rendered_after(name, hands):
        Game.objects.filter(pk=game.pk).update(state=original)
        game.refresh_from_db()
        with_secrets(game, hands=hands, reverse_piles=True, seed=SEED + len(name))
        return responses(game, clients[name], queries)

    blue = ["skip"] * len(original["hands"]["blue"])
    yellow = ["edge"] * len(original["hands"]["yellow"])
    assert rendered_after("alice", {"yellow": yellow}) == first["alice"]
    assert rendered_after("bob", {"blue": blue}) == first["bob"]
    for name in ("carol", "anonymous"):
        assert rendered_after(name, {"blue": blue, "yellow": yellow}) == first[name]


@pytest.fixture
def viewers(alice, bob, carol) -> dict[str, Client]:
    users = {"alice": alice, "bob": bob, "carol": carol, "anonymous": None}
    return {name: client_for(user) for name, user in users.items()}


def test_nothing_hidden_leaks_at_the_card_step(duel, viewers):
    play_setup(duel)
    # alice's turn; the hands are set apart so that their names can be searched for
    with_secrets(duel, hands={"blue": ["reverse", "warp"], "yellow": ["recycle", "double"]})
    words = {"blue": ["Reverse", "Warp"], "yellow": ["Recycle", "Double Play"]}

    check_secrets(duel, viewers, ["", "piece=F", "piece=F&o=0"], words)


def test_nothing_hidden_leaks_at_the_place_step(duel, alice, viewers):
    play_setup(duel)
    with_secrets(duel, hands={"blue": ["reverse", "warp"], "yellow": ["recycle", "double"]})
    post_action(viewers["alice"], duel, {"card": "reverse"})  # now public: on the discard pile
    legal = engine.legal_actions(current(duel))
    assert legal and "place" in legal[0]
    pieces = sorted({piece_of(a["place"]) for a in legal})[:3]
    queries = ["", *(f"piece={p}" for p in pieces), *(f"piece={p}&o=0" for p in pieces)]
    assert 'aria-label="Place ' in responses(duel, viewers["alice"], [f"piece={pieces[0]}&o=0"])[1]
    words = {"blue": ["Warp"], "yellow": ["Recycle", "Double Play"]}

    check_secrets(duel, viewers, [*queries, "from=a1"], words)


def test_draw_2_cards_stay_with_their_player(duel, alice, bob, carol):
    state = two_player(
        hands={"blue": ["draw2"], "yellow": ["skip"]}, piles={"blue": ["warp", "edge", "skip"]}
    )
    save_state(duel, state)
    post_action(client_for(alice), duel, {"card": "draw2"})

    for user in (bob, carol, None):
        content = text(client_for(user).get(page_url(duel)))
        assert "Warp" not in content and "Edge to Edge" not in content
        assert "2 cards drawn by Draw 2" in content
    assert "Draw 2 drew Warp and Edge to Edge." in text(client_for(alice).get(panel_url(duel)))


def test_a_played_hand_is_private_during_the_keep_step_too(duel, alice, bob):
    state = two_player(
        hands={"blue": ["draw2", "recycle"]}, piles={"blue": ["warp", "edge", "skip"]}
    )
    save_state(duel, state)
    post_action(client_for(alice), duel, {"card": "draw2"})

    content = text(client_for(bob).get(panel_url(duel)))

    assert "Recycle" not in content  # alice's remaining hand card
    assert re.search(r"discard: <span[^>]*>Draw 2</span>", content)


def test_a_three_player_game_names_the_shared_colour(alice, bob, carol, make_user):
    erin = make_user("erin")
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=3,
        seats=[
            SeatSpec(Seat.Kind.HUMAN),
            SeatSpec(Seat.Kind.INVITED, username="bob"),
            SeatSpec(Seat.Kind.OPEN),
        ],
    )
    services.game_join(game=game, user=bob)
    services.game_join(game=game, user=erin)

    content = text(client_for(carol).get(page_url(game)))

    colours = section(content, "colours")
    assert re.search(r'<strong>Green</strong> <span class="cp-player">shared colour', colours)
    assert re.search(
        r'<strong>Red</strong> <span class="cp-player"><a href="/players/erin/">erin</a>', colours
    )
    assert colours.count(" in hand</span>") == 3  # three decks: the shared colour has none
