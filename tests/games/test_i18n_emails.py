"""Emails and websocket notices in the RECIPIENT's language (User.language), whoever's
move, click or task sends them: a turn email, a reminder and the daily digest, in Swedish to a
player who chose Swedish, in Japanese to one who chose Japanese, in English to one who chose
English or nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone, translation

from accounts.models import User
from games import engine, services
from games.jobs.tasks import send_digest, send_turn_email
from games.live import nudges
from games.models import Game
from games.selectors.names import game_name

pytestmark = pytest.mark.django_db

# The turn began at 12:00 UTC with an hour to move: the deadline is 13:00 UTC, a Tuesday.
TURN_STARTED = datetime(2025, 6, 3, 12, 0, tzinfo=UTC)

EXPECTED = {
    "turn": {
        "sv": {
            "subject": "[Blokus Shuffle] Din tur: ",
            "body": [
                "Hej bob!",
                "Det är din tur i ",
                "(2 spelare) mot alice.",
                "Spela din tur: ",
                "Gör ditt drag senast tisdag 3 juni 2025 kl. 13:00 (UTC)",
                "Ändra dina mejlinställningar: ",
                "Stoppa mejlen om din tur med ett klick: ",
            ],
            "html": [
                '<html lang="sv">',
                "Det är din tur i <strong>",
                "Spela din tur</a>",
                "Också vid bordet: alice.",
                "stoppa mejlen om din tur</a> med ett klick.",
            ],
        },
        "ja": {
            "subject": "[Blokus Shuffle] あなたの番です：",
            "body": [
                "bob さん",
                "であなたの番です。",
                "（2人）（対戦相手：alice）",
                "手番を指す：",
                "2025年6月3日(火) 13:00（UTC）までに指してください",
                "メール設定の変更：",
                "ワンクリックで手番のメールを停止：",
            ],
            "html": [
                '<html lang="ja">',
                "であなたの番です。",
                "手番を指す</a>",
                "同じ卓のプレイヤー：alice",
                "手番のメールを停止</a>できます。",
            ],
        },
    },
    "reminder": {
        "sv": {
            "subject": "[Blokus Shuffle] Påminnelse: din tur väntar i ",
            "body": [
                "Hej bob!",
                "mot alice väntar fortfarande på dig.",
                "Spela din tur: ",
                "Du får en påminnelse per tur.",
            ],
            "html": [
                '<html lang="sv">',
                "väntar fortfarande på dig.",
                "Du får en påminnelse per tur eftersom du har påminnelser påslagna.",
            ],
        },
        "ja": {
            "subject": "[Blokus Shuffle] リマインダー：",
            "body": [
                "bob さん",
                "（対戦相手：alice）で、まだあなたの番が待っています。",
                "リマインダーは1手番につき1回です。",
            ],
            "html": [
                '<html lang="ja">',
                "で、まだあなたの番が待っています。",
                "1手番につき1回お知らせしています。",
            ],
        },
    },
}

# English sentences of the turn and reminder emails: none may remain in a translated one.
ENGLISH = [
    "Hello",
    "It is your turn",
    "Your turn",
    "Play your turn",
    "Move by",
    "after that the computer plays",
    "Change your email settings",
    "Stop turn emails",
    "stop turn emails",
    "with one click",
    "Also at the table",
    "is still waiting for you",
    "You get one reminder",
    "Reminder",
    "players)",
    "Tuesday",
    "June",
]


def prefer(user, **fields) -> None:
    User.objects.filter(pk=user.pk).update(**fields)
    user.refresh_from_db()


def bobs_turn(game: Game, alice) -> None:
    """Alice plays her whole turn: bob (seat 1) decides next."""
    while True:
        game.refresh_from_db()
        state = game.current_state()
        if state.controller() != 0:
            return
        services.action_submit(
            game=game, user=alice, action=engine.legal_actions(state)[0], expected_ply=game.ply
        )


def sent_to_bob(duel, alice, bob, verified, *, kind: str):
    """The email of ``kind`` about bob's turn, sent by the task while the page of someone reading
    Finnish is active (the sender's language must not leak into bob's email)."""
    verified(bob)
    bobs_turn(duel, alice)
    duel.refresh_from_db()
    if kind == "reminder":
        prefer(bob, reminder_hours=1)
        started, seconds = timezone.now() - timedelta(hours=2), 24 * 3600
    else:
        started, seconds = TURN_STARTED, 3600
    Game.objects.filter(pk=duel.pk).update(turn_started_at=started, move_seconds=seconds)
    with translation.override("fi"):
        assert send_turn_email.delay(duel.pk, duel.ply, bob.pk, kind).get() == "sent"
    (message,) = mail.outbox
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    return message.subject, message.body, html


@pytest.mark.parametrize("lang", ["sv", "ja"])
@pytest.mark.parametrize("kind", ["turn", "reminder"])
def test_a_turn_email_and_a_reminder_come_in_the_recipients_language(
    duel, alice, bob, verified, kind, lang
):
    prefer(bob, language=lang)

    subject, body, html = sent_to_bob(duel, alice, bob, verified, kind=kind)

    want = EXPECTED[kind][lang]
    assert subject.startswith(want["subject"])
    for sentence in want["body"]:
        assert sentence in body
    for sentence in want["html"]:
        assert sentence in html
    for part in (subject, body, html):
        for sentence in ENGLISH:
            assert sentence not in part, f"{sentence!r} left in English in a {lang} {kind} email"
        assert "Hyvä" not in part and "vuoro" not in part  # nor the sender's Finnish


@pytest.mark.parametrize("language", ["en", ""])
def test_a_player_who_chose_english_or_nothing_gets_english(duel, alice, bob, verified, language):
    prefer(bob, language=language)

    subject, body, html = sent_to_bob(duel, alice, bob, verified, kind="turn")

    assert subject.startswith("[Blokus Shuffle] Your turn: ")
    assert "Hello bob," in body and "It is your turn in " in body and " with alice." in body
    assert "Move by Tuesday 3 June 2025, 13:00 (UTC)" in body
    assert '<html lang="en">' in html and "Also at the table: alice." in html
    assert subject.endswith("alice vs bob · Shuffle")  # named as its page names it
    assert duel.public_id not in subject


def test_the_deadline_is_written_the_readers_way(duel, alice, bob, verified):
    """Finnish puts the day before the month and says "klo"; the time zone is the player's."""
    prefer(bob, language="fi", time_zone="Europe/Helsinki")

    subject, body, html = sent_to_bob(duel, alice, bob, verified, kind="turn")

    assert subject.startswith("[Blokus Shuffle] Sinun vuorosi: ")
    # 13:00 UTC is 16:00 in Helsinki in June (EEST).
    assert "Tee siirtosi viimeistään 3. kesäkuuta 2025 klo 16.00 (Europe/Helsinki)" in body


