"""Pentobi game files on the site: a finished classic game downloads as .blksgf, and the record
upload reads one back as a replay (games/views/pentobi.py, games/forms.py)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.engine import blksgf
from tests.support.classic import finished_classic

pytestmark = pytest.mark.django_db


def test_a_finished_classic_game_downloads_for_pentobi_and_uploads_back(client, alice, bob):
    game = finished_classic(alice, bob, seed=1)
    client.force_login(alice)

    response = client.get(reverse("game_blksgf", args=[game.public_id]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-blokus-sgf")
    text = response.content.decode()
    assert "GM[Blokus Two-Player]" in text and "PB[alice]PW[bob]" in text
    assert f"DT[{game.finished_at:%Y-%m-%d}]" in text

    upload = SimpleUploadedFile("game.blksgf", response.content)
    back = client.post(reverse("replay_upload"), {"record": upload})
    assert back.status_code == 302
    replayed = client.get(back["Location"])
    assert replayed.status_code == 200
    moves = game.actions.count()
    assert len(client.session["uploaded_record"]["actions"]) == moves
    assert blksgf.parse(text)["actions"] == [a.payload for a in game.actions.order_by("ply")]
    assert (
        reverse("game_blksgf", args=[game.public_id])
        in client.get(reverse("my_games")).content.decode()
    )


def test_a_game_in_play_or_a_shuffle_game_has_no_pentobi_file(client, duel, alice):
    client.force_login(alice)
    assert client.get(reverse("game_blksgf", args=[duel.public_id])).status_code == 404


def test_a_bad_pentobi_file_is_refused_with_the_rule(client, alice):
    client.force_login(alice)
    bad = SimpleUploadedFile("bad.blksgf", b"(;GM[Blokus];1[a20];2[a19])")
    response = client.post(reverse("replay_upload"), {"record": bad})
    assert response.status_code == 400
    assert "R3.1" in response.content.decode()


def test_corners_no_turn_of_the_board_matches_are_saved_with_a_setup_root(client, alice, bob):
    """Once refused (409 in plain text), now written with the setup round in the
    root node (games/engine/blksgf.py), and read back to the same game."""
    game = finished_classic(alice, bob, seed=2, corners=("a20", "t1", "t20", "a1"))
    client.force_login(bob)
    response = client.get(reverse("game_blksgf", args=[game.public_id]))
    assert response.status_code == 200
    text = response.content.decode()
    assert "A1[a20]A2[t1]A3[t20]A4[a1]PL[1]" in text
    assert blksgf.parse(text)["actions"] == [a.payload for a in game.actions.order_by("ply")]
