"""The game panel's cache: a panel is stored once per legal selection of
a (game, ply, reader, language); a selection the panel does not recognise (a spectator's, an
illegal or garbled one) is rendered but never stored, so no client can fill the cache; and a move
answers with the ply it reached, not with a panel."""

from __future__ import annotations

import copy
import json
import re
from datetime import datetime, timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone, translation

from api.models import BotAccount
from games import services
from games.models import BOT_RELATION, Game, Seat, TakeBack
from games.selectors import table
from games.selectors.access import Viewed, game_for_viewer
from games.selectors.panel import panel_reads
from games.services import SeatSpec
from tests.support.pages import HTMX, act_url, client_for, page_url, panel_url
from tests.support.records import play

pytestmark = pytest.mark.django_db


def panels() -> set[str]:
    return {key for key in cache._cache if ":panel:" in key}  # locmem, as the tests' settings


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_g1_a_spectators_selections_are_never_stored(duel):
    spectator = client_for(None)
    spectator.get(panel_url(duel), **HTMX)
    base = panels()
    assert len(base) == 1  # the plain panel of this position, for a spectator
    for i in range(60):
        for query in (f"piece=Q{i}", f"o={i}", f"from=a{i}", "piece=F", "piece=F&o=1"):
            response = spectator.get(panel_url(duel, query), **HTMX)
            assert response.status_code == 200
    assert panels() == base


def test_g1_an_illegal_or_garbled_selection_is_rendered_but_not_stored(duel, alice):
    player = client_for(alice)  # blue's setup piece (R3.1): alice decides
    player.get(panel_url(duel), **HTMX)
    base = panels()
    for query in ("piece=Q", "piece=F&o=99", "piece=" + "F" * 200, "from=c3", "o=x"):
        response = player.get(panel_url(duel, query), **HTMX)
        assert response.status_code == 200 and 'id="game"' in response.content.decode()
    assert panels() == base
    player.get(page_url(duel) + "?piece=Z5")  # the whole page with a legal piece: stored once
    player.get(page_url(duel) + "?piece=Z5")
    assert len(panels()) == len(base) + 1


def test_g1_the_cache_holds_at_most_one_panel_per_legal_selection(duel, alice):
    player = client_for(alice)
    pieces = ["1", "2", "V3", "L4", "F", "I5", "Z5"]  # X cannot cover a corner (R3.1)
    for _round in range(3):  # the same selections again add nothing
        for piece in pieces:
            player.get(panel_url(duel, f"piece={piece}"), **HTMX)
    assert len(panels()) == len(pieces)


def test_a_move_answers_204_with_the_ply_it_reached_and_no_panel(duel, alice):
    response = client_for(alice).post(
        act_url(duel), {"action": json.dumps({"place": "a1"}), "ply": 0}, **HTMX
    )
    assert response.status_code == 204 and response.content == b""
    assert json.loads(response["HX-Trigger"]) == {"game-moved": {"ply": 1}}
    assert panels() == set()  # nothing rendered on the write path


# -- the key: everything the panel reads ------------------------------------------------------


def different(value):
    """Another value of the same column."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, datetime):
        return value + timedelta(seconds=1)
    if isinstance(value, dict):
        return {**value, "a key of no state": True}
    return 1  # a column still empty


def test_a_change_to_any_input_the_panel_reads_changes_its_key(alice, bob, carol):
    """selectors.panel.panel_reads: every column of the game and of each seat, the players'
    names and vacations, the reader, their language, the invite token, the selection and the
    take back rows each change the key on their own."""
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        rated=False,  # take backs are part of the panel
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    play(game, 3)
    elsewhere = services.game_create(  # a game and a player that exist, for the ids
        creator=carol,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    viewed = game_for_viewer(game.public_id, alice)
    plain = ("", "", "")

    def key(seen=viewed, user=alice, token="", selection=plain):
        return panel_reads(seen, user, token, selection).key

    base = key()
    assert key() == base  # the same reads, the same key
    keys = {}
    for field in Game._meta.concrete_fields:
        other = copy.copy(viewed.game)
        setattr(other, field.attname, different(getattr(other, field.attname)))
        keys[f"game.{field.attname}"] = key(Viewed(other, viewed.seat, viewed.seats))
    for index, seat in enumerate(viewed.seats):

        def with_seat(other, index=index, seat=seat) -> Viewed:
            seats = (*viewed.seats[:index], other, *viewed.seats[index + 1 :])
            return Viewed(viewed.game, other if seat is viewed.seat else viewed.seat, seats)

        for field in Seat._meta.concrete_fields:
            other = copy.copy(seat)
            value = {"game_id": elsewhere.pk, "user_id": carol.pk}.get(field.attname)
            value = value if value is not None else different(getattr(seat, field.attname))
            setattr(other, field.attname, value)
            keys[f"seat {index}.{field.attname}"] = key(with_seat(other))
        for name, value in (
            ("display_name", "someone else"),
            # a vacation over since the turn began: the clock's deadline moved, the name not
            ("vacation_until", timezone.now() - timedelta(seconds=1)),
            ("vacation_until", timezone.now() + timedelta(days=2)),  # away now
        ):
            player = copy.copy(seat.user)
            setattr(player, name, value)
            other = copy.copy(seat)
            other.user = player
            keys[f"seat {index}'s player {name}={value}"] = key(with_seat(other))
        bot = copy.copy(seat.user)  # a bot account, read with the seats (selectors.hot)
        bot._state.fields_cache[BOT_RELATION] = BotAccount(user=bot)
        other = copy.copy(seat)
        other.user = bot
        keys[f"seat {index}'s player a bot"] = key(with_seat(other))
    keys["reader bob"] = key(game_for_viewer(game.public_id, bob), user=bob)
    keys["reader a spectator"] = key(game_for_viewer(game.public_id, carol), user=carol)
    keys["invite token"] = key(token=game.invite_token)
    keys["selection"] = key(selection=("F", "", ""))
    with translation.override("fi"):
        keys["language"] = key()
    TakeBack.objects.create(game=game, seat=0, user=alice, from_ply=game.ply - 1, at_ply=game.ply)
    keys["take back asked"] = key()

    assert [name for name, changed in keys.items() if changed == base] == []
    assert len(keys) > 40  # every column was tried


def test_a_cached_panel_keeps_its_deadline_beside_it(duel, alice, monkeypatch):
    """A panel served from the cache counts its clock down from the deadline stored with it:
    the clock (vacations and all) is read only when the panel is rendered."""
    client = client_for(alice)
    left = re.compile(r'<span class="clock-left">([^<]*)</span>')
    first = client.get(panel_url(duel), **HTMX).content.decode()

    def unread(*args, **kwargs):
        raise AssertionError("the clock was read for a cached panel")

    monkeypatch.setattr(table, "turn_clock", unread)
    again = client.get(panel_url(duel), **HTMX).content.decode()
    assert left.search(again)[1].startswith(("23\xa0hours", "1\xa0day"))
    assert 'data-deadline="' in again and left.search(first)[1]
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    keys = re.compile(r'name="key" value="([^"]+)"')
    assert token.search(again) and keys.search(again)[1] != keys.search(first)[1]
