"""The game page, its decision panel, and the one write endpoint (``act``). Thin: read the
request, ask a selector or service, hand the result to games/presenters, render.

What is shown comes from ``selectors.seat_snapshot``: the viewer's ``engine.view`` (R9) and
``engine.table`` (turn order, anchors, scores, and for the seat deciding now its legal actions and
card outlooks). The page never renders ``game.state``, ``game.seed``, another hand or a pile order.

What one viewer sees at one position never changes, so the panel (the ``#game`` section) is
rendered once per (game, position, viewer, selection) and kept in the Django cache (Redis in
production, local memory under ``make run``). The per-request parts (CSRF token, idempotency key,
"this turn began … ago") are cut in when the cached HTML is served.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from datetime import datetime

from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from games import selectors, services
from games.models import Game
from games.presenters import colours as colour_rows
from games.presenters import concede
from games.presenters import game as presenter
from games.selectors import takebacks
from games.translations import rule_message

from .links import Links

PAGE = "games/play.html"
PANEL = "games/play.html#game"
MAX_ACTION_LENGTH = 2000  # the longest record action (a warp) is ~70 characters
SELECTION = ("piece", "o", "from")  # the panel's wizard state, carried in GET parameters
CACHE_SECONDS = 3600
# Stand-ins rendered into the cached panel, replaced per request (never cached themselves).
CSRF_MARK, KEY_MARK, AGO_MARK = "csrfMARKq7Zx", "keyMARKq7Zx", "agoMARKq7Zx"
LEFT_MARK = "leftMARKq7Zx"  # the time left on the clock, worked out per request
DEADLINE = re.compile(r'data-deadline="([^"]+)"')


class BadInput(services.GameError):
    """The request itself could not be read (not a refusal by the rules)."""


# Never from the browser's cache: Back would show the position of the first load, whose form
# carries a key already spent (issue #26). The page's script resyncs a page restored whole.
@never_cache
@require_safe
def game_page(request, public_id):
    token = request.GET.get("token", "")
    game, seat = selectors.game_for_viewer(public_id, request.user, token=token)
    return _respond(request, game, seat, request.GET, page=True)


@never_cache
@require_safe
def panel(request, public_id):
    token = request.GET.get("token", "")
    game, seat = selectors.game_for_viewer(public_id, request.user, token=token)
    return _respond(request, game, seat, request.GET, page=False)


@require_POST
def act(request, public_id):
    if not request.user.is_authenticated:
        if not request.htmx:
            return redirect_to_login(reverse("game", args=[public_id]))
        game, seat = selectors.game_for_viewer(public_id, None)
        return _respond(request, game, seat, {}, message=_("Log in to play."), status=403)
    # The move path reads only the game's id here: the write path locks the row and reads the
    # seats itself, and refuses anyone who does not hold the seat to move.
    game = selectors.game_to_move(public_id)
    try:
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
        game, seat = selectors.game_for_viewer(public_id, request.user)
        return _respond(
            request, game, seat, {}, page=not request.htmx, message=refusal(exc), status=exc.status
        )
    if not request.htmx:
        return redirect("game", public_id=game.public_id)
    return moved(result.ply)


def moved(ply: int) -> HttpResponse:
    """A move's answer (issue #25): no panel, only the ply the game reached. The page's live
    client (static/js/live.js, "game-moved") then fetches its panel for that ply, as it does
    after a nudge, and that panel is served from the cache to every request for it: the POST
    costs the write path alone."""
    response = HttpResponse(status=204)
    response["HX-Trigger"] = json.dumps({"game-moved": {"ply": ply}})
    return response


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


def _respond(request, game, seat, params, *, page=False, message="", status=200):
    token = params.get("token", "")
    token = token if token and token == game.invite_token else ""
    links = Links(game, token)
    if game.status == Game.Status.OPEN or game.state is None or message:
        ctx = _context(request, game, seat, params, links, message=message)
        if page:
            ctx["game_name"] = selectors.game_name(game)
        return render(request, PAGE if page else PANEL, ctx, status=status)
    html = _cached_panel(request, game, seat, params, links)
    if not page:
        return _html_response(html, status)
    ctx = {"game": game, "seat": seat, "panel_html": html, "joining": False}
    ctx["game_name"] = selectors.game_name(game)
    return render(request, PAGE, ctx, status=status)


def _context(
    request, game, seat, params, links, *, message="", labels=None, facts=None, marked=False
) -> dict:
    """The page's context; ``labels`` and ``facts`` when the caller has read them already;
    ``marked``: for the panel cache, the per-request parts (the form's token and key, how long
    ago the turn began, the clock's words) as their marks, filled in per request."""
    ctx = {
        "game": game,
        "seat": seat,
        "token": links.token,
        "message": message,
        "error": bool(message),
        "panel_url": links.panel_url,
        "key": KEY_MARK if marked else secrets.token_urlsafe(16),
    }
    if marked:
        ctx["csrf_token"] = CSRF_MARK
    if game.status == Game.Status.OPEN or game.state is None:
        facts = selectors.table_facts(game, seat, request.user, links.token)
        ctx.update(presenter.joining(facts))
        if seat is not None and game.status == Game.Status.OPEN:  # for the players to pass on
            path = reverse("game_invite", args=[game.public_id, game.invite_token])
            ctx["invite_url"] = request.build_absolute_uri(path)
        return ctx
    snapshot = selectors.seat_snapshot(game, seat)
    clock = selectors.turn_clock(game)
    ctx.update(
        presenter.playing(
            facts or selectors.table_facts(game, seat, request.user, links.token),
            labels if labels is not None else selectors.seat_labels(game),
            snapshot,
            params,
            links.link,
            selectors.earlier_events(game),
            log_rows=selectors.turn_log(game),
            replay_url=reverse("game_replay", kwargs={"public_id": game.public_id}),
            clock=clock,
        )
    )
    over = game.status == Game.Status.FINISHED
    ctx["shuffle"] = presenter.shuffle(
        snapshot["view"], selectors.shuffle_verdict(game) if over else None
    )
    if marked:
        ctx.update(turn_ago=AGO_MARK, time_left=LEFT_MARK)
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
        takeback=takebacks.facts(game, seat, labels or selectors.seat_labels(game)),
    )
    return ctx


