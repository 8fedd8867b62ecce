"""Expert: every decision by the tree search (mcts/, Monte Carlo tree search compiled by numba).

For the decision at hand (``state`` is a determinization of the seat's view: hidden cards are
sampled, determinize.py):

* **Placements** (every decision of classic mode; Shuffle's after the card): the opening book's
  move where it holds the position (book.py, ``ExpertParams.book``), else the search's most
  visited root move. In Shuffle mode the search places as if no more cards were played after
  the one in force.
* **Shuffle's other decisions** (a card, a kept card, a declared colour, a piece to recycle or
  to warp): each of the best ``card_searched`` candidates (as Casual ranks them) is applied to
  the determinization, the rest of the turn up to the placement is Casual's, and the candidate
  whose position the search values highest for the seat wins. Where the colour places, that is
  the value of its best placement there; after the rare candidate that leaves the colour no
  placement (its turn passes, or the game ends), the same search values the position that
  follows for the seat (``mcts.seat_value``).

The budget is wall-clock time (``budget`` seconds, default ``DEFAULT_BUDGET``) on ``clock``, and
optionally ``max_sims``: it bounds the simulations, and with it reached first the choice depends
on the view and the seed only. In Shuffle mode the budget is the whole turn's, shared out by step
(``ExpertParams.turn_shares``).
"""

from __future__ import annotations

import time

from games.engine import apply, legal_actions
from games.engine.rules import placement_text
from games.engine.steps import PLACE_STEPS

from . import mcts
from .book import book_move
from .evaluate import seat_weights
from .levels import DEFAULT_BUDGET
from .players import Casual, warp_options

__all__ = ["DEFAULT_BUDGET", "ExpertParams", "expert_action"]

# The clock every budget is measured on (``time.perf_counter`` times), passed on to the search;
# tests drive their own.
clock = time.perf_counter


class ExpertParams:
    # Placements in the opening from the book (book.py: two players, the first plies, built by
    # bench/ai/make_book.py from our own long searches) where it holds the position.
    book = True
    # Of a Shuffle choice's budget, the share its candidates' searches spend (the rest: the
    # margin for the turn's p95).
    budget_share = 0.9
    card_searched = 4  # candidates of a card, kept card, colour, Recycle or Warp searched
    # Shuffle: the budget is the whole turn's, shared out by step. The usual turn (a card, then a
    # placement) spends 0.25 + 0.55 of it; the longest (a card, a kept card or a declared
    # colour, a placement, Double Play's second piece) 0.25 + 0.08 + 0.55 + 0.15, about 1.03:
    # the rest is the margin for the turn's p95 (2.5 s at the default 2 s). The card's winning
    # candidate has searched the placement position already: that search goes on (subtree
    # reuse) when the turn reaches the same position.
    turn_shares = {
        "card": 0.25,
        "keep": 0.08,
        "declare": 0.08,
        "recycle": 0.08,
        "warp": 0.08,
        "place": 0.55,
        "place_second": 0.15,
    }


def expert_action(
    seat_view: dict,
    state,
    rng,
    *,
    budget: float = DEFAULT_BUDGET,
    max_sims: int | None = None,
    params=ExpertParams,
) -> dict:
    """Expert's action for the decision in ``seat_view`` (``state`` is a determinization of it)."""
    if state.mode == "shuffle":  # one budget per turn (``ExpertParams.turn_shares``)
        budget *= params.turn_shares.get(state.step, 1.0)
    if state.step not in PLACE_STEPS:
        return _searched_choice(seat_view["seat"], state, rng, budget, max_sims, params)
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    if params.book:
        value = book_move(state, fixed_corners=bool(mcts.MctsParams.fixed_corners))
        if value is not None:
            return {"place": placement_text(value)}
    seed = rng.randrange(1 << 31)
    until = clock() + budget * mcts.MctsParams.budget_share
    value, _ = mcts.mcts_choose(
        state, deadline=until, max_sims=max_sims, seed=seed, settle=True, clock=clock
    )
    return {"place": placement_text(value)}


def _searched_choice(seat: int, state, rng, budget, max_sims, params) -> dict:
    """A Shuffle decision other than a placement, by the tree search's values: each candidate
    is applied, the rest of the turn up to its placement is Casual's, and the candidate whose
    position the search values highest for ``seat`` wins."""
    end = clock() + budget * params.budget_share
    colour = state.turn
    casual = Casual(seat)
    options = candidates(state, casual)[: params.card_searched]
    if len(options) == 1:
        return options[0]
    afters = []
    for action in options:
        if len(afters) >= 2 and max_sims is None and clock() >= end - 0.5 * budget:
            # Casual's completions (a Warp, a Recycle) can be slow: half the budget at most,
            # the rest for the searches of the candidates prepared so far.
            options = options[: len(afters)]
            break
        afters.append(rest_of_turn(apply(state, action), colour, casual))
    seed = rng.randrange(1 << 31)
    values = []
    mcts.forget()
    for k, s in enumerate(afters):
        sims = None if max_sims is None else max(1, max_sims // len(afters))
        now = clock()
        until = now + (end - now) / (len(afters) - k)
        values.append(_position_value(s, seat, colour, until, sims, seed + k))
    best = max(range(len(options)), key=lambda i: (values[i], -i))
    mcts.forget(keep=mcts.position_key(afters[best]))  # for the placement, if it comes to it
    return options[best]


def rest_of_turn(s, colour: int, casual: Casual):
    """The position once Casual has played ``colour``'s turn up to its placement (Draw 2's kept
    card, Wild's colour, Recycle, Warp: a few steps), or to its end if it places nothing."""
    for _ in range(8):
        if s.over or s.turn != colour or s.step in PLACE_STEPS:
            break
        s = apply(s, casual.action(s))
    return s


def places(s, colour: int) -> bool:
    """Whether ``colour`` is to place in ``s`` (a place step always has a placement: the engine
    passes a colour without one by itself)."""
    return not s.over and s.turn == colour and s.step in PLACE_STEPS


def _position_value(s, seat: int, colour: int, until: float, sims, seed: int) -> float:
    """The value for ``seat`` of ``s``, the position a candidate leads to: the search's value of
    the colour's best placement there (the search is kept for that placement), or, when the
    colour does not place there (its turn passed, the game ended), the search's value of the
    position for the seat."""
    if places(s, colour):
        _, stats = mcts.mcts_choose(
            s, deadline=until, max_sims=sims, seed=seed, keep=True, clock=clock
        )
        return stats["value"]
    return mcts.seat_value(s, seat, deadline=until, max_sims=sims, seed=seed, clock=clock)


def candidates(s, casual: Casual) -> list[dict]:
    """The legal actions worth searching, most promising first."""
    step = s.step
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
