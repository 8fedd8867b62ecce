"""Games, their seats, and the append-only list of actions that makes each game's record.

Nothing here writes a game: every change goes through ``games.services`` (STYLE.md habit 4).
"""

from __future__ import annotations

import functools
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import engine
from games.translations import colour_name


@functools.cache
def seat_colours(players: int, shared_color: str | None) -> dict[int, tuple[str, ...]]:
    """Seat index → its own colours (R2.5), from the engine's classic layout."""
    layout = engine.new_game(mode="classic", players=players, shared_color=shared_color)
    out: dict[int, tuple[str, ...]] = {}
    for colour, seat in engine.table(layout, None)["colour_seats"].items():
        if seat is not None:
            out[seat] = (*out.get(seat, ()), colour)
    return out


# Bot accounts are the API's (api.models.BotAccount, a one-to-one with the user under this
# name). games reads them through the relation's name alone and never imports the API app
# (tests/code/test_import_graph.py): a bot plays only through the API, never from a page, and is
# kept out of rated tables with humans (services.seeks) and out of tournaments that do not
# allow bots (services.tournaments).
BOT_RELATION = "api_bot"


def is_bot(user) -> bool:
    """Whether ``user`` is a bot account (one query unless the relation was read already)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return getattr(user, BOT_RELATION, None) is not None


def bot_ids(user_ids) -> set[int]:
    """The bot accounts among ``user_ids`` (a list, or a query of ids), in one query."""
    found = get_user_model().objects.filter(pk__in=user_ids, **{f"{BOT_RELATION}__isnull": False})
    return set(found.values_list("pk", flat=True))


def known_bot(user) -> bool:
    """Whether ``user``'s bot relation was read with it (``select_related("user__api_bot")``)
    and names a bot: no query, for the seat labels of lists (False when it was not read)."""
    if user is None:
        return False
    cache = user._state.fields_cache
    return cache.get(BOT_RELATION) is not None


def new_public_id() -> str:
    # 12 URL-safe characters, 72 random bits: not guessable, short enough to read aloud.
    return secrets.token_urlsafe(9)


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


# The columns of a game that no list shows: the engine's state (kilobytes a game: the board,
# hands and piles) and the deck recipe. Lists read the rest.
UNLISTED = ("state", "deck_recipe")


class GameQuerySet(models.QuerySet):
    def listed(self):
        """The games without the columns no list shows."""
        return self.defer(*UNLISTED)

    def for_user(self, user):
        return self.filter(seats__user=user).distinct()

    def open_to_join(self):
        """Public games waiting for players with an open seat (the lobby's list)."""
        return self.filter(
            status=Game.Status.OPEN,
            visibility=Game.Visibility.PUBLIC,
            seats__kind=Seat.Kind.OPEN,
        ).distinct()


class SeatQuerySet(models.QuerySet):
    def unsettled(self):
        """Seats whose game has no result yet: open, in play or cancelled (a finished game's
        places are written in the transaction that finishes it). Spelled out in every query
        that reads a player's current games, so that PostgreSQL picks seat_unsettled_idx."""
        return self.filter(final_place__isnull=True)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Mode(models.TextChoices):
        CLASSIC = "classic", _("Classic Blokus")
        SHUFFLE = "shuffle", _("Blokus Shuffle: UNO Edition")

    class Scoring(models.TextChoices):
        BASIC = "basic", _("Basic (fewest squares left wins)")
        ADVANCED = "advanced", _("Advanced (bonus for placing everything)")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: anyone may watch")
        PRIVATE = "private", _("Private: players only")

    class Seating(models.TextChoices):
        CHOSEN = "chosen", _("As chosen (seat 1 plays blue and moves first)")
        RANDOM = "random", _("Drawn at random when the game starts")

    MOVE_TIMES = [
        (3600, _("1 hour")),
        (12 * 3600, _("12 hours")),
        (24 * 3600, _("1 day")),
        (3 * 24 * 3600, _("3 days")),
        (7 * 24 * 3600, _("7 days")),
    ]

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.SHUFFLE)
    players = models.PositiveSmallIntegerField(choices=[(2, "2"), (3, "3"), (4, "4")], default=2)
    scoring = models.CharField(max_length=10, choices=Scoring.choices, default=Scoring.BASIC)
    shared_color = models.CharField(max_length=10, blank=True)
    deck_recipe = models.JSONField(null=True, blank=True)
    move_seconds = models.PositiveIntegerField(choices=MOVE_TIMES, default=24 * 3600)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    seating = models.CharField(max_length=10, choices=Seating.choices, default=Seating.CHOSEN)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    # The shuffle seed (64 hex digits, games/engine/cards.py; older games: an integer, written in
    # decimal) and its salt are secret while the game runs (R9.3): never rendered, never
    # exported. The commitment to them is public (in the engine state and every seat's view).
    seed = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (None: classic)
    salt = models.CharField(max_length=32, blank=True)
    # The engine's State.to_json() after the last action; rebuilt from the actions if in doubt.
    state = models.JSONField(null=True, blank=True)
    ply = models.PositiveIntegerField(default=0)
    # The seat that decides now (null unless in play): "your turn" lists and the deadline scan.
    to_move_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    abort_reason = models.CharField(max_length=200, blank=True)
    # Rated games change their human players' ratings once, when they finish
    # (games.services.ratings).
    rated = models.BooleanField(default=True)
    # The finished game this one is the rematch of: one rematch per game, whoever asks first.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The lobby: open public games, newest first.
            models.Index(fields=["status", "visibility", "-created_at"], name="game_lobby_idx"),
            # The deadline scan (games.jobs.deadlines): active games whose turn started before a
            # cut-off (now − move_seconds for overdue turns, now − reminder_hours for reminders).
            models.Index(fields=["status", "turn_started_at"], name="game_turn_clock_idx"),
            # The games finished since a time: what a profile's counts add to the sums they
            # keep (selectors.profiles.player_stats).
            models.Index(
                fields=["finished_at"],
                condition=Q(status="finished"),
                name="game_finished_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_mode_display()} · {self.players} players · {self.public_id}"

    def engine_settings(self) -> dict:
        """The game's settings as ``engine.new_game`` takes them: the one place they are
        written out (the start, the replay's first position, the validation at creation)."""
        return {
            "mode": self.mode,
            "players": self.players,
            "scoring": self.scoring,
            "shared_color": self.shared_color or None,
            "deck_recipe": self.deck_recipe if self.mode == "shuffle" else None,
        }

    def current_state(self) -> engine.State:
        """The referee's state now, from the snapshot (the full state: hands, piles and seed
        included; a page or an export shows a seat's ``engine.view`` of it, never this)."""
        return engine.State.from_json(self.state)

    def initial_state(self) -> engine.State:
        """The position before the first action (the decks as the seed shuffled them)."""
        seed = self.seed
        if seed is not None and len(seed) != 64:  # an older game's integer seed, in decimal
            seed = int(seed)
        return engine.new_game(**self.engine_settings(), seed=seed, salt=self.salt or None)

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


# A day of the year as a date to read, in the order and words of the active language (each
# language's translation of this format: "j F" in Swedish, "j. E" in Finnish, "n月j日" in Japanese).
DAY_MONTH_FORMAT = ("date format: day and month", "F j")


class Seat(models.Model):
    class Kind(models.TextChoices):
        """The one seat vocabulary: what a seat is (stored here), what the new-game form offers
        and what ``services.SeatSpec`` asks for. At creation a HUMAN seat is the creator's own
        (everyone else is INVITED until they accept). ``label`` names a seat of this kind (the
        admin, the game page); ``offer`` is the new-game form's wording for choosing it."""

        HUMAN = "human", pgettext_lazy("seat", "Player")
        INVITED = "invited", _("Invited player")
        OPEN = "open", _("Open seat")  # anyone may take it (listed in the lobby if public)
        LINK = "link", _("Seat for the invite link")  # whoever opens the invite link may take it
        AI = "ai", pgettext_lazy("seat", "Computer")

        @property
        def offer(self) -> str:
            return {
                "human": _("Me"),
                "invited": _("Invite a player by username"),
                "open": _("Open seat (anyone may join)"),
                "link": _("Seat for whoever has the invite link"),
                "ai": pgettext_lazy("seat", "Computer"),
            }[self.value]

    class Level(models.TextChoices):
        # The AI's table of levels (games/ai/levels.py), in its order: tests/ai/test_level_table.py
        # checks that the two agree (the models do not import the AI package).
        BEGINNER = "beginner", pgettext_lazy("level", "Beginner")
        CASUAL = "casual", pgettext_lazy("level", "Casual")
        EXPERT = "expert", pgettext_lazy("level", "Expert")
        # Expert's search for 10 s a move (games.ai.MASTER_BUDGET), in a Celery worker only;
        # elsewhere (an eager task, a timed-out turn) a Master seat plays at Expert's budget.
        MASTER = "master", pgettext_lazy("level", "Master")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()  # engine seat number once the game has started
    kind = models.CharField(max_length=10, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        db_index=False,  # seat_history_idx (user, game) serves every look-up by user
    )
    ai_level = models.CharField(max_length=10, choices=Level.choices, blank=True)
    # A seat handed to the AI keeps its user (for history) and plays at this level from now on.
    ai_takeover = models.BooleanField(default=False)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    joined_at = models.DateTimeField(null=True, blank=True)
    # The seat's result, written once in the transaction that finishes the game (R8: place 1 is
    # a win, ties share a place; score as the game's scoring counts it), so that profiles and
    # lists never re-score a game.
    final_place = models.PositiveSmallIntegerField(null=True, blank=True)
    final_score = models.IntegerField(null=True, blank=True)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["index"]
        indexes = [
            # A player's history, newest game first, read a page at a time from a cursor (My
            # games' finished games, the profile's recent games): a backward range scan that
            # stops after a page, whatever the number of games.
            models.Index(fields=["user", "game"], name="seat_history_idx"),
            # A player's games without a result yet (open, in play, cancelled): the lobby's
            # "your turn", My games' first sections and the invitations, without reading the
            # finished games (SeatQuerySet.unsettled puts the condition in each query).
            models.Index(
                fields=["user", "game"],
                condition=Q(final_place__isnull=True),
                name="seat_unsettled_idx",
            ),
            # A player's results, for the first count of their profile's sums (read from the
            # index alone; later counts add the games finished since:
            # selectors.profiles.player_stats).
            models.Index(
                fields=["user"],
                include=["kind", "final_place", "final_score"],
                condition=Q(final_place__isnull=False),
                name="seat_results_idx",
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            # One seat per person per game.
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="seat_unique_user"
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def is_ai(self) -> bool:
        return self.kind == self.Kind.AI or self.ai_takeover

    @property
    def colours(self) -> list[str]:
        """This seat's own colours (R2.5); none yet while a randomly seated game is open (the
        seats are drawn at the start)."""
        game = self.game
        if game.seating == Game.Seating.RANDOM and game.status == Game.Status.OPEN:
            return []
        return list(seat_colours(game.players, game.shared_color or None).get(self.index, ()))

    @property
    def label(self) -> str:
        if self.kind == self.Kind.AI:
            # Named by colour: three computer seats must not all read "Computer (Casual)".
            level = self.get_ai_level_display()
            colours = " & ".join(colour_name(c).capitalize() for c in self.colours)
            if not colours:
                return gettext("Computer (%(level)s)") % {"level": level}
            return gettext("Computer - %(colours)s (%(level)s)") % {
                "colours": colours,
                "level": level,
            }
        if self.kind in (self.Kind.OPEN, self.Kind.LINK):  # nobody sits there yet
            return self.get_kind_display()
        name = str(self.user) if self.user else "?"
        if known_bot(self.user):  # read with the seat by the lists (lists.prefetch_seats)
            name = gettext("%(name)s (bot)") % {"name": name}
        if self.kind == self.Kind.INVITED:
            return gettext("%(name)s (invited)") % {"name": name}
        if self.user and self.user.on_vacation() and not self.ai_takeover and not self.game.is_over:
            # The day and month in the active language's order and words ("26 november",
            # "26. marraskuuta", "11月26日") and the reader's time zone (config.middleware).
            until = date_format(
                timezone.localtime(self.user.vacation_until), pgettext(*DAY_MONTH_FORMAT)
            )
            return gettext("%(name)s (on vacation until %(date)s)") % {"name": name, "date": until}
        if self.ai_takeover:
            return gettext("%(name)s (computer plays)") % {"name": name}
        return name


class LiveActions(models.Manager):
    """The actions of the game's record: those not taken back (games.services.takeback)."""

    def get_queryset(self):
        return super().get_queryset().filter(taken_back=False)


class Action(models.Model):
    """One decision of the game's record, in RECORD.md's action format. Append-only, except that
    an accepted take back marks the actions it undid ``taken_back`` (kept, never deleted: who
    played what and when stays on file). ``Action.objects`` and ``game.actions`` are the record,
    without them; ``Action.every`` includes them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    ply = models.PositiveIntegerField()  # 1 for the first action
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    by_ai = models.BooleanField(default=False)
    payload = models.JSONField()
    # The engine's public events of this action (placements, passes, skips): the replay's captions.
    events = models.JSONField(default=list)
    key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Undone by an accepted take back: no longer part of the record (its ply is played again).
    taken_back = models.BooleanField(default=False)
    # Sent while another seat decided (a resignation out of turn): that seat's turn goes on, so
    # this action does not start it (games.selectors.turns.turn_start_ply).
    out_of_turn = models.BooleanField(default=False)

    every = models.Manager()
    objects = LiveActions()

    class Meta:
        ordering = ["game", "ply"]
        default_manager_name = "objects"
        base_manager_name = "every"
        constraints = [
            # One action per ply in the record; a taken back action's ply is played again.
            models.UniqueConstraint(
                fields=["game", "ply"], condition=Q(taken_back=False), name="action_unique_ply"
            ),
            # An idempotency key answers once per game: a retried request finds its action. A
            # taken back action keeps its key spent: its request sent again is refused as stale
            # instead of playing the move the take back undid (games.services.takeback).
            models.UniqueConstraint(
                fields=["game", "key"], condition=~Q(key=""), name="action_unique_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game.public_id} #{self.ply}: {self.payload}"


class TakeBack(models.Model):
    """A player's request to take back their last move in an unrated game
    (games.services.takeback): the other players accept or decline; the next move lapses it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="takebacks")
    seat = models.PositiveSmallIntegerField()  # who asks
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    from_ply = models.PositiveIntegerField()  # the first action it undoes
    at_ply = models.PositiveIntegerField()  # the game's ply when asked: a later move lapses it
    answers = models.JSONField(default=dict)  # seat index (str) -> accepted (bool)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One open question per game and ply; the page reads it by (game, status).
            models.UniqueConstraint(
                fields=["game", "at_ply"],
                condition=Q(status="pending"),
                name="takeback_one_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game.public_id} take back from {self.from_ply}: {self.status}"


class ChatMessage(models.Model):
    MAX_LENGTH = 500

    class Room(models.TextChoices):
        PLAYERS = "players", _("Players")
        # Spectators' lines reach the players only once the game is over, so that nobody can
        # coach a player during a game (lichess's rule); spectators read both rooms.
        SPECTATORS = "spectators", _("Spectators")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False)
    room = models.CharField(max_length=10, choices=Room.choices, default=Room.PLAYERS)

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["game", "created_at"], name="chat_game_idx")]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class Report(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_received",
        null=True,
        blank=True,
    )
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL)
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.SET_NULL)
    reason = models.CharField(max_length=500)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["status", "-created_at"]

    def __str__(self) -> str:
        return f"Report by {self.reporter} on {self.reported_user or self.message}"


