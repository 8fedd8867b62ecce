"""Expert: a search for placements, simulations over sampled hidden cards for the rest.

Placements are searched by mcts/ (Monte Carlo tree search, compiled by numba) when numba is
installed and ``ExpertParams.mcts`` is on; in Shuffle mode that search places as if no more
cards were played after the one in force. Shuffle's other decisions (a card, a kept card, a
declared colour, a piece to recycle or to warp) are valued by the same search: each of the best
``card_searched`` candidates is applied to the determinization, the rest of the turn up to the
placement is Casual's, and the candidate whose placement the search values highest wins (a
candidate after which the colour would not place hands the decision to the simulated turns
below). What follows is the pure-Python search, which plays every game without numba.

For the decision at hand (``state`` is a determinization of the seat's view: hidden cards are
sampled, determinize.py):

1. Casual's choice is computed first: it is the answer if time runs short.
2. Placements (every decision of classic mode; Shuffle's after the card): the best ``wide``
   placements by Casual's one-step score (as many as the budget affords: 200 at 2 s) are the
   root's children, each applied by the engine (so the card's effect holds; Double Play's second
   piece is Casual's); the best ``rerank`` of them are re-ranked by the static evaluation. Each
   child is then valued by greedy rollouts of ``SearchParams.rollout`` (3) colour moves on bare
   bitboards and the static evaluation (search.py), best first, until the time runs out. The
   search can go on with deeper iterations (``root_keep``: alpha-beta over colour moves, the
   seat's colours maximising, the others minimising), but they measured worse and are off.
3. Cards, kept cards, declared colours, Recycle and Warp: a handful of candidates (ranked as
   Casual ranks them), simulated in rounds; each round draws a new sample of the hidden cards
   for every live candidate (common random numbers); a simulation applies the candidate,
   completes the turn's other choices with Casual up to its placement, and takes the best of
   ``turn_roots`` placements by the search's depth-0 value. After each round the worst live
   candidate is dropped (successive rejects) while more than two remain; the best mean wins.

The budget is wall-clock time (``budget`` seconds, default ``DEFAULT_BUDGET``; ``budget_share``
of it is used, the rest is the margin for the p95) and, optionally, ``max_sims``: it bounds the
simulations (cards) and the search's nodes (``nodes_per_sim`` each), and with it reached first
the choice depends on the view and the seed only.
"""

from __future__ import annotations

import time

from games.engine import apply, legal_actions
from games.engine.rules import placement_text

from . import mcts
from .determinize import determinize
from .evaluate import EvalParams, seat_weights, static_eval
from .players import PLACE_STEPS, Casual, warp_options
from .search import INF, Evaluator, OutOfBudget, Searcher, SearchParams

__all__ = ["DEFAULT_BUDGET", "ExpertParams", "expert_action", "play_turn"]

DEFAULT_BUDGET = 2.0


class ExpertParams:
    wide = 400  # placements searched (the root's children, by Casual's score) at 4 s and more
    rerank = 40  # the best children by Casual's score re-ranked by the static evaluation
    card_wide = 40  # Recycle and Warp options ranked by the evaluation (2 s budget; pro rata)
    first = 6  # candidates simulated in the first round (shuffle)
    horizon = 3  # turns played by Casual after the seat's own turn
    eval = EvalParams
    search = SearchParams
    budget_share = 0.9  # of the budget spent searching (the rest: margin for the p95)
    nodes_per_sim = 40  # with max_sims: the search's node budget per "simulation"
    # Root children searched at each depth: depth 0 only. Deeper iterations (alpha-beta over
    # the best 12, 8, 6, ... children, paranoid) measured worse, against Pentobi level 5 (mean
    # margin -37.9 against -22.5 over the same 10 games) and against the frozen Expert.
    root_keep: tuple[int, ...] = (400,)  # root candidates searched at each depth
    turn_roots = 6  # placements tried after a card (or other choice) in a simulated turn
    # Monte Carlo tree search with a compiled inner loop (mcts/) when numba is installed: it
    # places in every mode, and values Shuffle's other decisions (cards, kept cards, colours,
    # Recycle, Warp: at most ``card_searched`` candidates each); off, or without numba, the
    # pure-Python search below.
    mcts = True
    card_searched = 4
    # Shuffle: the budget is the whole turn's (issue #23), shared out by step. The usual turn
    # (a card, then a placement) spends 0.25 + 0.55 of it; the longest (a card, a kept card or
    # a declared colour, a placement, Double Play's second piece) 0.25 + 0.08 + 0.55 + 0.15,
    # about 1.03: the rest is the margin for the turn's p95 (2.5 s at the default 2 s). The
    # card's winning candidate has searched the placement position already: that search goes on
    # (subtree reuse) when the turn reaches the same position.
    turn_shares = {
        "card": 0.25,
        "keep": 0.08,
        "declare": 0.08,
        "recycle": 0.08,
        "warp": 0.08,
        "place": 0.55,
        "place_second": 0.15,
    }


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


