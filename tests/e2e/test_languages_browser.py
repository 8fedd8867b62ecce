"""The game table in Japanese and Swedish, in Chromium.

Japanese needs a CJK font on the machine (.ci/run installs fonts-noto-cjk): without one Chromium
draws every kana as the same empty box, so the Japanese test skips where fontconfig knows no
Japanese font (and fails under REQUIRE_SERVICES=1, as a missing service does). The check
measures the page's own font: a kana drawn by a real font is about 1 em wide, the missing-glyph
box is much narrower, and different kana differ from that box. Screenshots go to out/screenshots.
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Seat
from games.services import SeatSpec
from tests.support.browser import page_for
from tests.support.needs import has_font_for, missing
from tests.support.tables import four_humans, play_until_alice_has_been_skipped_and_reversed

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP, PHONE = (1280, 900), (360, 740)

GLYPHS = """([text, missing]) => {
  const probe = document.querySelector('#game .step-card button.card strong');
  const style = getComputedStyle(probe);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontSize} ${style.fontFamily}`;
  const size = parseFloat(style.fontSize);
  return {
    size,
    glyphs: [...text].map(ch => ctx.measureText(ch).width / size),
    missing: ctx.measureText(missing).width / size,
  };
}"""


def _position(alice, bob, carol, dave, language):
    alice.language = language
    alice.save(update_fields=["language"])
    game = four_humans(alice, bob, carol, dave)
    play_until_alice_has_been_skipped_and_reversed(game, {0: alice, 1: bob, 2: carol, 3: dave})
    return game


def test_the_table_in_japanese_draws_real_glyphs(
    site, browser, alice, bob, carol, dave, screenshots
):
    if not has_font_for("ja"):
        missing("no Japanese font on this machine (apt-get install fonts-noto-cjk)")
    game = site.call(_position, alice, bob, carol, dave, "ja")
    url = f"{site.url}/games/{game.public_id}/"
    for width, height in (DESKTOP, PHONE):
        context, page = page_for(browser, site, alice, url, viewport=(width, height))
        page.wait_for_selector("#game .step-card button.card")
        page.screenshot(path=str(screenshots / f"table-ja-{width}.png"), full_page=True)
        assert page.locator("html").get_attribute("lang") == "ja"
        names = page.locator("#game .step-card button.card strong").all_inner_texts()
        # the deadline, written by the page's script in the page's language
        assert "月" in page.locator("time.local-time").first.inner_text()
        # the hand holds Skips and Reverses only (SKIPS_AND_REVERSES): named as R10 names them
        assert names and set(names) <= {"スキップ", "リバース"}, names
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
        measured = page.evaluate(GLYPHS, [names[0], "\U0010fffd"])
        for ratio in measured["glyphs"]:
            assert 0.85 <= ratio <= 1.15, measured  # a full-width glyph of a real font
            assert abs(ratio - measured["missing"]) > 0.2, measured  # not the missing box
        context.close()


def test_the_table_in_swedish_names_the_cards_of_the_swedish_sheet(
    site, browser, alice, bob, carol, dave, screenshots
):
    game = site.call(_position, alice, bob, carol, dave, "sv")
    url = f"{site.url}/games/{game.public_id}/"
    context, page = page_for(browser, site, alice, url, viewport=PHONE)
    page.wait_for_selector("#game .step-card button.card")
    page.screenshot(path=str(screenshots / "table-sv-360.png"), full_page=True)
    assert page.locator("html").get_attribute("lang") == "sv"
    names = page.locator("#game .step-card button.card strong").all_inner_texts()
    assert names and set(names) <= {"Hoppa över", "Bakåt"}, names  # RULES.md R10
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE[0]
    context.close()


def _against_the_computer(alice):
    alice.language = "sv"
    alice.save(update_fields=["language"])
    return services.game_create(
        creator=alice,
        mode="shuffle",
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.AI, level="casual")],
    )


def test_longer_swedish_words_do_not_push_the_phone_page_sideways(site, browser, alice):
    """The scores table names the computer "Dator - Gul & Grön (Avslappnad)" under headers
    such as "Placering" and "Poäng": it wraps the name instead of widening the page."""
    game = site.call(_against_the_computer, alice)
    context, page = page_for(
        browser, site, alice, f"{site.url}/games/{game.public_id}/", viewport=PHONE
    )
    page.wait_for_selector(".standings table")
    assert "Dator - Gul & Grön (Avslappnad)" in page.locator(".standings").inner_text()
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE[0]
    context.close()
