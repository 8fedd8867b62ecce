"""Settings > "Download my data": ask for the zip (built by a worker: games.jobs.exports), and
download it, its owner only."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import FileResponse, Http404
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_GET, require_POST

from accounts.exports import path_of
from accounts.models import DataExport
from games import services
from games.services.data_export import export_request

GONE = _lazy("no such export (it may have expired: ask for a new one in Settings)")


@login_required
@require_POST
def request_export(request):
    try:
        export_request(user=request.user)
    except services.GameError as exc:
        messages.error(request, _("No new export: %(reason)s.") % {"reason": exc})
    else:
        messages.success(
            request,
            _(
                "Your data is being prepared. We will email you a link when it is ready, and it "
                "will be on this page too."
            ),
        )
    return redirect("settings")


@require_GET
def download(request, public_id: str):
    """The zip, to its owner while it has not expired; anyone else signed in gets 404, as for
    an export that does not exist (a visitor is asked to sign in first: it may be the owner,
    following the email's link)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    export = DataExport.objects.filter(
        public_id=public_id,
        user=request.user,
        status=DataExport.Status.READY,
        expires_at__gt=timezone.now(),
    ).first()
    if export is None:
        raise Http404(GONE)
    try:
        handle = path_of(export).open("rb")
    except FileNotFoundError:
        raise Http404(GONE) from None
    name = f"blokus-data-{export.created_at:%Y-%m-%d}.zip"
    response = FileResponse(handle, as_attachment=True, filename=name)
    response["Cache-Control"] = "private, no-store"
    return response
