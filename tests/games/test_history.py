"""History: the replay viewer, record downloads and uploads, and what each may show when (R9)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.models import Action, Game, Seat
from games.services import SeatSpec
from tests.support.records import play, state_at, upload_file  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def classic_duel(alice, bob):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    return game


def keys_in(value) -> set[str]:
    """Every key of every object nested in a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


def board_of(response) -> list[str]:
    """The replayed board as the engine writes it: 20 strings of . B Y R G, row 20 first."""
    rows = response.context["position"]["rows"]
    return ["".join(cell[:1].upper() or "." for cell in row["cells"]) for row in rows]


def replay_url(game: Game, ply: int | None = None) -> str:
    url = reverse("game_replay", args=[game.public_id])
    return url if ply is None else f"{url}?ply={ply}"


# -- the replay viewer ----------------------------------------------------------------------


def test_the_replay_steps_from_the_start_to_the_current_move(client, duel, alice):
    play(duel, 12)
    client.force_login(alice)

    first = client.get(replay_url(duel, 0))
    middle = client.get(replay_url(duel, 6))
    last = client.get(replay_url(duel))

    assert [r.status_code for r in (first, middle, last)] == [200, 200, 200]
    assert all(cell == "" for row in first.context["position"]["rows"] for cell in row["cells"])
    assert middle.context["position"]["ply"] == 6
    assert "action 6 of 12" in middle.content.decode()
    assert "?ply=5" in middle.content.decode() and "?ply=7" in middle.content.decode()
    expected = state_at(duel, 6)
    assert board_of(middle) == expected.board_rows()
    assert board_of(last) == duel.current_state().board_rows()
    assert last.context["position"]["ply"] == 12


def test_the_replay_never_goes_past_the_current_move(client, duel, alice):
    play(duel, 4)
    client.force_login(alice)

    assert client.get(replay_url(duel, 999)).context["position"]["ply"] == 4
    assert client.get(replay_url(duel, -3)).context["position"]["ply"] == 0
    assert client.get(replay_url(duel) + "?ply=x").context["position"]["ply"] == 4


def test_an_htmx_step_swaps_only_the_position(client, duel, alice):
    play(duel, 4)
    client.force_login(alice)

    response = client.get(replay_url(duel, 2), headers={"HX-Request": "true"})

    assert response.status_code == 200
    content = response.content.decode()
    assert content.lstrip().startswith('<section id="replay-position"')
    assert "<html" not in content
    assert f'hx-get="{replay_url(duel, 1)}"' in content


def test_during_play_the_replay_shows_a_spectator_no_hand_pile_or_seed(client, duel, carol):
    play(duel, 10)
    client.force_login(carol)

    for ply in (0, 5, 10):
        response = client.get(replay_url(duel, ply))
        content = response.content.decode()
        position = response.context["position"]
        assert position["revealed"] is False
        assert position["hand"] is None
        assert all(d["hand"] is None and d["pile"] is None for d in position["decks"])
        assert str(duel.seed) not in content
        assert "Your hand" not in content
        for pile in state_at(duel, ply).piles.values():
            assert ", ".join(engine.CARD_NAMES[c] for c in pile) not in content


def test_during_play_a_player_sees_only_their_own_hand_in_the_replay(client, duel, alice):
    play(duel, 10)
    client.force_login(alice)

    response = client.get(replay_url(duel, 8))

    position = response.context["position"]
    at_eight = state_at(duel, 8)
    # alice holds the blue/red deck
    assert position["hand"] == [engine.CARD_NAMES[c] for c in at_eight.hands[0]]
    assert all(d["hand"] is None and d["pile"] is None for d in position["decks"])
    pile = ", ".join(engine.CARD_NAMES[c] for c in at_eight.piles[1])
    assert pile not in response.content.decode()
    assert str(duel.seed) not in response.content.decode()


