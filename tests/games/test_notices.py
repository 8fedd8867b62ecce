"""The notice registry (games.notices, STYLE.md habit 22): every kind has its words, templates and
box in every language the site offers, and the channels (email, Web Push, webhooks) read the
registry. The two kinds added through it, "an opponent resigned" and "your take back was
answered", go out by email or to a device when due and wanted, and not when the player's box is
unticked, they are at the board, away, or blocked the player who resigned."""

from __future__ import annotations

import ast
import json
import re
from datetime import timedelta
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core import mail
from django.template.loader import get_template
from django.utils import timezone, translation
from django.utils.translation.template import templatize

from accounts.models import Block, User
from config import catalogs
from games import notices, services
from games.jobs import emails, push
from games.live import presence
from games.models import DeviceNotice, Game, NoticeSettings, PushSubscription, Seat, TurnNotice
from games.services import SeatSpec
from games.services.resign import game_resign
from games.services.takeback import takeback_answer, takeback_request
from tests.support import push_stub
from tests.support.pages import client_for

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
pytestmark = pytest.mark.usefixtures("vapid_keys")  # the site's Web Push keys, fresh

SHARED = ("emails/base.html", "emails/footer.txt")  # every email's frame and footer


# -- the registry knows every kind, with its words in every language ---------------------------


def catalog(code: str) -> dict[tuple[str | None, str], polib.POEntry]:
    po = polib.pofile(str(catalogs.LOCALE_DIR / code / "LC_MESSAGES" / "django.po"))
    return {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}


CALL = re.compile(r"\b(npgettext|pgettext|ngettext|gettext)\(((?:u'(?:[^'\\]|\\.)*'(?:, )?)+)")
LITERAL = re.compile(r"u'(?:[^'\\]|\\.)*'")


def template_msgids(name: str) -> list[tuple[str | None, str, str | None]]:
    """(context, msgid, plural msgid) of every text a template marks for translation, read the
    way makemessages reads it (Django's templatize)."""
    source = Path(get_template(name).origin.name).read_text()
    found = []
    for function, arguments in CALL.findall(templatize(source)):
        texts = [ast.literal_eval(literal) for literal in LITERAL.findall(arguments)]
        context = texts.pop(0) if function in ("pgettext", "npgettext") else None
        plural = texts[1] if function in ("ngettext", "npgettext") else None
        found.append((context, texts[0], plural))
    return found


def lazy_msgid(text) -> str:
    with translation.override("en"):
        return str(text)


def test_the_registry_is_the_vocabulary_of_every_channel():
    assert set(notices.emailed()) == set(TurnNotice.Kind.values)  # a row for every email kind
    assert {"turn", "invite", "over", "resigned", "takeback", "matched", "round"} == set(
        notices.on_devices()
    )
    boxes = {f.name for f in NoticeSettings._meta.fields}
    for kind, notice in notices.NOTICES.items():
        assert notice.kind == kind and len(kind) <= 10  # TurnNotice.kind, DeviceNotice.kind
        assert notice.email or notice.device, kind  # some channel carries it
        assert notice.choice is None or notice.choice in boxes, kind
        if notice.choice_stops_email:
            assert notice.choice and notice.email, kind
    assert set(notices.choices()) == {
        "turn",
        "invite",
        "over",
        "resigned",
        "takeback",
        "matched",
        "round",
    }


def test_the_template_reader_finds_what_makemessages_finds():
    """The check below can fail: it reads the texts of a template as the catalogs hold them."""
    assert template_msgids("emails/takeover.html")[:2] == [
        (None, "The computer takes a seat", None),
        (
            None,
            "Your time for a move ran out %(limit)s time in a row in <strong>%(title)s</strong>, "
            "so the computer plays your seat for the rest of the game.",
            "Your time for a move ran out %(limit)s times in a row in <strong>%(title)s</strong>, "
            "so the computer plays your seat for the rest of the game.",
        ),
    ]
    assert (None, "Hello %(name)s,", None) in template_msgids("emails/base.html")


