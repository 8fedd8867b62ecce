from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render

from accounts.forms import SettingsForm
from accounts.models import User
from accounts.selectors import player_stats


def profile(request, username: str):
    player = get_object_or_404(User, username=username, is_active=True)
    return render(
        request, "accounts/profile.html", {"player": player, "stats": player_stats(player)}
    )


@login_required
def settings_page(request):
    if request.method == "POST":
        form = SettingsForm(request.POST, instance=request.user)
        if form.is_valid():
            form.save()
            messages.success(request, "Your settings are saved.")
            return redirect("settings")
    else:
        form = SettingsForm(instance=request.user)
    return render(request, "accounts/settings.html", {"form": form})
