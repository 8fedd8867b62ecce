"""The privacy page: what is stored, for how long, who sees what (R9) and how to export or
delete, in every language of the site, linked from every page's footer and from Settings."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from tests.support.pages import client_for

HEADINGS = ("What is stored", "For how long", "Who sees what", "Take your data, or delete it")


@pytest.mark.parametrize("code", [code for code, _name in settings.LANGUAGES])
def test_the_privacy_page_speaks_every_language(db, code):
    page = Client().get(f"/privacy/?lang={code}")
    assert page.status_code == 200
    text = page.content.decode()
    assert f'lang="{code}"' in text
    with translation.override(code):
        for heading in HEADINGS:
            assert translation.gettext(heading) in text
    if code != "en":  # translated, not English with a translated title
        assert "No IP address is stored with your account" not in text
    assert "R9.2" in text and "R9.4" in text


def test_it_states_the_retention_the_settings_give(db, settings):
    settings.EXPORT_DAYS, settings.DELETION_GRACE_DAYS, settings.BACKUP_KEEP = 4, 9, 21
    text = Client().get("/privacy/?lang=en").content.decode()
    assert "A download of your data: 4 days" in text
    assert "after 9 days" in text
    assert "the last 21 are kept" in text
    assert f"at most {settings.SESSION_COOKIE_AGE // 86400} days" in text


def test_the_footer_and_the_settings_link_to_it(alice):
    assert 'href="/privacy/"' in Client().get("/").content.decode()
    settings_page = client_for(alice).get("/settings/").content.decode()
    assert 'href="/privacy/"' in settings_page
    assert 'action="/settings/data/export/"' in settings_page
    assert 'href="/settings/account/delete/"' in settings_page
