from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.forms import SettingsForm
from accounts.models import User
from accounts.selectors import player_stats
from games.emails import unsubscribe_user_id


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


# No CSRF token: mail clients POST here with "List-Unsubscribe=One-Click" and nothing else
# (RFC 8058), and no login is needed. The signed token in the URL is the credential; only the
# mailbox it was sent to has it, so a forged cross-site POST has nothing to sign with.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """The link in every turn email: GET asks, POST switches turn emails off."""
    user_id = unsubscribe_user_id(token)
    player = User.objects.filter(pk=user_id).first() if user_id is not None else None
    if player is None:
        return render(request, "emails/unsubscribe.html", {"invalid": True}, status=400)
    if request.method == "POST":
        User.objects.filter(pk=player.pk).update(email_turns=User.EmailTurns.NEVER)
        return render(request, "emails/unsubscribe.html", {"player": player, "done": True})
    return render(request, "emails/unsubscribe.html", {"player": player, "token": token})
