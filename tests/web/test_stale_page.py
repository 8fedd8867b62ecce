"""A page shown again from the browser's cache (Back, a tab that slept) is not
the game any more. A click on it must never be dropped without a word: the key its form carries
was spent on its first move, and the same key with another move is a move from an old position
(409, "the game has moved on"), in every language. The game page itself is never cached."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import engine
from tests.support.pages import client_for, page_url, post_action

pytestmark = pytest.mark.django_db

# The player's own first move was the one that moved the game on (their other tab, say).
MOVED_ON = "You moved meanwhile in another tab or window: here is the game now."


def form_key(content: str) -> str:
    return re.search(r'name="key" value="([^"]+)"', content).group(1)


def legal(game) -> list[dict]:
    game.refresh_from_db()
    return engine.legal_actions(game.current_state())


@pytest.mark.parametrize("htmx", [True, False])
def test_a_spent_key_with_another_move_is_answered_the_game_moved_on(duel, alice, htmx):
    client = client_for(alice)
    page = client.get(page_url(duel)).content.decode()
    key, seen = form_key(page), duel.ply
    first, second = legal(duel)[:2]
    assert post_action(client, duel, first, ply=seen, key=key).status_code == 200

    # The page again as Back shows it: same ply, same key, another choice.
    answer = post_action(client, duel, second, ply=seen, key=key, htmx=htmx)

    assert answer.status_code == 409
    assert MOVED_ON in answer.content.decode()
    duel.refresh_from_db()
    assert duel.ply == 1


def test_a_retry_of_the_same_move_gets_the_first_answer_again(duel, alice):
    client = client_for(alice)
    first = legal(duel)[0]
    assert post_action(client, duel, first, ply=0, key="k1").status_code == 200
    again = post_action(client, duel, first, ply=0, key="k1")
    assert again.status_code == 200 and "moved on" not in again.content.decode()


def test_the_refusal_is_in_the_players_language(duel, alice):
    alice.language = "sv"
    alice.save(update_fields=["language"])
    client = client_for(alice)
    first, second = legal(duel)[:2]
    post_action(client, duel, first, ply=0, key="k2")
    answer = post_action(client, duel, second, ply=0, key="k2")
    assert answer.status_code == 409
    with translation.override("sv"):
        words = translation.gettext(MOVED_ON)
    assert words != MOVED_ON
    assert words in answer.content.decode()


def test_the_game_page_is_never_served_from_the_browsers_cache(duel, alice):
    response = client_for(alice).get(page_url(duel))
    assert "no-store" in response["Cache-Control"]
