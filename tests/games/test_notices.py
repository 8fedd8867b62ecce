"""The notice registry (games.notices, STYLE.md habit 22): every kind has its words, templates and
box in every language the site offers, and the channels (email, Web Push, webhooks) read the
registry."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.template.loader import get_template
from django.test import override_settings
from django.utils import translation
from django.utils.translation.template import templatize

from accounts.models import Block
from config import catalogs
from games import notices, services
from games.jobs import push
from games.models import NoticeSettings, PushSubscription, Seat, TurnNotice
from games.selectors import vapid
from games.services import SeatSpec
from tests.support import push_stub
from tests.support.pages import client_for

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
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
    assert {"turn", "invite", "over"} == set(notices.on_devices())
    boxes = {f.name for f in NoticeSettings._meta.fields}
    for kind, notice in notices.NOTICES.items():
        assert notice.kind == kind and len(kind) <= 10  # TurnNotice.kind, DeviceNotice.kind
        assert notice.email or notice.device, kind  # some channel carries it
        assert notice.choice is None or notice.choice in boxes, kind
        if notice.choice_stops_email:
            assert notice.choice and notice.email, kind
    assert set(notices.choices()) == {"turn", "invite", "over"}


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


def test_the_notifications_page_has_a_box_for_each(bob):
    page = client_for(bob).get("/settings/notifications/").content.decode()
    for name in notices.choices():
        assert f'name="{name}"' in page
    response = client_for(bob).post("/settings/notifications/", {"turn": "on", "over": "on"})
    assert response.status_code == 302
    row = NoticeSettings.objects.get(user=bob)
    assert (row.turn, row.invite, row.over) == (True, False, True)


# -- the channels read who is told from the registry -------------------------------------------


@pytest.fixture(autouse=True)
def vapid_keys():
    key = push.new_private_key()
    with override_settings(VAPID_PRIVATE_KEY=key, VAPID_SUBJECT="mailto:ops@example.com"):
        vapid.private_key.cache_clear()
        vapid.public_key.cache_clear()
        yield key
    vapid.private_key.cache_clear()
    vapid.public_key.cache_clear()


@pytest.fixture
def stub():
    server = push_stub.start()
    yield server
    server.close()


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