class ModerationLog(models.Model):
    """Who did what, when and why: every moderation action writes one row."""

    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=40)
    target = models.CharField(max_length=200)
    reason = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.staff} {self.action} {self.target}"


class TurnNotice(models.Model):
    """One email about one game event to one seat's player: claimed before sending, so that a
    task delivered twice, or retried after the mail went out, never sends it again
    (games.jobs.emails). The kinds are games.notices' entries that come by email.

    ``ply`` is the notice's number (games.notices): the ply at which the turn began (the seat
    took control); for "timeout" and "takeover" notices, the ply at which the timed-out turn
    began; for "resigned", the resignation's ply; for "takeback", the request's id.
    """

    class Kind(models.TextChoices):
        TURN = "turn", _("Your turn")
        REMINDER = "reminder", _("Reminder")
        TIMEOUT = "timeout", _("The computer played your turn")
        TAKEOVER = "takeover", _("The computer took a seat")
        INVITE = "invite", _("An invitation to a game")
        RESIGNED = "resigned", _("An opponent resigned")
        TAKEBACK = "takeback", _("A take back was answered")
        MATCHED = "matched", _("A game you asked for has started")
        ROUND = "round", _("A game of your tournament has started")

    class Status(models.TextChoices):
        PENDING = "pending", "Not sent (yet)"  # created, or released after a failed attempt
        SENDING = "sending", "Being sent"  # claimed by one task run
        SENT = "sent", "Sent"
        # A device notice the address would not take (games.jobs.push): a local address, a
        # redirect, a 4xx; the Notifications page tells the player.
        REFUSED = "refused", "Refused by the address"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notices")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="notices")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One email per seat, turn and kind; the reminder scan's "not yet reminded" subquery
            # looks rows up by these three columns, which this constraint's index serves.
            models.UniqueConstraint(fields=["seat", "ply", "kind"], name="turnnotice_once"),
        ]

    def __str__(self) -> str:
        return f"{self.game.public_id} seat {self.seat.index + 1} ply {self.ply}: {self.kind}"


