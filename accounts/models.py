"""The custom user, in place from the first migration so that it never has to be swapped later."""

from __future__ import annotations

import functools
import re
import secrets
import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.exceptions import ValidationError
from django.db import connection, models
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from accounts.names import name_key, visible_text
from config.rows import convert, converters


@functools.cache
def time_zone_names() -> frozenset[str]:
    # Read from the system's tz database once: available_timezones() walks the filesystem.
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    if value not in time_zone_names():
        raise ValidationError(
            gettext("%(value)s is not a time zone name: choose one such as Europe/Paris or UTC."),
            code="invalid_time_zone",
            params={"value": value},
        )


def _hours_now(hours: int) -> str:
    return ngettext("%(hours)d hour", "%(hours)d hours", hours) % {"hours": hours}


# "3 hours" in the language of the page that shows it: a lazy text, as the model's choices are.
_hours = lazy(_hours_now, str)


class UserManager(DjangoUserManager):
    """Django's, with one read in SQL written once: ``get(pk=...)``, which every
    request of a signed-in player makes (``ModelBackend.get_user``, from the session). Through
    the ORM it cost 0.38 ms of CPU, most of it building the query; here 0.1 ms. It returns
    what the ORM's ``get`` returns and raises what it raises (DoesNotExist; ValueError for a
    key that is not a number); any other ``get`` is the ORM's."""

    def get(self, *args, **kwargs):
        if args or list(kwargs) != ["pk"] or self._db is not None or self._hints:
            return super().get(*args, **kwargs)
        model = self.model
        pk = model._meta.pk.get_prep_value(kwargs["pk"])
        sql, names, found = _user_sql(model)
        with connection.cursor() as cursor:
            cursor.execute(sql, [pk])
            row = cursor.fetchone()
        if row is None:
            raise model.DoesNotExist(f"{model._meta.object_name} matching query does not exist.")
        return model.from_db(connection.alias, names, convert(list(row), found))


@functools.cache
def _user_sql(model) -> tuple[str, list[str], list]:
    fields = list(model._meta.concrete_fields)
    qn = connection.ops.quote_name
    cols = ", ".join(qn(f.column) for f in fields)
    sql = f"SELECT {cols} FROM {qn(model._meta.db_table)} WHERE {qn(model._meta.pk.column)} = %s"
    return sql, [f.attname for f in fields], converters(fields)


def deleted_name(number: int) -> str:
    """The name a deleted account's seats show, in the reader's language."""
    return gettext("deleted player %(number)s") % {"number": number}


def deleted_username(number: int) -> str:
    return f"deleted-{number}"


# The names deletion gives are nobody else's: a live player may not take "deleted-7",
# "Deleted player 7" or a name that reads the same (matched on name_key, whose skeleton writes
# the digits 0 and 1 as the letters they look like).
RESERVED_KEY = re.compile(r"deleted[\s_.-]*(player)?[\s_.-]*[oOl\d]+")


