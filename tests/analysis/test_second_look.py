"""The second and third looks at each player's biggest drops (games/ai/judge.py,
``next_to_refine`` and ``judge_again``): which decisions are judged again deeper, when it stops,
and how two deep judgements are put together. ``next_to_refine`` is pure: rows are plain dicts."""

from __future__ import annotations

from games.ai import judge
from games.ai.judge import (
    CONFIRM_MAX,
    CONFIRM_TOP,
    CONTEST_LOOKS,
    REFINE_FACTOR,
    REFINE_MAX,
    REFINE_TOP,
    next_to_refine,
)

SIMS = 100
DEEP = REFINE_FACTOR * SIMS


def row(ply, seat, loss, sims=SIMS, judged=True):
    return {"ply": ply, "seat": seat, "loss": loss, "sims": sims, "judged": judged}


def look_again(rows, new_losses, confirmed_losses=None):
    """Judge again until nothing is left, as the task does: a row at the first depth is
    replaced by a deep one (its loss from ``new_losses``), a deep row by the mean of one more
    deep judgement (its loss from ``confirmed_losses``, else unchanged). The plies, in order."""
    rows = {r["ply"]: dict(r) for r in rows}
    confirmed_losses = confirmed_losses or {}
    order = []
    while (ply := next_to_refine(list(rows.values()), SIMS)) is not None:
        assert order.count(ply) < CONTEST_LOOKS  # never past the last look
        order.append(ply)
        if rows[ply]["sims"] <= SIMS:
            rows[ply].update(sims=DEEP, loss=new_losses.get(ply, rows[ply]["loss"]))
        else:
            loss = confirmed_losses.get(ply, rows[ply]["loss"])
            rows[ply].update(sims=rows[ply]["sims"] + DEEP, loss=loss)
    return order


def test_each_players_biggest_drops_are_judged_again_then_its_three_biggest_once_more():
    rows = [row(1, 0, 0.3), row(2, 1, 0.05), row(3, 0, 0.1), row(4, 1, 0.0), row(5, 0, 0.2)]
    rows += [row(7, 0, 0.15), row(8, 1, 0.01)]  # 0.01: below the floor, noise
    rows += [row(9, 0, 0.08), row(11, 0, 0.05), row(13, 0, 0.03), row(15, 0, 0.025)]
    rows += [row(17, 0, 0.021), row(19, 0, 0.0205), row(21, 0, 0.0204), row(23, 0, 0.0203)]
    rows += [row(25, 0, 0.0202), row(27, 0, 0.0201)]
    assert (REFINE_TOP, CONFIRM_TOP) == (12, 3)
    # seat 0: its twelve biggest deep, biggest first, then its three biggest a second time (the
    # two biggest 10 points apart: told apart); then seat 1: its one drop, deep, then again
    biggest = [1, 5, 7, 3, 9, 11, 13, 15, 17, 19, 21, 23]
    assert look_again(rows, {}) == [*biggest, 1, 5, 7, 2, 2]


def test_a_drop_that_shrinks_when_judged_again_lets_the_next_one_in():
    losses = ((1, 0.5), (5, 0.4), (7, 0.3), (9, 0.2), (11, 0.18), (13, 0.15), (15, 0.12))
    losses += ((17, 0.11), (19, 0.105), (21, 0.104), (23, 0.103), (25, 0.102), (27, 0.101))
    losses += ((3, 0.1),)
    rows = [row(p, 0, loss) for p, loss in losses]
    twelve = [1, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25]
    # 1 shrinks to 0.02 when judged deep: 27 comes into the twelve; the third look takes 5, 7, 9
    assert look_again(rows, {1: 0.02}) == [*twelve, 27, 5, 7, 9]
    # 5 shrinks at the third look: 3 comes into the twelve (judged deep first), and 11 into the
    # three biggest (judged a third time)
    order = look_again(rows, {1: 0.02}, {5: 0.01})
    assert order == [*twelve, 27, 5, 3, 7, 9, 11]


