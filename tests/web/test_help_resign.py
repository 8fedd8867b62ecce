"""The help page explains resign and take back (issue #27) in all six languages."""

from __future__ import annotations

import pytest

WORDS = {
    "en": ("Resign and take back", "The computer never resigns for you."),
    "sv": ("Ge upp och ta tillbaka", "Datorn ger aldrig upp åt dig."),
    "fi": ("Luovutus ja siirron peruminen", "Tietokone ei koskaan luovuta puolestasi."),
    "da": ("Giv op og tag tilbage", "Computeren giver aldrig op for dig."),
    "nb": ("Gi opp og ta tilbake", "Datamaskinen gir aldri opp for deg."),
    "ja": ("投了と手の取り消し", "コンピューターがあなたの代わりに投了することはありません。"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("code", list(WORDS))
def test_the_help_page_explains_resign_and_take_back(client, code):
    page = client.get(f"/help/?lang={code}").content.decode()
    heading, sentence = WORDS[code]
    assert 'id="resign"' in page and heading in page and sentence in page
    assert "(R9)" in page  # why a drawn card cannot be taken back
