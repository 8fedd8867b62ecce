"""The custom user, in place from the first migration so that it never has to be swapped later."""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    # Shown to other players; the username is the fallback when it is blank.
    display_name = models.CharField(max_length=150, blank=True)
    # An IANA zone name ("Europe/Paris"), for showing turn deadlines and reminders in local time.
    time_zone = models.CharField(max_length=64, default="UTC")

    def __str__(self) -> str:
        return self.display_name or self.username