class User(AbstractUser):
    objects = UserManager()

    class EmailTurns(models.TextChoices):
        EVERY = "every", gettext_lazy("An email every time it is my turn")
        REMINDERS = "reminders", gettext_lazy("Only reminders, when I have not moved for a while")
        DIGEST = "digest", gettext_lazy("One email a day listing the games where it is my turn")
        NEVER = "never", pgettext_lazy("turn emails", "Never")

    REMINDER_HOURS = [(h, _hours(h)) for h in (1, 3, 6, 12, 24)]

    # Shown to other players; the username is the fallback when it is blank. Never the name (by
    # accounts.names.name_key) of another player: no impersonation.
    display_name = models.CharField(max_length=150, blank=True)
    # name_key(username) and name_key(display_name), kept by save(): what the uniqueness check
    # compares, with an index each.
    username_key = models.CharField(max_length=255, blank=True, db_index=True, editable=False)
    display_key = models.CharField(max_length=255, blank=True, db_index=True, editable=False)
    # One of settings.LANGUAGES for the pages and the emails; blank: the pages follow the browser
    # (or the footer's switcher) and the emails are in English.
    language = models.CharField(
        gettext_lazy("language"),
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=gettext_lazy("The language of the pages and of your emails."),
    )
    # An IANA zone name ("Europe/Paris"), for showing turn deadlines and reminders in local time.
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    confirm_moves = models.BooleanField(
        gettext_lazy("confirm moves"),
        default=True,
        help_text=gettext_lazy(
            "A click or tap on the board puts your piece down; it is sent only when you "
            "press Confirm (or Enter again). Undo picks it up."
        ),
    )
    # Notification preferences, read by the turn emails and the reminder task.
    email_turns = models.CharField(
        gettext_lazy("turn emails"),
        max_length=10,
        choices=EmailTurns.choices,
        default=EmailTurns.EVERY,
    )
    # A "your turn" email is not sent to a player at the board (a visible page with recent
    # input, games.live.presence) unless they ask for it here.
    email_when_open = models.BooleanField(
        gettext_lazy("email me even when a page is open"),
        default=False,
        help_text=gettext_lazy(
            "Otherwise no turn email is sent while you are looking at the site: only when you "
            "have not been at the board since your turn began."
        ),
    )
    reminder_hours = models.PositiveSmallIntegerField(
        gettext_lazy("remind me after"),
        choices=REMINDER_HOURS,
        default=12,
        help_text=gettext_lazy("How long your turn may wait before a reminder email is sent."),
    )
    digest_hour = models.PositiveSmallIntegerField(
        gettext_lazy("daily email at"),
        choices=[(h, f"{h:02d}:00") for h in range(24)],
        default=8,
        help_text=gettext_lazy("With one email a day: the hour it is sent, in your time zone."),
    )

    # The end of the player's latest vacation (accounts.vacations): in the future while they are
    # away, the moment they came back once it is over, null if they never went. Read wherever a
    # seat is shown (``on_vacation``) and by every move clock (a turn that began after it has no
    # vacation to subtract: no query), so it lives on the row; the Vacation rows keep the history
    # that the yearly allowance is counted from.
    vacation_until = models.DateTimeField(null=True, blank=True)

    # Closed by its owner (Settings > Account): inactive, so the profile is hidden and no notice
    # goes out, until the owner signs in again (accounts.adapter reopens it). A staff member's
    # deactivation leaves this empty, and that account stays shut.
    closed_at = models.DateTimeField(null=True, blank=True)
    # Deleted (games.services.accounts_deletion): nothing personal is left on the row; the seats
    # of its games read "deleted player N".
    deleted_at = models.DateTimeField(null=True, blank=True)

    def email_language(self) -> str:
        """The language of this player's emails: their setting, else the site's default."""
        return self.language or settings.LANGUAGE_CODE

    def __str__(self) -> str:
        if self.deleted_at is not None:
            return deleted_name(self.pk)
        return self.display_name or self.username

    def save(self, *args, **kwargs):
        self.display_name = visible_text(self.display_name)
        self.username_key = name_key(self.username)
        self.display_key = name_key(self.display_name) if self.display_name else ""
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "username_key", "display_key"}
        super().save(*args, **kwargs)

    def name_taken(self, name: str) -> bool:
        """Whether ``name`` reads as another player's username or display name."""
        key = name_key(name)
        if key and RESERVED_KEY.fullmatch(key):
            return True  # "deleted player 7" and "deleted-7" are the names deletion gives
        others = User.objects.exclude(pk=self.pk) if self.pk else User.objects.all()
        return (
            bool(key)
            and others.filter(models.Q(username_key=key) | models.Q(display_key=key)).exists()
        )

    def on_vacation(self, now=None) -> bool:
        return self.vacation_until is not None and self.vacation_until > (now or timezone.now())