def simulate(det, action: dict, seat: int, params=ExpertParams) -> float:
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


def expert_action(
    seat_view: dict,
    state,
    rng,
    *,
    budget: float = DEFAULT_BUDGET,
    max_sims: int | None = None,
    params=ExpertParams,
) -> dict:
    """Expert's action for the decision in ``seat_view`` (``state`` is a determinization of it).

    The tree search (mcts/) places, and in Shuffle mode values the other decisions (see the
    module docstring); without it, the pure-Python search below."""
    if state.mode == "shuffle":  # one budget per turn (``ExpertParams.turn_shares``)
        budget *= params.turn_shares.get(state.step, 1.0)
    searched = params.mcts and mcts.supported(state)
    placing = state.step in PLACE_STEPS
    if searched and state.mode == "shuffle" and not placing:
        return _searched_choice(seat_view, state, rng, budget, max_sims, params)
    compiled = searched and placing
    deadline = time.perf_counter() + budget * params.budget_share
    seat = seat_view["seat"]
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    if compiled:
        seed = rng.randrange(1 << 31)
        until = time.perf_counter() + budget * mcts.MctsParams.budget_share
        value, _ = mcts.mcts_choose(
            state, deadline=until, max_sims=max_sims, seed=seed, settle=True
        )
        return {"place": placement_text(value)}
    casual = Casual(seat)
    fallback = casual.action(state)
    if time.perf_counter() >= deadline:
        return fallback
    if state.step in PLACE_STEPS:
        # As many children as the budget affords a rollout each (0.5 s: 50; 2 s: 200; 4 s: all).
        wide = max(8, min(params.wide, round(params.wide * budget / 4)))
        if max_sims is not None:
            wide = min(wide, max(6, 3 * max_sims))
        max_nodes = None if max_sims is None else params.nodes_per_sim * max_sims
        return search_placement(state, seat, casual, deadline, wide, max_nodes, params)
    return _simulated_choice(seat_view, state, rng, casual, fallback, deadline, budget, max_sims)


