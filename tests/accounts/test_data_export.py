"""Settings > "Download my data": a zip built by the Celery task (eager here), linked by email
and on the Settings page, readable by its owner only, expiring after EXPORT_DAYS; a second
request while one builds is refused. Running games are exported as the player's own view: no
other hand, no pile order, no seed (R9, R9.2, R9.3); finished ones in full (R9.4)."""

from __future__ import annotations

import io
import json
import re
import zipfile
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import Block, DataExport
from games import engine
from games.jobs import exports
from games.models import ChatMessage, NoticeSettings, PushSubscription, Rating, RatingChange
from tests.support.classic import finished_classic
from tests.support.pages import client_for

ENDPOINT = "https://push.example.net/send/very-secret-device-capability"
WEBHOOK = "https://discord.com/api/webhooks/123/very-secret-hook-token"


@pytest.fixture(autouse=True)
def _exports_in_tmp(settings, tmp_path):
    settings.EXPORT_ROOT = tmp_path / "exports"


@pytest.fixture
def alices_world(alice, bob, carol, duel, verified):
    """alice: a finished classic game against bob, a Shuffle game in play against him (duel),
    chat lines, a rating and its history, a block, a push device and a webhook."""
    verified(alice)
    classic = finished_classic(alice, bob, seed=3)
    ChatMessage.objects.create(game=duel, user=alice, text="good luck, bob")
    ChatMessage.objects.create(game=duel, user=bob, text="bob's own line")
    assert Rating.objects.filter(user=alice).exists()  # a rated game: her rating and its change
    Block.objects.create(blocker=alice, blocked=carol)
    Block.objects.create(blocker=bob, blocked=alice)  # bob's, never told to alice
    PushSubscription.objects.create(user=alice, endpoint=ENDPOINT, p256dh="KEY-p256dh", auth="AUTH")
    NoticeSettings.objects.create(user=alice, webhook_url=WEBHOOK, over=False)
    return {"classic": classic, "duel": duel}


def _ask(client, on_commit):
    with on_commit():
        return client.post("/settings/data/export/")


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _zip(response) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def test_the_zip_holds_the_account_games_chat_ratings_blocks_and_devices(
    alice, alices_world, on_commit
):
    client = client_for(alice)
    response = _ask(client, on_commit)
    assert response.status_code == 302
    export = DataExport.objects.get(user=alice)
    assert export.status == DataExport.Status.READY
    assert export.games == 2
    # The email links to the download; the Settings page too.
    (message,) = mail.outbox
    assert message.to == [alice.email]
    link = re.search(r"https?://\S+/settings/data/export/[\w-]+/", message.body).group(0)
    path = link.split("://", 1)[1].split("/", 1)[1]
    assert f"/{path}" in client.get("/settings/").content.decode()
    response = client.get(f"/{path}")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    archive = _zip(response)
    names = set(archive.namelist())
    classic, duel = alices_world["classic"], alices_world["duel"]
    assert {
        "README.txt",
        "account.json",
        "notifications.json",
        "games.json",
        "chat.json",
        "ratings.json",
        "blocks.json",
        f"games/{classic.public_id}.json",
        f"games/{classic.public_id}.blksgf",
        f"games/{duel.public_id}.json",
    } <= names
    assert f"games/{duel.public_id}.blksgf" not in names  # Shuffle: Pentobi knows no cards
    account = json.loads(archive.read("account.json"))
    assert account["username"] == "alice" and account["email"] == alice.email
    assert account["settings"]["time_zone"] == alice.time_zone
    # The finished game in full (R9.4): its record replays to the game's end.
    record = json.loads(archive.read(f"games/{classic.public_id}.json"))
    assert record["format"] == "blokus-record/1"
    assert engine.replay(record).over
    assert archive.read(f"games/{classic.public_id}.blksgf").decode().startswith("(;")
    assert [line["text"] for line in json.loads(archive.read("chat.json"))] == ["good luck, bob"]
    ratings = json.loads(archive.read("ratings.json"))
    change = RatingChange.objects.get(user=alice)
    assert ratings["history"] == [
        {
            "game": classic.public_id,
            "mode": "classic",
            "before": change.before,
            "after": change.after,
            "at": change.created_at.isoformat(),
        }
    ]
    assert ratings["current"][0]["mode"] == "classic"
    assert json.loads(archive.read("blocks.json")) == [
        {"player": "carol", "since": json.loads(archive.read("blocks.json"))[0]["since"]}
    ]
    notices = json.loads(archive.read("notifications.json"))
    assert notices["boxes"]["over"] is False
    assert notices["webhook"] == {"host": "discord.com"}
    assert notices["devices"][0]["push_service"] == "push.example.net"
    assert notices["devices"][0]["switched_on"] is True
    everything = b"".join(archive.read(n) for n in names).decode()
    for secret in ("very-secret-device-capability", "very-secret-hook-token", "KEY-p256dh"):
        assert secret not in everything  # devices without their keys


