"""Notifications: the Settings page's devices (Web Push), sound and chat webhook; the service
worker and the web app manifest that make the site installable on a phone."""

from __future__ import annotations

import json
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.models import DeviceNotice, NoticeSettings
from games.notices import choices as notice_choices
from games.selectors import devices, vapid
from games.services import GameError
from games.services.devices import (
    device_subscribe,
    device_unsubscribe,
    notice_settings_save,
)

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"


class NoticeForm(forms.ModelForm):
    """A box per kind of notice (games.notices' ``choices``) and the chat webhook."""

    class Meta:
        model = NoticeSettings
        fields = [*notice_choices(), "webhook_url"]
        widgets = {
            "webhook_url": forms.URLInput(
                attrs={"style": "width: 100%; max-width: 40rem", "placeholder": "https://"}
            )
        }

    def boxes(self):
        return [self[name] for name in notice_choices()]


@login_required
@require_http_methods(["GET", "POST"])
def notices(request):
    row = NoticeSettings.objects.filter(user=request.user).first() or NoticeSettings()
    form = NoticeForm(request.POST or None, instance=row)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            notice_settings_save(
                user=request.user,
                boxes={name: data[name] for name in notice_choices()},
                webhook_url=data["webhook_url"],
            )
        except GameError as exc:
            form.add_error("webhook_url", str(exc))
        else:
            messages.success(request, _("Notification settings saved."))
            return redirect("notices")
    context = {
        "form": form,
        "public_key": vapid.public_key(),
        "devices": devices.device_count(request.user),
        "refusals": [
            {"when": r.when, "text": refusal_text(r)} for r in devices.refusals(request.user)
        ],
    }
    return render(request, "games/notices.html", context, status=400 if form.errors else 200)


def refusal_text(refusal: devices.Refusal) -> str:
    """What the page says of a channel whose last notice its address refused."""
    reason = {
        "private": _("the address is not on the public internet"),
        "unknown": _("its host name does not resolve to any address"),
        "redirect": _("it answered with a redirect, which the site does not follow"),
    }.get(refusal.detail) or _("it answered with the HTTP status %(status)s") % {
        "status": refusal.detail
    }
    if refusal.channel == DeviceNotice.Channel.WEBHOOK:
        return _("The last notice to your chat webhook was refused: %(reason)s.") % {
            "reason": reason
        }
    return _("The last notice to your devices was refused: %(reason)s.") % {"reason": reason}


def _json_body(request) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        raise GameError(_("the request must be JSON")) from None
    if not isinstance(data, dict):
        raise GameError(_("the request must be a JSON object"))
    return data


@login_required
@require_POST
def subscribe(request):
    """The page's script sends the browser's PushSubscription (its ``toJSON()``)."""
    try:
        data = _json_body(request)
        keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
        device_subscribe(
            user=request.user,
            endpoint=str(data.get("endpoint", "")),
            p256dh=str(keys.get("p256dh", "")),
            auth=str(keys.get("auth", "")),
        )
    except GameError as exc:
        return JsonResponse({"ok": False, "error": str(exc)}, status=exc.status)
    return JsonResponse({"ok": True})


@login_required
@require_POST
def unsubscribe(request):
    try:
        data = _json_body(request)
    except GameError as exc:
        return JsonResponse({"ok": False, "error": str(exc)}, status=exc.status)
    device_unsubscribe(user=request.user, endpoint=str(data.get("endpoint", "")))
    return JsonResponse({"ok": True})


@require_safe
@cache_control(no_cache=True)
def service_worker(request):
    """The service worker, from the site's root so that its scope is the whole site."""
    response = HttpResponse(SERVICE_WORKER.read_text(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
@cache_control(max_age=3600)
def manifest(request):
    """The web app manifest: the site can be installed on a phone's home screen."""
    data = {
        "name": "Blokus Shuffle",
        "short_name": "Blokus",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fafaf7",
        "theme_color": "#1f6feb",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")
