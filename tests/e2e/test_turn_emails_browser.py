"""Turn emails and the player at the board, in Chromium.

Bob plays alice in a live game. His pages report over their user socket whether they are visible
and when they last had input (static/js/live.js, games/live/presence.py); a "your turn" email
goes out a grace period after his turn began (TURN_EMAIL_GRACE_SECONDS, short here), run by a
"worker" as the computer's turns are (tests/e2e/conftest.py), and only if he was not at the
board meanwhile.

Before: closing one of two tabs marked him away (4 emails in 12 s of live play), and a tab left
open in the background counted as being there (no email, ever).

No sleeps: each test waits until the email task has run for bob's turn and notes what it decided
("online": he was at the board; "sent"), before his turn is played, so that "no email" can only
mean he was seen at the board, never that the task came too late to matter.
"""

from __future__ import annotations

import inspect
import time
from collections import defaultdict

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from games import engine, services
from games.jobs import tasks
from games.live import presence
from games.models import Game
from tests.support.browser import page_for

pytestmark = pytest.mark.django_db(transaction=True)

GRACE = 1.5  # seconds
HANG_GUARD = 60  # seconds: only a hung test waits this long


@pytest.fixture
def decided(site, settings, monkeypatch) -> dict[int, list[str]]:
    """The turn email task runs GRACE seconds after it was queued, as a worker would run it;
    what each run decided (games.jobs.emails.deliver: "sent", "online", "played", ...) is
    noted under the user it was for."""
    settings.TURN_EMAIL_GRACE_SECONDS = GRACE
    task = tasks.send_turn_email
    decisions: dict[int, list[str]] = defaultdict(list)

    def run(args, kwargs):
        call = inspect.signature(task.run).bind(*args, **kwargs)
        decisions[call.arguments["user_id"]].append(task(*args, **kwargs))

    def later(args=(), kwargs=None, countdown=0, **options):
        site.daphne.later(countdown, run, args, kwargs or {})

    monkeypatch.setattr(task, "apply_async", later)
    return decisions


def to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email] and "turn" in m.subject.lower()]


def move(game: Game, user) -> None:
    game.refresh_from_db()
    state = game.current_state()
    services.action_submit(
        game=game, user=user, action=engine.legal_actions(state)[0], expected_ply=game.ply
    )


def whose_turn(game: Game) -> int:
    game.refresh_from_db()
    return game.current_state().controller()


def play_until_bobs_turn(site, duel, alice, bob) -> None:
    """Alice plays until it is bob's (yellow's) decision; bob's turn begins."""
    while site.call(whose_turn, duel) == 0:
        site.call(move, duel, alice)


def bob_plays_his_turn(site, duel, bob) -> None:
    while site.call(whose_turn, duel) == 1:
        site.call(move, duel, bob)


def wait_until(condition, what: str) -> None:
    """Poll ``condition`` (the cache, the task's decisions) until it holds; fail after
    HANG_GUARD seconds, naming ``what`` was waited for."""
    deadline = time.monotonic() + HANG_GUARD
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {HANG_GUARD} s: {what}")
        time.sleep(0.05)


@pytest.fixture
def players(alice, bob):
    for user in (alice, bob):
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        presence.forget(user.pk)
    return alice, bob


def test_closing_one_of_two_visible_tabs_sends_no_email_while_the_player_plays_on(
    site, decided, browser, duel, players
):
    alice, bob = players
    url = f"{site.url}/games/{duel.public_id}/"
    # Two windows side by side, both visible (two tabs of one window: only the front one is).
    first_window, first = page_for(browser, site, bob, url)
    context, second = page_for(browser, site, bob, url)
    now = time.time()
    wait_until(
        lambda: sum(t > now for t in presence._read(bob.pk).values()) == 2,
        "both of bob's pages report him at the board",
    )
    first.close()  # one of two closed: the other one is still at the board
    wait_until(
        lambda: sum(t > time.time() for t in presence._read(bob.pk).values()) == 1,
        "the closed page no longer counts",
    )
    for turn in range(1, 4):
        play_until_bobs_turn(site, duel, alice, bob)
        # The email task for this turn has run while the turn still waits for him.
        wait_until(
            lambda turn=turn: len(decided[bob.pk]) == turn, f"the email task for bob's turn {turn}"
        )
        second.mouse.move(200, 300)  # he looks at the board and plays
        bob_plays_his_turn(site, duel, bob)
    site.daphne.settle()
    assert decided[bob.pk] == ["online"] * 3  # each time seen at the board, not too late
    assert to(bob) == []
    first_window.close()
    context.close()


def test_a_tab_left_open_in_the_background_gets_the_email(
    site, decided, browser, duel, players, screenshots
):
    alice, bob = players
    context, page = page_for(browser, site, bob, f"{site.url}/games/{duel.public_id}/")
    wait_until(lambda: presence.is_attentive(bob.pk), "bob's page reports him at the board")
    # He switches to another tab and walks away: the browser hides this one.
    page.evaluate(
        """() => {
          Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
          Object.defineProperty(document, 'hidden', {value: true, configurable: true});
          document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    wait_until(lambda: not presence.is_attentive(bob.pk), "the hidden page no longer counts")
    play_until_bobs_turn(site, duel, alice, bob)
    wait_until(lambda: decided[bob.pk], "the email task for bob's turn")
    assert decided[bob.pk] == ["sent"]
    assert len(to(bob)) == 1
    context.close()
