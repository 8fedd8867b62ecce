"""Notifications: the Settings page's devices (Web Push), sound and chat webhook; the service
worker and the web app manifest that make the site installable on a phone."""

from __future__ import annotations

import json
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.models import DeviceNotice, NoticeSettings, NoticeTest
from games.notices import NOTICES
from games.notices import choices as notice_choices
from games.selectors import devices, vapid
from games.services import GameError
from games.services.devices import (
    device_label,
    device_subscribe,
    device_switch,
    device_unsubscribe,
    notice_settings_save,
    notice_test,
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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in notice_choices():
            self.fields[name].help_text = box_help(name)

    def boxes(self):
        return [self[name] for name in notice_choices()]


def box_help(choice: str) -> str:
    """Whether a box also governs emails, from the registry (games.notices): the kinds it
    stands for say whether unticking it stops their email, and whether they have one."""
    kinds = [n for n in NOTICES.values() if n.choice == choice]
    if any(n.choice_stops_email for n in kinds):
        return _("On your devices, your chat webhook and by email: unticked, none of them.")
    if any(n.email for n in kinds):
        return _(
            "On your devices and chat webhook. Not the emails: they follow your turn emails "
            "setting, whatever this box says."
        )
    return _("On your devices and chat webhook only: it is never emailed.")


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
    webhook_test = devices.last_test(request.user, DeviceNotice.Channel.WEBHOOK)
    context = {
        "form": form,
        "public_key": vapid.public_key(),
        "devices": devices.device_count(request.user),
        "device_list": [
            {"device": d, "test": test_text(d.last_test) if d.last_test else ""}
            for d in devices.devices(request.user)
        ],
        "webhook_saved": bool(row.pk and row.webhook_url),
        "webhook_test": test_text(webhook_test) if webhook_test else "",
        "refusals": [
            {"when": r.when, "text": refusal_text(r)} for r in devices.refusals(request.user)
        ],
    }
    return render(request, "games/notices.html", context, status=400 if form.errors else 200)


def _reason(detail: str) -> str:
    """Why an address refused a notice: a reason of config.outbound, or an HTTP status."""
    return {
        "private": _("the address is not on the public internet"),
        "unknown": _("its host name does not resolve to any address"),
        "redirect": _("it answered with a redirect, which the site does not follow"),
        "timeout": _("it did not answer in time"),
        "network": _("it could not be reached"),
    }.get(detail) or _("it answered with the HTTP status %(status)s") % {"status": detail}


def test_text(test: NoticeTest) -> str:
    """What the page says of a test notice: on its way, sent, or why it did not get through."""
    status = NoticeTest.Status
    push = test.channel == DeviceNotice.Channel.PUSH
    if test.status in (status.PENDING, status.SENDING):
        return _("Sending the test…")
    if test.status == status.SENT:
        if push:
            return _("Sent: the test should show on that device in a moment.")
        return _("Sent: your chat channel took the test.")
    if test.status == status.GONE:
        return _("Its push service no longer knows this device: turn notifications on again on it.")
    if test.detail in ("off", "no webhook"):
        return _("Not sent: the device is switched off or the webhook was removed meanwhile.")
    if test.status == status.FAILED:
        return _("Not sent, try again later: %(reason)s.") % {"reason": _reason(test.detail)}
    return _("Refused: %(reason)s.") % {"reason": _reason(test.detail)}


def refusal_text(refusal: devices.Refusal) -> str:
    """What the page says of a channel whose last notice its address refused."""
    reason = _reason(refusal.detail)
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
            label=device_label(request.headers.get("User-Agent", "")),
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


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def switch(request, device_id: int):
    """One device on or off (``enabled``: "1" or "0"); another player's device: 404."""
    enabled = request.POST.get("enabled") == "1"
    try:
        device_switch(user=request.user, device_id=device_id, enabled=enabled)
    except GameError as exc:
        if _wants_json(request):
            return JsonResponse({"ok": False, "error": str(exc)}, status=exc.status)
        raise Http404(str(exc)) from None
    if _wants_json(request):
        return JsonResponse({"ok": True, "enabled": enabled})
    if enabled:
        messages.success(request, _("The device is switched on: it gets notices again."))
    else:
        messages.success(request, _("The device is switched off: it gets no notices."))
    return redirect("notices")


def _test_answer(test: NoticeTest, status: int = 200) -> JsonResponse:
    done = test.status not in (NoticeTest.Status.PENDING, NoticeTest.Status.SENDING)
    return JsonResponse(
        {
            "ok": True,
            "id": test.pk,
            "status": test.status,
            "done": done,
            "text": test_text(test),
            "url": reverse("notice_test_status", args=[test.pk]),
        },
        status=status,
    )


@login_required
@require_POST
def send_test(request):
    """A test notice: ``channel`` "push" with ``device`` (one of the player's own), or
    "webhook". The script reads the answer (and asks ``test_status`` until it is done);
    without a script the page shows the outcome when it is loaded again."""
    channel = request.POST.get("channel", "")
    device = request.POST.get("device", "")
    try:
        test = notice_test(
            user=request.user, channel=channel, device_id=int(device) if device.isdigit() else None
        )
    except GameError as exc:
        if _wants_json(request):
            return JsonResponse({"ok": False, "error": str(exc)}, status=exc.status)
        if exc.status == 404:
            raise Http404(str(exc)) from None
        messages.error(request, str(exc))
        return redirect("notices")
    test.refresh_from_db()  # an eager or quick worker has sent it already
    if _wants_json(request):
        return _test_answer(test, status=202)
    messages.info(request, test_text(test))
    return redirect("notices")


@login_required
@require_safe
def test_status(request, test_id: int):
    test = devices.test_notice(request.user, test_id)
    if test is None:
        raise Http404
    return _test_answer(test)


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
