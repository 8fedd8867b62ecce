"""FROZEN: the Expert of commit 3e6615a (issue #12's starting point), kept as a yardstick.

Bench-only (never a level on the website, and no longer called by Expert: issue #23): the level
``baseline`` of ``games.ai.decide`` loads it from here for arena runs, e.g.
``python -m games.ai.arena --seats expert,baseline`` from the project's root. Do not improve
this module: it is the baseline. It uses Casual (players.py) and the static evaluation
(evaluate.py) as they were at that commit; the newer Expert keeps its own evaluation in
``search.py`` so that those two stay as they were.

The original description follows.

Expert: a search over whole turns with sampled hidden cards, within a time budget.

For the decision at hand:

1. Casual's choice is computed first: it is the answer if time runs short.
2. The legal actions are ranked. Placements (and Recycle / Warp choices) are pre-scored by
   Casual's one-step score, and the best ``wide`` of them re-ranked by the static evaluation of
   the position after them (mobility, reach, squares placed; evaluate.py). Cards, kept cards and
   declared colours are few and all kept.
3. Each candidate is simulated: it is applied to a determinized state (hidden cards sampled from
   the seat's view), the rest of the turn is completed by Casual (a Draw 2's drawn cards, Wild's
   colour, Double Play's second piece, …), then ``horizon`` further turns are played by Casual for
   whoever controls them (each with their own sampled hand), and the position is scored by the
   static evaluation from the seat's point of view.
4. Without hidden information (classic mode) a simulation is exact for its rollout policy, so
   time goes into more candidates, down the ranked list. With cards, the best ``first`` (6)
   candidates are simulated in rounds: each round draws one new sample of the hidden cards for
   all live candidates (common random numbers), and after each round the worst live candidate
   is dropped (successive rejects) while more than two remain; the best mean wins.

The budget is wall-clock time (``budget`` seconds, default ``DEFAULT_BUDGET``) and, optionally, a
number of simulations (``max_sims``): with ``max_sims`` reached first, the choice depends on the
view and the seed only.
"""

from __future__ import annotations

import time

from games.ai.determinize import determinize
from games.ai.evaluate import EvalParams, seat_weights, static_eval
from games.ai.players import PLACE_STEPS, Casual, warp_options
from games.engine import apply, legal_actions
from games.engine.rules import placement_text

__all__ = ["BaselineParams", "baseline_action"]

DEFAULT_BUDGET = 2.0


class BaselineParams:
    wide = 40  # placements re-ranked by the static evaluation (with a 2 s budget; pro rata)
    first = 6  # candidates simulated in the first round (shuffle)
    horizon = 3  # turns played by Casual after the seat's own turn
    eval = EvalParams


def _turn_over(before_turn: int, action: dict, s) -> bool:
    """Whether the turn of ``before_turn`` ended with ``action`` (now in state ``s``)."""
    if s.over or s.turn != before_turn or s.step in ("card", "setup"):
        return True
    return "place" in action and s.step != "place_second"


def play_turn(s, policy, *, limit: int = 12):
    """Play decisions of the colour to move with ``policy(state) -> action`` until its turn ends."""
    colour = s.turn
    for _ in range(limit):
        action = policy(s)
        s = apply(s, action)
        if _turn_over(colour, action, s):
            break
    return s


def _casual_policy(fast: bool):
    cache: dict[tuple[int, bool], Casual] = {}

    def policy(s):
        seat = s.controller()
        player = cache.get((seat, fast))
        if player is None:
            player = cache[(seat, fast)] = Casual(seat, fast=fast)
        return player.action(s)

    return policy


def simulate(det, action: dict, seat: int, params=BaselineParams) -> float:
    """The static value for ``seat`` after ``action``, the rest of its turn and a short rollout."""
    colour = det.turn
    s = apply(det, action)
    if not _turn_over(colour, action, s):
        s = play_turn(s, _casual_policy(False))
    fast = _casual_policy(True)
    for _ in range(params.horizon):
        if s.over:
            break
        s = play_turn(s, fast)
    return static_eval(s, seat, params.eval)


