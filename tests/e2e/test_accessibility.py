"""The main pages pass axe-core's WCAG 2.1 A and AA rules (colour contrast
among them) at 1280x900 and 360x740, logged in and not; a serious or critical violation fails.

axe-core is vendored in tests/e2e/vendor/axe.min.js (4.14.1 from the npm registry, MPL-2.0, its
licence files beside it): no install step, CI's fresh clone has it. It is injected into the page
with the Content-Security-Policy bypassed for the injection only (the site's own scripts still
come from 'self')."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import session_of
from tests.support.tables import finished

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SIZES = {"desktop": (1280, 900), "phone": (360, 740)}
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
RUN = """tags => axe.run(document, {
    runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
  .then(r => r.violations.filter(v => ['serious', 'critical'].includes(v.impact)).map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)})))"""


def violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN, TAGS)


def report(found: dict[str, list]) -> str:
    lines = []
    for where, items in found.items():
        for v in items:
            lines.append(f"{where}: {v['id']} ({v['impact']}) {v['help']}")
            lines.extend(f"    {n}" for n in v["nodes"])
    return "\n".join(lines)


def games(alice, bob) -> tuple[Game, Game]:
    make = functools.partial(
        services.game_create,
        creator=alice,
        players=2,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    playing = make(mode="shuffle")
    services.game_join(game=playing, user=bob)
    over = make(mode="classic")
    services.game_join(game=over, user=bob)
    over.refresh_from_db()
    finished(over)
    return playing, over


@pytest.mark.timeout(240)
@pytest.mark.parametrize("size", SIZES)
def test_the_main_pages_have_no_serious_accessibility_violation(
    site, browser, alice, bob, screenshots, size
):
    playing, over = site.call(games, alice, bob)
    width, height = SIZES[size]
    visitor_pages = [
        "/",
        "/help/",
        "/leaderboard/",
        "/accounts/login/",
        "/accounts/signup/",
        "/games/no-such-game/",  # the 404 page
        f"/games/{playing.public_id}/record.json",  # the 403 page: a visitor, a game in play
    ]
    player_pages = [
        "/",
        f"/games/{playing.public_id}/",
        f"/games/{over.public_id}/",
        f"/games/{over.public_id}/replay/",
        "/games/mine/",
        "/games/new/",
        "/players/alice/",
        "/settings/",
    ]
    found: dict[str, list] = {}
    for who, paths in (("visitor", visitor_pages), ("alice", player_pages)):
        context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        if who == "alice":
            cookie = {"name": "sessionid", "value": session_of(site, alice), "url": site.url}
            context.add_cookies([cookie])
        page = context.new_page()
        for path in paths:
            page.goto(site.url + path)
            page.wait_for_load_state("networkidle")
            slug = path.strip("/").replace("/", "-").replace(".", "-") or "lobby"
            page.screenshot(path=str(screenshots / f"a11y-{who}-{slug}-{width}.png"))
            if items := violations(page):
                found[f"{who} {path} {width}"] = items
        context.close()
    assert not found, "\n" + report(found)
