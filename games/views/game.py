"""The game page, its decision panel, and the one write endpoint (``act``). Thin: read the
request, ask a selector or service, hand the result to games/presenters, render.

What is shown comes from ``selectors.table.seat_snapshot``: the viewer's ``engine.view`` (R9) and
``engine.table`` (turn order, anchors, scores, and for the seat deciding now its legal actions and
card outlooks). The page never renders ``game.state``, ``game.seed``, another hand or a pile order.

What one viewer sees at one position never changes, so the panel (the ``#game`` section) is
rendered once per key and kept in the Django cache (Redis in production, local memory under
``make run``): the key is the digest of everything the panel reads (``selectors.panel``). The
per-request parts (the forms' CSRF token and idempotency key, "this turn began … ago", the time
left on the clock) are the slots of the stored panel, filled in when it is served.
"""

from __future__ import annotations

import json
import secrets

from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from games import services
from games.models import Game
from games.presenters import colours as colour_rows
from games.presenters import concede
from games.presenters import game as presenter
from games.selectors import table, takebacks
from games.selectors.access import Viewed, game_for_viewer, game_to_move
from games.selectors.names import game_name
from games.selectors.panel import panel_reads
from games.selectors.turns import last_mover
from games.translations import rule_message

from .bots import refuse_bot
from .links import Links

PAGE = "games/play.html"
PANEL = "games/play.html#game"
MAX_ACTION_LENGTH = 2000  # the longest record action (a warp) is ~70 characters
SELECTION = ("piece", "o", "from")  # the panel's wizard state, carried in GET parameters
CACHE_SECONDS = 3600
# The per-request parts of a cached panel: the forms' CSRF token and idempotency key, how long
# ago the turn began, the time left on the clock.
SLOTS = ("csrf", "key", "ago", "left")


class BadInput(services.GameError):
    """The request itself could not be read (not a refusal by the rules)."""


# Never from the browser's cache: Back would show the position of the first load, whose form
# carries a key already spent. The page's script resyncs a page restored whole.
@never_cache
@require_safe
def game_page(request, public_id):
    token = request.GET.get("token", "")
    viewed = game_for_viewer(public_id, request.user, token=token)
    return _respond(request, viewed, request.GET, page=True)


@never_cache
@require_safe
def panel(request, public_id):
    token = request.GET.get("token", "")
    viewed = game_for_viewer(public_id, request.user, token=token)
    return _respond(request, viewed, request.GET, page=False)


@require_POST
def act(request, public_id):
    if not request.user.is_authenticated:
        if not request.htmx:
            return redirect_to_login(reverse("game", args=[public_id]))
        viewed = game_for_viewer(public_id, None)
        return _respond(request, viewed, {}, message=_("Log in to play."), status=403)
    # The move path reads only the game's id here: the write path locks the row and reads the
    # seats itself, and refuses anyone who does not hold the seat to move.
    game = game_to_move(public_id)
    try:
        refuse_bot(request.user)
        action, ply = parse_action(request.POST)
        result = services.action_submit(
            game=game,
            user=request.user,
            action=action,
            expected_ply=ply,
            key=request.POST.get("key", ""),
        )
    except services.GameError as exc:
        # A refusal shows the game as its reader may see it (404 for a game they may not).
        viewed = game_for_viewer(public_id, request.user)
        message = refusal(exc)
        if isinstance(exc, services.StalePly):
            mine = viewed.seat is not None and last_mover(viewed.game.pk) == viewed.seat.index
            message = stale(mine=mine)
        return _respond(
            request, viewed, {}, page=not request.htmx, message=message, status=exc.status
        )
    if not request.htmx:
        return redirect("game", public_id=game.public_id)
    return moved(result.ply)


def moved(ply: int) -> HttpResponse:
    """A move's answer: no panel, only the ply the game reached. The page's live
    client (static/js/live.js, "game-moved") then fetches its panel for that ply, as it does
    after a nudge, and that panel is served from the cache to every request for it: the POST
    costs the write path alone."""
    response = HttpResponse(status=204)
    response["HX-Trigger"] = json.dumps({"game-moved": {"ply": ply}})
    return response


