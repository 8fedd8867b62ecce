"""One story on the page: the chart, the mistake lines, the panel beside the board and the
accuracy all read the same two estimates of each decision (``before``: with the best move found,
``after``: after the move played), so that the biggest mistake's numbers are the chart's at that
turn, and a heavy loss with big drops does not read as an accurate game. Pure: the rows are plain
dicts as games.selectors.analysis gives them."""

from __future__ import annotations

import random

from games.presenters import analysis as presenter
from games.selectors.analysis import accuracy, move_accuracy

COLOUR_SEATS = {"blue": 0, "yellow": 1, "red": 0, "green": 1}
LABELS = {0: "alice", 1: "bob"}
SIMS = 100


def row(ply, seat, before, after, step="place", sims=SIMS):
    return {
        "ply": ply,
        "seat": seat,
        "colour": "blue" if seat == 0 else "yellow",
        "step": step,
        "played": {"place": "m17,n17,o17,o18,p18"},
        "best": {"place": "a10,a11,b11,c11,b12"}
        if before > after
        else {"place": "m17,n17,o17,o18,p18"},
        "before": before,
        "after": after,
        "loss": round(max(0.0, before - after), 4),
        "sims": sims,
        "judged": True,
    }


def a_lost_game(blunders=((21, 0.71, 0.30), (41, 0.52, 0.13), (61, 0.48, 0.12))):
    """A Shuffle-like game of two players, two decisions a turn (a card, then a placement),
    where alice (seat 0) slides from even to lost with three big drops and small noise
    elsewhere; bob plays soundly. Turn ``t`` holds the actions ``2t - 1`` and ``2t``."""
    rng = random.Random(7)
    rows, spans = [], []
    mine = 0.5
    big = {ply: (b, a) for ply, b, a in blunders}
    for turn in range(1, 41):
        seat = (turn - 1) % 2
        first = 2 * turn - 1
        spans.append((turn, first, first + 1))
        for ply, step in ((first, "card"), (first + 1, "place")):
            if seat == 0:
                if ply in big:
                    before, after = big[ply]
                else:
                    before = min(1.0, max(0.0, mine + rng.uniform(-0.03, 0.03)))
                    after = max(0.0, before - rng.uniform(0.0, 0.015))
                mine = after
                rows.append(row(ply, 0, round(before, 4), round(after, 4), step))
            else:
                value = round(1.0 - mine, 4)
                rows.append(row(ply, 1, value, value, step))
    return rows, spans


def test_the_biggest_mistake_reads_the_same_on_the_chart_the_list_and_the_panel():
    rows, spans = a_lost_game()
    rows[20]["sims"] = 4 * SIMS  # the biggest drop was re-checked deeper
    players = presenter.players(rows, {0: 50.0, 1: 99.0}, COLOUR_SEATS, LABELS, "/r/", spans, SIMS)
    biggest = players[0]["mistakes"][0]
    listed = {m["ply"] for p in players for m in p["mistakes"]}
    chart = presenter.chart(rows, len(rows), COLOUR_SEATS, LABELS, spans, listed)
    line = next(line for line in chart["lines"] if line["seat"] == 0)
    point = next(p for p in line["points"] if p["ply"] == biggest["ply"])

    # The mistake line: action 21 (turn 11: the card of alice's sixth turn), 71 % -> 30 %.
    assert (biggest["ply"], biggest["turn"]) == (21, 11)
    assert (biggest["before"], biggest["after"], biggest["lost"]) == (71, 30, 41)
    assert biggest["deep"] == 4 * SIMS  # "re-checked deeper" is said beside it
    # The chart at that turn: the same two numbers, drawn where a reader sees them.
    assert (point["turn"], point["before"], point["after"]) == (11, 71, 30)
    top, height = chart["top"], chart["bottom"] - chart["top"]
    assert point["y0"] == round(top + height * (1 - 0.71), 1)
    assert point["y"] == round(top + height * (1 - 0.30), 1)
    # ... on the line itself, the drop from one to the other within the turn's span,
    assert f"{point['x0']},{point['y0']} {point['x']},{point['y']}" in line["path"]
    assert chart["left"] < point["x0"] < point["x"] <= chart["right"]
    # ... and marked as one of the mistakes listed.
    assert point["mistake"] and not any(
        p["mistake"] for p in line["points"] if p["ply"] not in listed
    )
    # The point just before it on alice's line is the drop's start, not another search's value.
    index = line["points"].index(point)
    assert line["points"][index - 1]["after"] != 71  # the previous decision: another estimate
    # The panel beside the board at that decision quotes them too.
    here = presenter.here(rows, biggest["ply"] - 1, SIMS)
    assert (here["before"], here["after"], here["lost"]) == (71, 30, 41)
    assert here["deep"] == 4 * SIMS


def test_the_chart_axis_counts_turns():
    rows, spans = a_lost_game()
    chart = presenter.chart(rows, len(rows), COLOUR_SEATS, LABELS, spans)
    assert chart["turns"] == 40
    labels = [t["label"] for t in chart["ticks"]]
    assert labels[0] == 1 and labels[-1] == 40 and len(labels) <= 9
    # Turn 1's tick sits in the middle of turn 1's two actions.
    line = chart["lines"][0]
    first, second = line["points"][0], line["points"][1]
    assert first["x0"] < chart["ticks"][0]["x"] < second["x"]


def test_a_heavy_loss_with_big_drops_reads_well_below_90():
    rows, _spans = a_lost_game()
    pairs = [(r["before"], r["after"]) for r in rows if r["seat"] == 0]
    value = accuracy(pairs)
    assert value is not None and value < 80
    # The mean drop per decision, the old measure, read it as nearly flawless.
    mean_drop = sum(b - a for b, a in pairs) / len(pairs)
    assert 100 * (1 - mean_drop) > 95
    # A game without the three drops reads high, and each drop lowers it.
    clean, _ = a_lost_game(blunders=())
    sound = accuracy([(r["before"], r["after"]) for r in clean if r["seat"] == 0])
    one, _ = a_lost_game(blunders=((21, 0.71, 0.30),))
    single = accuracy([(r["before"], r["after"]) for r in one if r["seat"] == 0])
    assert sound > 90 and sound > single > value


def test_a_decisions_accuracy_falls_with_its_drop():
    assert move_accuracy(0.5, 0.5) == move_accuracy(0.5, 0.7) == 100.0
    assert 64 < move_accuracy(0.7, 0.6) < 66  # ten points
    assert 15 < move_accuracy(0.71, 0.31) < 17  # forty points
    assert accuracy([]) is None
    assert accuracy([(0.6, 0.6)] * 30) == 100.0
