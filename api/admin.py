"""Staff see the bot accounts and disable one by deactivating its user (through the moderation
service, which logs it and stops its Play now request); its tokens then stop at once."""

from django.contrib import admin, messages

from api.models import BotAccount
from games import services

DISABLED_REASON = "bot account disabled from the bot accounts' admin"


@admin.register(BotAccount)
class BotAccountAdmin(admin.ModelAdmin):
    list_display = ("user", "since", "active")
    list_select_related = ("user",)
    search_fields = ("user__username", "user__display_name")
    readonly_fields = ("user", "since")
    actions = ("disable",)

    def has_add_permission(self, request):  # a player makes their account a bot themself
        return False

    @admin.display(boolean=True, description="Active")
    def active(self, obj: BotAccount) -> bool:
        return obj.user.is_active

    @admin.action(description="Disable the selected bots (deactivate their accounts)")
    def disable(self, request, queryset):
        done, refused = 0, []
        for bot in queryset.select_related("user"):
            try:
                services.user_deactivate(user=bot.user, staff=request.user, reason=DISABLED_REASON)
            except services.GameError as exc:
                refused.append(str(exc))
            else:
                done += 1
        self.message_user(request, f"Bots disabled: {done}", messages.SUCCESS)
        for reason in refused:
            self.message_user(request, reason, messages.WARNING)
