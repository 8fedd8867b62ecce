"""Every query of the pages that list games is served by an index, checked with
PostgreSQL's EXPLAIN: a sequential scan of games, seats, actions or ratings fails the test.

On the few rows of a test database the planner would scan whole tables anyway (it is cheaper
there), so the plans are asked for with ``enable_seqscan = off``: PostgreSQL then scans a whole
table only when no index can serve the query."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.history import finished_games, rated
from tests.support.pages import client_for

pytestmark = pytest.mark.django_db

WATCHED = r"games_(?:game|seat|action|rating|ratingchange)"
SCAN = re.compile(
    rf"(Seq Scan|Index Scan|Index Only Scan)(?: Backward)?(?: using \w+)? on ({WATCHED})\b"
)


def full_scans(sql: str) -> list[str]:
    """The watched tables that ``sql``'s plan reads whole, with sequential scans disabled: a
    sequential scan, or an index read from end to end (no Index Cond) in a plan that does not
    stop after a few rows (no Limit on top: an ordered read that stops early is what an index
    is for)."""
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        try:
            cursor.execute(f"EXPLAIN {sql}")
            lines = [row[0] for row in cursor.fetchall()]
        finally:
            cursor.execute("RESET enable_seqscan")
    limited = lines[0].lstrip().startswith("Limit")
    found = []
    for i, line in enumerate(lines):
        match = SCAN.search(line)
        if match is None:
            continue
        kind, table = match.groups()
        if kind == "Seq Scan":
            found.append(table)
            continue
        depth = len(line) - len(line.lstrip(" -"))
        details = []
        for below in lines[i + 1 :]:
            if len(below) - len(below.lstrip(" -")) <= depth or "->" in below:
                break
            details.append(below)
        if not limited and not any("Index Cond" in d for d in details):
            found.append(f"{table} (whole index)")
    return found


def page_queries(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200, url
    return [q["sql"] for q in captured if q["sql"].lstrip().upper().startswith("SELECT")]


@pytest.fixture
def history(require_postgres, alice, bob, carol):
    rated(alice, bob)
    games = finished_games([alice, bob], 30, rated=True)
    finished_games([alice, bob], 3, visibility="private", rated=True)
    for level in ("beginner", "casual"):
        services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level=level)],
        )
    services.game_create(
        creator=carol,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="alice")],
    )
    services.game_create(
        creator=carol,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )
    return games


def test_every_list_query_is_served_by_an_index(history, alice, carol):
    from django.core.cache import cache

    cache.clear()  # the profile's first count (the whole history) as well as its later ones
    middle = history[len(history) // 2].public_id
    pages = [
        (alice, reverse("home")),
        (alice, reverse("my_games")),
        (alice, reverse("my_games") + f"?before={middle}"),
        (carol, reverse("profile", args=["alice"])),
        (carol, reverse("profile", args=["alice"])),
        (alice, reverse("profile", args=["alice"])),
        (None, reverse("profile", args=["alice"])),
        (None, reverse("home")),
        (None, reverse("leaderboard") + "?mode=classic"),
    ]
    scans, checked = {}, 0
    for reader, url in pages:
        for sql in page_queries(client_for(reader), url):
            checked += '"games_' in sql
            for table in full_scans(sql):
                scans.setdefault(f"{url} ({reader}): {table}", sql)
    assert scans == {}
    assert checked >= 30  # the pages' queries of games, seats and ratings were all looked at


def test_the_check_finds_a_query_no_index_serves(require_postgres):
    """The check can fail: a filter on a column without an index reads the whole table."""
    sql = str(Game.objects.filter(abort_reason="left").query)
    unindexed = Game.objects.filter(abort_reason="left")
    with CaptureQueriesContext(connection) as captured:
        list(unindexed)

    assert full_scans(captured[0]["sql"]) == ["games_game"]
    # every game, in game_lobby_idx's order: the index read from end to end
    whole_index = str(Game.objects.order_by("status", "visibility", "-created_at").query)
    assert full_scans(whole_index) == ["games_game (whole index)"]
    assert "abort_reason" in sql