def words_of(notice: notices.Notice) -> list[tuple[str | None, str, str | None]]:
    """Every text that ``notice`` may show: its templates (with the frame), its device lines,
    its box's label and help, and its name in TurnNotice's choices."""
    texts = []
    if notice.email:
        for name in (*notice.templates, *SHARED):
            found = template_msgids(name)
            assert found, name
            texts += found
        texts.append((None, lazy_msgid(TurnNotice.Kind(notice.kind).label), None))
    for line in (notice.device or {}).values():
        texts.append((None, lazy_msgid(line), None))
    if notice.choice:
        field = NoticeSettings._meta.get_field(notice.choice)
        texts.append((None, lazy_msgid(field.verbose_name), None))
        if field.help_text:
            texts.append((None, lazy_msgid(field.help_text), None))
    return texts


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("kind", list(notices.NOTICES))
def test_every_kind_has_its_words_and_templates_in_every_language(kind, code):
    words = catalog(code)
    for context, msgid, plural in words_of(notices.NOTICES[kind]):
        entry = words.get((context, msgid))
        assert entry is not None, f"{code}: {msgid!r} ({kind}) is not in the catalog"
        assert entry.msgid_plural == (plural or "")
        texts = list(entry.msgstr_plural.values()) if plural else [entry.msgstr]
        assert texts and all(t.strip() for t in texts), f"{code}: {msgid!r} is not translated"
        assert "fuzzy" not in entry.flags


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_device_line_is_said_in_the_language(code):
    words = catalog(code)
    for notice in notices.NOTICES.values():
        for line in (notice.device or {}).values():
            with translation.override(code):
                said = str(line)
            assert said == words[(None, lazy_msgid(line))].msgstr != lazy_msgid(line)


# -- the channels read who is told from the registry -------------------------------------------


def device_for(user, stub, name: str) -> push_stub.Device:
    device = push_stub.Device(f"{stub.url}/push/{name}")
    PushSubscription.objects.create(
        user=user, endpoint=device.endpoint, p256dh=device.p256dh, auth=device.auth
    )
    return device


def test_an_invitation_from_a_player_one_blocked_reaches_no_device(
    alice, bob, carol, stub, on_commit
):
    """Blocks are silent (selectors.seating): the invitation's entry leaves out the invited
    player who blocked its creator, on every channel; the others are told."""
    device_for(bob, stub, "bobs-phone")
    device_for(carol, stub, "carols-phone")
    Block.objects.create(blocker=carol, blocked=alice)
    with on_commit():
        services.game_create(
            creator=alice,
            mode="classic",
            players=3,
            seats=[
                SeatSpec(Seat.Kind.HUMAN),
                SeatSpec(Seat.Kind.INVITED, username="bob"),
                SeatSpec(Seat.Kind.INVITED, username="carol"),
            ],
        )
    assert len(stub.on("/push/bobs-phone")) == 1
    assert stub.on("/push/carols-phone") == []


# -- the two kinds added through the registry --------------------------------------------------


def to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


def about(user, kind_words: str) -> list:
    return [m for m in to(user) if kind_words in m.subject]


def classic(creator, *invited, rated=False) -> Game:
    seats = [SeatSpec(Seat.Kind.HUMAN)]
    seats += [SeatSpec(Seat.Kind.INVITED, username=u.username) for u in invited]
    game = services.game_create(
        creator=creator, mode="classic", players=len(seats), seats=seats, rated=rated
    )
    for user in invited:
        services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def last_ply(game: Game) -> int:
    return game.actions.order_by("-ply").values_list("ply", flat=True)[0]


def move(game: Game, user, corner: str) -> None:
    game.refresh_from_db()
    services.action_submit(game=game, user=user, action={"place": corner}, expected_ply=game.ply)
    game.refresh_from_db()


