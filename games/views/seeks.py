""" "Play now": the form, the table forming around the player (live), cancel, and the lobby's
list of tables looking for players with their Join buttons (games.services.seeks matches)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import services
from games.forms import PlayNowForm
from games.models import Game, Seat, Seek, SeekTable, is_bot
from games.selectors import seeks as seek_reads
from games.services import ratings
from games.services import seeks as matching

from .bots import bot_refusal, refuse_bot

# A game that started this recently is opened from the waiting page (later: My games has it).
JUST_STARTED = timedelta(minutes=10)


def _form(data=None) -> PlayNowForm:
    return PlayNowForm(data, fill_choices=matching.FILL_CHOICES)


@login_required
@require_http_methods(["GET", "POST"])
def play(request):
    """The form, or the player's table while it forms."""
    status = 200
    form = None
    if request.method == "POST":
        form = _form(request.POST)
        status = 400
        if is_bot(request.user):
            form.add_error(None, bot_refusal())
            status = 403
        elif form.is_valid():
            try:
                seek = matching.seek_ask(user=request.user, **form.ask_kwargs())
            except services.GameError as exc:
                form.add_error(None, str(exc))
                status = exc.status
            else:
                if seek.status == Seek.Status.STARTED:
                    return _opened(request, seek)
                return redirect("play")
    seek = seek_reads.waiting(request.user)
    if seek is None and form is None:
        form = _form()
    context = {"form": form, **_waiting(request.user, seek)}
    return render(request, "games/play_now.html", context, status=status)


def _waiting(user, seek: Seek | None) -> dict:
    """What the waiting panel shows: the table, its players and ratings, the window every one
    of them accepts, when the computer comes and at which level."""
    if seek is None:
        return {"seek": None}
    now = timezone.now()
    seated = seek_reads.members(seek.table)
    low, high = seek_reads.table_window(seated, now)
    fill_at = seek_reads.fill_at(seated)
    mean = sum(s.rating for s in seated) / len(seated)
    level = matching.computer_level(mean)
    return {
        "seek": seek,
        "table": seek.table,
        "seated": [
            {"name": str(s.user), "rating": s.rating, "me": s.user_id == user.pk} for s in seated
        ],
        "free": seek.table.players - len(seated),
        "empty_seats": range(seek.table.players - len(seated)),
        "low": low,
        "high": high,
        "growth": settings.MATCH_WINDOW_GROWTH,
        "fill_at": fill_at,
        "level_name": _level_name(level),
        "level_rating": ratings.computer_rating(level),
        "mode_name": Game.Mode(seek.table.mode).label,
        "move_time": dict(Game.MOVE_TIMES)[seek.table.move_seconds],
    }


def _level_name(level: str) -> str:
    return str(Seat.Level(level).label)


def _opened(request, seek: Seek):
    """The game ``seek`` became: open it, saying how the table was filled."""
    table = seek.table
    table.refresh_from_db()
    if table.computer_seats:
        text = _(
            "Your game has started. Nobody else came in time: the computer (%(level)s) took "
            "the empty seats."
        ) % {"level": _level_name(table.level)}
    else:
        text = _("Your game has started.")
    messages.success(request, text)
    url = reverse("game", args=[table.game.public_id])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@login_required
@require_GET
def play_status(request):
    """The waiting panel again (the page refetches it on a nudge and every little while, as
    the window widens); the game once it has started; the form if the request is gone."""
    seek = seek_reads.waiting(request.user)
    if seek is None:
        started = seek_reads.started(request.user, since=timezone.now() - JUST_STARTED)
        if started is not None and started.table.game is not None:
            return _opened(request, started)
        return HttpResponseClientRedirect(reverse("play"))
    return render(request, "games/play_now.html#waiting", _waiting(request.user, seek))


@login_required
@require_POST
def play_cancel(request):
    try:
        matching.seek_cancel(user=request.user)
    except services.GameError as exc:
        started = seek_reads.started(request.user, since=timezone.now() - JUST_STARTED)
        if started is not None and started.table.game is not None:
            return _opened(request, started)
        messages.error(request, str(exc))
        return redirect("play")
    messages.success(request, _("You stopped looking for a game."))
    return redirect("play")


@login_required
@require_POST
def play_join(request, table_id: int):
    """A table of the lobby's list: the same request as Play now, for that table."""
    table = SeekTable.objects.filter(pk=table_id).first()
    try:
        refuse_bot(request.user)
        if table is None:
            raise services.Conflict(_("this table is no longer looking for players"))
        seek = matching.seek_ask(
            user=request.user,
            mode=table.mode,
            players=table.players,
            move_seconds=table.move_seconds,
            rated=table.rated,
            fill_after=None,
            table_id=table.pk,
        )
    except services.GameError as exc:
        messages.error(request, str(exc))
        return redirect("home")
    if seek.status == Seek.Status.STARTED:
        return _opened(request, seek)
    return redirect("play")


@require_GET
def lobby_tables(request):
    """The lobby's "Looking for players" list (refetched live on the lobby page)."""
    rows, total = seek_reads.lobby_tables(request.user)
    context = {"tables": rows, "tables_total": total, "tables_more": total - len(rows)}
    return render(request, "home.html#tables", context)
