"""The help page explains resign and take back in all six languages."""

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
    assert "(R9)" in page  # a drawn card taken back: nothing else of a pile's order is told


# R11.3: a move that drew cards may be taken back, unless a Draw 2 drew (R9.3); R11.1: two players
# may resign during setup.
SAID = {
    "en": (
        "the draw at the end of a turn) may be taken back too",
        "a Draw 2 drew cards cannot be taken back",
        "in a two-player game during the setup round too",
    ),
    "sv": (
        "slutet av en tur) kan också tas tillbaka",
        "ett Dra 2 drog kort kan inte tas tillbaka",
        "i ett parti för två även under startrundan",
    ),
    "fi": (
        "vuoron lopun nosto), voi perua",
        "jossa Nosta 2 nosti kortteja, ei voi perua",
        "kahden pelaajan pelissä myös aloituskierroksen aikana",
    ),
    "da": (
        "turens slutning), kan også tages tilbage",
        "et Træk 2 trak kort, kan ikke tages tilbage",
        "i et spil for to også under startrunden",
    ),
    "nb": (
        "slutten av en tur), kan også tas tilbake",
        "et Trekk 2 trakk kort, kan ikke tas tilbake",
        "i et spill for to også under startrunden",
    ),
    "ja": (
        "手番の終わりのドロー）も取り消せます",
        "ドロー2 でカードを引いた手は取り消せません",
        "2人対戦では最初のピースを置くラウンドの間も",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("code", list(SAID))
def test_r11_the_help_page_says_what_r11_1_and_r11_3_allow(client, code):
    page = client.get(f"/help/?lang={code}").content.decode()
    assert all(words in page for words in SAID[code]), code