def setup_round(game: Game, users: dict) -> None:
    """Every colour's first piece on a corner (R3.1), by whoever controls it. Nothing it queues
    runs: the test's transaction never commits."""
    for corner in ("a1", "t1", "t20", "a20"):
        game.refresh_from_db()
        move(game, users[game.current_state().controller()], corner)


@pytest.fixture
def trio(alice, bob, carol, verified):
    verified(alice, bob, carol)
    game = classic(alice, bob, carol)
    setup_round(game, {0: alice, 1: bob, 2: carol})
    mail.outbox.clear()
    return game


def test_an_opponents_resignation_is_emailed_to_the_players_still_in_the_game(
    trio, alice, bob, carol, on_commit
):
    with on_commit():
        game_resign(game=trio, user=alice)

    assert about(alice, "resigned") == []  # not to the one who resigned
    for player in (bob, carol):
        (message,) = about(player, "resigned")
        assert message.subject == "[Blokus Shuffle] alice resigned: alice vs bob vs carol · Classic"
        html = message.alternatives[0][0]
        assert "alice resigned from Classic Blokus (3 players). The game goes on without them." in (
            message.body
        )
        assert (
            "<strong>alice</strong> resigned from <strong>Classic Blokus (3 players)</strong>."
            in html
        )
        assert f"/games/{trio.public_id}/" in message.body and "/unsubscribe/" in message.body
        assert "List-Unsubscribe" in message.extra_headers
    rows = TurnNotice.objects.filter(kind="resigned")
    assert sorted(rows.values_list("user__username", flat=True)) == ["bob", "carol"]
    assert {r.ply for r in rows} == {last_ply(trio)}
    assert trio.actions.get(ply=last_ply(trio)).payload == {"resign": "blue"}


def test_a_resignation_that_ends_the_game_says_so_and_tells_nothing_hidden(
    alice, bob, verified, on_commit
):
    verified(alice, bob)
    game = classic(alice, bob)
    setup_round(game, {0: alice, 1: bob})
    mail.outbox.clear()
    with on_commit():
        game_resign(game=game, user=bob)

    (message,) = about(alice, "resigned")
    assert "bob resigned from Classic Blokus (2 players). That ends the game" in message.body
    game.refresh_from_db()
    state = game.current_state()
    text = message.subject + message.body + message.alternatives[0][0]
    secrets = [str(game.seed), game.salt]
    secrets += [card for owner in range(len(state.hands)) for card in state.hands[owner]]
    secrets += [card for owner in range(len(state.piles)) for card in state.piles[owner]]
    assert not any(secret and secret in text for secret in secrets)  # R9


def test_a_resignation_reaches_a_device_and_a_webhook_instead_of_the_email(
    trio, alice, bob, carol, stub, on_commit
):
    phone = device_for(bob, stub, "bobs-phone")
    NoticeSettings.objects.create(user=carol, webhook_url=f"{stub.url}/hook")
    with on_commit():
        game_resign(game=trio, user=alice)

    bodies = [phone.read(r)["body"] for r in stub.on("/push/bobs-phone")]
    assert "alice resigned: alice vs bob vs carol · Classic" in bodies
    assert about(bob, "resigned") == []  # his phone was told instead
    (hook,) = [json.loads(r.body) for r in stub.on("/hook") if b"resigned" in r.body]
    assert hook["content"].startswith("alice resigned: alice vs bob vs carol · Classic")
    assert f"/games/{trio.public_id}/" in hook["content"]
    assert len(about(carol, "resigned")) == 1  # no device: her email goes out as well
    sent = DeviceNotice.objects.filter(kind="resigned", status="sent")
    assert sorted(sent.values_list("user__username", "channel")) == [
        ("bob", "push"),
        ("carol", "webhook"),
    ]