def shown_rating(mu: float, sigma: float) -> int:
    """The rating players see: ``1000 + 40 * (mu - 3 sigma)`` (games.services.ratings)."""
    return round(1000 + 40 * (mu - 3 * sigma))


class Rating(models.Model):
    """A player's current rating in one mode (openskill's Plackett-Luce ``mu`` and ``sigma``;
    games.services.ratings turns them into the number players see)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    mode = models.CharField(max_length=10, choices=Game.Mode.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    # mu - 3 sigma, kept in a column so that the leaderboard orders by an index.
    ordinal = models.FloatField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "mode"], name="rating_unique_user_mode"),
        ]
        # The leaderboard: one mode, best first.
        indexes = [models.Index(fields=["mode", "-ordinal"], name="rating_board_idx")]

    def __str__(self) -> str:
        return f"{self.user} {self.mode} {self.mu:.1f}/{self.sigma:.1f}"


class RatingChange(models.Model):
    """One rated game's effect on one player's rating: the profile's history chart."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    mode = models.CharField(max_length=10, choices=Game.Mode.choices)
    before = models.IntegerField()  # the displayed rating before and after the game
    after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            # A game is rated once: the unique pair makes a second rating of it an error.
            models.UniqueConstraint(fields=["game", "user"], name="ratingchange_once"),
        ]
        indexes = [models.Index(fields=["user", "mode", "created_at"], name="rating_history_idx")]

    def __str__(self) -> str:
        return f"{self.user} {self.mode} {self.before} -> {self.after} ({self.game.public_id})"