def time_left(clock: dict | None) -> str:
    """What the clock says now ("3 hours, 4 minutes"); the page's script counts it down."""
    due = clock and clock.get("deadline")
    if not due:
        return ""
    now = timezone.now()
    return _("no time: the computer plays it now") if due <= now else timeuntil(due, now)


def _cache_key(facts, labels, links, selection: tuple, game: Game) -> str:
    """The panel's cache key, derived from what the panel reads: the plain facts the presenters
    take (``selectors.table_facts``: a new fact there is part of the key by construction), the
    position (the snapshot, the seat to move, the turn's start), the names at the table, the
    reader's language, the invite token and the selection. The snapshot itself is hashed too: it
    changes only with the ply in play, but the digest keeps a rewritten one from being served
    stale."""
    facts = json.dumps(
        [
            game.state,
            repr(facts),
            sorted(labels.items()),
            game.to_move_seat,
            str(game.turn_started_at),
            translation.get_language(),
            links.token,
            selection,
        ]
    )
    digest = hashlib.blake2b(facts.encode(), digest_size=16).hexdigest()
    return f"panel:{game.public_id}:{game.ply}:{digest}"


def _asked_selection(params) -> tuple:
    """The selection as the request writes it (``?piece=``, ``?o=``, ``?from=``)."""
    return tuple(str(params.get(k, ""))[:64] for k in SELECTION)


def _shown_selection(ctx: dict) -> tuple:
    """The selection the panel actually shows: what the decision recognised of the request
    (a piece with a legal spot, one of its orientations, a Warp source); "" for the rest. Only
    a panel whose shown selection is the asked one is stored (G1): a spectator's selection, an
    illegal or garbled one is rendered, never stored, so the cache holds at most one panel per
    legal selection of a (game, ply, reader)."""
    decision = ctx.get("decision") or {}
    shown = (decision.get("piece"), decision.get("orientation"), decision.get("source"))
    return tuple("" if v is None else str(v) for v in shown)


def _recognised(asked: tuple, shown: tuple) -> bool:
    """Whether the panel recognised every part of the selection the request asked for (a part
    left out may be filled in by the panel itself: the one orientation of a piece)."""
    return all(a == "" or a == s for a, s in zip(asked, shown, strict=True))


def _cached_panel(request, game, seat, params, links) -> str:
    labels = selectors.seat_labels(game)
    facts = selectors.table_facts(game, seat, request.user, links.token)
    asked = _asked_selection(params)
    key = _cache_key(facts, labels, links, asked, game)
    html = cache.get(key)
    if html is None:
        ctx = _context(request, game, seat, params, links, labels=labels, facts=facts, marked=True)
        html = render_to_string(PANEL, ctx)  # no request: nothing per-user gets in
        if _recognised(asked, _shown_selection(ctx)):
            cache.set(key, html, CACHE_SECONDS)
    ago = timesince(game.turn_started_at) if game.turn_started_at else ""
    html = html.replace(CSRF_MARK, get_token(request)).replace(AGO_MARK, ago)
    if LEFT_MARK in html:  # the deadline is in the panel: no query to count down from it
        due = DEADLINE.search(html)
        clock = {"deadline": datetime.fromisoformat(due.group(1))} if due else None
        html = html.replace(LEFT_MARK, time_left(clock))
    return mark_safe(html.replace(KEY_MARK, secrets.token_urlsafe(16)))


def _html_response(html: str, status: int) -> HttpResponse:
    return HttpResponse(html, status=status)