def test_no_resignation_notice_to_a_player_who_unticked_it(
    trio, alice, bob, carol, stub, on_commit
):
    phone = device_for(bob, stub, "bobs-phone")
    NoticeSettings.objects.create(user=bob, resigned=False)
    NoticeSettings.objects.create(user=carol, resigned=False)  # no device: her email stops too
    with on_commit():
        game_resign(game=trio, user=alice)

    assert about(bob, "resigned") == [] and about(carol, "resigned") == []
    bodies = [phone.read(r)["body"] for r in stub.on("/push/bobs-phone")]
    assert bodies and not [b for b in bodies if "resigned" in b]  # his turn's notice came
    ply = last_ply(trio)
    assert emails.deliver(game_id=trio.pk, ply=ply, user_id=carol.pk, kind="resigned") == (
        "declined"
    )
    assert push.deliver(
        game_id=trio.pk, ply=ply, user_id=bob.pk, kind="resigned", channel="push"
    ) == ("declined")


def test_no_resignation_notice_at_the_board_on_vacation_with_emails_off_or_blocked(
    trio, alice, bob, carol, on_commit
):
    presence.page_report(bob.pk, "tab", visible=True, active_ms_ago=0)  # bob is at the board
    now = timezone.now()
    User.objects.filter(pk=carol.pk).update(vacation_until=now + timedelta(days=3))
    with on_commit():
        game_resign(game=trio, user=alice)
    assert about(bob, "resigned") == [] and about(carol, "resigned") == []
    ply = last_ply(trio)
    assert emails.deliver(game_id=trio.pk, ply=ply, user_id=bob.pk, kind="resigned") == "online"
    assert emails.deliver(game_id=trio.pk, ply=ply, user_id=carol.pk, kind="resigned") == "played"

    User.objects.filter(pk=carol.pk).update(vacation_until=None, email_turns="never")
    assert emails.deliver(game_id=trio.pk, ply=ply, user_id=carol.pk, kind="resigned") == (
        "declined"
    )

    # Blocks are silent: a player who blocked the one who resigned hears nothing of it.
    User.objects.filter(pk=carol.pk).update(email_turns="every")
    Block.objects.create(blocker=carol, blocked=alice)
    trio.refresh_from_db()
    told = notices.notice("resigned").recipients(trio, list(trio.seats.select_related("user")), 0)
    assert [seat.user for seat in told] == [bob]


def test_the_resignation_email_comes_in_the_readers_language(trio, alice, bob, on_commit):
    User.objects.filter(pk=bob.pk).update(language="sv")
    with translation.override("ja"), on_commit():  # alice's page is in Japanese
        game_resign(game=trio, user=alice)
    (message,) = [m for m in to(bob) if "gav upp" in m.subject]
    assert message.subject == "[Blokus Shuffle] alice gav upp: alice mot bob mot carol · Klassiskt"
    assert (
        "alice gav upp i Klassiskt Blokus (3 spelare). Partiet fortsätter utan hen." in message.body
    )
    assert "Hej bob!" in message.body and "resigned" not in message.body


@pytest.fixture
def asked(alice, bob, verified):
    """alice has placed her first piece and asks to take it back; bob answers."""
    verified(alice, bob)
    game = classic(alice, bob)
    move(game, alice, "a1")
    request = takeback_request(game=game, user=alice)
    mail.outbox.clear()
    return game, request


def test_a_declined_take_back_is_emailed_to_the_asker(asked, alice, bob, on_commit):
    game, request = asked
    with on_commit():
        takeback_answer(game=game, user=bob, accept=False)

    (message,) = about(alice, "take back")
    assert message.subject == "[Blokus Shuffle] bob declined your take back: alice vs bob · Classic"
    assert (
        "bob declined your request to take back your last move in Classic Blokus (2 players): "
        "the move stands." in message.body
    )
    assert "<strong>bob</strong> declined your request" in message.alternatives[0][0]
    assert about(bob, "take back") == []
    notice = TurnNotice.objects.get(kind="takeback")
    assert (notice.user, notice.ply, notice.status) == (alice, request.pk, "sent")


