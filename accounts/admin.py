from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy

from accounts.models import Block, User


@admin.register(User)
class BlokusUserAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        (gettext_lazy("Profile"), {"fields": ("display_name", "language", "time_zone")}),
        (gettext_lazy("Notifications"), {"fields": ("email_turns", "reminder_hours")}),
    )
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
    search_fields = ("username", "display_name", "email")
    # Its "deactivate" action (with a logged reason) comes from games.admin: deactivation goes
    # through games.services.user_deactivate, which logs who, when and why.


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    """Moderators see who blocks whom (a pattern of blocks can point at a harasser)."""

    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")
    readonly_fields = ("blocker", "blocked", "created_at")
