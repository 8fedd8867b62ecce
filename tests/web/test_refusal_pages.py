"""Downloads are offered only where they work, and every refusal is a page in
the site's layout that says why, in the reader's language (templates/403.html, 404.html,
409.html, 500.html)."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.models import Game
from tests.support.classic import finished_classic
from tests.support.pages import client_for, page_url

pytestmark = pytest.mark.django_db


def in_layout(content: str) -> bool:
    return 'class="site-header"' in content and 'class="error-page"' in content


def test_a_spectator_is_not_offered_the_record_of_a_game_in_play(duel, carol):
    page = client_for(carol).get(page_url(duel)).content.decode()
    assert reverse("game_record", args=[duel.public_id]) not in page
    assert reverse("game_replay", args=[duel.public_id]) in page


def test_a_player_is_offered_their_record_and_it_downloads(duel, alice):
    client = client_for(alice)
    page = client.get(page_url(duel)).content.decode()
    url = reverse("game_record", args=[duel.public_id])
    assert f'href="{url}"' in page and f'href="{url}" download' not in page
    assert client.get(url).status_code == 200


def test_the_spectators_refusal_is_a_page_that_says_why(duel, carol):
    response = client_for(carol).get(reverse("game_record", args=[duel.public_id]))
    assert response.status_code == 403
    content = response.content.decode()
    assert in_layout(content)
    assert "You may not open this page" in content
    assert "Only the players may export a game in play" in content


def test_the_refusal_pages_speak_the_readers_language(duel, carol):
    carol.language = "sv"
    carol.save(update_fields=["language"])
    client = client_for(carol)
    forbidden = client.get(reverse("game_record", args=[duel.public_id])).content.decode()
    missing = client.get("/games/nothing-here/").content.decode()
    with translation.override("sv"):
        assert translation.gettext("You may not open this page") in forbidden
        assert translation.gettext("There is nothing here") in missing
        assert translation.gettext("There is nothing here") != "There is nothing here"


def test_an_unknown_game_is_a_404_page_in_the_layout(alice):
    response = client_for(alice).get("/games/nothing-here/")
    assert response.status_code == 404
    content = response.content.decode()
    assert in_layout(content) and "There is nothing here" in content
    assert "Resolver404" not in content and "Http404" not in content


def test_every_classic_game_is_offered_and_downloads_for_pentobi(alice, bob):
    game = finished_classic(alice, bob, seed=2, corners=("a20", "t1", "t20", "a1"))
    client = client_for(bob)
    url = reverse("game_blksgf", args=[game.public_id])
    assert url in client.get(reverse("my_games")).content.decode()
    response = client.get(url)
    assert response.status_code == 200
    assert "A1[" in response.content.decode() and "PL[1]" in response.content.decode()


def test_a_shared_colour_pentobi_cannot_share_is_not_offered_and_refused_with_a_page(alice, bob):
    game = finished_classic(alice, bob, seed=3)
    Game.objects.filter(pk=game.pk).update(players=3, shared_color="red")
    client = client_for(alice)
    url = reverse("game_blksgf", args=[game.public_id])
    assert url not in client.get(reverse("my_games")).content.decode()
    response = client.get(url)
    assert response.status_code == 409
    content = response.content.decode()
    assert in_layout(content) and "always shares green" in content


@pytest.mark.parametrize("language", ["en", "sv", "ja"])
def test_the_server_error_page_renders_without_a_request(language):
    with translation.override(language):
        content = render_to_string("500.html")
        assert translation.gettext("Something went wrong on our side") in content
    assert 'class="error-page"' in content