def test_an_accepted_take_back_is_emailed_and_pushed(asked, alice, bob, stub, on_commit):
    game, request = asked
    with on_commit():
        takeback_answer(game=game, user=bob, accept=True)
    (message,) = about(alice, "take back")
    assert message.subject == "[Blokus Shuffle] Your take back was accepted: alice vs bob · Classic"
    assert "the game is back at the position before that move." in message.body

    # With a device, the device is told instead.
    phone = device_for(alice, stub, "alices-phone")
    mail.outbox.clear()
    assert push.deliver(
        game_id=game.pk, ply=request.pk, user_id=alice.pk, kind="takeback", channel="push"
    ) == ("sent")
    (received,) = stub.on("/push/alices-phone")
    assert phone.read(received)["body"] == "Your take back was accepted: alice vs bob · Classic"
    TurnNotice.objects.all().delete()
    assert emails.deliver(game_id=game.pk, ply=request.pk, user_id=alice.pk, kind="takeback") == (
        "pushed"
    )


def test_a_declined_take_back_reaches_the_askers_device(asked, alice, bob, stub, on_commit):
    game, _request = asked
    phone = device_for(alice, stub, "alices-phone")
    with on_commit():
        takeback_answer(game=game, user=bob, accept=False)
    bodies = [phone.read(r)["body"] for r in stub.on("/push/alices-phone")]
    assert bodies == ["bob declined your take back: alice vs bob · Classic"]
    assert about(alice, "take back") == []


def test_no_take_back_answer_to_an_asker_who_unticked_it(asked, alice, bob, stub, on_commit):
    game, request = asked
    device_for(alice, stub, "alices-phone")
    NoticeSettings.objects.create(user=alice, takeback=False)
    with on_commit():
        takeback_answer(game=game, user=bob, accept=False)
    assert stub.on("/push/") == [] and about(alice, "take back") == []
    PushSubscription.objects.all().delete()  # without a device, the email stops too
    assert emails.deliver(game_id=game.pk, ply=request.pk, user_id=alice.pk, kind="takeback") == (
        "declined"
    )


def test_no_take_back_answer_while_the_asker_is_at_the_board(asked, alice, bob, on_commit):
    game, request = asked
    presence.page_report(alice.pk, "tab", visible=True, active_ms_ago=0)
    with on_commit():
        takeback_answer(game=game, user=bob, accept=False)
    assert about(alice, "take back") == []
    assert emails.deliver(game_id=game.pk, ply=request.pk, user_id=alice.pk, kind="takeback") == (
        "online"
    )


def test_nothing_is_said_while_a_take_back_waits_for_more_answers(
    alice, bob, carol, verified, on_commit
):
    verified(alice, bob, carol)
    game = classic(alice, bob, carol)
    move(game, alice, "a1")
    request = takeback_request(game=game, user=alice)
    with on_commit():
        takeback_answer(game=game, user=bob, accept=True)  # carol has not answered yet
    assert about(alice, "take back") == []
    # A task for it anyway finds no answer to tell of.
    assert emails.deliver(game_id=game.pk, ply=request.pk, user_id=alice.pk, kind="takeback") == (
        "gone"
    )
    with on_commit():
        takeback_answer(game=game, user=carol, accept=False)
    (message,) = about(alice, "take back")
    assert message.subject.startswith("[Blokus Shuffle] carol declined your take back")


def test_the_notifications_page_has_a_box_for_each(bob):
    page = client_for(bob).get("/settings/notifications/").content.decode()
    for name in notices.choices():
        assert f'name="{name}"' in page
    assert "When an opponent resigns" in page
    assert "When the other players answer my take back request" in page
    response = client_for(bob).post(
        "/settings/notifications/", {"turn": "on", "over": "on", "takeback": "on"}
    )
    assert response.status_code == 302
    row = NoticeSettings.objects.get(user=bob)
    assert (row.turn, row.invite, row.over, row.resigned, row.takeback) == (
        True,
        False,
        True,
        False,
        True,
    )
