"""Chat and reports: a game's chat panel, and reporting a message or a player.

The chat panel is ``games/chat.html#panel``; the game page may include it directly with
``chat_context`` or load it with ``hx-get`` from ``game_chat``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.models import ChatMessage, Game
from games.selectors import chat as chat_selectors
from games.selectors.access import game_for_viewer
from games.services import GameError
from games.services.chat import REPORT_REASON_MAX, RateLimited, chat_post, chat_room, report_create

User = get_user_model()

CHAT_SHOWN = 100  # the latest messages shown in the panel


def chat_context(
    request, game: Game, seat, *, error: str = "", text: str = "", focus: bool = False
) -> dict:
    """What ``games/chat.html#panel`` needs, for this view and for pages that include it."""
    user = request.user
    return {
        "game": game,
        "chat_lines": chat_selectors.latest_lines(game, user, seat, CHAT_SHOWN),
        "can_post": chat_room(game, user, seat is not None)[0] is not None,
        "spectating": seat is None,
        "chat_error": error,
        "chat_text": text,
        "chat_max": ChatMessage.MAX_LENGTH,
        "chat_focus": focus,  # after a post: the swapped-in input takes the focus again
    }


@require_http_methods(["GET", "POST"])
def chat(request, public_id):
    viewed = game_for_viewer(public_id, request.user, token=request.GET.get("token", ""))
    game, seat = viewed.game, viewed.seat
    if request.method == "GET":
        context = chat_context(request, game, seat)
        if request.htmx:
            part = "log" if request.GET.get("part") == "log" else "panel"
            return render(request, f"games/chat.html#{part}", context)
        return render(request, "games/chat.html", context)

    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    text = request.POST.get("text", "")
    try:
        chat_post(game=game, user=request.user, text=text)
    except GameError as exc:
        context = chat_context(request, game, seat, error=str(exc), text=text, focus=True)
        template = "games/chat.html#panel" if request.htmx else "games/chat.html"
        response = render(request, template, context, status=exc.status)
        if isinstance(exc, RateLimited):
            response["Retry-After"] = str(exc.retry_after)
        return response
    if request.htmx:
        return render(
            request, "games/chat.html#panel", chat_context(request, game, seat, focus=True)
        )
    return redirect("game_chat", public_id=game.public_id)


def _report_target(request, data) -> dict:
    """The message or player named by ``data``, as the reporter may see it; 404 otherwise."""
    message_id, username = data.get("message", "").strip(), data.get("user", "").strip()
    if message_id:
        if not (message_id.isascii() and message_id.isdigit() and len(message_id) < 19):
            raise Http404("no such message")  # not an id (nor one the database could hold)
        found = ChatMessage.objects.select_related("game").filter(pk=message_id).first()
        if found is None:
            raise Http404("no such message")
        viewed = game_for_viewer(found.game.public_id, request.user)  # 404 if hidden
        game, seat = viewed.game, viewed.seat
        # Only a line the reporter may read in the chat panel can be quoted (a seated player
        # does not read the spectators' room while the game runs; hidden lines are staff's).
        message = chat_selectors.visible_lines(game, request.user, seat).filter(pk=found.pk).first()
        if message is None:
            raise Http404("no such message")
        return {"message": message, "reported_user": message.user, "game": game}
    if username:
        reported = User.objects.filter(username__iexact=username).first()
        if reported is None:
            raise Http404("no such player")
        game = None
        public_id = data.get("game", "").strip()
        if public_id:
            game = game_for_viewer(public_id, request.user).game
        return {"message": None, "reported_user": reported, "game": game}
    return {}


@login_required
@require_http_methods(["GET", "POST"])
def report(request):
    data = request.POST if request.method == "POST" else request.GET
    target = _report_target(request, data)
    template = "games/report.html#form" if request.htmx else "games/report.html"
    context = {
        **target,
        "reason_max": REPORT_REASON_MAX,
        "reason": "",
        "error": "",
        "can_report": True,
    }
    if not target:
        context.update(
            error=_("say what you are reporting: a chat message or a player"), can_report=False
        )
        return render(request, template, context, status=400)
    if target["reported_user"].pk == request.user.pk:
        context.update(error=_("you can't report yourself"), can_report=False)
        return render(request, template, context, status=400)
    if request.method == "GET":
        return render(request, template, context)

    reason = request.POST.get("reason", "")
    try:
        _report, created = report_create(
            reporter=request.user,
            reason=reason,
            message=target["message"],
            reported_user=None if target["message"] else target["reported_user"],
            game=target["game"],
        )
    except GameError as exc:
        context.update(reason=reason, error=str(exc))
        return render(request, template, context, status=exc.status)
    context["created"] = created
    done = "games/report.html#done" if request.htmx else "games/report.html"
    return render(request, done, {**context, "done": True})