def _searched_choice(seat_view, state, rng, budget, max_sims, params) -> dict:
    """A Shuffle decision other than a placement, by the tree search's values: each candidate
    is applied, the rest of the turn up to its placement is Casual's, and the candidate whose
    position the search values highest (its best placement's mean value) wins. A candidate
    after which the colour does not place hands the decision to the simulated turns."""
    end = time.perf_counter() + budget * params.budget_share
    seat = seat_view["seat"]
    colour = state.turn
    casual = Casual(seat)
    candidates = _ranked_candidates(state, seat, casual, params, 0.0, params.card_searched)
    candidates = candidates[: params.card_searched]
    if len(candidates) == 1:
        return candidates[0]
    afters = []
    for action in candidates:
        if len(afters) >= 2 and max_sims is None and time.perf_counter() >= end - 0.5 * budget:
            # Casual's completions (a Warp, a Recycle) can be slow: half the budget at most,
            # the rest for the searches of the candidates prepared so far.
            candidates = candidates[: len(afters)]
            break
        s = apply(state, action)
        for _ in range(8):  # Draw 2's kept card, Wild's colour, Recycle, Warp: a few steps
            if s.over or s.turn != colour or s.step in PLACE_STEPS:
                break
            s = apply(s, casual.action(s))
        if s.over or s.turn != colour or s.step not in PLACE_STEPS:  # (a place step has a move)
            fallback = casual.action(state)  # no placement to search: simulated turns decide
            return _simulated_choice(seat_view, state, rng, casual, fallback, end, budget, max_sims)
        afters.append(s)
    seed = rng.randrange(1 << 31)
    values = []
    mcts.forget()
    for k, s in enumerate(afters):
        sims = None if max_sims is None else max(1, max_sims // len(afters))
        until = time.perf_counter() + (end - time.perf_counter()) / (len(afters) - k)
        _, stats = mcts.mcts_choose(s, deadline=until, max_sims=sims, seed=seed + k, keep=True)
        values.append(stats["value"])
    best = max(range(len(candidates)), key=lambda i: (values[i], -i))
    mcts.forget(keep=mcts.position_key(afters[best]))  # for the placement, if it comes to it
    return candidates[best]


class _Clock:
    """Simulations under a deadline (judged by their mean time so far) and a count."""

    def __init__(self, deadline: float, max_sims: int | None):
        self.deadline = deadline
        self.max_sims = max_sims
        self.spent = 0.0
        self.sims = 0

    def out(self) -> bool:
        if self.max_sims is not None and self.sims >= self.max_sims:
            return True
        expected = 0.75 * self.spent / self.sims if self.sims else 0.0
        return time.perf_counter() + expected >= self.deadline

    def run(self, det, action: dict, seat: int, params) -> float:
        began = time.perf_counter()
        value = simulate_turn(det, action, seat, params)
        self.sims += 1
        self.spent += time.perf_counter() - began
        return value


def simulate_turn(det, action: dict, seat: int, params=ExpertParams) -> float:
    """The value for ``seat`` of ``action`` in the determinization ``det``: the rest of the turn
    is completed by Casual up to its placement, the placement is the best of ``turn_roots``
    candidates by the search's leaf value (rollouts, then the evaluation)."""
    colour = det.turn
    s = apply(det, action)
    casual = Casual(det.controller())
    for _ in range(8):  # Draw 2's kept card, Wild's colour, Recycle, Warp: a few steps at most
        if s.over or s.turn != colour or s.step in PLACE_STEPS:
            break
        s = apply(s, casual.action(s))
    evaluator = make_evaluator(s, seat, params)
    if s.over or s.turn != colour or s.step not in PLACE_STEPS:
        return _root_value(
            Searcher(evaluator, direction=s.direction, params=params.search),
            _Root(None, s, 0.0),
            0,
            -INF,
        )
    roots = _roots(s, Casual(seat) if s.controller() == seat else casual, params.turn_roots)
    searcher = Searcher(evaluator, direction=roots[0].after.direction, params=params.search)
    return max(_root_value(searcher, root, 0, -INF) for root in roots)


def _simulated_choice(seat_view, state, rng, casual, fallback, deadline, budget, max_sims):
    """Cards, kept cards, colours, Recycle and Warp: candidates simulated in rounds over fresh
    samples of the hidden cards, the worst dropped after each round (successive rejects)."""
    params = ExpertParams
    seat = seat_view["seat"]
    clock = _Clock(deadline, max_sims)
    stop = time.perf_counter() + 0.4 * (deadline - time.perf_counter())
    wide = max(6, min(params.card_wide, round(budget * params.card_wide / 2)))
    if max_sims is not None:
        wide = min(wide, max(6, 3 * max_sims))
    candidates = _ranked_candidates(state, seat, casual, params, stop, wide)
    if fallback not in candidates:
        candidates.insert(0, fallback)
    if len(candidates) == 1 or clock.out():
        return candidates[0] if len(candidates) == 1 else fallback
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    alive = list(range(min(len(candidates), max(params.first, 2))))
    det = state
    while alive and not clock.out():
        for i in alive:
            if clock.out():
                break
            totals[i] += clock.run(det, candidates[i], seat, params)
            counts[i] += 1
        else:
            if len(alive) > 2:
                worst = min(alive, key=lambda i: (totals[i] / counts[i], -i))
                alive.remove(worst)
            det = determinize(seat_view, rng)
            continue
        break
    pool = [i for i in alive if counts[i]]  # the survivors of the successive rejects
    if not pool:
        return fallback
    return candidates[max(pool, key=lambda i: (totals[i] / counts[i], -i))]


# -- placements: a tree search ------------------------------------------------------------


def seating(s) -> list[list[int]]:
    """Every seat's colours (R2.2-R2.4)."""
    return [s.seat_colours(p) for p in range(s.players)]


class _Root:
    __slots__ = ("action", "after", "quick", "value")

    def __init__(self, action, after, quick):
        self.action, self.after, self.quick, self.value = action, after, quick, -INF


def _roots(s, casual: Casual, wide: int) -> list[_Root]:
    """The ``wide`` best placements by Casual's score, each with the state after the turn."""
    out = []
    for quick, value in casual.scored_placements(s)[:wide]:
        action = {"place": placement_text(value)}
        after = apply(s, action)
        if after.step == "place_second" and after.turn == s.turn and not after.over:
            after = play_turn(after, _casual_policy(False))  # Double Play's second piece
        out.append(_Root(action, after, quick))
    return out


def _root_value(searcher: Searcher, root: _Root, depth: int, alpha: float) -> float:
    after = root.after
    ev = searcher.ev
    if after.over:
        return ev.final(after.supply)
    colour = after.turn
    values, _ = ev.moves(after.boards[colour], after.occupied, after.supply[colour])
    if not values:  # a colour without placement passes (the engine moves on by itself)
        colour, values = searcher.next_mover(after.boards, after.supply, colour)
    return searcher.value(after.boards, after.supply, colour, values, 1, depth, alpha, INF)


def make_evaluator(s, seat: int, params=ExpertParams) -> Evaluator:
    return Evaluator(
        seat,
        seating(s),
        shuffle2=s.mode == "shuffle" and s.players == 2,
        advanced=s.scoring == "advanced",
        classic=s.mode == "classic",
        params=params.search,
    )


def search_placement(s, seat, casual, deadline, wide, max_nodes, params=ExpertParams) -> dict:
    """The placement chosen by the search over the best ``wide`` candidates (depth 0, then the
    deeper iterations ``params.root_keep`` asks for)."""
    roots = _roots(s, casual, wide)
    if len(roots) == 1:
        return roots[0].action
    evaluator = make_evaluator(s, seat, params)
    searcher = Searcher(
        evaluator,
        direction=roots[0].after.direction,
        deadline=deadline,
        max_nodes=max_nodes,
        params=params.search,
    )
    _rerank(roots, evaluator, params.rerank)
    best = roots[0]
    for depth, keep in enumerate(params.root_keep):
        found, finished = _iteration(searcher, roots[:keep], depth)
        best = found or best
        if not finished:
            break
        roots.sort(key=lambda r: -r.value)
    return best.action


def _rerank(roots: list[_Root], evaluator: Evaluator, n: int) -> None:
    """Order the first ``n`` children by the static evaluation of the position after them (as
    the frozen Expert ranks its candidates); the others stay in Casual's order after them."""
    head = roots[:n]
    for root in head:
        after = root.after
        value = (
            evaluator.final(after.supply)
            if after.over
            else evaluator.value(after.boards, after.supply)
        )
        root.value = value + 0.01 * root.quick
    head.sort(key=lambda r: -r.value)
    roots[:n] = head


def _iteration(searcher: Searcher, roots: list[_Root], depth: int) -> tuple[_Root | None, bool]:
    """One iteration at ``depth`` plies below the root children: (best root, finished).

    Out of budget in the middle, the roots searched so far still count: the previous best is
    searched first, so the answer is never worse than the last finished iteration's."""
    alpha = -INF
    best = None
    for root in roots:
        try:
            value = _root_value(searcher, root, depth, alpha)
        except OutOfBudget:
            return best, False
        root.value = value + 0.01 * root.quick  # the order of the next iteration
        if best is None or value > alpha:  # a value <= alpha is only a bound (alpha-beta)
            best, alpha = root, value
    return best, True
