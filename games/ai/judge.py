"""The analysis judge: how good was each decision of a finished game, judged from its seat's view?

Pure AI code, no Django: the analysis task (games/jobs/analysis.py, run by
``games.jobs.tasks.analyse_game``) replays the game and hands each decision to
``analyse_decision``; the result is plain data that the task stores, one row per decision
(``games.models.DecisionAnalysis``).

**What a decision is judged from.** The state before the decision is reduced to the deciding
seat's view (``engine.view``: other hands and the order of every draw pile hidden, never the seed)
and a world consistent with that view is sampled as the AI samples it (determinize.py).
Everything below happens in that sampled world, so the analysis knows what the player could have
known at that moment and nothing more, even though the game is finished.

**The estimate** is the computer's tree search's value for the player to move
(``mcts.mcts_choose``, the same search Expert plays with, on one thread, bounded by
``sims`` simulations): the mean value of the root's most visited placement, in [0, 1]. The search
values a finished playout as 90 % its rank (win 1, draw 1/2; with four players the share of
opponents beaten) and 10 % a smooth curve of the points margin, so the estimate reads as "the
chance to win" of the player. For each decision we store:

* ``best``: the search's choice for a placement (its most visited placement at the root), the
  best of the candidates below for a card decision; ``before``: the player's estimate after
  ``best``, valued exactly as the decision played is (below), and ``sims``, the simulations
  behind each search;
* ``after``: the player's estimate after the decision played. With two players it is read where
  the opponent is next to move, as 1 minus the opponent's value (two players' values add up to
  1): when the same player decides next (a Shuffle card before its placement, Double Play's
  second piece), the turn is played on first, the search's best placement for each piece and
  Casual's other steps (``_Judge.position_value``), so that a card and the placement after it
  are valued at the same point and the chart's line does not jump between them. With three or
  four players, the search values the position where the next placement is due (an opponent's
  card steps before it played by the Casual level in the sampled world): the player's mean value
  over the simulations of the mover's pick (``mcts.seat_value``). An earlier version had Casual
  play the opponents' whole turns up to the player's next decision: one line of random replies,
  which moved the estimate about as much as the decision did (bench/ANALYSIS_RESULTS.md);
* ``loss = max(0, before - after)``: how much the estimate dropped (0 when the best was played).

**Card decisions** (Shuffle: the card played, the card kept after Draw 2, the colour declared for
Wild, the piece recycled or warped): every legal choice is judged when there are a handful (at
most ``CARD_CANDIDATES``); for Recycle and Warp, the choice played and Expert's. Each candidate is
applied, the rest of the player's turn up to its placement is Casual's, and the search values the
position there (as Expert's own card choice does, expert.py).

**Hidden cards.** In a Shuffle game a sampled world is one guess of the other hands and the
piles' order, and in some guesses a decision costs nothing that costs much in most. So there a
judgement is the mean over ``WORLDS`` worlds, each sampled with its own seed and searched with
its share of the simulations (``sims // WORLDS``: the cost of one judgement of ``sims``); the
best move is the one of the world that valued its best highest. Every judgement is made so, the
deeper looks below included; ``sims`` still counts the simulations behind each estimate.

Three-player games: the shared colour's decisions are not judged (its rotation changes hands; the
search plays it as a fourth player) and are stored with ``loss`` 0.

**A second and a third look at the biggest drops.** One search of ``sims`` simulations in one
sampled world is noisy: two runs with other seeds often named different "biggest mistakes", the
one's being the other's fourth or fifth (bench/ANALYSIS_RESULTS.md). Once every decision is
judged, each player's ``REFINE_TOP`` biggest drops are judged again (``next_to_refine``,
``judge_again``) with ``REFINE_FACTOR`` times the simulations, in a world sampled anew (another
seed: a guess of the hidden cards that made a drop look big is not simply repeated), the deeper
row replacing the first, until that player's ``REFINE_TOP`` biggest are all deep (at most
``REFINE_MAX`` a player). Then the player's ``CONFIRM_TOP`` biggest, the ones the replay lists,
are judged a third time, as deep, in a third world: the row stores the mean of the two deep
judgements (``before``, ``after``, the loss between them; the best move of the one that valued
its best higher) and ``sims`` says how many simulations stand behind each estimate (two
searches of ``REFINE_FACTOR * sims``). Last, while the player's two biggest drops are nearer
than the judgements' noise can tell apart (``CONTEST_Z`` standard errors, ``CONTEST_SD`` a
judgement), the one judged fewer times is judged again in another world, up to
``CONTEST_LOOKS`` deep judgements a row, all averaged: which of two close drops is the biggest
is decided by several judgements each, not by one.

In a classic game every deeper look also values the best decision the row holds so far beside
its own search's (``carry``): where two runs' deep judgements of a decision differed, they agreed
on the value after the move played and differed on the best move, one run's search having missed
the move the other found (bench/ANALYSIS_RESULTS.md). A move once found best is then not lost to
a later search's miss. Not in a Shuffle game, where it was found best in another guess of the
hidden cards: measured there, two runs agreed less often with it than without.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import asdict, dataclass

from games.engine import State, apply, legal_actions, score, view
from games.engine.moves import placement_text
from games.engine.pieces import parse_squares, shape_of_mask
from games.engine.state import COLOUR_INDEX, COLOURS
from games.engine.steps import PLACE_STEPS

from . import decide, mcts
from .determinize import determinize

__all__ = [
    "CARD_CANDIDATES",
    "DecisionResult",
    "analyse_decision",
    "decisions",
    "describe",
    "judge_again",
    "next_to_refine",
]

CARD_CANDIDATES = 5  # card, keep, declare: every legal choice up to this many
TURN_STEPS = 8  # the rest of a turn (Draw 2's kept card, Wild's colour, ...) is a few steps
CHAIN = 16  # decisions of the opponents played out before the player's next one (3-4 players)
# Each player's REFINE_TOP biggest drops judged again: more than the three the replay lists,
# because one search is noisy enough (with hidden cards: in one sampled world) that a run's
# biggest mistake was often another run's fourth or fifth (bench/ANALYSIS_RESULTS.md).
REFINE_TOP = 12
REFINE_FACTOR = 4  # ... with this many times the simulations
REFINE_MAX = 16  # ... at most this many decisions a player (a drop judged again is often smaller)
CONFIRM_TOP = 3  # then the player's three biggest judged a third time, the two deep ones averaged
CONFIRM_MAX = 5  # ... at most this many a player (a confirmed drop may fall below another)
# Then, while a player's two biggest drops are nearer than CONTEST_Z standard errors of their
# difference, the one judged fewer times is judged again (up to CONTEST_LOOKS deep judgements a
# row, averaged). CONTEST_SD: one deep judgement's spread of a drop, from two runs' rows of the
# same decisions (bench/ANALYSIS_RESULTS.md: 0.031 classic, 0.035 Shuffle).
CONTEST_SD = 0.035
CONTEST_Z = 2.0
CONTEST_LOOKS = 8
LOOK_SEED = 1_000_003  # the seed of a deeper look: ``seed + k * LOOK_SEED`` for the k-th
# Shuffle games (hidden cards): each judgement is the mean over this many sampled worlds, with
# the simulations shared between them (``_in_worlds``); WORLD_SEED spaces their seeds.
WORLDS = 2
WORLD_SEED = 7_919
REFINE_FLOOR = 0.02  # a drop below this is noise (the presenter's MISTAKE_FLOOR): not looked at
CARRY = True  # a deeper look values the row's best so far beside its search's (classic games)


class OneThread(mcts.MctsParams):
    """The search as Expert runs it, on one core: an analysis shares the machine with the
    computer's turns and must not take both cores.

    Without last-good-reply (``lgr``, which Expert uses in classic two-player games):
    the analysis's estimates were measured with the search before it (bench/ANALYSIS_RESULTS.md),
    and at an analysis's few hundred simulations a decision LGR's learned replies moved the
    values of sound moves (tests/analysis/test_estimates.py). Kept off until measured there."""

    threads = 1
    lgr = 0
    # The estimate reads as the chance to win, 90 % the rank and 10 % the margin, in every game
    # (Expert weighs the margin more in classic two-player games: search.py).
    margin_share_classic2 = mcts.MctsParams.margin_share
    margin_adaptive = margin_adaptive_multi = 0  # ... on a fixed curve (an estimate means the
    # same in every game)


@dataclass(frozen=True)
class DecisionResult:
    """One decision judged: plain data, stored as one row, exported as one entry of the record's
    optional ``analysis`` list (games.selectors.analysis.export_entries, blokus-analysis/1)."""

    ply: int  # the action's number in the game (1 for the first)
    seat: int  # the player who decided
    colour: str  # the colour to move
    step: str  # the decision's step (RECORD.md): place, card, keep, declare, recycle, warp, ...
    played: dict  # the action played, in the record format
    best: dict  # the best decision the analysis found, in the record format
    before: float  # the player's estimate with ``best``
    after: float  # the player's estimate after ``played``
    loss: float  # max(0, before - after)
    sims: int  # simulations behind the estimates
    judged: bool = True  # False: not judged (three players: the shared colour's decisions)

    def as_dict(self) -> dict:
        return asdict(self)


def decisions(initial: State, payloads: list[dict]):
    """Every decision of a game: (ply, the state before it, the action played), in order."""
    state = initial
    for ply, action in enumerate(payloads, start=1):
        yield ply, state, action
        state = apply(state, action)


def describe(action: dict) -> dict:
    """What an action is, for words: ``{"kind": "place", "piece": "Z5", "square": "k9"}`` (the
    piece and its first square by the record's order), ``{"kind": "card", "value": "wild"}``."""
    if "place" in action or "recycle" in action or "warp" in action:
        kind = next(k for k in ("place", "recycle", "warp") if k in action)
        text = action[kind]
        out = {"kind": kind, "piece": _piece(text), "square": text.split(",")[0]}
        if kind == "warp":
            out["to"] = action["to"].split(",")[0]
        return out
    kind, value = next(iter(action.items()))
    return {"kind": kind, "value": value}


def _piece(text: str) -> str:
    try:
        return shape_of_mask(parse_squares(text)) or "?"
    except ValueError:
        return "?"


def analyse_decision(
    state: State, action: dict, *, ply: int, sims: int, seed: int, carry: tuple[dict, ...] = ()
) -> DecisionResult:
    """Judge ``action`` played in ``state`` (the referee's state before it) from the deciding
    seat's view only, with ``sims`` simulations behind each estimate, seeded by ``seed``.
    ``carry``: decisions an earlier judgement found best, valued beside the search's own best
    (the ones not legal here are left out; ``judge_again``), in a classic game.

    In a Shuffle game (hidden hands and piles) the judgement is the mean over ``WORLDS`` sampled
    worlds, with ``sims // WORLDS`` simulations each (``_in_worlds``), and ``carry`` is not
    used: there a move was found best in another guess of the hidden cards, and carrying it was
    measured no better (bench/ANALYSIS_RESULTS.md). Otherwise the judgement is one search's in
    the one world there is (``_judge_once``)."""
    if state.mode == "shuffle" and not state.over and sims >= WORLDS:
        return _in_worlds(state, action, ply=ply, sims=sims, seed=seed)
    return _judge_once(state, action, ply=ply, sims=sims, seed=seed, carry=carry)


def _in_worlds(state: State, action: dict, *, ply: int, sims: int, seed: int) -> DecisionResult:
    """The mean of ``WORLDS`` judgements of the decision, each in its own sampled world (seeds
    ``seed + k * WORLD_SEED``) with ``sims // WORLDS`` simulations: the same cost as one
    judgement of ``sims``. One world is one guess of the other hands and the piles' order, and
    in some guesses a decision costs nothing that costs much in most: two runs of the analysis
    then disagreed on a player's biggest mistake more often in Shuffle games than in classic
    ones, the one run's biggest being judged small by the other in its one world
    (bench/ANALYSIS_RESULTS.md)."""
    share = sims // WORLDS
    looks = [
        _judge_once(state, action, ply=ply, sims=share, seed=seed + k * WORLD_SEED)
        for k in range(WORLDS)
    ]
    return _mean(looks)


def _mean(looks: list[DecisionResult], weights: list[int] | None = None) -> DecisionResult:
    """Judgements of one decision put together: the (weighted) mean estimates with the best move
    and after the move played, the drop between them, the best move of the judgement that
    valued its best highest (the first on a tie), and ``sims`` the sum of theirs (the
    simulations behind each estimate). The other fields are the last judgement's."""
    weights = weights or [1] * len(looks)
    last, total = looks[-1], sum(weights)
    before = sum(w * r.before for w, r in zip(weights, looks, strict=True)) / total
    after = sum(w * r.after for w, r in zip(weights, looks, strict=True)) / total
    best = max(looks, key=lambda r: r.before).best
    return DecisionResult(
        last.ply, last.seat, last.colour, last.step, last.played, best, round(before, 4),
        round(after, 4), round(max(0.0, before - after), 4) if last.judged else 0.0,
        sum(r.sims for r in looks), last.judged,
    )  # fmt: skip


def _judge_once(
    state: State, action: dict, *, ply: int, sims: int, seed: int, carry: tuple[dict, ...] = ()
) -> DecisionResult:
    """One judgement of the decision, in one world sampled from the seat's view with ``seed``,
    with searches of ``sims`` simulations. The candidates for the best decision are the search's
    (a placement) or ``_card_candidates`` (a card step), and each of ``carry`` that is legal in
    the sampled world.

    A resignation (R11.1) is not judged: it is its player's, who may resign out of turn, so it is
    stored under the resigner's seat and colour, valued from their view, with no loss."""
    if "resign" in action:
        colour_index = COLOUR_INDEX[action["resign"]]
        seat = state.seat_of(colour_index)
        world = determinize(view(state, seat), random.Random(seed))
        judge = _Judge(seat, sims, seed)
        value = judge.value_after(world, action)
        return DecisionResult(
            ply, seat, action["resign"], state.step, action, action, value, value, 0.0,
            judge.sims, False,
        )  # fmt: skip
    seat = state.controller()
    colour = COLOURS[state.turn]
    seat_view = view(state, seat)  # what the player could know: nothing else is read below
    rng = random.Random(seed)
    world = determinize(seat_view, rng)
    judge = _Judge(seat, sims, seed)
    if state.players == 3 and state.turn == state.shared:
        value = judge.value_after(world, action)
        return DecisionResult(
            ply, seat, colour, state.step, action, action, value, value, 0.0, judge.sims, False
        )
    if state.step in PLACE_STEPS:
        candidates = [judge.best_placement(world)]
    else:
        candidates = _card_candidates(world, seat_view, action, sims, seed)
    candidates = [*candidates, *(c for c in carry if _legal(world, c))]
    # Every candidate and the action played are valued the same way (the position after them),
    # so that the search's optimism for the side it searches falls on both sides alike.
    values: dict[tuple, float] = {}
    for candidate in [*candidates, action]:
        key = _key(candidate)
        if key not in values:
            values[key] = judge.value_after(world, candidate)
    best = max([*candidates, action], key=lambda c: (values[_key(c)], c == action))
    before, after = values[_key(best)], values[_key(action)]
    loss = max(0.0, before - after)
    return DecisionResult(
        ply, seat, colour, state.step, action, best, round(before, 4), round(after, 4),
        round(loss, 4), judge.sims,
    )  # fmt: skip


def next_to_refine(rows: list[dict], sims: int) -> int | None:
    """The ply of the next decision to judge again (``judge_again``), or None. ``rows``: the
    judged decisions as dicts (``ply``, ``seat``, ``loss``, ``sims``, ``judged``); ``sims``: the
    analysis's first depth. For the first player (by seat) that has one, in this order:

    * one of its ``REFINE_TOP`` biggest drops (of ``REFINE_FLOOR`` or more, biggest first) still
      judged at ``sims`` only, unless ``REFINE_MAX`` of its decisions are deeper already;
    * once there is none, one of its ``CONFIRM_TOP`` biggest judged deep once
      (``REFINE_FACTOR * sims``) and not yet a second time, unless ``CONFIRM_MAX`` are;
    * then, while its two biggest are too near to tell apart (``_contested``), the one judged
      fewer times, up to ``CONTEST_LOOKS`` deep judgements.

    It reads nothing but the rows, so a run that stops midway and one that goes on from there
    judge the same decisions again, once each a depth; a row with ``sims`` 0 (no search: the
    game was over) has nothing to gain from a deeper one."""
    deep = REFINE_FACTOR * sims
    for seat in sorted({r["seat"] for r in rows}):
        mine = [r for r in rows if r["seat"] == seat and r["judged"]]
        biggest = sorted(
            (r for r in mine if r["loss"] >= REFINE_FLOOR), key=lambda r: (-r["loss"], r["ply"])
        )
        if sum(r["sims"] > sims for r in mine) < REFINE_MAX:
            for r in biggest[:REFINE_TOP]:
                if 0 < r["sims"] <= sims:
                    return r["ply"]
        if sum(r["sims"] > deep for r in mine) < CONFIRM_MAX:
            for r in biggest[:CONFIRM_TOP]:
                if sims < r["sims"] <= deep:
                    return r["ply"]
        contested = _contested(biggest[:2], deep)
        if contested is not None:
            return contested
    return None


def _contested(top: list[dict], deep: int) -> int | None:
    """Of a player's two biggest drops, both judged deep at least twice: the ply of the one to
    judge again when their difference is within ``CONTEST_Z`` standard errors and it has fewer
    than ``CONTEST_LOOKS`` deep judgements (the one with fewer first), else None."""
    if len(top) < 2 or any(r["sims"] < 2 * deep for r in top):
        return None
    looks = [r["sims"] // deep for r in top]
    error = CONTEST_SD * math.sqrt(1 / looks[0] + 1 / looks[1])
    if top[0]["loss"] - top[1]["loss"] >= CONTEST_Z * error:
        return None
    for r in sorted(top, key=lambda r: (r["sims"], r["ply"])):
        if r["sims"] < CONTEST_LOOKS * deep:
            return r["ply"]
    return None


def judge_again(state: State, action: dict, row: dict, *, sims: int, seed: int) -> DecisionResult:
    """The decision of ``row`` (a stored judgement as a dict: ``ply``, ``sims``, ``best``,
    ``before``, ``after``) judged once more, for ``next_to_refine``, where ``sims`` is the
    analysis's first depth and ``seed`` the decision's first seed: a row judged at ``sims`` only
    is judged with ``REFINE_FACTOR`` times the simulations in another sampled world (the result
    replaces it); a row judged deep k times is judged so again in another world, and the result
    is the mean of the k + 1 deep judgements (``sims``: the simulations behind each estimate,
    k + 1 searches' worth). In a classic game each look values the row's best decision so far
    beside its search's (``carry``)."""
    deep = REFINE_FACTOR * sims
    ply = row["ply"]
    carry = (row["best"],) if CARRY else ()
    if row["sims"] <= sims:
        return analyse_decision(
            state, action, ply=ply, sims=deep, seed=seed + LOOK_SEED, carry=carry
        )
    looks = row["sims"] // deep  # deep judgements in the row so far
    new = analyse_decision(
        state, action, ply=ply, sims=deep, seed=seed + (looks + 1) * LOOK_SEED, carry=carry
    )
    so_far = DecisionResult(
        ply, new.seat, new.colour, new.step, new.played, row["best"], row["before"],
        row["after"], 0.0, row["sims"],
    )  # fmt: skip
    return _mean([so_far, new], [looks, 1])


def _legal(world: State, action: dict) -> bool:
    try:
        apply(world, action)
    except ValueError:  # IllegalAction, or text that names no squares
        return False
    return True


def _key(action: dict) -> tuple:
    """Actions compare by their squares, not their text's order."""
    return tuple(
        (k, frozenset(v.split(",")) if k in ("place", "recycle", "warp", "to") else v)
        for k, v in sorted(action.items())
    )


def _card_candidates(world, seat_view, action, sims, seed) -> list[dict]:
    options = legal_actions(world)
    if len(options) <= CARD_CANDIDATES:
        return options
    expert = decide(seat_view, level="expert", seed=seed, budget=3600.0, max_sims=sims)
    return [action, expert]


class _Judge:
    """Searches in one sampled world, from the point of view of ``seat``."""

    def __init__(self, seat: int, sims: int, seed: int):
        self.seat = seat
        self.max_sims = sims
        self.seed = seed
        self.rng = random.Random(seed)
        self.sims = 0

    def search(self, s: State) -> tuple[int, float]:
        """The search's best placement for the colour to move in ``s`` and its value for that
        colour's player; ValueError if the colour has no placement."""
        value, stats = mcts.mcts_choose(
            s,
            deadline=time.perf_counter() + 3600.0,
            max_sims=self.max_sims,
            seed=self.rng.randrange(1 << 31),
            params=OneThread,
        )
        self.sims = max(self.sims, int(stats["sims"]))
        return value, float(stats["value"])

    def seat_value(self, s: State) -> float:
        """The player's value in ``s`` where a placement is due, whoever places: the search's
        from ``s`` (``mcts.seat_value``)."""
        self.sims = max(self.sims, self.max_sims)
        return mcts.seat_value(
            s,
            self.seat,
            deadline=time.perf_counter() + 3600.0,
            max_sims=self.max_sims,
            seed=self.rng.randrange(1 << 31),
            params=OneThread,
        )

    def best_placement(self, world: State) -> dict:
        try:
            value, _ = self.search(world)
        except ValueError:  # nothing the search can place: the engine's first legal choice
            return legal_actions(world)[0]
        return {"place": placement_text(value)}

    def casual(self, s: State) -> dict:
        return decide(view(s, s.controller()), level="casual", seed=self.rng.randrange(1 << 31))

    def value_after(self, world: State, action: dict) -> float:
        """The player's estimate once ``action`` is played in the sampled ``world``. Every
        candidate is valued with the same random numbers (the opponents' replies, the searches'
        seeds): the difference between two candidates is then theirs, not the dice's."""
        self.rng = random.Random(self.seed + 1)
        s = apply(world, action)
        colour = world.turn
        for _ in range(TURN_STEPS):  # the rest of the player's turn up to its placement
            if s.over or s.turn != colour or s.controller() != self.seat:
                break
            if s.step in PLACE_STEPS:
                break
            s = apply(s, self.casual(s))
        return self.position_value(s)

    def position_value(self, s: State) -> float:
        """The player's estimate in ``s``, whoever is to move there.

        With two players it is always read at the same point: where the opponent is next to
        move, as 1 minus the search's value for the opponent. A position where the player is
        still to place (after a card, before Double Play's second piece) is first played on with
        the search's best placement (and Casual's other steps), so that a card's estimate and
        the estimate of the placement after it measure the same thing: the search is optimistic
        for the side it searches, and a card valued at the player's own search would read
        higher than the placement that follows it, with nothing played in between.

        With three or four players it is read where the next placement is due, whoever places
        (an opponent's card steps played first by Casual): the player's value over the search's
        simulations from there (``seat_value``)."""
        for _ in range(CHAIN):
            if s.over:
                return final_value(s, self.seat)
            mover = s.controller()
            if s.players == 2 and mover == self.seat:
                s = apply(s, self.best_placement(s) if s.step in PLACE_STEPS else self.casual(s))
                continue
            if s.players == 2:
                try:
                    _, value = self.search(s)
                except ValueError:  # the colour to move cannot place here: one step on
                    s = apply(s, self.casual(s))
                    continue
                return value if mover == self.seat else 1.0 - value
            if s.step in PLACE_STEPS:  # three or four: the player's value where a piece is due
                return self.seat_value(s)
            s = apply(s, self.casual(s))  # an opponent's card step: Casual plays it
        return 0.5  # pragma: no cover - a chain that long does not happen


def final_value(s: State, seat: int) -> float:
    """A finished game's value for ``seat``, as the search values a finished playout: the share
    of opponents beaten (draws half). Points are compared by the game's scoring."""
    players = score(s)["players"]
    place = players[seat]["place"]
    others = [p for p in players if p["seat"] != seat]
    beaten = sum(1.0 if place < p["place"] else 0.5 if place == p["place"] else 0.0 for p in others)
    return beaten / max(1, len(others))
