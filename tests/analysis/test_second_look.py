"""The second look at each player's biggest drops (games/ai/judge.py, ``next_to_refine``):
which decisions are judged again deeper, and when it stops. Pure: rows are plain dicts."""

from __future__ import annotations

from games.ai.judge import REFINE_MAX, REFINE_TOP, next_to_refine

SIMS = 100
DEEP = 400


def row(ply, seat, loss, sims=SIMS, judged=True):
    return {"ply": ply, "seat": seat, "loss": loss, "sims": sims, "judged": judged}


def look_again(rows, new_losses):
    """Judge again until nothing is left, as the task does: each time the row is replaced by a
    deeper one (its loss from ``new_losses``). The plies, in order."""
    rows = {r["ply"]: dict(r) for r in rows}
    order = []
    while (ply := next_to_refine(list(rows.values()), SIMS)) is not None:
        assert ply not in order  # never twice
        order.append(ply)
        rows[ply].update(sims=DEEP, loss=new_losses.get(ply, rows[ply]["loss"]))
    return order


def test_each_players_biggest_drops_are_judged_again_biggest_first():
    rows = [row(1, 0, 0.3), row(2, 1, 0.05), row(3, 0, 0.1), row(4, 1, 0.0), row(5, 0, 0.2)]
    rows += [row(7, 0, 0.15), row(8, 1, 0.01)]  # 0.01: below the floor, noise
    rows += [row(9, 0, 0.08), row(11, 0, 0.05), row(13, 0, 0.03)]
    assert REFINE_TOP == 5
    assert look_again(rows, {}) == [1, 5, 7, 3, 9, 2]


def test_a_drop_that_shrinks_when_judged_again_lets_the_next_one_in():
    rows = [row(p, 0, loss) for p, loss in ((1, 0.3), (3, 0.1), (5, 0.2), (7, 0.15), (9, 0.12))]
    rows.append(row(11, 0, 0.11))
    assert look_again(rows, {1: 0.02}) == [1, 5, 7, 9, 11, 3]


def test_it_stops_at_the_cap_a_player():
    rows = [row(p, 0, 0.5 - p / 100) for p in range(1, 20)]
    order = look_again(rows, {p: 0.0 for p in range(1, 20)})  # every second look finds nothing
    assert len(order) == REFINE_MAX and order == list(range(1, REFINE_MAX + 1))


def test_the_shared_colour_and_finished_positions_are_not_judged_again():
    rows = [row(1, 0, 0.0, judged=False), row(2, 0, 0.4, sims=0), row(3, 1, 0.3, sims=DEEP)]
    assert next_to_refine(rows, SIMS) is None
