from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class BlokusUserAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Profile", {"fields": ("display_name", "time_zone")}),
        ("Notifications", {"fields": ("email_turns", "reminder_hours")}),
    )
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
    search_fields = ("username", "display_name", "email")
