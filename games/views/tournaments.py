"""Tournaments: the list, a new one, a tournament's page (standings and rounds, live), register
and withdraw (games.services.tournaments runs them)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import services
from games.forms import TournamentForm
from games.models import Tournament
from games.selectors import tournaments as reads
from games.services import tournaments as running


@require_GET
def tournament_list(request):
    return render(request, "games/tournaments.html", reads.listing())


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request):
    initial = {
        "starts_at": (timezone.localtime() + timedelta(days=1)).replace(second=0, microsecond=0)
    }
    form = TournamentForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                tournament = running.tournament_create(creator=request.user, **form.create_kwargs())
            except services.GameError as exc:
                form.add_error(None, str(exc))
                status = exc.status
            else:
                messages.success(request, _("Your tournament is open for registration."))
                return redirect("tournament", tournament_id=tournament.pk)
    return render(request, "games/tournament_new.html", {"form": form}, status=status)


def _context(request, tournament: Tournament) -> dict:
    names, standings = reads.standings(tournament)
    entry = reads.entry_of(tournament, request.user)
    registered = entry is not None and entry.withdrawn_at is None
    return {
        "tournament": tournament,
        "tiebreak_names": names,
        "standings": standings,
        "rounds": reads.rounds(tournament),
        "registered": registered,
        "can_join": request.user.is_authenticated
        and entry is None
        and (
            tournament.status == Tournament.Status.REGISTRATION
            or (
                tournament.status == Tournament.Status.RUNNING
                and tournament.format == Tournament.Format.SWISS
                and tournament.round < tournament.late_join_until
            )
        ),
        "round_deadline": (
            tournament.round_started_at + timedelta(seconds=tournament.move_seconds)
            if tournament.round_started_at
            else None
        ),
    }


@require_GET
def tournament_page(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "games/tournament.html", _context(request, tournament))


@require_GET
def tournament_live(request, tournament_id: int):
    """The standings and rounds again (the page refetches them on a nudge)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "games/tournament.html#live", _context(request, tournament))


@login_required
@require_POST
def tournament_join(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        entry = running.tournament_register(tournament=tournament, user=request.user)
    except services.GameError as exc:
        messages.error(request, str(exc))
    else:
        if entry.joined_round > 1:
            messages.success(
                request,
                _("You joined: your first game is in round %(round)d.")
                % {"round": entry.joined_round},
            )
        else:
            messages.success(request, _("You are registered."))
    return redirect("tournament", tournament_id=tournament.pk)


@login_required
@require_POST
def tournament_withdraw(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        running.tournament_withdraw(tournament=tournament, user=request.user)
    except services.GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You withdrew from the tournament."))
    return redirect("tournament", tournament_id=tournament.pk)
