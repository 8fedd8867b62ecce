"""A three-player game analysed end to end: every decision gets a row, the three
players each get a line on the chart and a mistake list, and the shared colour (R2.4: nobody's
own; the players take its turns in rotation, player 1 first) is stored but not judged, so it
counts for no one's accuracy, draws no point and lists no mistake."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine import apply
from games.engine.state import COLOURS
from games.jobs import analysis
from games.models import DecisionAnalysis, Game, GameAnalysis, Seat
from games.selectors.analysis import analysis_of, export_entries
from games.services import SeatSpec
from games.services.analysis import analysis_request
from tests.support.pages import client_for
from tests.support.records import play

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(300)]


@pytest.fixture(params=["classic", "shuffle"])
def three_player_game(request, alice, bob, carol):
    from games import services

    game = services.game_create(
        creator=alice,
        mode=request.param,
        players=3,
        seats=[
            SeatSpec(Seat.Kind.HUMAN),
            SeatSpec(Seat.Kind.INVITED, username="bob"),
            SeatSpec(Seat.Kind.INVITED, username="carol"),
        ],
    )
    services.game_join(game=game, user=bob)
    services.game_join(game=game, user=carol)
    game = play(game, seed=5)
    assert game.status == Game.Status.FINISHED
    return game


def test_a_three_player_game_is_analysed_with_the_shared_colour_unjudged(
    three_player_game, alice, settings
):
    settings.ANALYSIS_SIMS = 8
    game = three_player_game
    shared = COLOURS[game.initial_state().shared]
    assert shared == "green"  # unless the creator picks another (R2.4)
    row = analysis_request(game=game, user=alice)
    while (outcome := analysis.run(row.pk, chunk_seconds=30)) == "more":
        pass
    assert outcome == "done"
    row.refresh_from_db()
    total = game.actions.count()
    assert row.status == GameAnalysis.Status.DONE and row.done == row.total == total

    rows = list(DecisionAnalysis.objects.filter(analysis=row).order_by("ply"))
    assert [r.ply for r in rows] == list(range(1, total + 1))  # every decision, once
    rotation, taken = [], 0  # the shared colour's turns taken so far, its decisions' seats
    state = game.initial_state()
    for r in rows:
        before = state
        assert r.colour == COLOURS[before.turn] and r.seat == before.controller()
        if r.colour == shared:  # taken in turn by the players, judged for none of them
            assert not r.judged and r.loss == 0.0 and r.played == r.best
            rotation.append(r.seat)
            # player 1 first, then 2, then 3 (R2.4), counted apart from the engine's own
            assert r.seat == taken % 3
        else:
            assert r.judged and r.seat == ["blue", "yellow", "red"].index(r.colour)
        state = apply(state, r.played)
        # A turn the shared colour takes advances the rotation: a placement, or a pass made for
        # it when it has none (R5.3), which is a turn with no decision; a turn lost to Skip is
        # not taken (R2.4a). So in Shuffle a player's turn of it may pass unseen in the rows.
        taken += sum(
            e["colour"] == shared and e["event"] in ("place", "pass") for e in state.events
        )
    assert rotation[0] == 0  # the shared colour's setup placement is player 1's (R2.4)
    if game.mode == "classic":  # nothing passes it by there before the end
        assert rotation[:3] == [0, 1, 2]
    unjudged = {r.ply for r in rows if not r.judged}
    assert unjudged and len(unjudged) == len(rotation)

    data = analysis_of(game)
    assert set(data.accuracy) == {0, 1, 2} and all(a is not None for a in data.accuracy.values())
    deep = [r for r in rows if r.sims > row.sims]  # the second look: judged decisions only
    assert deep and all(r.judged for r in deep)
    entries = export_entries(game)
    assert len(entries) == total
    assert {e["ply"] + 1 for e in entries if not e["judged"]} == unjudged  # an index (RECORD)

    url = reverse("game_replay", args=[game.public_id])
    page = client_for(alice).get(url).content.decode()
    shown = page.split('<section id="analysis"')[1].split('class="muted analysis-note"')[0]
    lines = re.findall(r'<polyline class="an-line (\w+)"', shown)
    assert sorted(lines) == ["blue", "red", "yellow"]  # one line a player, none for green
    points = re.findall(r'data-ply="(\d+)" data-turn="\d+" data-seat="(\d)"', shown)
    assert {seat for _, seat in points} == {"0", "1", "2"}
    assert len(points) == total - len(unjudged)
    assert not unjudged & {int(ply) for ply, _ in points}
    players = re.findall(r'<section class="analysis-player" aria-label="(\w+)"', shown)
    assert players == ["alice", "bob", "carol"]
    listed = {int(p) for p in re.findall(r"<li><a [^>]*>Turn \d+, action (\d+):", shown)}
    assert listed and not listed & unjudged  # each player's mistakes, never the shared colour's

    ply = min(unjudged)  # the replay at a shared turn says so
    page = client_for(alice).get(f"{url}?ply={ply - 1}").content.decode()
    assert f"Analysis: action {ply}" in page and "Not judged (the shared colour)." in page
