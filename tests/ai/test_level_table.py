"""The computer's levels are one table (games/ai/levels.py): the site offers exactly its levels,
and the facts the web layers repeat (they do not import the AI package) agree with it."""

from __future__ import annotations

import pytest

from games.ai import DEFAULT_BUDGET, LEVELS, MASTER_BUDGET, Level, level_budget
from games.ai.levels import below


def test_the_site_offers_exactly_the_ais_levels_in_its_order():
    from games.forms import LEVELS as OFFERED
    from games.models import Seat

    assert list(LEVELS) == list(Seat.Level.values) == [value for value, _ in OFFERED]
    assert all(isinstance(level, Level) and level.name == name for name, level in LEVELS.items())


def test_the_new_game_form_shows_the_seconds_each_level_thinks():
    from games.forms import LEVEL_SECONDS

    shown = {name: level.seconds for name, level in LEVELS.items() if level.seconds is not None}
    assert shown == LEVEL_SECONDS == {"expert": 2, "master": 10}


def test_the_computer_ratings_use_the_measured_win_rates():
    from games.services import ratings

    measured = {
        (name, below(name)): level.beats_below
        for name, level in LEVELS.items()
        if level.beats_below is not None
    }
    assert measured == ratings.COMPUTER_WIN_RATES
    shown = [ratings.computer_rating(name) for name in LEVELS]
    for name, level in LEVELS.items():  # a level not measured is rated as the one below it
        if level.beats_below is None and below(name) is not None:
            assert ratings.computer_rating(name) == ratings.computer_rating(below(name))
    assert shown == sorted(shown)


@pytest.mark.parametrize("worker", [False, True])
def test_each_level_searches_for_its_budget_where_it_may(worker):
    assert level_budget("expert", worker=worker) == DEFAULT_BUDGET == LEVELS["expert"].budget
    assert level_budget("master", worker=worker) == (MASTER_BUDGET if worker else DEFAULT_BUDGET)
    for name in ("beginner", "casual"):  # they answer at once; waits count in Expert's budget
        assert LEVELS[name].budget is None and level_budget(name, worker=worker) == DEFAULT_BUDGET
    assert [name for name, level in LEVELS.items() if level.worker_only] == ["master"]
