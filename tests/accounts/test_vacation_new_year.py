"""Vacations once allowed 28 consecutive days across New Year (14 days up to 1 January
from one year's allowance, 14 more from the next). The allowance now holds in any 365 days."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import override_settings

from accounts import vacations

pytestmark = pytest.mark.django_db


@override_settings(VACATION_DAYS_PER_YEAR=14)
def test_no_second_allowance_right_after_new_year(bob):
    december = datetime(2026, 12, 18, 9, 0, tzinfo=UTC)
    first = vacations.vacation_start(user=bob, days=14, now=december)
    assert first.ends_at == datetime(2027, 1, 1, 9, 0, tzinfo=UTC)

    back = first.ends_at + timedelta(minutes=1)
    assert vacations.days_left(bob, back) == 0
    with pytest.raises(vacations.VacationError, match="0 vacation days left"):
        vacations.vacation_start(user=bob, days=14, now=back)


@override_settings(VACATION_DAYS_PER_YEAR=14)
def test_the_days_come_back_365_days_after_they_were_taken(bob):
    december = datetime(2026, 12, 18, 9, 0, tzinfo=UTC)
    vacations.vacation_start(user=bob, days=10, now=december)

    assert vacations.days_left(bob, datetime(2027, 6, 1, tzinfo=UTC)) == 4
    assert vacations.days_left(bob, december + timedelta(days=10 + 365)) == 14
