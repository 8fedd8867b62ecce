"""The finished games of "My games", built outside the template engine
(games.presenters.game_list): each row says what the template said, in the reader's language and
time zone, with every value escaped."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from django.utils import timezone, translation

from games.presenters.game_list import finished_items
from games.selectors.lists import FinishedRow


def row(**changes) -> FinishedRow:
    fields = {
        "public_id": "abc123",
        "when_label": "Finished",
        "when": datetime(2026, 3, 1, 23, 30, tzinfo=UTC),
        "mode": "classic",
        "mode_name": "Classic Blokus",
        "players": 2,
        "finished": True,
        "status_name": "Finished",
        "my_place": 2,
        "seat_labels": ("alice", "<bob & co>"),
        "winners": ("<bob & co>",),
        "pentobi": True,
    }
    return FinishedRow(**{**fields, **changes})


def test_a_finished_row_has_its_place_winners_links_and_escapes_the_names():
    html = str(finished_items([row()]))
    assert html.startswith('<li class="game-item" data-game="abc123">')
    assert '<span class="result-chip">Place 2 of 2</span>' in html
    assert "winner: &lt;bob &amp; co&gt;" in html and "<bob" not in html
    assert "alice, &lt;bob &amp; co&gt;" in html
    assert '<a href="/games/abc123/">Classic Blokus · 2 players</a>' in html
    for path in ("/games/abc123/replay/", "/games/abc123/record.json", "/games/abc123/game.blksgf"):
        assert f'href="{path}"' in html
    assert '<time datetime="2026-03-01T23:30:00+00:00">1 Mar 2026, 23:30</time>' in html


def test_a_won_game_an_aborted_one_and_a_game_pentobi_cannot_open():
    won = str(finished_items([row(my_place=1, winners=("alice",))]))
    assert '<span class="result-chip won">You won</span>' in won
    aborted = str(finished_items([row(finished=False, status_name="Aborted", my_place=None)]))
    assert "· Aborted" in aborted and "Replay" not in aborted and "result-chip" not in aborted
    assert "game.blksgf" not in str(finished_items([row(pentobi=False)]))
    assert "winner: –" in str(finished_items([row(winners=())]))


def test_the_date_and_words_follow_the_readers_time_zone_and_language():
    with timezone.override(ZoneInfo("Asia/Tokyo")), translation.override("sv"):
        may = datetime(2026, 5, 1, 23, 30, tzinfo=UTC)
        html = str(finished_items([row(players=3, my_place=3, when=may)]))
    # 23:30 UTC is 08:30 the next day in Tokyo; Swedish words and month (maj).
    assert re.search(r'<time datetime="2026-05-02T08:30:00\+09:00">2 Maj 2026, 08:30</time>', html)
    assert "Plats 3 av 3" in html and "3 spelare" in html and "vinnare:" in html
