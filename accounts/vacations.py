"""Vacation: a player stops every move clock they have running, within a yearly allowance.

``settings.VACATION_DAYS_PER_YEAR`` days (14 unless set) in any 365 days, counted in whole days
started: a vacation asked for N days takes N days of the allowance, and one ended early gives back
the whole days not used. (A calendar year let a player take 14 days up to 1 January and 14 more
from it, 28 in a row; now the days taken in the 365 days before a start count.)

While a player is away their turns wait: the move deadline of a turn moves on by the time the
turn spent in their vacations (``paused``), so no computer plays for them and nothing counts
towards the seat's takeover; reminders wait too. Opponents see "on vacation until ..." next to
the player's name.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import User, Vacation

DAY = timedelta(days=1)


class VacationError(ValueError):
    """A refused request, with a message for the player."""


YEAR = timedelta(days=365)


def _days(span: timedelta) -> int:
    return math.ceil(span / DAY - 1e-9)  # whole days started; a few seconds' slack is not a day


def days_used(user, now: datetime | None = None) -> int:
    """Vacation days taken in the 365 days up to ``now``, or booked after it.

    A vacation of N days started at ``now`` with N <= the days left keeps every 365-day span
    within the allowance: any span that ends after ``now`` starts after ``now`` - 365 days."""
    now = now or timezone.now()
    start = now - YEAR
    used = timedelta()
    for v in Vacation.objects.filter(user=user, ends_at__gt=start):
        used += v.ends_at - max(v.starts_at, start)
    return _days(used)


def days_left(user, now: datetime | None = None) -> int:
    return max(settings.VACATION_DAYS_PER_YEAR - days_used(user, now), 0)


def vacation_start(*, user, days: int, now: datetime | None = None) -> Vacation:
    """Go on vacation from now for ``days`` days (from the allowance)."""
    now = now or timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.on_vacation(now):
            raise VacationError(
                gettext("you are on vacation already: come back first to change it")
            )
        left = days_left(user, now)
        if not isinstance(days, int) or days < 1:
            raise VacationError(gettext("a vacation lasts at least one day"))
        if days > left:
            raise VacationError(
                ngettext(
                    "you have %(left)d vacation day left this year",
                    "you have %(left)d vacation days left this year",
                    left,
                )
                % {"left": left}
            )
        vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=now + days * DAY)
        User.objects.filter(pk=user.pk).update(vacation_until=vacation.ends_at)
    return vacation


def vacation_end(*, user, now: datetime | None = None) -> None:
    """Come back early: the clocks run again from now, the unused whole days are given back."""
    now = now or timezone.now()
    with transaction.atomic():
        Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).update(ends_at=now)
        # The latest vacation now ends here: kept, so the clocks know when it ended (``paused``).
        User.objects.filter(pk=user.pk, vacation_until__gt=now).update(vacation_until=now)


#: ``paused``'s ``last_end`` when the caller has not read the player's ``vacation_until``.
UNKNOWN = object()


def paused(user_id: int | None, since: datetime, until: datetime, last_end=UNKNOWN) -> timedelta:
    """How much of [since, until] the player spent on vacation: their clocks stood still then.

    ``last_end``: the player's ``User.vacation_until`` (the end of their latest vacation, None if
    they never went) when the caller has it: a span that began after it holds no vacation, and
    the Vacation rows are not read (a game page's clock, every first view)."""
    if user_id is None or until <= since:
        return timedelta()
    if last_end is not UNKNOWN and (last_end is None or last_end <= since):
        return timedelta()
    total = timedelta()
    for v in Vacation.objects.filter(user_id=user_id, ends_at__gt=since, starts_at__lt=until):
        total += min(v.ends_at, until) - max(v.starts_at, since)
    return total