def test_a_finished_game_replays_with_everything_revealed_and_scores(client, duel, carol):
    play(duel)
    assert duel.status == "finished"
    client.force_login(carol)

    middle = client.get(replay_url(duel, 10))
    last = client.get(replay_url(duel))

    position = middle.context["position"]
    assert position["revealed"] is True
    assert {d["owner"] for d in position["decks"]} == {"blue", "yellow"}
    assert all(
        isinstance(d["hand"], list) and isinstance(d["pile"], list) for d in position["decks"]
    )
    assert b"Final scores" in last.content
    scores = last.context["scores"]
    assert scores == scores | {"over": True}
    assert [p["place"] for p in scores["players"]] == sorted(p["place"] for p in scores["players"])
    assert last.context["position"]["over"] is True


def test_a_private_game_replay_is_hidden_from_carol(client, alice, bob, carol):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        visibility="private",
    )
    services.game_join(game=game, user=bob)
    client.force_login(carol)

    assert client.get(replay_url(game)).status_code == 404
    assert client.get(reverse("game_record", args=[game.public_id])).status_code == 404


def test_a_game_that_has_not_started_has_no_replay(client, alice):
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.OPEN)],
    )

    assert client.get(replay_url(game)).status_code == 404
    assert client.get(reverse("game_record", args=[game.public_id])).status_code == 404


# -- record downloads -----------------------------------------------------------------------


def test_a_finished_games_record_replays_to_the_same_final_board(client, classic_duel, carol):
    game = play(classic_duel)
    assert game.status == "finished"
    client.force_login(carol)

    response = client.get(reverse("game_record", args=[game.public_id]))

    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="blokus-{game.public_id}.json"'
    record = json.loads(response.content)
    assert record["format"] == "blokus-record/1"
    assert len(record["actions"]) == game.ply
    final = engine.replay(record)
    assert final.over
    assert final.board_rows() == game.current_state().board_rows()


def test_a_finished_shuffle_games_record_gives_the_decks(client, duel):
    game = play(duel, seed=7)

    response = client.get(reverse("game_record", args=[game.public_id]))

    record = json.loads(response.content)
    assert set(record["decks"]) == {"blue", "yellow"}
    # R9.4: after the end the seed and salt are revealed, and they verify.
    assert record["seed"] == game.seed and record["salt"] == game.salt
    assert engine.verify(record)["ok"] is True
    final = engine.replay(record)
    assert final.board_rows() == game.current_state().board_rows()
    assert engine.score(final) == engine.score(game.current_state())


def test_during_play_spectators_may_not_export(client, duel, carol):
    play(duel, 6)
    url = reverse("game_record", args=[duel.public_id])

    assert client.get(url).status_code == 403
    client.force_login(carol)
    assert client.get(url).status_code == 403


def test_during_play_a_player_exports_only_their_own_view(client, duel, bob):
    play(duel, 9)
    client.force_login(bob)

    response = client.get(reverse("game_record", args=[duel.public_id]))

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    document = json.loads(response.content)
    assert (document["format"], document["game"], document["seat"]) == (
        "blokus-view/1",
        duel.public_id,
        1,
    )
    keys = keys_in(document)
    assert "decks" not in keys and "seed" not in keys
    assert "hands" not in keys and "draw_piles" not in keys
    assert str(duel.seed) not in response.content.decode()
    state = duel.current_state()
    assert document["view"]["hand"] == state.hands[1]
    assert document["actions"] == [a.payload for a in duel.actions.order_by("ply")]


# -- uploads --------------------------------------------------------------------------------


def test_an_uploaded_record_is_replayed_step_by_step(client, classic_duel):
    game = play(classic_duel, 20)
    record = engine.make_record(
        game.initial_state(), [a.payload for a in game.actions.order_by("ply")], reveal=True
    )
    url = reverse("replay_upload")

    assert client.get(url).status_code == 200
    response = client.post(url, {"record": upload_file(json.dumps(record))})

    assert response.status_code == 302
    assert response["Location"] == f"{url}?ply=20"
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert page.context["position"]["ply"] == 20
    assert board_of(page) == game.current_state().board_rows()
    step = client.get(f"{url}?ply=3", headers={"HX-Request": "true"})
    assert step.context["position"]["ply"] == 3
    assert "<html" not in step.content.decode()


