"""Every endpoint of ``/api/v1/``: what it reads is what the pages read (My games, the game from
the seat's view, the legal actions), and what it writes goes through the page's write path (a
stale ply is a 409, a key answered once, an illegal move a 400 naming the rule, and a refused
request changes nothing)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games import engine, services
from games.models import Action, Game, Seat, Seek
from games.selectors import lists, table
from games.services import SeatSpec

pytestmark = pytest.mark.django_db


def post(client, url, body, headers):
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, data, content_type="application/json", **headers)


def test_me(client, alice, token):
    me = client.get("/api/v1/me", **token(alice, "read")).json()
    assert me["username"] == "alice" and me["token"]["scopes"] == ["read"]


def test_my_games_are_my_games_pages_lists_a_page_at_a_time(client, alice, bob, duel, token):
    for _ in range(lists.HISTORY_PAGE + 1):  # a page of cancelled games and one more
        game = services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN)] * 1 + [SeatSpec(Seat.Kind.OPEN)],
        )
        services.game_leave(game=game, user=alice)
    headers = token(alice, "read")
    first = client.get("/api/v1/games", **headers).json()
    page = lists.my_games(alice)
    assert [g["id"] for g in first["your_turn"]] == [r.public_id for r in page.your_turn]
    assert [g["id"] for g in first["your_turn"]] == [duel.public_id]
    assert [g["id"] for g in first["finished"]] == [r.public_id for r in page.finished]
    assert len(first["finished"]) == lists.HISTORY_PAGE and first["older"] == page.older
    second = client.get(f"/api/v1/games?before={first['older']}", **headers).json()
    older = lists.my_games(alice, before=page.older)
    assert [g["id"] for g in second["finished"]] == [r.public_id for r in older.finished]
    assert len(second["finished"]) == 1 and second["your_turn"] == [] and second["older"] is None


def test_a_game_is_what_the_seats_page_shows(client, alice, bob, duel, token):
    answer = client.get(f"/api/v1/games/{duel.public_id}", **token(bob, "read")).json()
    snapshot = table.seat_snapshot(duel, duel.seats.get(index=1))
    assert answer["view"] == json.loads(json.dumps(snapshot["view"]))
    assert answer["seat"] == 1 and answer["your_decision"] is False and answer["legal_count"] == 0
    assert answer["view"]["hand"] is not None  # bob's own hand (R9.2)
    assert "legal" not in answer["table"]
    assert answer["invite_token"] is None  # the creator's to pass on
    mine = client.get(f"/api/v1/games/{duel.public_id}", **token(alice, "read")).json()
    assert mine["invite_token"] == duel.invite_token and mine["your_decision"] is True


def test_the_legal_actions_are_the_engines_at_my_decision_only(client, alice, bob, duel, token):
    legal = client.get(f"/api/v1/games/{duel.public_id}/legal", **token(alice, "read")).json()
    assert legal["legal"] == engine.legal_actions(duel.current_state()) and legal["ply"] == 0
    theirs = client.get(f"/api/v1/games/{duel.public_id}/legal", **token(bob, "read")).json()
    assert theirs["legal"] == []


def test_a_private_game_is_not_found_for_others(client, alice, bob, carol, token):
    game = services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        visibility=Game.Visibility.PRIVATE,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    answer = client.get(f"/api/v1/games/{game.public_id}", **token(carol, "read"))
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_a_move_plays_once_for_its_key(client, alice, duel, token):
    headers = token(alice, "play")
    url = f"/api/v1/games/{duel.public_id}/actions"
    action = engine.legal_actions(duel.current_state())[0]
    first = post(client, url, {"action": action, "ply": 0, "key": "k-1"}, headers)
    assert first.status_code == 200 and first.json() == {"ply": 1, "duplicate": False}
    again = post(client, url, {"action": action, "ply": 0, "key": "k-1"}, headers)
    assert again.status_code == 200 and again.json() == {"ply": 1, "duplicate": True}
    assert Action.objects.filter(game=duel).count() == 1


def test_a_stale_ply_is_a_409_with_the_games_ply(client, alice, bob, duel, token):
    action = engine.legal_actions(duel.current_state())[0]
    services.action_submit(game=duel, user=alice, action=action, expected_ply=0)
    url = f"/api/v1/games/{duel.public_id}/actions"
    state = Game.objects.get(pk=duel.pk).current_state()
    answer = post(client, url, {"action": engine.legal_actions(state)[0], "ply": 0}, token(bob))
    assert answer.status_code == 409
    assert answer.json()["code"] == "stale" and answer.json()["ply"] == 1
    assert "you saw move 0" in answer.json()["detail"]
    assert Game.objects.get(pk=duel.pk).ply == 1


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ("{not json", 400, "not valid JSON"),
        ({"ply": 0}, 400, "action"),
        ({"action": "a1", "ply": 0}, 400, "action"),
        ({"action": {"place": "a1"}, "ply": "first"}, 400, "ply"),
        ({"action": {"fly": "a1"}, "ply": 0}, 400, "unknown key 'fly'"),
        ({"action": {"place": "j10"}, "ply": 0}, 400, "(R3.1)"),
        ({"action": {"place": "a1," * 700}, "ply": 0}, 400, "too long"),
    ],
)
def test_a_bad_move_is_refused_with_its_reason_and_changes_nothing(
    client, alice, duel, token, body, status, words
):
    answer = post(client, f"/api/v1/games/{duel.public_id}/actions", body, token(alice))
    assert answer.status_code == status
    assert words in answer.json()["detail"]
    assert Game.objects.get(pk=duel.pk).ply == 0 and not Action.objects.exists()


def test_an_illegal_move_names_its_rule(client, alice, duel, token):
    """R3.1: a setup piece goes on a free corner."""
    answer = post(
        client,
        f"/api/v1/games/{duel.public_id}/actions",
        {"action": {"place": "j10"}, "ply": 0},
        token(alice),
    )
    assert answer.json()["code"] == "illegal" and answer.json()["rules"] == ["R3.1"]


def test_out_of_turn_is_refused(client, bob, duel, token):
    action = engine.legal_actions(duel.current_state())[0]
    answer = post(
        client, f"/api/v1/games/{duel.public_id}/actions", {"action": action, "ply": 0}, token(bob)
    )
    assert answer.status_code == 403 and answer.json()["detail"] == "it is not your turn"


def test_the_move_log_after_a_ply(client, alice, bob, duel, token):
    for user in (alice, bob):
        duel.refresh_from_db()
        action = engine.legal_actions(duel.current_state())[0]
        services.action_submit(game=duel, user=user, action=action, expected_ply=duel.ply)
    log = client.get(f"/api/v1/games/{duel.public_id}/actions?since_ply=1", **token(bob, "read"))
    assert [(a["ply"], a["seat"]) for a in log.json()["actions"]] == [(2, 1)]


def test_resign(client, alice, bob, duel, token):
    answer = post(client, f"/api/v1/games/{duel.public_id}/resign", {}, token(alice))
    assert answer.status_code == 200 and answer.json()["status"] == "finished"
    again = post(client, f"/api/v1/games/{duel.public_id}/resign", {}, token(alice))
    assert again.status_code == 409


def test_take_back_asked_and_accepted(client, alice, bob, token):
    """R11.3: in an unrated game, the last move is taken back once the others accept."""
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        rated=False,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    action = engine.legal_actions(game.current_state())[0]
    services.action_submit(game=game, user=alice, action=action, expected_ply=0)
    url = f"/api/v1/games/{game.public_id}/takeback"
    asked = post(client, url, {}, token(alice))
    assert asked.status_code == 200 and asked.json()["status"] == "pending"
    answered = post(client, url, {"answer": "accept"}, token(bob))
    assert answered.status_code == 200 and answered.json()["status"] == "accepted"
    assert Game.objects.get(pk=game.pk).ply == 0
    refused = post(client, url, {"answer": "maybe"}, token(bob))
    assert refused.status_code == 400


def test_a_rated_game_refuses_a_take_back(client, alice, duel, token):
    action = engine.legal_actions(duel.current_state())[0]
    services.action_submit(game=duel, user=alice, action=action, expected_ply=0)
    answer = post(client, f"/api/v1/games/{duel.public_id}/takeback", {}, token(alice))
    assert answer.status_code == 400 and "unrated" in answer.json()["detail"]


def test_chat(client, alice, bob, duel, token):
    said = post(client, f"/api/v1/games/{duel.public_id}/chat", {"text": "good luck"}, token(bob))
    assert said.status_code == 200
    lines = client.get(f"/api/v1/games/{duel.public_id}/chat", **token(alice, "read")).json()
    assert [(x["user"], x["text"]) for x in lines["lines"]] == [("bob", "good luck")]
    empty = post(client, f"/api/v1/games/{duel.public_id}/chat", {"text": "  "}, token(bob))
    assert empty.status_code == 400


def test_a_challenge_accepted(client, alice, bob, token):
    made = post(
        client, "/api/v1/challenges", {"opponents": ["bob"], "mode": "classic"}, token(alice)
    )
    assert made.status_code == 200 and made.json()["status"] == "open"
    game_id = made.json()["id"]
    waiting = client.get("/api/v1/challenges", **token(bob, "read")).json()
    assert [g["id"] for g in waiting["to_me"]] == [game_id]
    accepted = post(client, f"/api/v1/challenges/{game_id}/accept", {}, token(bob))
    assert accepted.status_code == 200 and accepted.json()["status"] == "active"
    again = post(client, f"/api/v1/challenges/{game_id}/accept", {}, token(bob))
    assert again.status_code == 409


def test_a_challenge_declined_and_one_cancelled(client, alice, bob, token):
    first = post(client, "/api/v1/challenges", {"opponents": ["bob"]}, token(alice)).json()["id"]
    declined = post(client, f"/api/v1/challenges/{first}/decline", {}, token(bob))
    assert declined.status_code == 200
    assert Game.objects.get(public_id=first).seats.get(index=1).kind == Seat.Kind.LINK
    second = post(client, "/api/v1/challenges", {"opponents": ["bob"]}, token(alice)).json()["id"]
    not_theirs = client.delete(f"/api/v1/challenges/{second}", **token(bob))
    assert not_theirs.status_code == 403
    cancelled = client.delete(f"/api/v1/challenges/{second}", **token(alice))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "aborted"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"opponents": ["bob"], "players": 5}, "players"),
        ({"opponents": []}, "opponents"),
        ({"opponents": ["bob"], "move_seconds": 7}, "move_seconds"),
        ({"opponents": ["nobody-here"]}, "nobody-here"),
        ({"opponents": ["bob"], "mode": "chess"}, "mode"),
    ],
)
def test_a_bad_challenge_is_refused_and_makes_no_game(client, alice, bob, token, body, words):
    answer = post(client, "/api/v1/challenges", body, token(alice))
    assert answer.status_code == 400 and words in answer.json()["detail"]
    assert not Game.objects.exists()


def test_play_now_asked_and_cancelled(client, alice, token):
    headers = token(alice)
    asked = post(client, "/api/v1/seek", {"mode": "classic", "players": 2}, headers)
    assert asked.status_code == 200 and asked.json()["status"] == "waiting"
    assert asked.json()["seated"] == ["alice"]
    assert client.get("/api/v1/seek", **headers).json()["status"] == "waiting"
    twice = post(client, "/api/v1/seek", {"mode": "classic"}, headers)
    assert twice.status_code == 409
    cancelled = client.delete("/api/v1/seek", **headers)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "none"
    assert Seek.objects.get().status == Seek.Status.CANCELLED
    assert client.delete("/api/v1/seek", **headers).status_code == 409


def test_play_now_finds_a_game(client, alice, bob, token):
    post(client, "/api/v1/seek", {"mode": "classic", "players": 2}, token(alice))
    found = post(client, "/api/v1/seek", {"mode": "classic", "players": 2}, token(bob)).json()
    assert found["status"] == "started" and found["game"]
    assert Game.objects.get(public_id=found["game"]).status == Game.Status.ACTIVE


def test_a_bad_play_now_request_is_refused(client, alice, token):
    answer = post(client, "/api/v1/seek", {"fill_after": 5}, token(alice))
    assert answer.status_code == 400 and "fill_after" in answer.json()["detail"]
    assert not Seek.objects.exists()


def test_the_schema_lists_every_endpoint(client):
    schema = client.get("/api/v1/openapi.json").json()
    paths = set(schema["paths"])
    assert {
        "/api/v1/me",
        "/api/v1/games",
        "/api/v1/games/{game_id}",
        "/api/v1/games/{game_id}/legal",
        "/api/v1/games/{game_id}/actions",
        "/api/v1/games/{game_id}/resign",
        "/api/v1/games/{game_id}/takeback",
        "/api/v1/games/{game_id}/chat",
        "/api/v1/challenges",
        "/api/v1/challenges/{game_id}/accept",
        "/api/v1/challenges/{game_id}/decline",
        "/api/v1/challenges/{game_id}",
        "/api/v1/seek",
        "/api/v1/stream/me",
        "/api/v1/stream/games/{game_id}",
    } <= paths
    assert schema["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"
    assert client.get("/api/v1/docs").status_code == 200


def test_a_stream_asked_of_the_wsgi_server_says_where_to_go(alice, token):
    answer = Client().get("/api/v1/stream/me", **token(alice, "read"))
    assert answer.status_code == 501 and answer.json()["code"] == "needs_asgi"
