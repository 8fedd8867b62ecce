"""R11.3: a move that drew cards may be taken back. The game is rebuilt from its seed and the
actions before the move, so every card the move drew is back on top of its pile, in order, and
its owner draws it again; the other players are told so before they answer, never which card;
nothing the other seats can fetch depends on the card; a finished game's record leaves the move
out and still verifies (the shuffle verifier, games.engine.verify)."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import engine, services
from games.engine import cli
from games.models import Action, Game, Seat
from games.selectors.table import shuffle_verdict
from games.selectors.takebacks import draw2_drew, drawn, facts, last_move
from games.services import SeatSpec
from games.services.errors import Refused
from games.services.resign import game_resign
from games.services.takeback import takeback_answer, takeback_request
from tests.engine.helpers import disguise
from tests.support.pages import client_for

pytestmark = pytest.mark.django_db

CORNERS = ("a1", "t1", "t20", "a20")


def shuffle(*users, deck_recipe=None) -> Game:
    creator, others = users[0], users[1:]
    seats = [SeatSpec(Seat.Kind.HUMAN)]
    seats += [SeatSpec(Seat.Kind.INVITED, username=u.username) for u in others]
    game = services.game_create(
        creator=creator,
        mode="shuffle",
        players=len(users),
        seats=seats,
        rated=False,
        deck_recipe=deck_recipe,
    )
    for user in others:
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def reseed(game: Game, wanted) -> None:
    """Give the game the first seed whose decks ``wanted`` accepts (the server draws its seed
    from ``secrets``; a test needs to know what the decks hold)."""
    for i in range(2000):
        state = engine.new_game(**game.engine_settings(), seed=f"{i:064x}", salt="0" * 32)
        if wanted(state):
            Game.objects.filter(pk=game.pk).update(
                seed=state.seed, salt=state.salt, state=state.to_json()
            )
            game.refresh_from_db()
            return
    raise AssertionError("no seed deals such decks")


def play(game: Game, users: dict, action: dict) -> None:
    game.refresh_from_db()
    seat = game.current_state().controller()
    services.action_submit(game=game, user=users[seat], action=action, expected_ply=game.ply)
    game.refresh_from_db()


def setup(game: Game, users: dict) -> None:
    for corner in CORNERS:
        play(game, users, {"place": corner})


# Per-render values that differ between two fetches anyway (as in test_leak_scan.py).
VOLATILE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'), "CSRF"),
    (re.compile(r'"X-CSRFToken": "[^"]+"'), "CSRF"),
    (re.compile(r'name="key" value="[^"]+"'), "KEY"),
    (re.compile(r"this turn began [^<.]+"), "AGO"),
]


def normalized(response) -> str:
    text = response.content.decode()
    for pattern, placeholder in VOLATILE:
        text = pattern.sub(placeholder, text)
    return text


def urls(game: Game) -> list[str]:
    """The pages and fragments a viewer of the game fetches, the websocket's refetch included."""
    panel = reverse("game_panel", args=[game.public_id])
    return [
        reverse("game", args=[game.public_id]),
        panel,
        f"{panel}?piece=1",
        reverse("game_chat", args=[game.public_id]),
        reverse("game_replay", args=[game.public_id]),
        reverse("home"),
    ]


@pytest.fixture
def english_afterwards():
    """A request activates its language in this thread: leave English (the default) behind."""
    yield
    translation.activate("en")


def page(user, game: Game) -> str:
    return client_for(user).get(f"/games/{game.public_id}/").content.decode()