def test_it_stops_at_the_caps_a_player():
    rows = [row(p, 0, 0.5 - p / 100) for p in range(1, 30)]
    order = look_again(rows, {p: 0.0 for p in range(1, 30)})  # every second look finds nothing
    assert len(order) == REFINE_MAX and order == list(range(1, REFINE_MAX + 1))
    # every third look finds nothing: at most CONFIRM_MAX are judged a third time
    rows = [row(p, 0, 0.5 - p / 100) for p in range(1, 30)]
    order = look_again(rows, {}, {p: 0.0 for p in range(1, 30)})
    thrice = [p for k, p in enumerate(order) if p in order[:k]]
    assert thrice == list(range(1, CONFIRM_MAX + 1))
    assert len(set(order)) == REFINE_MAX  # each one that fell let a shallow one into the twelve


def test_two_biggest_drops_too_near_to_tell_apart_are_judged_again_in_turn():
    """One point apart, each judged deep twice: the one judged fewer times (the earlier on a
    tie) is judged again, until they are told apart or each holds CONTEST_LOOKS judgements."""
    near = [row(1, 0, 0.30, sims=2 * DEEP), row(2, 0, 0.29, sims=2 * DEEP), row(3, 0, 0.1)]
    near[2]["sims"] = 2 * DEEP
    assert look_again(near, {}) == [1, 2] * (CONTEST_LOOKS - 2)
    # the third look told them apart: 0.40 against 0.29 is more than two standard errors
    assert look_again(near, {}, {1: 0.40}) == [1]
    apart = [row(1, 0, 0.40, sims=2 * DEEP), row(2, 0, 0.29, sims=2 * DEEP)]
    assert next_to_refine(apart, SIMS) is None
    # a player whose second biggest is still judged once deep is confirmed first, as before
    once = [row(1, 0, 0.30, sims=2 * DEEP), row(2, 0, 0.29, sims=DEEP)]
    assert next_to_refine(once, SIMS) == 2


def test_the_shared_colour_and_finished_positions_are_not_judged_again():
    rows = [row(1, 0, 0.0, judged=False), row(2, 0, 0.4, sims=0), row(3, 1, 0.3, sims=2 * DEEP)]
    assert next_to_refine(rows, SIMS) is None


def test_a_deep_judgement_is_in_another_world_and_the_third_is_the_mean_of_two(monkeypatch):
    """The second look judges with another seed (another guess of the hidden cards), the third
    with a third seed, and stores the mean of the two deep judgements with the best move of the
    one that valued its best higher; its ``sims`` counts both searches."""
    calls = []

    def fake(state, action, *, ply, sims, seed, carry):
        calls.append((sims, seed, carry))
        before, after, best = {
            11 + judge.LOOK_SEED: (0.6, 0.3, {"place": "a1"}),
            11 + 2 * judge.LOOK_SEED: (0.7, 0.5, {"place": "b2"}),
        }[seed]
        return judge.DecisionResult(
            ply, 0, "blue", "place", action, best, before, after, before - after, sims
        )

    monkeypatch.setattr(judge, "analyse_decision", fake)
    played = {"place": "c3"}
    first = {"ply": 4, "sims": SIMS, "best": {"place": "d4"}, "before": 0.9, "after": 0.1}
    deep = judge.judge_again(None, played, first, sims=SIMS, seed=11)
    # each look values the row's best so far beside its own search's
    assert calls == [(DEEP, 11 + judge.LOOK_SEED, ({"place": "d4"},))]
    assert (deep.before, deep.after, deep.sims, deep.best) == (0.6, 0.3, DEEP, {"place": "a1"})
    twice = judge.judge_again(None, played, deep.as_dict(), sims=SIMS, seed=11)
    assert calls[-1] == (DEEP, 11 + 2 * judge.LOOK_SEED, ({"place": "a1"},))
    assert (twice.before, twice.after, twice.loss) == (0.65, 0.4, 0.25)
    assert twice.sims == 2 * DEEP and twice.best == {"place": "b2"} and twice.ply == 4
    # a fourth judgement (a contest) counts for a third of the mean, in a fourth world
    calls.clear()
    monkeypatch.setattr(
        judge,
        "analyse_decision",
        lambda state, action, *, ply, sims, seed, carry: (
            calls.append((seed, carry))
            or judge.DecisionResult(
                ply, 0, "blue", "place", action, {"place": "e5"}, 0.5, 0.5, 0, sims
            )
        ),
    )
    thrice = judge.judge_again(None, played, twice.as_dict(), sims=SIMS, seed=11)
    assert calls == [(11 + 3 * judge.LOOK_SEED, ({"place": "b2"},))]
    assert (thrice.before, thrice.after, thrice.loss) == (0.6, 0.4333, 0.1667)
    assert thrice.sims == 3 * DEEP and thrice.best == {"place": "b2"}


