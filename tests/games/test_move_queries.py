"""A lean request path: a move's POST reads and writes the database a fixed number of
times, whatever the players' notice settings: the session, the user, then one read of the game
(by its public id: nothing is read before it) locked with its seats and their players' push and
webhook flags, the insert and the update. The idempotency key is looked up only for a ply the
game has left (a retry); at the game's ply the insert's unique key refuses an old one. The next
player's language for the turn notice comes with their seat. A move to a game that does not
exist is a 404."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine
from games.models import NoticeSettings, PushSubscription
from tests.support.pages import HTMX, act_url, client_for
from tests.support.tables import alice_against_bob

pytestmark = pytest.mark.django_db(transaction=True)

# session, user, the game locked with its seats and their notice flags, insert, update
MOVE_QUERIES = 5


def post_first_move(game, alice) -> list[str]:
    client = client_for(alice)
    client.get(f"/games/{game.public_id}/")  # the session and CSRF cookie, as a page has them
    action = engine.legal_actions(game.current_state())[0]
    data = {"action": json.dumps(action), "ply": game.ply, "key": "k1"}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(act_url(game), data, **HTMX)
    assert response.status_code == 204, response.content
    return [q["sql"] for q in queries.captured_queries]


@pytest.mark.parametrize("notices", ["none", "push and webhook"])
def test_a_move_post_makes_a_fixed_number_of_queries(alice, bob, notices):
    game = alice_against_bob(alice, bob)
    if notices != "none":
        PushSubscription.objects.create(
            user=bob, endpoint="https://push.example/x", p256dh="p", auth="a"
        )
        NoticeSettings.objects.update_or_create(
            user=bob, defaults={"webhook_url": "https://hook.example/"}
        )
    sql = post_first_move(game, alice)
    # The request's own queries end with the commit; what follows in this test process is the
    # queued tasks, run eagerly here (a worker runs them in production).
    # (SQLite in the tests, as under `make run`, begins a transaction with BEGIN IMMEDIATE)
    skip = ("BEGIN", "BEGIN IMMEDIATE", "SAVEPOINT")
    request = [s for s in sql[: sql.index("COMMIT")] if s not in skip]
    assert len(request) <= MOVE_QUERIES, "\n".join(request)
    notices_sql = [s for s in request if "pushsubscription" in s or "noticesettings" in s]
    assert len(notices_sql) == 1, notices_sql
    language_only = 'SELECT "accounts_user"."id", "accounts_user"."language" FROM'
    assert not any(s.startswith(language_only) for s in sql), sql


def test_a_move_to_no_such_game_is_a_404_and_changes_nothing(alice):
    client = client_for(alice)
    client.get("/")
    data = {"action": json.dumps({"place": "a1"}), "ply": 0, "key": "k1"}
    for headers in (HTMX, {}):
        response = client.post("/games/NoSuchGame00/act/", data, **headers)
        assert response.status_code == 404
        assert "no such game" in response.content.decode().lower()
