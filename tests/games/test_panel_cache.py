"""The game panel's cache (issue #24 G1, issue #25): a panel is stored once per legal selection of
a (game, ply, reader, language); a selection the panel does not recognise (a spectator's, an
illegal or garbled one) is rendered but never stored, so no client can fill the cache; and a move
answers with the ply it reached, not with a panel."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache

from tests.support.pages import HTMX, act_url, client_for, page_url, panel_url

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