def stale(*, mine: bool) -> str:
    """What a player reads when they moved from an old position (a tab that missed a move):
    who moved meanwhile, in words, instead of the plies the service names."""
    if mine:
        return _("You moved meanwhile in another tab or window: here is the game now.")
    return _("Your opponent moved meanwhile: here is the game now.")


def refusal(exc: services.GameError) -> str:
    """What the player reads when a move is not played: the rule's own words for the engine's
    refusals (games.translations.rule_message), else the service's reason."""
    if isinstance(exc, services.StalePly):
        return _("%(reason)s — here is the game as it stands now.") % {"reason": exc}
    reason = rule_message(str(exc)) if isinstance(exc, services.Refused) else str(exc)
    return _("Not played: %(reason)s") % {"reason": reason}


def parse_action(post) -> tuple[dict, int]:
    raw = post.get("action", "")
    if not raw:
        raise BadInput(_('the move is missing: send "action" as JSON such as {"card": "wild"}'))
    if len(raw) > MAX_ACTION_LENGTH:
        raise BadInput(_("the move is too long to be a record action"))
    try:
        action = json.loads(raw)
    except ValueError:
        raise BadInput(
            _('the move could not be read: "action" must be JSON such as {"card": "wild"}')
        ) from None
    if not isinstance(action, dict):
        raise BadInput(_('the move must be a JSON object such as {"place": "a1"}'))
    try:
        ply = int(post.get("ply", ""))
    except ValueError:
        raise BadInput(_('"ply" (the move number you saw) must be a whole number')) from None
    return action, ply


# -- rendering ------------------------------------------------------------------------------


def _respond(request, viewed: Viewed, params, *, page=False, message="", status=200):
    game = viewed.game
    token = params.get("token", "")
    token = token if token and token == game.invite_token else ""
    links = Links(game, token)
    if game.status == Game.Status.OPEN or game.state is None or message:
        ctx = _context(request, viewed, params, links, message=message)
        if page:
            ctx["game_name"] = game_name(game, viewed.seats)
        return render(request, PAGE if page else PANEL, ctx, status=status)
    html = _cached_panel(request, viewed, params, links)
    if not page:
        return _html_response(html, status)
    ctx = {"game": game, "seat": viewed.seat, "panel_html": html, "joining": False}
    ctx["game_name"] = game_name(game, viewed.seats)
    return render(request, PAGE, ctx, status=status)


def _context(
    request,
    viewed: Viewed,
    params,
    links,
    *,
    message="",
    labels=None,
    profiles=None,
    facts=None,
    slots=None,
) -> dict:
    """The page's context; ``labels`` and ``facts`` when the caller has read them already;
    ``slots``: for the panel cache, this render's placeholder for each per-request part
    (``_placeholders``), filled in per request."""
    game, seat = viewed.game, viewed.seat
    ctx = {
        "game": game,
        "seat": seat,
        "token": links.token,
        "message": message,
        "error": bool(message),
        "panel_url": links.panel_url,
        "key": slots["key"] if slots else secrets.token_urlsafe(16),
    }
    if slots:
        ctx["csrf_token"] = slots["csrf"]
    if game.status == Game.Status.OPEN or game.state is None:
        facts = table.table_facts(viewed, request.user, links.token)
        ctx.update(presenter.joining(facts))
        if seat is not None and game.status == Game.Status.OPEN:  # for the players to pass on
            path = reverse("game_invite", args=[game.public_id, game.invite_token])
            ctx["invite_url"] = request.build_absolute_uri(path)
        return ctx
    snapshot = table.seat_snapshot(game, seat)
    clock = table.turn_clock(game, viewed.seats)
    labels = labels if labels is not None else table.seat_labels(viewed.seats)
    profiles = profiles if profiles is not None else table.seat_profiles(viewed.seats)
    ctx.update(
        presenter.playing(
            facts or table.table_facts(viewed, request.user, links.token),
            labels,
            snapshot,
            params,
            links.link,
            table.earlier_events(game),
            log_rows=table.turn_log(game),
            replay_url=reverse("game_replay", kwargs={"public_id": game.public_id}),
            clock=clock,
            profiles=profiles,
        )
    )
    over = game.status == Game.Status.FINISHED
    ctx["shuffle"] = presenter.shuffle(
        snapshot["view"], table.shuffle_verdict(game) if over else None
    )
    if slots:
        ctx.update(turn_ago=slots["ago"], time_left=slots["left"])
    else:
        ctx["turn_ago"] = timesince(game.turn_started_at) if game.turn_started_at else ""
        ctx["time_left"] = time_left(clock)
    ctx["colours_html"] = colour_rows.rows_html(
        ctx["colours"],
        over=ctx["over"],
        active=game.status == Game.Status.ACTIVE,
        per_move=game.get_move_seconds_display(),
        time_left=ctx["time_left"],
    )
    ctx["concede"] = concede.controls(
        snapshot["view"],
        seat.index if seat is not None else None,
        rated=game.rated,
        takeback=takebacks.facts(game, seat, labels),
    )
    return ctx


