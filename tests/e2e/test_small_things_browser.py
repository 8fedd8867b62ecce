"""Small things a newcomer meets in their first game: a take back's Accept and Decline do not
look alike (Decline is an outline beside the filled Accept, R11.3), and the help page says why
Master and Expert show the same rating. (The stale tab's sentence is checked where the stale
move is: tests/e2e/test_back_forward.py.)"""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Seat
from games.services import SeatSpec
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = (1280, 900)
LOOK = """el => { const s = getComputedStyle(el);
  return [s.backgroundColor, s.color, s.borderTopColor, s.borderTopWidth]; }"""


def asked(alice, bob) -> Game:
    """Alice placed her first piece and asks to take it back (an unrated game)."""
    game = services.game_create(
        creator=alice,
        mode="classic",
        players=2,
        rated=False,
        seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
    )
    services.game_join(game=game, user=bob)
    game = Game.objects.get(pk=game.pk)
    services.action_submit(game=game, user=alice, action={"place": "a1"}, expected_ply=0)
    services.takeback_request(game=Game.objects.get(pk=game.pk), user=alice)
    return game


def test_accept_and_decline_of_a_take_back_look_different(site, browser, alice, bob, screenshots):
    game = site.call(asked, alice, bob)
    context, page = page_for(
        browser, site, bob, f"{site.url}/games/{game.public_id}/", viewport=DESKTOP
    )
    box = page.locator("#takeback")
    accept = box.get_by_role("button", name="Accept")
    decline = box.get_by_role("button", name="Decline")
    box.screenshot(path=str(screenshots / "takeback-accept-decline.png"))
    accept_look, decline_look = accept.evaluate(LOOK), decline.evaluate(LOOK)
    assert accept_look[0] != decline_look[0], (accept_look, decline_look)  # filled, not
    assert decline_look[0] == "rgb(255, 255, 255)"  # an outline: white inside its border
    assert decline_look[2] == accept_look[0]  # drawn in the accent Accept is filled with
    context.close()


def test_the_help_page_says_why_master_and_expert_share_a_rating(site, browser, alice):
    context, page = page_for(browser, site, alice, f"{site.url}/help/#computer")
    said = page.locator("#computer").inner_text()
    assert "rated as Expert until it is" in said, said
    context.close()