def test_r11_3_a_setup_draw_goes_back_on_top_and_its_owner_draws_it_again(alice, bob):
    game = shuffle(alice, bob)
    users = {0: alice, 1: bob}
    before = game.state
    play(game, users, {"place": "a1"})  # R3.2: alice's first setup piece draws her two cards
    hand = game.current_state().hands[0]
    assert len(hand) == 2
    assert drawn(game, last_move(game)) == {0: 2}
    offer = page(alice, game)
    assert "Take back my last move" in offer
    assert "The 2 cards you drew go back on top of your draw pile, in the same order" in offer

    takeback_request(game=game, user=alice)
    asked = page(bob, game)
    assert "alice asks to take back their last move." in asked
    assert (
        "The 2 cards alice drew go back on top of their draw pile, in the same order: they will "
        "draw them again." in asked
    )
    assert "The 2 cards you drew go back" in page(alice, game)
    takeback_answer(game=game, user=bob, accept=True)
    game.refresh_from_db()
    assert game.ply == 0 and game.state == before  # the pile is whole again, in its order
    assert Action.every.filter(game=game, taken_back=True).count() == 1

    play(game, users, {"place": "t20"})  # another corner: the same two cards
    assert game.current_state().hands[0] == hand


@pytest.mark.parametrize(
    ("language", "mine", "theirs"),
    [
        ("sv", "De 2 korten du drog läggs tillbaka", "De 2 korten som alice drog"),
        ("fi", "2 korttia, jotka nostit, palaavat", "2 korttia, jotka alice nosti"),
        ("da", "De 2 kort, du trak, lægges tilbage", "De 2 kort, som alice trak"),
        ("nb", "De 2 kortene du trakk, legges tilbake", "De 2 kortene alice trakk"),
        ("ja", "引いた2枚のカードは同じ順番で山札の一番上に戻り", "aliceさんが引いた2枚のカード"),
    ],
)
def test_r11_3_the_players_are_told_in_their_language(
    alice, bob, language, mine, theirs, english_afterwards
):
    game = shuffle(alice, bob)
    play(game, {0: alice, 1: bob}, {"place": "a1"})
    takeback_request(game=game, user=alice)
    url = f"/games/{game.public_id}/"
    assert mine in client_for(alice).get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert theirs in client_for(bob).get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_r9_3_a_turn_whose_draw_2_drew_is_not_taken_back(alice, bob):
    """R11.3 takes back a turn that ended with a draw, a card only its owner has seen. A Draw 2
    played its card face up: taken back, that card would lie among the top two of alice's pile
    and bob would know it (R9.3), so the request is refused and nothing changes."""
    game = shuffle(alice, bob, deck_recipe={"draw2": 7, "reverse": 7})
    # Alice (blue and red) holds a Draw 2 after setup; it draws two Reverses (R6.3).
    reseed(game, lambda s: "draw2" in s.piles[0][:2] and s.piles[0][2:4] == ["reverse"] * 2)
    users = {0: alice, 1: bob}
    setup(game, users)
    play(game, users, {"card": "draw2"})
    play(game, users, {"keep": "reverse"})  # the other Reverse to the bottom; this one flips
    play(game, users, engine.legal_actions(game.current_state())[0])  # then the R5.4 draw
    assert game.current_state().controller() == 1
    assert draw2_drew(last_move(game)) and drawn(game, last_move(game)) == {0: 3}
    state, ply = game.state, game.ply
    assert "Take back" not in page(alice, game)  # not offered

    with pytest.raises(Refused, match=r"R9\.3"):
        takeback_request(game=game, user=alice)
    game.refresh_from_db()
    assert (game.state, game.ply) == (state, ply) and not game.takebacks.exists()


def test_r11_3_the_other_seats_pages_never_depend_on_the_cards_going_back(alice, bob, carol):
    game = shuffle(alice, bob)
    users = {0: alice, 1: bob}
    play(game, users, {"place": "a1"})
    takeback_request(game=game, user=alice)
    clients = {"bob": client_for(bob), "carol": client_for(carol), "anonymous": Client()}
    seats = {"bob": 1, "carol": None, "anonymous": None}
    rng = random.Random(11)

    def unchanged_by_alices_cards() -> None:
        game.refresh_from_db()
        state = game.current_state()
        shown = {
            (who, url): normalized(client.get(url))
            for who, client in clients.items()
            for url in urls(game)
        }
        for who, client in clients.items():
            alt = disguise(state, seats[who], rng)
            Game.objects.filter(pk=game.pk).update(state=alt.to_json(), seed=alt.seed)
            game.refresh_from_db()
            for url in urls(game):
                assert normalized(client.get(url)) == shown[(who, url)], (who, url)
            Game.objects.filter(pk=game.pk).update(state=state.to_json(), seed=state.seed)
        game.refresh_from_db()

    unchanged_by_alices_cards()  # asked: bob is told two cards go back, not which
    takeback_answer(game=game, user=bob, accept=True)
    unchanged_by_alices_cards()  # taken back: the cards lie on top of alice's pile


