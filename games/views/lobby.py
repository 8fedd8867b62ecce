"""Lobby: home (open games, invitations), create, join, leave, accept or decline an invitation,
invite link, my games."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import services
from games.forms import GameForm
from games.models import Game, Seat, is_bot
from games.presenters import game_list
from games.selectors import lists, seating, seeks
from games.selectors.access import game_by_public_id, game_for_viewer

from .bots import bot_refusal, refuse_bot


@require_GET
def home(request):
    lobby = lists.lobby(request.user)
    tables, total = seeks.lobby_tables(request.user)
    context = {
        "tables": tables,
        "tables_total": total,
        "tables_more": total - len(tables),
        "invitations": lobby.invitations,
        "open_rows": lobby.open_games,
        "your_turn": lobby.your_turn,
        "watch": lobby.watch,
    }
    return render(request, "home.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request):
    initial = None
    like = request.GET.get("like", "")
    if like and request.method != "POST":  # "New game with these settings" (a game they may see)
        try:
            game = game_for_viewer(like, request.user).game
        except Http404:
            messages.error(request, _("There is no such game to copy the settings of."))
        else:
            initial = GameForm.initial_like(game, services.rematch_seats(game, request.user))
    challenged = request.GET.get("challenge", "")[:150] if request.method != "POST" else ""
    if challenged:  # "Challenge" on a player's profile: they are invited to seat 2
        initial = {**(initial or {}), "seat1_kind": Seat.Kind.INVITED, "seat1_username": challenged}
    form = GameForm(request.POST or None, initial=initial)
    status = 400 if request.method == "POST" else 200
    if request.method == "POST" and is_bot(request.user):
        form.add_error(None, bot_refusal())
        status = 403
    elif request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(creator=request.user, **form.create_kwargs())
        except services.GameError as exc:  # the engine's or the service's reason, inline
            form.add_error(None, str(exc))
            status = exc.status  # 429 past a limit
        else:
            messages.success(request, _("Your game is ready."))
            return redirect("game", public_id=game.public_id)
    context = {"form": form, "challenged": challenged}
    return render(request, "games/new.html", context, status=status)


@login_required
@require_GET
def my_games(request):
    """A page of the player's games: current ones first, then finished ones a page at a time
    (``?before=<public id>``: the games older than that one)."""
    page = lists.my_games(request.user, before=request.GET.get("before", ""))
    sections = [
        ("your_turn", _("Your turn")),
        ("waiting", _("Waiting for others")),
        ("open", _("Not started yet")),
        ("finished", _("Finished")),
    ]
    context = {
        "sections": [
            {"key": key, "title": title, "games": getattr(page, key)} for key, title in sections
        ],
        "any_games": any(getattr(page, key) for key, _title in sections),
        "page": page,
    }
    context["sections"][-1]["items_html"] = game_list.finished_items(page.finished)
    return render(request, "games/mine.html", context)


@login_required
@require_POST
def game_join(request, public_id):
    token = request.POST.get("token", "")
    game = game_for_viewer(public_id, request.user, token=token).game
    try:
        refuse_bot(request.user)
        seat = services.game_join(game=game, user=request.user, token=token)
    except services.GameError as exc:
        back = reverse("game_invite", args=[public_id, token]) if token else _game_url(game)
        return _refused(request, exc, back)
    game.refresh_from_db(fields=["status"])
    if game.status == Game.Status.ACTIVE:
        text = _("You took seat %(number)s. The game has started.")
    else:
        text = _("You took seat %(number)s.")
    messages.success(request, text % {"number": seat.index + 1})
    return _go(request, _game_url(game))


@login_required
@require_POST
def game_leave(request, public_id):
    game = game_for_viewer(public_id, request.user).game
    was_invited = game.seats.filter(user=request.user, kind=Seat.Kind.INVITED).exists()
    try:
        services.game_leave(game=game, user=request.user)
    except services.GameError as exc:
        return _refused(request, exc, _game_url(game))
    game.refresh_from_db(fields=["status"])
    if game.status == Game.Status.ABORTED:
        messages.success(request, _("You cancelled the game."))
    elif was_invited:
        messages.success(request, declined(game))
    else:
        messages.success(request, _("You left the game."))
    if request.POST.get("back") == "lobby":
        return _go(request, reverse("home"))
    # A private game is no longer visible to a player who left it: back to their list then.
    try:
        game_for_viewer(public_id, request.user)
    except Http404:
        return _go(request, reverse("my_games"))
    return _go(request, _game_url(game))


# Where Decline (or a refused Accept) sends the player back to: the page the button was on.
INVITATION_BACK = {"home": "home", "mine": "my_games", "game": "game"}


@login_required
@require_POST
def invitation_accept(request, public_id):
    """Accept (lobby notice, My games, the game's page, the email's link): take the seat."""
    game = game_by_public_id(public_id)
    try:
        if game is None:
            raise services.NotAllowed(_("you have no invitation to this game (any more)"))
        refuse_bot(request.user)  # a bot accepts through the API
        seat = services.invitation_accept(game=game, user=request.user)
    except services.GameError as exc:
        return _refused(request, exc, _invitation_back(request, game))
    game.refresh_from_db(fields=["status"])
    if game.status == Game.Status.ACTIVE:
        text = _("You accepted and took seat %(number)s. The game has started.")
    else:
        text = _("You accepted and took seat %(number)s.")
    messages.success(request, text % {"number": seat.index + 1})
    return _go(request, _game_url(game))


@login_required
@require_POST
def invitation_decline(request, public_id):
    """Decline: the seat goes to the invite link (services.invitation_decline says why)."""
    game = game_by_public_id(public_id)
    try:
        if game is None:
            raise services.NotAllowed(_("you have no invitation to this game (any more)"))
        services.invitation_decline(game=game, user=request.user)
    except services.GameError as exc:
        return _refused(request, exc, _invitation_back(request, game))
    messages.success(request, declined(game))
    # Nothing left to do on the game's page: back to the list the player answered from.
    return _go(request, reverse("my_games" if request.POST.get("back") == "mine" else "home"))


def declined(game: Game) -> str:
    return _("You declined %(creator)s's invitation.") % {"creator": game.created_by}


def _invitation_back(request, game: Game | None) -> str:
    """The page the button was on; the lobby instead of a game no longer theirs to see (a
    private game once declined)."""
    name = INVITATION_BACK.get(request.POST.get("back", ""), "home")
    if name != "game":
        return reverse(name)
    if game is not None:
        try:
            game_for_viewer(game.public_id, request.user)
        except Http404:
            pass
        else:
            return _game_url(game)
    return reverse("home")


@login_required
@require_GET
def invite(request, public_id, token):
    viewed = game_for_viewer(public_id, request.user, token=token)
    game, seat, seats = viewed.game, viewed.seat, list(viewed.seats)
    # A wrong token is no invitation, even to a public game (constant time: no probing).
    if not secrets.compare_digest(token.encode(), game.invite_token.encode()):
        raise Http404(_("no such invitation"))
    # The write path's own rule (selectors.seating): "Take a seat" only where game_join would
    # seat the visitor; else what they can do: watch, and why there is no seat for them.
    target = seating.seat_for_joiner(game, seats, request.user, token) if seat is None else None
    free = [s for s in seats if s.kind in (Seat.Kind.OPEN, Seat.Kind.LINK)]
    context = {
        "game": game,
        "seats": seats,
        "my_seat": seat,
        "token": token,
        "joinable": target is not None,
        "accepting": target is not None and target.kind == Seat.Kind.INVITED,
        "reserved": game.status == Game.Status.OPEN
        and not free
        and any(s.kind == Seat.Kind.INVITED for s in seats),
        "watch_url": f"{_game_url(game)}?token={token}",
    }
    return render(request, "games/invite.html", context)


# -- helpers --------------------------------------------------------------------------------


def _game_url(game: Game) -> str:
    return reverse("game", kwargs={"public_id": game.public_id})


def _go(request, url: str):
    """Redirect; HTMX follows with a full page load so the new page's partials all refresh."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _refused(request, exc: services.GameError, back: str):
    """A refused join or leave: the reason inline for HTMX (with the error's status), else a
    message on the page we send the user back to."""
    if request.htmx:
        return render(
            request, "home.html#notice", {"notice": str(exc), "level": "error"}, status=exc.status
        )
    messages.error(request, str(exc))
    return redirect(back)