def test_an_uploaded_shuffle_record_shows_its_decks(client, duel):
    game = play(duel, 8)
    record = engine.make_record(
        game.initial_state(), [a.payload for a in game.actions.order_by("ply")], reveal=True
    )

    client.post(reverse("replay_upload"), {"record": upload_file(json.dumps(record))})
    page = client.get(reverse("replay_upload") + "?ply=0")

    position = page.context["position"]
    assert position["revealed"] is True
    assert {d["owner"]: d["pile"] for d in position["decks"]} == {
        owner: [engine.CARD_NAMES[c] for c in deck] for owner, deck in record["decks"].items()
    }


def test_malformed_json_is_refused_inline(client):
    response = client.post(reverse("replay_upload"), {"record": upload_file("{not json")})

    assert response.status_code == 400
    assert "the record is not valid JSON" in response.content.decode()


def test_an_illegal_record_is_refused_naming_the_action(client):
    record = {
        "format": "blokus-record/1",
        "mode": "classic",
        "players": 4,
        "actions": [{"place": "a1"}, {"place": "t1"}, {"place": "t1"}],
    }

    response = client.post(reverse("replay_upload"), {"record": upload_file(json.dumps(record))})

    assert response.status_code == 400
    assert "action 2: piece covers a square that is not free (R4.1)" in response.content.decode()
    assert "uploaded_record" not in client.session


@pytest.mark.parametrize(
    "content",
    [
        "[]",
        '{"format": "blokus-record/1"}',
        '{"format": "blokus-record/1", "mode": "classic", "players": 2, "actions": [7]}',
        '{"format": "blokus-record/1", "mode": "shuffle", "players": 2, "seed": 1, '
        '"decks": {"blue": 3}, "actions": []}',
        b"\xff\xfe\x00",
    ],
)
def test_odd_uploads_get_a_message_and_never_a_server_error(client, content):
    response = client.post(reverse("replay_upload"), {"record": upload_file(content)})

    assert response.status_code == 400
    assert b"form-errors" in response.content


def test_an_upload_over_one_megabyte_is_refused(client):
    big = '{"format": "blokus-record/1", "pad": "' + "x" * (1024 * 1024) + '"}'

    response = client.post(reverse("replay_upload"), {"record": upload_file(big)})

    assert response.status_code == 400
    assert "larger than 1 MB" in response.content.decode()


def test_an_upload_needs_a_file(client):
    response = client.post(reverse("replay_upload"), {})

    assert response.status_code == 400


# -- safety ---------------------------------------------------------------------------------


def test_the_upload_needs_the_csrf_token(classic_duel):
    browser = Client(enforce_csrf_checks=True)
    record = {"format": "blokus-record/1", "mode": "classic", "players": 2, "actions": []}

    response = browser.post(reverse("replay_upload"), {"record": upload_file(json.dumps(record))})

    assert response.status_code == 403


def test_the_history_pages_write_nothing(client, duel, alice):
    play(duel, 5)
    client.force_login(alice)
    before = (
        Game.objects.count(),
        Seat.objects.count(),
        Action.objects.count(),
        list(Game.objects.values().order_by("pk")),
    )

    for url in (
        replay_url(duel),
        replay_url(duel, 2),
        reverse("game_record", args=[duel.public_id]),
        reverse("replay_upload"),
    ):
        assert client.get(url).status_code == 200

    after = (
        Game.objects.count(),
        Seat.objects.count(),
        Action.objects.count(),
        list(Game.objects.values().order_by("pk")),
    )
    assert after == before


def test_the_history_views_refuse_other_methods(client, duel, alice):
    client.force_login(alice)

    assert client.post(replay_url(duel)).status_code == 405
    assert client.post(reverse("game_record", args=[duel.public_id])).status_code == 405