def test_a_running_game_is_only_the_players_own_view(alice, alices_world, on_commit):
    """R9.2, R9.3: the other hand, the order of every pile and the seed stay out."""
    _ask(client_for(alice), on_commit)
    export = DataExport.objects.get(user=alice)
    duel = alices_world["duel"]
    with zipfile.ZipFile(exports.path_of(export)) as archive:
        text = archive.read(f"games/{duel.public_id}.json").decode()
    document = json.loads(text)
    assert document["format"] == "blokus-view/1" and document["seat"] == 0
    state = duel.current_state()
    assert document["view"] == engine.view(state, 0)
    assert duel.seed not in text and duel.salt not in text
    assert "decks" not in document and "seed" not in document
    compact = json.dumps(document)
    full = state.to_json()
    for owner, pile in full["draw_piles"].items():  # no pile's order (R9.3)
        assert len(pile) > 3 and json.dumps(pile) not in compact, owner
    assert json.dumps(full["hands"]["yellow"]) not in compact or not full["hands"]["yellow"]


def test_only_its_owner_can_download_it(alice, bob, alices_world, on_commit):
    _ask(client_for(alice), on_commit)
    export = DataExport.objects.get(user=alice)
    url = f"/settings/data/export/{export.public_id}/"
    assert client_for(bob).get(url).status_code == 404
    visitor = client_for(None).get(url)
    assert visitor.status_code == 302 and "/accounts/login/" in visitor["Location"]
    assert client_for(alice).get(url).status_code == 200


def test_a_second_export_while_one_builds_is_refused(alice, monkeypatch):
    queued = []
    monkeypatch.setattr("games.jobs.queue", lambda *args: queued.append(args))
    client = client_for(alice)
    with_commit = client.post("/settings/data/export/", follow=True)
    assert "being prepared" in with_commit.content.decode()
    again = client.post("/settings/data/export/", follow=True)
    assert "already being prepared" in again.content.decode()
    assert DataExport.objects.filter(user=alice).count() == 1


def test_a_build_whose_worker_died_does_not_block_a_new_one(alice, settings, monkeypatch):
    monkeypatch.setattr("games.jobs.queue", lambda *args: None)
    stuck = DataExport.objects.create(user=alice)
    DataExport.objects.filter(pk=stuck.pk).update(
        created_at=timezone.now() - timedelta(seconds=settings.EXPORT_LEASE_SECONDS + 1)
    )
    client_for(alice).post("/settings/data/export/")
    stuck.refresh_from_db()
    assert stuck.status == DataExport.Status.FAILED
    assert DataExport.objects.filter(user=alice, status=DataExport.Status.BUILDING).count() == 1


def test_an_expired_export_is_deleted_by_the_sweep(alice, alices_world, on_commit):
    _ask(client_for(alice), on_commit)
    export = DataExport.objects.get(user=alice)
    path = exports.path_of(export)
    assert path.exists()
    DataExport.objects.filter(pk=export.pk).update(expires_at=timezone.now())
    assert exports.sweep()["expired"] == 1
    assert not path.exists()
    url = f"/settings/data/export/{export.public_id}/"
    assert client_for(alice).get(url).status_code == 404


def test_a_task_delivered_twice_builds_once(alice, alices_world, monkeypatch):
    monkeypatch.setattr("games.jobs.queue", lambda *args: None)
    client_for(alice).post("/settings/data/export/")
    export = DataExport.objects.get(user=alice)
    assert exports.build(export.pk) == "ready"
    assert exports.build(export.pk) == "gone"
    assert len(mail.outbox) == 1
