from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from accounts import closing, vacations
from accounts.forms import DeletionForm, SettingsForm
from accounts.models import Block, DataExport, User
from accounts.tokens import unsubscribe_user_id
from config.middleware import supported_language


@login_required
@require_POST
def block(request, username: str):
    """Block (``action=block``) or unblock another player; see accounts.models.Block."""
    player = get_object_or_404(User, username=username, is_active=True)
    action = request.POST.get("action")
    if player == request.user or action not in ("block", "unblock"):
        messages.error(request, gettext("You can block or unblock another player only."))
    elif action == "block":
        Block.objects.get_or_create(blocker=request.user, blocked=player)
        messages.success(
            request,
            gettext(
                "You have blocked %(player)s: they cannot invite you, take a seat in your games "
                "or show up in your chat. They are not told."
            )
            % {"player": player},
        )
    else:
        Block.objects.filter(blocker=request.user, blocked=player).delete()
        messages.success(request, gettext("You have unblocked %(player)s.") % {"player": player})
    if request.POST.get("next") == "settings":
        return redirect("settings")
    return redirect("profile", username=player.username)


@login_required
def settings_page(request):
    if request.method == "POST":
        form = SettingsForm(request.POST, instance=request.user)
        if form.is_valid():
            form.save()
            # Said in the language the next page comes in (the one just chosen, if any).
            code = supported_language(request.user.language)
            with translation.override(code or translation.get_language_from_request(request)):
                messages.success(request, gettext("Your settings are saved."))
            return redirect("settings")
    else:
        form = SettingsForm(instance=request.user)
    blocks = Block.objects.filter(blocker=request.user).select_related("blocked")
    return render(
        request,
        "accounts/settings.html",
        {
            "form": form,
            "blocks": blocks,
            "vacation_left": vacations.days_left(request.user),
            "vacation_allowance": django_settings.VACATION_DAYS_PER_YEAR,
            **your_data(request.user),
        },
    )


def your_data(user) -> dict:
    """The Settings page's "Your data" part: the latest exports (a ready one's link)."""
    exports = list(DataExport.objects.filter(user=user)[:3])
    return {
        "data_exports": exports,
        "export_building": any(e.status == DataExport.Status.BUILDING for e in exports),
        "export_days": django_settings.EXPORT_DAYS,
        "deletion_grace_days": django_settings.DELETION_GRACE_DAYS,
    }


@login_required
@require_POST
def close_account(request):
    """Close the account (hidden, no notices) and sign out; signing in reopens it."""
    closing.account_close(user=request.user)
    logout(request)
    messages.success(
        request,
        gettext(
            "Your account is closed: your profile is hidden and you get no more notices. Sign "
            "in again whenever you like to open it."
        ),
    )
    return redirect("home")


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request):
    """Ask for the account's deletion: the password, and what happens to running games."""
    form = DeletionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            deletion = closing.deletion_request(
                user=request.user,
                password=form.cleaned_data["password"],
                running_games=form.cleaned_data["running_games"],
            )
        except closing.ClosingError as exc:
            form.add_error(None, str(exc))
        else:
            logout(request)
            text = gettext(
                "Your account will be deleted on %(date)s. Until then it is closed; signing in "
                "cancels the deletion."
            ) % {"date": f"{deletion.due_at:%Y-%m-%d}"}
            if deletion.needs_approval:
                text += " " + gettext(
                    "A staff account's deletion also waits for another staff member."
                )
            messages.success(request, text)
            return redirect("home")
    return render(
        request,
        "accounts/delete.html",
        {"form": form, "grace_days": django_settings.DELETION_GRACE_DAYS},
        status=400 if form.errors else 200,
    )


def privacy(request):
    """What is stored, for how long, who sees what, and how to take it away."""
    return render(
        request,
        "privacy.html",
        {
            "export_days": django_settings.EXPORT_DAYS,
            "grace_days": django_settings.DELETION_GRACE_DAYS,
            "backup_days": django_settings.BACKUP_KEEP,
            "session_days": django_settings.SESSION_COOKIE_AGE // 86400,
        },
    )


@login_required
@require_POST
def vacation(request):
    """Start a vacation (``days``) or come back early (``action=end``)."""
    if request.POST.get("action") == "end":
        vacations.vacation_end(user=request.user)
        messages.success(request, gettext("Welcome back: your move clocks run again from now."))
        return redirect("settings")
    try:
        days = int(request.POST.get("days", ""))
    except ValueError:
        messages.error(request, gettext("Say how many days you will be away, as a whole number."))
        return redirect("settings")
    try:
        vacations.vacation_start(user=request.user, days=days)
    except vacations.VacationError as exc:
        messages.error(request, gettext("No vacation: %(reason)s.") % {"reason": exc})
    else:
        messages.success(
            request,
            ngettext(
                "Enjoy your %(days)d day away: your move clocks stand still in every game until "
                "you come back, and your opponents see that you are away.",
                "Enjoy your %(days)d days away: your move clocks stand still in every game until "
                "you come back, and your opponents see that you are away.",
                days,
            )
            % {"days": days},
        )
    return redirect("settings")


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


@require_POST
def set_language(request):
    """The footer's language switcher: Django's own view (the cookie, back to ``next``), and for a
    signed-in player their setting too, so that pages on every device and their emails follow."""
    response = django_set_language(request)
    code = supported_language(request.POST.get("language", ""))
    if code and request.user.is_authenticated and request.user.language != code:
        request.user.language = code
        request.user.save(update_fields=["language"])
    return response