def test_a_shuffle_decision_is_judged_in_two_worlds_sharing_the_simulations(monkeypatch):
    """Hidden cards: one judgement is the mean over WORLDS sampled worlds (seeds WORLD_SEED
    apart), each with its share of the simulations, so that one guess of the other hands does
    not make a decision's drop; a classic decision (nothing hidden) is one search's."""
    import random

    from games.engine import apply, legal_actions, new_game

    calls = []
    values = {11: (0.8, 0.2, {"place": "a1"}), 11 + judge.WORLD_SEED: (0.6, 0.4, {"place": "b2"})}

    def once(state, action, *, ply, sims, seed, carry=()):
        calls.append((state.mode, sims, seed))
        assert state.mode == "classic" or not carry  # a Shuffle look carries no best move
        before, after, best = values[seed]
        return judge.DecisionResult(
            ply, 0, "blue", "place", action, best, before, after, before - after, sims
        )

    monkeypatch.setattr(judge, "_judge_once", once)
    s = new_game(mode="shuffle", players=4, seed=3)
    rng = random.Random(5)
    while s.step != "place":
        s = apply(s, rng.choice(legal_actions(s)))
    played = legal_actions(s)[0]
    carried = ({"place": "a1"},)
    result = judge.analyse_decision(s, played, ply=3, sims=SIMS, seed=11, carry=carried)
    assert judge.WORLDS == 2
    assert calls == [("shuffle", SIMS // 2, 11), ("shuffle", SIMS // 2, 11 + judge.WORLD_SEED)]
    assert (result.before, result.after, result.loss) == (0.7, 0.3, 0.4)
    assert result.sims == SIMS and result.best == {"place": "a1"} and result.played == played
    calls.clear()
    classic = new_game(mode="classic", players=4)
    judge.analyse_decision(classic, legal_actions(classic)[0], ply=1, sims=SIMS, seed=11)
    assert calls == [("classic", SIMS, 11)]


def test_a_shuffle_judgement_counts_every_simulation_behind_it():
    """The real search, no stand-ins: a Shuffle decision judged at 64 simulations is two
    searches of 32 in two worlds, and its row says 64, as the second look's arithmetic expects
    (a row at the first depth is judged again deeper; ``next_to_refine``)."""
    import random

    from games.engine import apply, legal_actions, new_game

    s = new_game(mode="shuffle", players=4, seed=8)
    rng = random.Random(2)
    while s.step != "place" or s.controller() != 1:
        s = apply(s, rng.choice(legal_actions(s)))
    result = judge.analyse_decision(s, legal_actions(s)[-1], ply=5, sims=64, seed=21)
    assert result.sims == 64 and result.seat == 1 and 0.0 <= result.after <= 1.0
    assert result.loss == round(max(0.0, result.before - result.after), 4)