class DigestNotice(models.Model):
    """One daily digest email to one player for one local date (games.jobs.digests): claimed before
    sending, like TurnNotice, so that a scan or task that runs twice never sends two."""

    class Status(models.TextChoices):
        PENDING = "pending", "Not sent (yet)"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        EMPTY = "empty", "Nothing to send"  # no game waited for the player that day

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()  # the player's local date
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="digest_once")]

    def __str__(self) -> str:
        return f"digest for {self.user} on {self.day}: {self.status}"


class PushSubscription(models.Model):
    """One device (browser) that asked for Web Push notices (games.jobs.push): the endpoint of
    its push service and the keys its notices are encrypted for. Removed when the push service
    says the device has gone (404/410) or the player turns it off."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)  # the device's public key (base64url)
    auth = models.CharField(max_length=100)  # its authentication secret (base64url)
    created_at = models.DateTimeField(auto_now_add=True)
    # The player's switch for this device on the Notifications page: a device switched off is
    # kept (switched on again, it needs no new permission from the browser) but told nothing.
    enabled = models.BooleanField(default=True)
    # The browser and system it was turned on from ("Firefox on Android"), read from the
    # User-Agent when it subscribed, so that the page can tell a player's devices apart.
    label = models.CharField(max_length=80, blank=True, default="")

    def __str__(self) -> str:
        return f"{self.user} device {self.pk}"


class NoticeSettings(models.Model):
    """The player's boxes on the Notifications page: which notices they want on their devices
    and chat webhook (games.jobs.push), each named by a kind of games.notices (``choice``). A
    player without a row wants them all. The boxes of kinds added since "game over" also stop
    the kind's email (``Notice.choice_stops_email``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_settings"
    )
    turn = models.BooleanField(_("When it is my turn"), default=True)
    invite = models.BooleanField(_("When I am invited to a game"), default=True)
    over = models.BooleanField(_("When a game of mine ends"), default=True)
    resigned = models.BooleanField(
        _("When an opponent resigns"),
        default=True,
        help_text=_("On your devices and by email."),
    )
    takeback = models.BooleanField(
        _("When the other players answer my take back request"),
        default=True,
        help_text=_("On your devices and by email."),
    )
    matched = models.BooleanField(
        _("When a game I asked for with Play now starts after a long wait"),
        default=True,
        help_text=_("On your devices and by email."),
    )
    round = models.BooleanField(
        _("When a game of a tournament I play in starts"),
        default=True,
        help_text=_("On your devices and by email."),
    )
    # Discord- or Slack-compatible incoming webhook (https), or blank.
    webhook_url = models.URLField(_("Chat webhook URL"), max_length=500, blank=True)

    def __str__(self) -> str:
        return f"notices of {self.user}"


