"""The post-game analysis in Chromium: "Analyse this game" on a finished game's
replay queues it, the bar fills over the websocket without a reload, the chart and the mistakes
appear, a click on a chart point jumps the replay to that decision, where the best move's ghost
is drawn on the board. Screenshots at 1280x900 and 360x740 in out/screenshots/."""

from __future__ import annotations

import pytest

from tests.support.browser import page_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

PLY = "() => Number(document.getElementById('replay-position').dataset.ply)"


@pytest.fixture
def finished(site, alice, bob, settings):
    settings.ANALYSIS_SIMS = 16
    settings.ANALYSIS_CHUNK_SECONDS = 1

    def make():
        from games import services
        from games.models import Seat
        from games.services import SeatSpec
        from tests.support.records import play

        game = services.game_create(
            creator=alice,
            mode="classic",
            players=2,
            seats=[SeatSpec(Seat.Kind.HUMAN), SeatSpec(Seat.Kind.INVITED, username="bob")],
        )
        services.game_join(game=game, user=bob)
        return play(game, seed=3)

    return site.call(make)


@pytest.fixture
def worker(site, monkeypatch):
    """The analysis runs as a worker would run it: a moment after it was queued, outside the
    request, each slice queueing the next."""
    import games.jobs.tasks

    task = games.jobs.tasks.analyse_game
    monkeypatch.setattr(task, "delay", lambda *args: site.daphne.later(0.3, task, *args))
    return task


def test_analyse_watch_the_bar_fill_and_jump_to_a_mistake(
    site, browser, alice, carol, finished, worker, screenshots
):
    url = f"{site.url}/games/{finished.public_id}/replay/"
    context, page = page_for(browser, site, alice, url)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.evaluate("window.__noReload = true")  # gone if the page reloads
    page.get_by_role("button", name="Analyse this game").click()
    page.wait_for_selector("#analysis-bar", timeout=10_000)
    # The bar fills live: it shows some progress before the analysis is done.
    page.wait_for_function(
        "() => { const b = document.getElementById('analysis-bar');"
        " return b && b.value > 0 && b.value < b.max; }",
        timeout=60_000,
    )
    page.screenshot(path=screenshots / "analysis-progress-1280.png")
    page.wait_for_selector(".analysis-chart svg", timeout=120_000)
    assert page.evaluate("window.__noReload") is True  # no reload: swapped in
    assert page.locator(".analysis-player").count() == 2
    page.screenshot(path=screenshots / "analysis-chart-1280.png", full_page=True)

    # The biggest mistake's link and a chart point both jump the replay to that decision.
    mistake = page.locator(".analysis-mistakes a").first
    href = mistake.get_attribute("href")
    target = int(href.rsplit("=", 1)[1])
    mistake.click()
    page.wait_for_function(f"n => ({PLY})() === n", arg=target, timeout=10_000)
    assert page.locator(".rb-sq.ghost").count() >= 1  # the best move's ghost
    assert "lost" in page.locator(".analysis-here").inner_text()
    page.locator("#replay-position").scroll_into_view_if_needed()
    page.screenshot(path=screenshots / "analysis-ghost-1280.png")

    point = page.locator(".an-point").nth(10)
    goto = int(point.get_attribute("data-ply")) - 1
    point.click()
    page.wait_for_function(f"n => ({PLY})() === n", arg=goto, timeout=10_000)
    assert page.url.endswith(f"?ply={goto}")
    assert errors == []
    context.close()

    # A spectator sees it too, on a phone.
    context, phone = page_for(browser, site, carol, f"{url}?ply={target}", viewport=(360, 740))
    phone.wait_for_selector(".analysis-chart svg")
    phone.screenshot(path=screenshots / "analysis-phone-360.png", full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_a_four_player_shuffle_analysis_reads_on_a_desktop_and_a_phone(
    site, browser, alice, bob, carol, dave, settings, screenshots
):
    settings.ANALYSIS_SIMS = 8

    def make():
        from games import services
        from games.jobs import analysis
        from games.models import Seat
        from games.services import SeatSpec
        from games.services.analysis import analysis_request
        from tests.support.records import play

        game = services.game_create(
            creator=alice,
            mode="shuffle",
            players=4,
            seats=[SeatSpec(Seat.Kind.HUMAN)]
            + [SeatSpec(Seat.Kind.INVITED, username=u.username) for u in (bob, carol, dave)],
        )
        for user in (bob, carol, dave):
            services.game_join(game=game, user=user)
        game = play(game, seed=5)
        row = analysis_request(game=game, user=dave)
        while analysis.run(row.pk, chunk_seconds=60) == "more":
            pass
        card = row.decisions.filter(step="card").order_by("-loss").first()
        return game, card.ply

    game, card_ply = site.call(make)
    url = f"{site.url}/games/{game.public_id}/replay/?ply={card_ply - 1}"
    context, page = page_for(browser, site, alice, url)
    page.wait_for_selector(".analysis-chart svg")
    assert page.locator(".an-line").count() == 4
    assert page.locator(".analysis-player").count() == 4
    assert "card:" in page.locator(".analysis-here").inner_text()  # a card decision, judged
    page.screenshot(path=screenshots / "analysis-shuffle4-1280.png", full_page=True)
    context.close()
    context, phone = page_for(browser, site, carol, url, viewport=(360, 740))
    phone.wait_for_selector(".analysis-chart svg")
    phone.screenshot(path=screenshots / "analysis-shuffle4-360.png", full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
