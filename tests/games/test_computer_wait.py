"""The player's wait through the computers' turns: within one round the computer
thinks for its whole budget; when more computer turns come in a row before the player decides
(a Skip passes over them, R6.1; a Reverse changes who comes next, R6.2), the turns left share
what is left of one round's time, so the wait stays about one round's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import ai
from games.engine import new_game
from games.jobs.computer import (
    LOOK_AHEAD,
    MIN_SHARE,
    budget_share,
    computer_turns_ahead,
    waited_budgets,
)
from games.models import Action
from tests.support.tables import alice_against_bob

BLUE, YELLOW, RED, GREEN = range(4)


def at(colour: int, *, skip=False, direction=1, players=4):
    s = new_game(mode="shuffle", players=players, seed=1)
    s.turn, s.skip_pending, s.direction = colour, skip, direction
    return s


def human_blue(seat: int) -> bool:  # seat 0 (blue) is the player, the others computers
    return seat != 0


def test_r7_3_one_round_of_three_computers_thinks_at_the_full_budget():
    assert computer_turns_ahead(at(YELLOW), human_blue) == 3
    assert computer_turns_ahead(at(RED), human_blue) == 2
    assert computer_turns_ahead(at(GREEN), human_blue) == 1
    assert computer_turns_ahead(at(BLUE), human_blue) == 0  # the player decides
    for colour in (YELLOW, RED, GREEN):
        assert budget_share(at(colour), human_blue) == 1.0


def test_r6_1_a_skip_over_the_player_makes_the_chain_longer_and_each_turn_shorter():
    # Green plays Skip: blue is passed over, then yellow, red, green again before blue.
    s = at(GREEN, skip=True)
    assert computer_turns_ahead(s, human_blue) == 4
    assert budget_share(s, human_blue) == pytest.approx(3 / 4)
    # Yellow and red have already played (two budgets waited): a quarter round is left for four.
    assert budget_share(s, human_blue, waited=2.0) == pytest.approx(1 / 4)


def test_turns_a_skip_added_mid_round_share_what_is_left_never_under_the_floor():
    # A round went by (three budgets waited), then a Skip passed over the player: yellow starts
    # another round of three with no time left of the first one.
    assert budget_share(at(YELLOW), human_blue, waited=3.1) == MIN_SHARE
    # Within a round, the last computer gets what is left (the first two ran a little over).
    assert budget_share(at(GREEN), human_blue, waited=2.2) == pytest.approx(0.8)


def test_r6_2_a_reversed_direction_counts_the_colours_in_their_new_order():
    # Reversed: after yellow comes blue (the player): one computer turn.
    assert computer_turns_ahead(at(YELLOW, direction=-1), human_blue) == 1
    assert computer_turns_ahead(at(GREEN, direction=-1), human_blue) == 3


def test_only_computers_at_the_table_think_briefly_but_not_under_the_floor():
    s = at(YELLOW)
    assert computer_turns_ahead(s, lambda seat: True) == 1 + LOOK_AHEAD
    assert budget_share(s, lambda seat: True) == pytest.approx(3 / (1 + LOOK_AHEAD))
    assert budget_share(s, lambda seat: True, waited=10) == MIN_SHARE


def test_r2_4_the_shared_colour_ends_the_count_since_a_player_may_play_it():
    s = new_game(mode="shuffle", players=3, shared_color="green", seed=1)
    s.turn = YELLOW  # seat 1 (a computer); red is seat 2 (a computer); green is shared
    assert computer_turns_ahead(s, lambda seat: seat != 0) == 2


def test_choose_action_passes_the_share_to_the_search(monkeypatch):
    seen = []
    monkeypatch.setattr(ai, "decide", lambda view, **kw: seen.append(kw["budget"]) or {})
    s = at(YELLOW)
    ai.choose_action(s, level="expert", budget_share=0.5)
    ai.choose_action(s, level="expert")
    ai.choose_action(s, level="casual", budget_share=0.5)  # no search budget to scale
    assert seen == [pytest.approx(ai.DEFAULT_BUDGET * 0.5), None, None]


@pytest.mark.django_db
def test_the_wait_counts_from_the_players_last_action(alice, bob):
    game = alice_against_bob(alice, bob)
    assert waited_budgets(game, 2.0) < 1  # just started: no action yet, the start counts
    Action.objects.create(game=game, ply=game.ply + 1, seat=0, user=alice, payload={}, events=[])
    Action.objects.create(game=game, ply=game.ply + 2, seat=1, by_ai=True, payload={}, events=[])
    four_seconds_ago = timezone.now() - timedelta(seconds=4)
    Action.objects.filter(game=game, by_ai=False).update(created_at=four_seconds_ago)
    assert waited_budgets(game, 2.0) == pytest.approx(2.0, abs=0.2)