DIGEST = {
    "sv": (
        "[Blokus Shuffle] Din tur i 1 parti",
        "Det är din tur i 1 parti:",
        "mot alice",
        "Du får det här enda mejlet om dagen i stället för ett mejl för varje tur.",
    ),
    "ja": (
        "[Blokus Shuffle] 1件のゲームであなたの番です",
        "1件のゲームであなたの番です：",
        "（対戦相手：alice）",
        "このメールを1日1通お送りしています。",
    ),
    "en": (
        "[Blokus Shuffle] Your turn in 1 game",
        "It is your turn in 1 game:",
        "with alice",
        "You get this one email a day instead of an email for every turn.",
    ),
}


@pytest.mark.parametrize("lang", ["sv", "ja", "en"])
def test_the_daily_digest_comes_in_the_recipients_language(duel, alice, bob, verified, lang):
    verified(bob)
    prefer(bob, email_turns="digest", language=lang)
    bobs_turn(duel, alice)

    with translation.override("da"):
        assert send_digest.delay(bob.pk, "2026-11-23").get() == "sent"

    (message,) = mail.outbox
    html = message.alternatives[0][0]
    subject, opening, opponents, why = DIGEST[lang]
    assert message.subject == subject
    assert opening in message.body and opponents in message.body and why in message.body
    assert f'<html lang="{lang}">' in html and opening in html
    if lang != "en":
        for part in (message.subject, message.body, html):
            for sentence in ("Your turn", "It is your turn", "Hello", "Your games", "1 game"):
                assert sentence not in part
            assert "Det er din tur" not in part  # nor the sender's Danish


@pytest.fixture
def pushed(monkeypatch):
    sent = []
    monkeypatch.setattr(nudges, "_send", lambda group, message: sent.append((group, message)))
    return sent


def test_the_your_turn_notice_is_worded_for_its_recipient(duel, alice, bob, pushed):
    prefer(bob, language="sv")
    prefer(alice, language="ja")

    with translation.override("fi"):  # the mover's page
        nudges.your_turn(bob.pk, duel.public_id, nudges.turn_title(duel))
        nudges.your_turn(alice.pk, duel.public_id, nudges.accepted_title(bob))
        nudges.your_turn(alice.pk, duel.public_id, nudges.invited_title(bob))
        nudges.your_turn(bob.pk, duel.public_id, nudges.declined_title(alice))

    titles = [message["title"] for _group, message in pushed]
    # The game named as its page names it, in bob's language: not by its random id.
    with translation.override("sv"):
        assert titles[0] == "Din tur: " + game_name(duel)
    assert "alice" in titles[0] and "bob" in titles[0] and duel.public_id not in titles[0]
    assert titles[1:3] == [
        "bob さんが招待を承諾しました",
        "bob さんがあなたをゲームに招待しています",
    ]
    assert titles[3].startswith("alice tackade nej till din inbjudan")
    assert [group for group, _ in pushed] == [
        f"user-{bob.pk}",
        *[f"user-{alice.pk}"] * 2,
        f"user-{bob.pk}",
    ]


def test_a_plain_title_goes_out_unchanged_and_english_is_the_default(duel, bob, pushed):
    nudges.your_turn(bob.pk, duel.public_id, "Already worded")
    nudges.your_turn(bob.pk, duel.public_id, nudges.turn_title(duel))

    assert pushed[0][1]["title"] == "Already worded"
    assert pushed[1][1]["title"].startswith("Your turn: ")


def test_a_move_tells_the_next_player_in_their_own_language(duel, alice, bob, pushed, on_commit):
    """The write path (services) hands nudges.your_turn a lazy title: worded for bob, in Swedish,
    although alice's page is in Japanese."""
    prefer(bob, language="sv")
    with translation.override("ja"), on_commit():
        bobs_turn(duel, alice)

    titles = [m["title"] for group, m in pushed if m["type"] == "turn.notice"]
    assert titles and titles[-1].startswith("Din tur: ")
