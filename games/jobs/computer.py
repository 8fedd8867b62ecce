"""The one way in for the computer (STYLE.md habit 20): a job asks the AI for its
moves from the position at ``ply``, outside any lock, and hands them to the write path's entry
for its caller: ``services.computer_submit`` for a computer seat, ``services.turn_timeout`` for a
player's turn whose time ran out. The services never call the AI themselves."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.utils import timezone

from games import engine, services
from games.ai import choose_action, level_budget
from games.engine import State
from games.engine.forecast import turn_order
from games.models import Action, Game
from games.services.timeouts import overdue

# A player waits through the computers' turns between two of their decisions. At the full budget
# that is one round of three computers (a 4-player game against three Experts: about 6 s). When
# more computer turns come before the player decides (they were skipped, their colours are out
# of pieces), the turns still to come share what is left of that round's time, so that the wait
# stays about one round's (the player's wait p95 <= 8 s); never under MIN_SHARE of
# the budget. Turns that a Skip adds in the middle of a round are only known when it is played:
# the time already waited counts, not only the turns ahead.
WAIT_TURNS = 3
MIN_SHARE = 0.15
LOOK_AHEAD = 16  # colours looked at for the next player's decision


def computer_turns_ahead(s: State, is_computer: Callable[[int], bool]) -> int:
    """How many computer turns come from this one (counted) until a player's decision: the
    colours to move in order (skipped ones pass, R6.1), stopping at the first colour a player
    controls. The shared colour (R2.4) stops the count too: its rotation may give it to a
    player. ``is_computer(seat)``: the seat plays by the computer."""
    seat = s.controller()
    if seat is None or not is_computer(seat):
        return 0
    turns = 1
    for entry in turn_order(s, LOOK_AHEAD):
        if entry["skipped"]:
            continue
        if entry["seat"] is None or not is_computer(entry["seat"]):
            break
        turns += 1
    return turns


def budget_share(s: State, is_computer: Callable[[int], bool], waited: float = 0.0) -> float:
    """The share of its budget the computer thinks for at this turn: what is left of one round's
    time (``WAIT_TURNS`` budgets, less ``waited``: the time the player has waited so far, in
    budgets) shared by the computer turns ahead; 1 at most, ``MIN_SHARE`` at least."""
    turns = computer_turns_ahead(s, is_computer)
    if turns == 0:
        return 1.0
    share = (WAIT_TURNS - waited) / turns
    return max(MIN_SHARE, min(1.0, share))


def waited_budgets(game: Game, budget: float) -> float:
    """How long the players have waited for the computers, in budgets of ``budget`` seconds:
    since the last action a player sent (or the game's start)."""
    since = (
        Action.objects.filter(game=game, by_ai=False)
        .order_by("-ply")
        .values_list("created_at", flat=True)
        .first()
    ) or game.started_at
    if since is None or budget <= 0:
        return 0.0
    return max(0.0, (timezone.now() - since).total_seconds() / budget)


def _seed(game: Game, ply: int, offset: int = 0) -> int:
    """The computer's seed for the decision at ``ply``: the same on every delivery of a task."""
    return game.pk * 100003 + ply + offset


def play_computer_turn(game: Game, ply: int, *, worker: bool) -> int | None:
    """Play the computer seat's decision at ``ply``; None if the game moved on, ended, or the
    seat is not the computer's. ``worker``: a Celery worker runs this (Master thinks long only
    there)."""
    if game.status != Game.Status.ACTIVE or game.ply != ply:
        return None
    state = game.current_state()
    seats = {s.index: s for s in game.seats.all()}
    seat = seats[state.controller()]
    if not seat.is_ai:
        return None
    level = seat.ai_level or "beginner"
    waited = waited_budgets(game, level_budget(level, worker=worker))
    share = budget_share(state, lambda index: seats[index].is_ai, waited)
    action = choose_action(
        state,
        level=level,
        seed=_seed(game, ply),
        worker=worker,
        budget_share=share,
        max_sims=settings.AI_MAX_SIMS,
    )
    try:
        result = services.computer_submit(
            game=game, action=action, expected_ply=ply, key=f"ai:{ply}"
        )
    except services.Conflict:  # another delivery of this task got there first
        return None
    return result.ply


def timeout_plan(game: Game, ply: int) -> list[dict]:
    """The rest of the overdue seat's turn as the computer would play it, chosen from the
    position at ``ply`` without any lock: every decision until another seat controls."""
    game = Game.objects.get(pk=game.pk)
    if not overdue(game, ply):
        return []
    state = game.current_state()
    controller, plan = state.controller(), []
    while not state.over and state.controller() == controller:
        level = services.TIMEOUT_LEVEL
        action = choose_action(
            state, level=level, seed=_seed(game, ply, len(plan)), max_sims=settings.AI_MAX_SIMS
        )
        plan.append(action)
        state = engine.apply(state, action)
    return plan


def play_overdue_turn(game: Game, ply: int) -> bool:
    """The computer plays a player's overdue turn at ``ply`` (the deadline scan queues this);
    False if they moved meanwhile, were on vacation, or the turn is not overdue."""
    return services.turn_timeout(game=game, ply=ply, plan=timeout_plan(game, ply))