class DeviceNotice(models.Model):
    """One push or webhook notice about one game event to one player, claimed before it is
    sent (like TurnNotice): a task delivered twice, or retried after it went out, sends nothing
    again."""

    class Channel(models.TextChoices):
        PUSH = "push", "Web Push"
        WEBHOOK = "webhook", "Webhook"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveIntegerField()
    kind = models.CharField(max_length=10)  # a kind of games.notices that comes to devices
    channel = models.CharField(max_length=10, choices=Channel.choices)
    status = models.CharField(
        max_length=10, choices=TurnNotice.Status.choices, default=TurnNotice.Status.PENDING
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Why a REFUSED notice was refused: a reason of config.outbound, or the HTTP status.
    detail = models.CharField(max_length=20, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "ply", "kind", "channel"], name="devicenotice_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.channel} {self.kind} to {self.user} ({self.game.public_id} ply {self.ply})"


class NoticeTest(models.Model):
    """A test notice a player sent from the Notifications page to one of their devices or to
    their chat webhook: it goes the way real notices go (games.jobs.push, on the notices'
    queue, through config/outbound.py), and its outcome is kept for the page to show. The rows
    of the last minute also count the player's tests against TEST_NOTICES_PER_MINUTE."""

    class Status(models.TextChoices):
        PENDING = "pending", "Not sent (yet)"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        REFUSED = "refused", "Refused by the address"  # a local address, a redirect, a 4xx
        FAILED = "failed", "Failed"  # a 5xx, a 429, the network, no answer in time
        GONE = "gone", "The device is gone"  # its push service no longer knows it

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=10, choices=DeviceNotice.Channel.choices)
    # The device tested (push); none once it has been turned off (the row still counts for the
    # limit, and a test that found the device gone records so).
    device = models.ForeignKey(
        PushSubscription, null=True, blank=True, on_delete=models.SET_NULL, related_name="tests"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    # Why it was refused or failed: a reason of config.outbound, or the HTTP status.
    detail = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # The player's tests of the last minute (the limit), and the latest per channel.
        indexes = [models.Index(fields=["user", "created_at"], name="noticetest_user_idx")]

    def __str__(self) -> str:
        return f"test {self.channel} of {self.user}: {self.status}"


class GameAnalysis(models.Model):
    """A finished game's post-game analysis: asked for once, computed once by the
    ``analysis`` queue's worker (games.jobs.tasks.analyse_game), shown to everyone who may see
    the game. Its decisions are ``DecisionAnalysis`` rows, one per action of the game."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    IN_FLIGHT = (Status.QUEUED, Status.RUNNING)

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    sims = models.PositiveIntegerField()  # simulations per search (ANALYSIS_SIMS when asked)
    total = models.PositiveIntegerField()  # the decisions to judge: the game's actions
    done = models.PositiveIntegerField(default=0)
    # A task run holds the analysis until then (renewed after each decision): a second delivery
    # of the task leaves it alone, and a killed worker's run is taken over once it lapses.
    lease_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # "at most one analysis in flight per user": the request's check.
            models.Index(fields=["requested_by", "status"], name="analysis_by_user_status"),
        ]

    def __str__(self) -> str:
        return f"{self.game.public_id} analysis: {self.status} {self.done}/{self.total}"


class DecisionAnalysis(models.Model):
    """One decision of a game judged by the analysis (games.ai.judge.DecisionResult)."""

    analysis = models.ForeignKey(GameAnalysis, on_delete=models.CASCADE, related_name="decisions")
    ply = models.PositiveIntegerField()  # the action's number (Action.ply)
    seat = models.PositiveSmallIntegerField()
    colour = models.CharField(max_length=10)
    step = models.CharField(max_length=12)
    played = models.JSONField()
    best = models.JSONField()
    before = models.FloatField()  # the player's estimate after the best decision found
    after = models.FloatField()  # the player's estimate after the decision played
    loss = models.FloatField()
    sims = models.PositiveIntegerField()
    judged = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["analysis", "ply"]
        constraints = [
            # No decision judged twice, whatever deliveries of the task run.
            models.UniqueConstraint(fields=["analysis", "ply"], name="decision_analysis_once"),
        ]

    def __str__(self) -> str:
        return f"{self.analysis.game.public_id} #{self.ply}: -{self.loss:.2f}"


class SeekTable(models.Model):
    """A table "Play now" is forming (games.services.seeks): the players who asked for the same
    game wait at it (their ``Seek`` rows) until it is full, or until the computer takes the empty
    seats; then it becomes a game. Nothing else seats a player here: it is not a Game until it
    starts, so that a forming table never shows in My games, the lobby's open games or a profile.
    """

    class Status(models.TextChoices):
        FORMING = "forming", _("Looking for players")
        STARTED = "started", _("Started")
        CANCELLED = "cancelled", _("Cancelled")

    mode = models.CharField(max_length=10, choices=Game.Mode.choices)
    players = models.PositiveSmallIntegerField(choices=[(2, "2"), (3, "3"), (4, "4")])
    move_seconds = models.PositiveIntegerField(choices=Game.MOVE_TIMES)
    rated = models.BooleanField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.FORMING)
    created_at = models.DateTimeField(default=timezone.now)
    # The game it became, and how many of its seats the computer took (at ``level``).
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="seek_table"
    )
    computer_seats = models.PositiveSmallIntegerField(default=0)
    level = models.CharField(max_length=10, choices=Seat.Level.choices, blank=True)

    class Meta:
        indexes = [
            # The tables still forming, by what they are for (the matcher's candidates).
            models.Index(
                fields=["mode", "move_seconds", "rated", "players"],
                condition=Q(status="forming"),
                name="seektable_forming_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.pk}: {self.mode} {self.players}p {self.status}"


class Seek(models.Model):
    """One player's "Play now" request: what game they asked for, the rating they were matched
    by, how long they are willing to wait for other players, and the table they wait at."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        STARTED = "started", _("Started")
        CANCELLED = "cancelled", _("Cancelled")

    ANY_PLAYERS = 0  # ``players`` when any table size will do

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    mode = models.CharField(max_length=10, choices=Game.Mode.choices)
    players = models.PositiveSmallIntegerField()  # 2, 3, 4, or ANY_PLAYERS
    move_seconds = models.PositiveIntegerField(choices=Game.MOVE_TIMES)
    rated = models.BooleanField()
    # Seconds after which the computer takes the empty seats of the table; None: never.
    fill_after = models.PositiveIntegerField(null=True, blank=True)
    rating = models.IntegerField()  # the mode's rating as shown, when the player asked
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    created_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    table = models.ForeignKey(
        SeekTable, null=True, blank=True, on_delete=models.CASCADE, related_name="seeks"
    )

    class Meta:
        constraints = [
            # One request at a time: a player never waits at two tables (nor asks twice).
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="waiting"), name="seek_one_waiting"
            ),
        ]
        indexes = [
            # A table's players, and the waiting requests (the sweep reads them all).
            models.Index(fields=["table", "status"], name="seek_table_idx"),
            # Cancels in the last hour (the limit against asking and cancelling in a loop).
            models.Index(fields=["user", "status", "ended_at"], name="seek_user_ended_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user} seeks {self.mode} {self.players or 'any'}p ({self.status})"


class Tournament(models.Model):
    """An asynchronous tournament (games.services.tournaments): players register until it
    starts, then play its rounds, each round's games created at once and the next round started
    when the last game of the round ends. Pairings and standings: games.pairing."""

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Open for registration")
        RUNNING = "running", _("In play")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("Name"), max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_tournaments"
    )
    featured = models.BooleanField(default=False)  # staff: listed first
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    mode = models.CharField(max_length=10, choices=Game.Mode.choices, default=Game.Mode.SHUFFLE)
    size = models.PositiveSmallIntegerField(choices=[(2, "2"), (3, "3"), (4, "4")], default=2)
    move_seconds = models.PositiveIntegerField(choices=Game.MOVE_TIMES, default=24 * 3600)
    rounds = models.PositiveSmallIntegerField(default=5)  # Swiss; round robin: its schedule's
    double = models.BooleanField(default=False)  # round robin of two: each pair meets twice
    rated = models.BooleanField(default=True)
    min_players = models.PositiveSmallIntegerField(default=4)
    max_players = models.PositiveSmallIntegerField(default=32)
    starts_at = models.DateTimeField()  # registration closes and round 1 begins
    # Swiss: players may still join before this round starts (0: not after the start).
    late_join_until = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    round = models.PositiveSmallIntegerField(default=0)  # the round in play (0: not started)
    round_started_at = models.DateTimeField(null=True, blank=True)
    # Round robin: every round's tables (user ids in seat order) and byes, fixed at the start.
    schedule = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.CharField(max_length=200, blank=True)
    reminded = models.BooleanField(default=False)  # the "starts soon" emails went out
    # Bot accounts (BOT_RELATION) may register only where the creator or staff allow them.
    allow_bots = models.BooleanField(_("Bot accounts may play"), default=False)

    class Meta:
        ordering = ["-featured", "starts_at"]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_status_idx")]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player registered in a tournament; ``withdrawn_at`` once they leave (their results
    stand, they are not paired again)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    joined_at = models.DateTimeField(default=timezone.now)
    joined_round = models.PositiveSmallIntegerField(default=1)  # the first round they may play
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    removed_reason = models.CharField(max_length=200, blank=True)  # staff removed them

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class TournamentTable(models.Model):
    """One table of one round of a tournament (its game), or a bye (``bye_user``, no game).
    ``adjusted``: points staff set instead of the game's ({user id: points}), with a reason in
    the moderation log."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="tournament_table"
    )
    bye_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    adjusted = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "round", "pk"]
        indexes = [models.Index(fields=["tournament", "round"], name="ttable_round_idx")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.round}"