class Block(models.Model):
    """``blocker`` does not want to meet ``blocked``: no invitations from them, no seat in a game
    where the blocker sits, none of their chat lines shown to the blocker. The blocked player is
    not told; they learn only that the invitation or seat is not available."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_received")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


def blocked_ids(user) -> set[int]:
    """The ids of the players ``user`` has blocked (an empty set for a visitor)."""
    if user is None or not user.is_authenticated:
        return set()
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def blocks_between(user, others) -> bool:
    """Whether any of ``others`` (users or ids) has blocked ``user``."""
    ids = [getattr(o, "pk", o) for o in others if o is not None]
    return Block.objects.filter(blocker_id__in=ids, blocked=user).exists()


class Vacation(models.Model):
    """A span during which the player's move clocks stand still in every game (accounts.vacations).
    ``ends_at`` is moved to the moment of return when a vacation ends early."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacations")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()

    class Meta:
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"], name="vacation_user_end_idx")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gte=models.F("starts_at")), name="vacation_ends_after"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} away {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"


def new_public_id() -> str:
    # 24 URL-safe characters, 144 random bits: an export's address that cannot be guessed (the
    # download still checks that the reader is its owner).
    return secrets.token_urlsafe(18)


class DataExport(models.Model):
    """A player's "Download my data": a zip built by a Celery task (games.jobs.exports), kept
    for ``EXPORT_DAYS`` and readable by its owner only. At most one is being built per player at
    a time (the constraint below: a second request while one builds is refused)."""

    class Status(models.TextChoices):
        BUILDING = "building", gettext_lazy("Being prepared")
        READY = "ready", gettext_lazy("Ready")
        FAILED = "failed", gettext_lazy("Failed")
        EXPIRED = "expired", gettext_lazy("Expired")

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="data_exports")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.BUILDING)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    # The zip's name in EXPORT_ROOT (blank until it is written), its size, the games it holds.
    file_name = models.CharField(max_length=100, blank=True)
    size = models.PositiveBigIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One export being built per player: the request's refusal, race-free.
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(status="building"), name="export_one_building"
            ),
        ]
        # The sweep: ready exports past their expiry, building ones past their lease.
        indexes = [models.Index(fields=["status", "expires_at"], name="export_sweep_idx")]

    def __str__(self) -> str:
        return f"data export {self.public_id} of {self.user}: {self.status}"


class AccountDeletion(models.Model):
    """A player's request to delete their account. It waits ``DELETION_GRACE_DAYS`` (a sign-in
    meanwhile cancels it: accounts.adapter), then the periodic task deletes what is personal
    (games.services.accounts_deletion). A moderator's hold pauses it; a staff account's deletion
    waits for another staff member's approval."""

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("Pending")
        CANCELLED = "cancelled", gettext_lazy("Cancelled")
        DONE = "done", gettext_lazy("Done")

    class RunningGames(models.TextChoices):
        RESIGN = "resign", gettext_lazy("Resign them")
        COMPUTER = "computer", gettext_lazy("Hand them to the computer")

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="deletions")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    running_games = models.CharField(
        max_length=10, choices=RunningGames.choices, default=RunningGames.RESIGN
    )
    requested_at = models.DateTimeField(default=timezone.now)
    due_at = models.DateTimeField()
    # A moderator's hold: the deletion waits while ``held_at`` is set (games.admin asks why and
    # games.services.accounts_deletion logs it).
    held_at = models.DateTimeField(null=True, blank=True)
    held_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    hold_reason = models.CharField(max_length=500, blank=True)
    # A staff account is deleted only once another staff member has approved it.
    approved_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["due_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="pending"),
                name="deletion_one_pending",
            ),
        ]
        # The periodic task: pending deletions whose grace period is over.
        indexes = [models.Index(fields=["status", "due_at"], name="deletion_due_idx")]

    def __str__(self) -> str:
        return f"deletion of {self.user} ({self.status}, due {self.due_at:%Y-%m-%d %H:%M})"

    @property
    def needs_approval(self) -> bool:
        """A staff account waits for another staff member's approval."""
        return self.user.is_staff and self.approved_by_id is None
