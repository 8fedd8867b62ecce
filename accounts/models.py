"""The custom user, in place from the first migration so that it never has to be swapped later."""

from __future__ import annotations

import functools
import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models


@functools.cache
def time_zone_names() -> frozenset[str]:
    # Read from the system's tz database once: available_timezones() walks the filesystem.
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    if value not in time_zone_names():
        raise ValidationError(
            "%(value)s is not a time zone name: choose one such as Europe/Paris or UTC.",
            code="invalid_time_zone",
            params={"value": value},
        )


class User(AbstractUser):
    class EmailTurns(models.TextChoices):
        EVERY = "every", "An email every time it is my turn"
        REMINDERS = "reminders", "Only reminders, when I have not moved for a while"
        NEVER = "never", "Never"

    REMINDER_HOURS = [
        (1, "1 hour"),
        (3, "3 hours"),
        (6, "6 hours"),
        (12, "12 hours"),
        (24, "24 hours"),
    ]

    # Shown to other players; the username is the fallback when it is blank.
    display_name = models.CharField(max_length=150, blank=True)
    # An IANA zone name ("Europe/Paris"), for showing turn deadlines and reminders in local time.
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    # Notification preferences, read by the turn emails and the reminder task.
    email_turns = models.CharField(
        "turn emails",
        max_length=10,
        choices=EmailTurns.choices,
        default=EmailTurns.EVERY,
    )
    reminder_hours = models.PositiveSmallIntegerField(
        "remind me after",
        choices=REMINDER_HOURS,
        default=12,
        help_text="How long your turn may wait before a reminder email is sent.",
    )

    def __str__(self) -> str:
        return self.display_name or self.username