def _ranked_candidates(s, seat: int, casual: Casual, params, stop: float, wide: int) -> list[dict]:
    """The legal actions worth simulating, most promising first (re-ranking placements by the
    static evaluation stops at time ``stop``)."""
    step = s.step
    if step in PLACE_STEPS:
        ranked = casual.scored_placements(s)
        head = ranked[:wide]
        scored = []
        for n, (quick, value) in enumerate(head):
            if n >= 2 and time.perf_counter() >= stop:
                head = head[:n]
                break
            action = {"place": placement_text(value)}
            after = apply(s, action)
            if after.step == "place_second" and after.turn == s.turn and not after.over:
                after = play_turn(after, _casual_policy(False))
            scored.append((static_eval(after, seat, params.eval) + 0.01 * quick, action))
        scored.sort(key=lambda p: -p[0])
        out = [a for _, a in scored]
        out += [{"place": placement_text(v)} for _, v in ranked[len(head) :]]
        return out
    if step == "recycle":
        return [{"recycle": placement_text(v)} for v in _recycle_order(s, casual)]
    if step == "warp":
        return [
            {"warp": placement_text(old), "to": placement_text(new)}
            for old, new in _warp_order(s, casual)
        ]
    return legal_actions(s)  # card, keep, declare: a handful


def _recycle_order(s, casual: Casual) -> list[int]:
    _, best = casual.best_recycle(s)
    rest = sorted(v for c in s.seat_colours(s.controller()) for v in s.pieces[c] if v != best)
    return [best, *rest][:8]


def _warp_order(s, casual: Casual) -> list[tuple[int, int]]:
    options = warp_options(s, seat_weights(s, casual.seat))
    return [(old, new) for _, old, new in options[:10]]


def baseline_action(
    seat_view: dict,
    state,
    rng,
    *,
    budget: float = DEFAULT_BUDGET,
    max_sims: int | None = None,
    params=BaselineParams,
) -> dict:
    """Expert's action for the decision in ``seat_view`` (``state`` is a determinization of it).

    (Split into helpers to keep every function's complexity low; the behaviour is the original's.)
    """
    deadline = time.perf_counter() + budget
    seat = seat_view["seat"]
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    casual = Casual(seat)
    fallback = casual.action(state)
    if time.perf_counter() >= deadline:
        return fallback
    sims = _Sims(deadline, max_sims)
    stop = time.perf_counter() + 0.4 * (deadline - time.perf_counter())
    # Re-rank as many placements as the budget affords (a fixed number for a given budget and
    # max_sims, so that a search bounded by max_sims repeats; the clock is only a safety net).
    wide = max(6, min(params.wide, round(budget * params.wide / 2)))
    if max_sims is not None:
        wide = min(wide, max(6, 3 * max_sims))
    candidates = _ranked_candidates(state, seat, casual, params, stop, wide)
    if fallback not in candidates:
        candidates.insert(0, fallback)
    if len(candidates) == 1 or sims.out():
        return candidates[0] if len(candidates) == 1 else fallback
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    if state.mode == "classic":  # nothing hidden: one simulation per candidate says it all
        for i in range(len(candidates)):
            if sims.out():
                break
            totals[i] = sims.run(state, candidates[i], seat, params)
            counts[i] = 1
        pool = [i for i in range(len(candidates)) if counts[i]]
    else:
        alive = _successive_rejects(seat_view, state, rng, candidates, sims, totals, counts, params)
        pool = [i for i in alive if counts[i]]  # the survivors of the successive rejects
    if not pool:
        return fallback
    best = max(pool, key=lambda i: (totals[i] / counts[i], -i))
    return candidates[best]


class _Sims:
    """Simulations under a deadline (judged by their mean time so far) and a count."""

    def __init__(self, deadline: float, max_sims: int | None):
        self.deadline, self.max_sims = deadline, max_sims
        self.spent, self.sims = 0.0, 0

    def out(self) -> bool:
        """No time for another simulation (judged by the mean so far), or max_sims reached."""
        if self.max_sims is not None and self.sims >= self.max_sims:
            return True
        expected = 0.75 * self.spent / self.sims if self.sims else 0.0
        return time.perf_counter() + expected >= self.deadline

    def run(self, det, action: dict, seat: int, params) -> float:
        began = time.perf_counter()
        value = simulate(det, action, seat, params)
        self.sims += 1
        self.spent += time.perf_counter() - began
        return value


def _successive_rejects(seat_view, state, rng, candidates, sims, totals, counts, params):
    alive = list(range(min(len(candidates), max(params.first, 2))))
    det = state
    while alive and not sims.out():
        done_round = True
        for i in alive:
            if sims.out():
                done_round = False
                break
            totals[i] += sims.run(det, candidates[i], seat_view["seat"], params)
            counts[i] += 1
        if not done_round:
            break
        if len(alive) > 2:
            worst = min(alive, key=lambda i: (totals[i] / counts[i], -i))
            alive.remove(worst)
        det = determinize(seat_view, rng)
    return alive