def test_r11_3_a_finished_game_with_a_draw_taken_back_verifies_without_it(alice, bob, tmp_path):
    # No Draw 2 in the decks: a turn whose Draw 2 drew is not taken back (R9.3), and the shuffle
    # is drawn afresh each run.
    game = shuffle(alice, bob, deck_recipe={"reverse": 7, "skip": 7})
    users = {0: alice, 1: bob}
    setup(game, users)
    undone = []
    while game.current_state().turn == 0:  # alice's first blue turn, to its draw
        action = engine.legal_actions(game.current_state())[0]
        undone.append(action)
        play(game, users, action)
    assert drawn(game, last_move(game)).get(0)
    takeback_request(game=game, user=alice)
    takeback_answer(game=game, user=bob, accept=True)
    game.refresh_from_db()
    assert game.ply == 4
    while game.current_state().turn == 0:  # played again, another way
        play(game, users, engine.legal_actions(game.current_state())[-1])
    game_resign(game=game, user=bob)  # two players: the game ends (R11.2)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    record = json.loads(client_for(alice).get(f"/games/{game.public_id}/record.json").content)
    live = [a.payload for a in game.actions.order_by("ply")]
    assert record["actions"] == live and record["actions"][4:] != undone
    kept = Action.every.filter(game=game, taken_back=True).order_by("ply")
    assert [a.payload for a in kept] == undone  # kept on file, marked
    assert engine.verify(record)["ok"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert cli.main(["verify", str(path)]) == 0
    assert shuffle_verdict(game)["ok"]


@pytest.mark.parametrize("players", [2, 4])
def test_r11_3_the_cards_told_are_the_cards_the_move_drew(players, alice, bob, carol, dave):
    """Random play to the end: after every move, what the page tells (how many cards go back on
    whose pile) is how many the move took from the top of each pile: what left the pile, plus
    what a Draw 2 put back at its bottom (R6.3). Only the mover's pile: a colour that passes by
    itself holds no card, so it draws none (R5.5), and a skipped colour draws nothing (R6.1)."""
    people = [alice, bob, carol, dave][:players]
    game = shuffle(*people)
    users = dict(enumerate(people))
    labels = {i: u.username for i, u in users.items()}
    rng = random.Random(players)
    states = {0: game.current_state()}
    told = 0
    while game.status == Game.Status.ACTIVE:
        play(game, users, rng.choice(engine.legal_actions(game.current_state())))
        states[game.ply] = after = game.current_state()
        move = last_move(game)
        before = states[move[0].ply - 1]
        keeps = sum(1 for a in move if "keep" in a.payload)
        exact = {}
        for owner in after.owners():
            taken = len(before.piles[owner]) - len(after.piles[owner])
            taken += keeps if after.seat_of(owner) == move[-1].seat else 0
            if taken:
                exact[after.seat_of(owner)] = taken
        assert drawn(game, move) == exact, (game.ply, move)
        assert set(exact) <= {move[-1].seat}
        if draw2_drew(move):
            assert facts(game, game.seats.get(index=move[-1].seat), labels) is None
        elif exact and game.status == Game.Status.ACTIVE:
            mine = facts(game, game.seats.get(index=move[-1].seat), labels)
            assert mine["back_mine"] == exact[move[-1].seat] and mine["back_others"] == []
            told += 1
    assert told > 20
