"""The staff's view of games, chat and reports, and the moderation actions.

Nothing here saves a model directly (STYLE.md habit 4): the admin pages are read-only and every
change is an admin action that calls a service in ``games.services``, which writes one
ModerationLog row (who, what, why) per object. Every moderation action needs a reason, typed in
the field next to the action selector.

The seed and the engine state are secret while a game runs (R9.3): the Game admin shows them only
once the game is over (R9.4), and never lists them.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import Case, Value, When
from django.urls import reverse
from django.utils.html import format_html

from accounts.admin import BlokusUserAdmin
from accounts.models import AccountDeletion
from games import services
from games.models import (
    Action,
    ChatMessage,
    Entry,
    Game,
    ModerationLog,
    Report,
    Seat,
    Seek,
    SeekTable,
    Tournament,
    TournamentTable,
)
from games.services import GameError, accounts_deletion

REASON_MAX = 500  # ModerationLog.reason


class ReasonActionForm(ActionForm):
    # Required on the page (the browser asks for it) and by every action (action_reason), but
    # not by the form itself: a form error would only read "No action selected.", while the
    # action refuses with a message that says what is missing.
    reason = forms.CharField(
        label="Reason (logged):",
        required=False,
        widget=forms.TextInput(
            attrs={
                "size": 40,
                "maxlength": REASON_MAX,
                "required": True,
                "placeholder": "why (required)",
            }
        ),
    )


class SeatActionForm(ReasonActionForm):
    level = forms.ChoiceField(
        label="Computer level:",
        choices=Seat.Level.choices,
        initial=Seat.Level.CASUAL,
        required=False,  # a missing level is Casual, not "No action selected."
    )


def action_reason(modeladmin, request) -> str | None:
    """The reason typed next to the action selector, or None after telling the user why not.

    Read from the POST rather than the action form, so that the actions refuse cleanly whatever
    form an admin uses (accounts' User admin borrows ``deactivate_users``).
    """
    reason = request.POST.get("reason", "").strip()
    if not reason:
        modeladmin.message_user(
            request,
            "Nothing was changed: every moderation action needs a reason (type it next to the "
            "action).",
            messages.ERROR,
        )
        return None
    if len(reason) > REASON_MAX:
        modeladmin.message_user(
            request,
            f"Nothing was changed: the reason has {len(reason)} characters, at most "
            f"{REASON_MAX} are kept.",
            messages.ERROR,
        )
        return None
    return reason


def _each(modeladmin, request, items, act, what: str) -> None:
    """An action's loop: ``act(item, reason)`` for each item (refusals listed, not raised),
    then the report. Nothing without a reason."""
    reason = action_reason(modeladmin, request)
    if reason is None:
        return
    done, refused = 0, []
    for item in items:
        try:
            act(item, reason)
        except GameError as exc:
            refused.append(f"{item}: {exc}")
        else:
            done += 1
    _report(modeladmin, request, done, what, refused)


def _report(modeladmin, request, done: int, what: str, refused: list[str]) -> None:
    if done:
        modeladmin.message_user(request, f"{what}: {done}.", messages.SUCCESS)
    for line in refused:
        modeladmin.message_user(request, f"Not done: {line}.", messages.WARNING)


class ModerationAdmin(admin.ModelAdmin):
    """Read-only pages whose only way to change anything is a moderation action."""

    action_form = ReasonActionForm

    def has_moderate_permission(self, request) -> bool:
        # Acting needs the model's change permission, which the read-only pages never use.
        opts = self.opts
        return request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


# -- users (accounts' User admin adds this to its actions) ---------------------------------------


@admin.action(description="Deactivate the selected users", permissions=["change"])
def deactivate_users(modeladmin, request, queryset):
    """For accounts' User admin: ``actions = [deactivate_users]``, ``action_form =
    ReasonActionForm``. Deactivated users can no longer log in; their games and seats stay."""
    reason = action_reason(modeladmin, request)
    if reason is None:
        return
    done, refused = 0, []
    for user in queryset:
        try:
            services.user_deactivate(user=user, staff=request.user, reason=reason)
        except GameError as exc:
            refused.append(str(exc))
        else:
            done += 1
    _report(modeladmin, request, done, "Users deactivated", refused)


# -- games -----------------------------------------------------------------------------------


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("index", "kind", "user", "ai_level", "ai_takeover", "timeouts_in_row", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ActionInline(admin.TabularInline):
    """The record, append-only: shown, never added to, changed or deleted."""

    model = Action
    fields = ("ply", "seat", "user", "by_ai", "payload", "events", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("ply",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ModerationAdmin):
    list_display = (
        "public_id",
        "mode",
        "players",
        "player_names",
        "status",
        "visibility",
        "created_at",
        "ply",
    )
    list_filter = ("status", "mode", "players", "visibility", "created_at")
    # An id is searched whole: a part of a random id can spell a name (the list searched "bob"
    # and found a game whose id held "Bob").
    search_fields = ("=public_id", "seats__user__username", "created_by__username")
    date_hierarchy = "created_at"
    inlines = (SeatInline, ActionInline)
    actions = ("abort_games",)
    # The seed, the state and the invite token are deliberately absent: see get_fieldsets.
    fieldsets = (
        (None, {"fields": ("public_id", "status", "abort_reason", "created_by")}),
        (
            "Settings",
            {
                "fields": (
                    "mode",
                    "players",
                    "scoring",
                    "shared_color",
                    "deck_recipe",
                    "move_seconds",
                    "visibility",
                    "seating",
                )
            },
        ),
        (
            "Progress",
            {
                "fields": (
                    "ply",
                    "to_move_seat",
                    "created_at",
                    "started_at",
                    "turn_started_at",
                    "finished_at",
                )
            },
        ),
    )

    def get_queryset(self, request):
        # The list never loads the secret columns (nor the big state) in the first place.
        return super().get_queryset(request).defer("seed", "state").prefetch_related("seats__user")

    def get_fieldsets(self, request, obj=None):
        if obj is not None and obj.is_over:  # R9.4: after the end everything may be shown
            return (*self.fieldsets, ("After the end (R9.4)", {"fields": ("seed", "state")}))
        return self.fieldsets

    def get_readonly_fields(self, request, obj=None):
        return [f for _name, opts in self.get_fieldsets(request, obj) for f in opts["fields"]]

    @admin.display(description="players (seats)")
    def player_names(self, game: Game) -> str:
        return ", ".join(seat.label for seat in game.seats.all())

    @admin.action(description="Abort the selected games", permissions=["moderate"])
    def abort_games(self, request, queryset):
        reason = action_reason(self, request)
        if reason is None:
            return
        done, refused = 0, []
        for game in queryset:
            try:
                services.game_abort(game=game, staff=request.user, reason=reason)
            except GameError as exc:
                refused.append(f"{game.public_id}: {exc}")
            else:
                done += 1
        _report(self, request, done, "Games aborted", refused)


@admin.register(Seat)
class SeatAdmin(ModerationAdmin):
    action_form = SeatActionForm
    list_display = ("game_link", "index", "kind", "user", "ai_level", "ai_takeover", "game_status")
    list_filter = ("kind", "ai_takeover", "game__status")
    search_fields = ("game__public_id", "user__username")
    list_select_related = ("game", "user")
    fields = (
        "game",
        "index",
        "kind",
        "user",
        "ai_level",
        "ai_takeover",
        "timeouts_in_row",
        "joined_at",
    )
    readonly_fields = fields
    actions = ("hand_to_ai",)

    @admin.display(description="game", ordering="game__created_at")
    def game_link(self, seat: Seat):
        url = reverse("admin:games_game_change", args=[seat.game_id])
        return format_html('<a href="{}">{}</a>', url, seat.game.public_id)

    @admin.display(description="game status", ordering="game__status")
    def game_status(self, seat: Seat) -> str:
        return seat.game.get_status_display()

    @admin.action(description="Hand the selected seats to the computer", permissions=["moderate"])
    def hand_to_ai(self, request, queryset):
        reason = action_reason(self, request)
        if reason is None:
            return
        level = request.POST.get("level") or Seat.Level.CASUAL
        if level not in Seat.Level.values:
            self.message_user(request, f"Nothing was changed: no level {level!r}.", messages.ERROR)
            return
        done, refused = 0, []
        for seat in queryset.select_related("game", "user"):
            where = f"{seat.game.public_id} seat {seat.index + 1}"
            try:  # the service checks the seat (a player's, a game not over, not the computer's)
                services.seat_hand_to_ai(seat=seat, staff=request.user, reason=reason, level=level)
            except GameError as exc:
                refused.append(f"{where}: {exc}")
            else:
                done += 1
        _report(self, request, done, "Seats handed to the computer", refused)


# -- chat, reports, the log -----------------------------------------------------------------


@admin.register(ChatMessage)
class ChatMessageAdmin(ModerationAdmin):
    list_display = ("created_at", "game_link", "user", "text", "hidden")
    list_filter = ("hidden", "created_at")
    search_fields = ("text", "user__username", "game__public_id")
    list_select_related = ("game", "user")
    fields = ("game", "user", "text", "created_at", "hidden")
    readonly_fields = fields
    actions = ("hide_messages",)

    @admin.display(description="game", ordering="game__public_id")
    def game_link(self, message: ChatMessage):
        url = reverse("admin:games_game_change", args=[message.game_id])
        return format_html('<a href="{}">{}</a>', url, message.game.public_id)

    @admin.action(description="Hide the selected chat messages", permissions=["moderate"])
    def hide_messages(self, request, queryset):
        reason = action_reason(self, request)
        if reason is None:
            return
        done, refused = 0, []
        for message in queryset.select_related("user"):
            try:
                services.chat_hide(message=message, staff=request.user, reason=reason)
            except GameError as exc:
                refused.append(str(exc))
            else:
                done += 1
        _report(self, request, done, "Messages hidden", refused)


@admin.register(Report)
class ReportAdmin(ModerationAdmin):
    # The queue: open reports first, newest first within each status.
    ordering = (
        Case(When(status=Report.Status.OPEN, then=Value(0)), default=Value(1)),
        "-created_at",
    )
    list_display = ("created_at", "status", "reporter", "reported_user", "game", "message_text")
    list_display_links = ("created_at",)
    list_filter = ("status", "created_at")
    search_fields = ("reporter__username", "reported_user__username", "reason", "game__public_id")
    list_select_related = ("reporter", "reported_user", "game", "message")
    fields = ("created_at", "status", "reporter", "reported_user", "game", "message", "reason")
    readonly_fields = fields
    actions = ("resolve_reports", "dismiss_reports")

    @admin.display(description="message")
    def message_text(self, report: Report):
        if report.message is None:
            return "—"
        url = reverse("admin:games_chatmessage_change", args=[report.message_id])
        hidden = " (hidden)" if report.message.hidden else ""
        return format_html('<a href="{}">{}</a>{}', url, report.message.text[:80], hidden)

    def _close(self, request, queryset, status: str, what: str) -> None:
        reason = action_reason(self, request)
        if reason is None:
            return
        done, refused = 0, []
        for report in queryset.select_related("reporter", "reported_user", "message"):
            try:
                services.report_resolve(
                    report=report, staff=request.user, status=status, reason=reason
                )
            except GameError as exc:
                refused.append(str(exc))
            else:
                done += 1
        _report(self, request, done, what, refused)

    @admin.action(description="Resolve the selected reports", permissions=["moderate"])
    def resolve_reports(self, request, queryset):
        self._close(request, queryset, Report.Status.RESOLVED, "Reports resolved")

    @admin.action(description="Dismiss the selected reports", permissions=["moderate"])
    def dismiss_reports(self, request, queryset):
        self._close(request, queryset, Report.Status.DISMISSED, "Reports dismissed")


@admin.register(ModerationLog)
class ModerationLogAdmin(ModerationAdmin):
    list_display = ("created_at", "staff", "action", "target", "reason")
    list_filter = ("action", "created_at")
    search_fields = ("staff__username", "action", "target", "reason")
    list_select_related = ("staff",)
    fields = list_display
    readonly_fields = fields
    actions = None


# The User admin (accounts) gets its moderation action here, so that accounts imports nothing
# from games: deactivation needs a logged reason like every other moderation action.
BlokusUserAdmin.actions = [deactivate_users]
BlokusUserAdmin.action_form = ReasonActionForm


@admin.register(Seek)
class SeekAdmin(ModerationAdmin):
    """ "Play now" requests: who waits for which game, at which table (read-only; a request is
    cancelled by its player, or stops with a deactivated account)."""

    list_display = ("user", "mode", "players", "move_seconds", "rated", "rating", "status", "table")
    list_filter = ("status", "mode", "rated")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "table")


@admin.register(SeekTable)
class SeekTableAdmin(ModerationAdmin):
    """The tables "Play now" forms, and the games they became."""

    list_display = ("pk", "mode", "players", "move_seconds", "rated", "status", "game", "level")
    list_filter = ("status", "mode")
    raw_id_fields = ("game",)


class PointsActionForm(ReasonActionForm):
    """The reason, and for "Adjust the result" the points: "alice=1, bob=0"."""

    points = forms.CharField(label="Points (alice=1, bob=0):", required=False)


@admin.register(Tournament)
class TournamentAdmin(ModerationAdmin):
    list_display = ("name", "format", "mode", "size", "status", "round", "rounds", "featured")
    list_filter = ("status", "format", "mode", "featured")
    search_fields = ("name", "created_by__username")
    actions = ("cancel_tournaments", "feature", "unfeature")
    exclude = ("schedule",)

    @admin.action(description="Cancel the selected tournaments", permissions=["moderate"])
    def cancel_tournaments(self, request, queryset):
        def cancel(tournament, reason):
            services.tournament_stop(tournament=tournament, staff=request.user, reason=reason)

        _each(self, request, queryset, cancel, "Tournaments cancelled")

    @admin.action(description="Feature the selected tournaments", permissions=["moderate"])
    def feature(self, request, queryset):
        queryset.update(featured=True)

    @admin.action(description="Stop featuring the selected tournaments", permissions=["moderate"])
    def unfeature(self, request, queryset):
        queryset.update(featured=False)


@admin.register(Entry)
class EntryAdmin(ModerationAdmin):
    list_display = ("user", "tournament", "joined_at", "joined_round", "withdrawn_at")
    list_filter = ("withdrawn_at",)
    search_fields = ("user__username", "tournament__name")
    raw_id_fields = ("user", "tournament")
    actions = ("remove_players",)

    @admin.action(
        description="Remove the selected players from their tournament", permissions=["moderate"]
    )
    def remove_players(self, request, queryset):
        def remove(entry, reason):
            services.tournament_player_remove(entry=entry, staff=request.user, reason=reason)

        _each(
            self, request, queryset.select_related("tournament", "user"), remove, "Players removed"
        )


@admin.register(TournamentTable)
class TournamentTableAdmin(ModerationAdmin):
    list_display = ("tournament", "round", "game", "bye_user", "adjusted")
    list_filter = ("round",)
    raw_id_fields = ("tournament", "game", "bye_user")
    action_form = PointsActionForm
    actions = ("adjust_result",)

    @admin.action(description="Adjust the result of the selected table", permissions=["moderate"])
    def adjust_result(self, request, queryset):
        def adjust(table, reason):
            points = _points(table, request.POST.get("points", ""))
            services.tournament_result_adjust(
                table=table, points=points, staff=request.user, reason=reason
            )

        _each(self, request, queryset.select_related("tournament"), adjust, "Results adjusted")


def _points(table, text: str) -> dict[int, float]:
    """ "alice=1, bob=0" -> {alice's id: 1.0, bob's id: 0.0}."""
    from django.contrib.auth import get_user_model

    out = {}
    for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        name, _sep, value = part.partition("=")
        user = get_user_model().objects.filter(username__iexact=name.strip()).first()
        try:
            number = float(value)
        except ValueError:
            raise GameError(f"{part!r}: write name=points") from None
        if user is None:
            raise GameError(f"no player called {name.strip()!r}")
        out[user.pk] = number
    return out


# -- account deletions -------------------------------------------------------------------------


def _deletion_action(service, name: str, done_label: str):
    def action(modeladmin, request, queryset):
        reason = action_reason(modeladmin, request)
        if reason is None:
            return
        done, refused = 0, []
        for deletion in queryset:
            try:
                service(deletion=deletion, staff=request.user, reason=reason)
            except GameError as exc:
                refused.append(f"{deletion}: {exc}")
            else:
                done += 1
        _report(modeladmin, request, done, done_label, refused)

    action.__name__ = name
    return action


hold_deletions = admin.action(description="Hold the selected deletions", permissions=["moderate"])(
    _deletion_action(accounts_deletion.deletion_hold, "hold_deletions", "Deletions held")
)
release_deletions = admin.action(
    description="Release the selected deletions", permissions=["moderate"]
)(_deletion_action(accounts_deletion.deletion_release, "release_deletions", "Deletions released"))
approve_deletions = admin.action(
    description="Approve the selected staff accounts' deletions", permissions=["moderate"]
)(_deletion_action(accounts_deletion.deletion_approve, "approve_deletions", "Deletions approved"))


@admin.register(AccountDeletion)
class AccountDeletionAdmin(ModerationAdmin):
    """Account deletions, pending first: a hold pauses one (a moderation case needs the
    account as it is), and a staff account's deletion waits for another staff member's
    approval. The deletion itself is the hourly task's (games.services.accounts_deletion)."""

    list_display = (
        "user",
        "status",
        "requested_at",
        "due_at",
        "running_games",
        "held_at",
        "hold_reason",
        "waits_for_approval",
    )
    list_filter = ("status",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    actions = [hold_deletions, release_deletions, approve_deletions]
    readonly_fields = (
        "user",
        "status",
        "running_games",
        "requested_at",
        "due_at",
        "held_at",
        "held_by",
        "hold_reason",
        "approved_by",
        "finished_at",
    )

    def get_queryset(self, request):
        pending_first = Case(When(status=AccountDeletion.Status.PENDING, then=Value(0)), default=1)
        return super().get_queryset(request).order_by(pending_first, "due_at")

    @admin.display(boolean=True, description="Waits for approval")
    def waits_for_approval(self, obj) -> bool:
        return obj.status == AccountDeletion.Status.PENDING and obj.needs_approval