def time_left(clock: dict | None) -> str:
    """What the clock says now ("3 hours, 4 minutes"); the page's script counts it down."""
    due = clock and clock.get("deadline")
    if not due:
        return ""
    now = timezone.now()
    return _("no time: the computer plays it now") if due <= now else timeuntil(due, now)


def _asked_selection(params) -> tuple:
    """The selection as the request writes it (``?piece=``, ``?o=``, ``?from=``)."""
    return tuple(str(params.get(k, ""))[:64] for k in SELECTION)


def _shown_selection(ctx: dict) -> tuple:
    """The selection the panel actually shows: what the decision recognised of the request
    (a piece with a legal spot, one of its orientations, a Warp source); "" for the rest. Only
    a panel whose shown selection is the asked one is stored: a spectator's selection, an
    illegal or garbled one is rendered, never stored, so the cache holds at most one panel per
    legal selection of a (game, ply, reader)."""
    decision = ctx.get("decision") or {}
    shown = (decision.get("piece"), decision.get("orientation"), decision.get("source"))
    return tuple("" if v is None else str(v) for v in shown)


def _recognised(asked: tuple, shown: tuple) -> bool:
    """Whether the panel recognised every part of the selection the request asked for (a part
    left out may be filled in by the panel itself: the one orientation of a piece)."""
    return all(a == "" or a == s for a, s in zip(asked, shown, strict=True))


def _cached_panel(request, viewed: Viewed, params, links) -> str:
    """The panel from the cache, or rendered and stored. What is stored is the render cut at
    its slots (``_cut``) with the clock's deadline beside it, so that serving it is a join of
    the pieces with this request's token, key and times: no search through the HTML, and no
    clock read on a hit."""
    asked = _asked_selection(params)
    reads = panel_reads(viewed, request.user, links.token, asked)
    stored = cache.get(reads.key)
    if stored is None:
        tag = _placeholder_tag()
        slots = {name: tag + name for name in SLOTS}
        ctx = _context(
            request,
            viewed,
            params,
            links,
            labels=reads.labels,
            profiles=reads.profiles,
            facts=reads.facts,
            slots=slots,
        )
        html = render_to_string(PANEL, ctx)  # no request: nothing per-user gets in
        stored = (_cut(html, tag), (ctx["clock"] or {}).get("deadline"))
        if _recognised(asked, _shown_selection(ctx)):
            cache.set(reads.key, stored, CACHE_SECONDS)
    pieces, deadline = stored
    game = viewed.game
    values = {
        "csrf": get_token(request),
        "key": secrets.token_urlsafe(16),
        "ago": escape(timesince(game.turn_started_at)) if game.turn_started_at else "",
        "left": escape(time_left({"deadline": deadline})),
    }
    return mark_safe("".join(values[p] if i % 2 else p for i, p in enumerate(pieces)))


def _placeholder_tag() -> str:
    """The start of this render's placeholders: fresh letters and digits, which no escaping
    changes and no text of the panel spells."""
    return f"slot{secrets.token_hex(8)}"


def _cut(html: str, tag: str) -> tuple[str, ...]:
    """The rendered panel cut at its placeholders: (text, slot name, text, ..., text)."""
    head, *rest = html.split(tag)
    pieces = [head]
    for piece in rest:
        name = next(name for name in SLOTS if piece.startswith(name))
        pieces += [name, piece[len(name) :]]
    return tuple(pieces)


def _html_response(html: str, status: int) -> HttpResponse:
    return HttpResponse(html, status=status)
