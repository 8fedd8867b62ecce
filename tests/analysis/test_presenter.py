"""The analysis presenter (pure): words for actions, the ghost's squares, the chart's lines,
the mistakes listed biggest first."""

from __future__ import annotations

from games.presenters import analysis as presenter


def decision(ply, seat, loss, played="m17,n17,o17,o18,p18", best="a10,a11,b11,c11,b12"):
    return {
        "ply": ply,
        "seat": seat,
        "colour": "blue" if seat == 0 else "yellow",
        "step": "place",
        "played": {"place": played},
        "best": {"place": best},
        "before": 0.6,
        "after": 0.6 - loss,
        "loss": loss,
        "sims": 100,
        "judged": True,
    }


def test_a_placement_is_named_by_its_piece_and_lowest_left_square():
    assert presenter.action_text({"place": "m17,n17,o17,o18,p18"}) == "N on m17"
    assert presenter.action_text({"place": "t20"}) == "1 on t20"
    assert presenter.action_text({"declare": "red"}) == "declare: red"


def test_the_ghost_covers_the_best_moves_squares():
    here = presenter.here([decision(15, 0, 0.3)], 14)
    assert sorted(here["ghost"]) == sorted(["a10", "a11", "b11", "c11", "b12"])
    assert here["lost"] == 30 and not here["same"]
    assert presenter.here([decision(15, 0, 0.0, best="m17,n17,o17,o18,p18")], 14)["ghost"] == []
    assert presenter.here([decision(15, 0, 0.3)], 15) is None


def test_mistakes_are_the_three_biggest_drops_and_link_to_the_decision():
    rows = [
        decision(p, 0, loss) for p, loss in ((3, 0.1), (5, 0.4), (7, 0.01), (9, 0.2), (11, 0.3))
    ]
    players = presenter.players(rows, {0: 83.0}, {"blue": 0}, {0: "alice"}, "/r/")
    mistakes = players[0]["mistakes"]
    assert [m["ply"] for m in mistakes] == [5, 11, 9]
    assert mistakes[0]["href"] == "/r/?ply=4" and mistakes[0]["lost"] == 40


def test_the_chart_has_one_line_per_player_with_a_point_per_own_decision():
    rows = [decision(1, 0, 0.0), decision(2, 1, 0.1), decision(3, 0, 0.2)]
    chart = presenter.chart(rows, 3, {"blue": 0, "yellow": 1}, {0: "alice", 1: "bob"})
    assert [(line["seat"], len(line["points"])) for line in chart["lines"]] == [(0, 2), (1, 1)]
    assert chart["lines"][0]["points"][1]["goto"] == 2
    # Without the game's turns each action is a turn of its own: action 3 is turn 3.
    assert chart["lines"][0]["points"][1]["turn"] == 3
