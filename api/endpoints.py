"""``/api/v1/``: the endpoints, thin as the game's views are (STYLE.md habit 8): read the request,
ask a selector or a service, answer JSON. Every write goes through ``games.services``, the one
write path the pages use (STYLE.md habit 4): a move here is the page's move, with the same lock,
stale-ply check, idempotency key and refusal naming the rule.

The OpenAPI schema is ``/api/v1/openapi.json`` (and a browsable copy at ``/api/v1/docs``).
Errors are ``{"detail": "...", "code": "..."}`` with the HTTP status of the refusal; an engine's
refusal adds ``"rules": ["R4.3"]``, a stale ply ``"ply"`` (where the game is).
"""

from __future__ import annotations

import json
from typing import Literal

from channels.db import database_sync_to_async
from django.http import Http404
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Query, Router, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError

from api import reads, stream
from api.auth import PLAY, READ, ApiError
from games import services
from games.forms import GameForm, PlayNowForm
from games.models import Seat
from games.selectors.access import game_by_public_id, game_for_viewer, game_to_move
from games.services import seeks as matching
from games.translations import rule_ids, rule_message

MAX_ACTION_LENGTH = 2000  # as the page's (games/views/game.py): the longest action is ~70

api = NinjaAPI(
    title="Blokus Shuffle API",
    version="1",
    description=(
        "Play your own games from a program. Authenticate every request with "
        "`Authorization: Bearer <token>` (Settings > Access tokens). Scopes: `read` (your "
        "account and games), `play` (moves, resign, take back, chat, challenges, Play now; "
        "reads too). At most 120 requests a minute per token."
    ),
    urls_namespace="api-v1",
    auth=READ,
)


# -- errors ------------------------------------------------------------------------------------


def _error(request, status: int, detail: str, code: str, headers=None, **extra):
    response = api.create_response(
        request, {"detail": detail, "code": code, **extra}, status=status
    )
    for name, value in (headers or {}).items():
        response[name] = value
    return response


@api.exception_handler(ApiError)
def _api_error(request, exc: ApiError):
    return _error(request, exc.status, str(exc), exc.code, exc.headers, **exc.extra)


@api.exception_handler(services.GameError)
def _refused(request, exc: services.GameError):
    """The write path's refusals, as the page words them (games/views/game.py's ``refusal``):
    the rule's own words for the engine's, the service's reason otherwise."""
    if isinstance(exc, services.Refused):
        text = str(exc)
        return _error(request, 400, rule_message(text), "illegal", rules=rule_ids(text))
    if isinstance(exc, services.StalePly):
        return _error(request, 409, str(exc), "stale")
    code = {403: "not_allowed", 404: "not_found", 409: "conflict", 429: "too_many"}
    headers = {}
    if getattr(exc, "retry_after", None):
        headers["Retry-After"] = str(exc.retry_after)
    return _error(request, exc.status, str(exc), code.get(exc.status, "refused"), headers)


@api.exception_handler(Http404)
def _not_found(request, exc):
    return _error(request, 404, _("no such game"), "not_found")


@api.exception_handler(ValidationError)
def _unreadable(request, exc: ValidationError):
    """A body or a parameter that is not what the schema says: 400, naming each field."""
    problems = []
    for error in exc.errors:
        where = ".".join(str(part) for part in error.get("loc", ()) if part not in ("body",))
        problems.append(f"{where}: {error.get('msg', '')}" if where else error.get("msg", ""))
    detail = _("the request could not be read: %(problems)s") % {"problems": "; ".join(problems)}
    return _error(request, 400, detail, "bad_request")


@api.exception_handler(AuthenticationError)
def _no_auth(request, exc):
    return _error(
        request, 401, _("send your token as the header Authorization: Bearer <token>"), "no_token"
    )


@api.exception_handler(HttpError)
def _http_error(request, exc: HttpError):
    if exc.status_code == 400:  # ninja's parser: the body is not JSON at all
        return _error(request, 400, _("the request's body is not valid JSON"), "bad_request")
    return _error(request, exc.status_code, exc.message, "bad_request")


def _viewed(request, game_id: str):
    return game_for_viewer(game_id, request.auth.user)


# -- account -----------------------------------------------------------------------------------


@api.get("/me", tags=["account"], summary="Your account and this token")
def me(request):
    user, token = request.auth.user, request.auth
    return {
        "username": user.username,
        "name": str(user),
        "language": user.email_language(),
        "time_zone": user.time_zone,
        "token": {"name": token.name, "scopes": token.scope_list, "prefix": token.prefix},
    }


# -- games -------------------------------------------------------------------------------------

games = Router(tags=["games"])


class MyGamesQuery(Schema):
    before: str = ""


@games.get("", summary="My games: your turn, waiting, not started, a page of finished")
def my_games(request, query: Query[MyGamesQuery]):
    """The lists of My games; ``older`` is the cursor of the next page of finished games
    (``?before=<older>``)."""
    return reads.my_games_out(request.auth.user, before=query.before[:32])


@games.get("/{game_id}", summary="A game from your seat's view")
def game(request, game_id: str):
    """What your game page shows you: ``view`` is ``engine.view`` for your seat (your hand, the
    public board, piles by count), ``table`` the public facts (turn order, anchors, scores)."""
    return reads.game_out(_viewed(request, game_id), request.auth.user)


@games.get("/{game_id}/legal", summary="The legal actions at your decision")
def legal(request, game_id: str):
    return reads.legal_out(_viewed(request, game_id))


@games.get("/{game_id}/actions", summary="The move log after a ply (public events)")
def actions(request, game_id: str, since_ply: int = 0):
    viewed = _viewed(request, game_id)
    return {"ply": viewed.game.ply, "actions": reads.actions_after(viewed.game, since_ply)}


class ActionIn(Schema):
    action: dict
    ply: int
    key: str = ""


@games.post("/{game_id}/actions", auth=PLAY, summary="Play an action at your decision")
def act(request, game_id: str, body: ActionIn):
    """``action`` as ``/legal`` lists them, ``ply`` the game's ply you saw (409 if it moved on),
    ``key`` an idempotency key of your choosing (a retry with it is answered once, not played
    twice)."""
    if len(json.dumps(body.action)) > MAX_ACTION_LENGTH:
        raise ApiError(400, _("the move is too long to be a record action"), "bad_request")
    try:
        result = services.action_submit(
            game=game_to_move(game_id),
            user=request.auth.user,
            action=body.action,
            expected_ply=body.ply,
            key=body.key,
        )
    except services.StalePly as exc:
        # The game as it stands, as the page shows it after a stale move: here its ply.
        ply = _viewed(request, game_id).game.ply
        raise ApiError(409, str(exc), "stale", ply=ply) from None
    return {"ply": result.ply, "duplicate": result.duplicate}


@games.post("/{game_id}/resign", auth=PLAY, summary="Resign")
def resign(request, game_id: str):
    game = _viewed(request, game_id).game
    game = services.game_resign(game=game, user=request.auth.user)
    return {"ply": game.ply, "status": game.status}


class TakebackIn(Schema):
    answer: Literal["accept", "decline"] | None = None


@games.post("/{game_id}/takeback", auth=PLAY, summary="Ask for a take back, or answer one")
def takeback(request, game_id: str, body: TakebackIn):
    """No ``answer``: ask to take back your last move (unrated games, until the next player
    acts). ``answer``: accept or decline the take back another player asked for."""
    game = _viewed(request, game_id).game
    user = request.auth.user
    if body.answer is None:
        done = services.takeback_request(game=game, user=user)
    else:
        done = services.takeback_answer(game=game, user=user, accept=body.answer == "accept")
    return {"id": done.pk, "status": done.status}


@games.get("/{game_id}/chat", summary="The chat lines you may read")
def chat_read(request, game_id: str):
    return {"lines": reads.chat_out(_viewed(request, game_id), request.auth.user)}


class ChatIn(Schema):
    text: str


@games.post("/{game_id}/chat", auth=PLAY, summary="Post a chat line")
def chat_post(request, game_id: str, body: ChatIn):
    from games.services.chat import chat_post as post

    viewed = _viewed(request, game_id)
    line = post(game=viewed.game, user=request.auth.user, text=body.text)
    return {"id": line.pk, "room": line.room}


api.add_router("/games", games)


# -- challenges (invitations) ------------------------------------------------------------------

challenges = Router(tags=["challenges"])


class ChallengeIn(Schema):
    """A new game inviting players: ``opponents`` are invited to the seats after yours (their
    usernames; ``"ai:<level>"`` gives a seat to the computer); the seats left are open."""

    opponents: list[str]
    mode: Literal["shuffle", "classic"] = "shuffle"
    players: int = 2
    scoring: Literal["basic", "advanced"] = "basic"
    move_seconds: int = 24 * 3600
    visibility: Literal["public", "private"] = "public"
    rated: bool = True
    shared_color: str = "green"


def _game_form(body: ChallengeIn) -> GameForm:
    """The new-game page's own form checks the settings (choices, one seat for the creator)."""
    if not 1 <= len(body.opponents) < body.players:
        raise ApiError(
            400,
            _("name one to %(most)d opponents for a %(players)d-player game")
            % {"most": max(1, body.players - 1), "players": body.players},
            "bad_request",
        )
    data = {
        "mode": body.mode,
        "players": body.players,
        "scoring": body.scoring,
        "recipe": "default",
        "shared_color": body.shared_color,
        "move_seconds": body.move_seconds,
        "visibility": body.visibility,
        "seating": "chosen",
        "seat0_kind": Seat.Kind.HUMAN,
    }
    if body.rated:
        data["rated"] = "on"
    for i in range(4):
        data.setdefault(f"seat{i}_kind", Seat.Kind.OPEN)
        data[f"seat{i}_level"] = Seat.Level.CASUAL
    for i, name in enumerate(body.opponents, start=1):
        if name.startswith("ai:"):
            data[f"seat{i}_kind"], data[f"seat{i}_level"] = Seat.Kind.AI, name[3:]
        else:
            data[f"seat{i}_kind"], data[f"seat{i}_username"] = Seat.Kind.INVITED, name
    return GameForm(data)


def _form_refused(form) -> ApiError:
    problems = [
        f"{field}: {' '.join(errors)}" if field != "__all__" else " ".join(errors)
        for field, errors in form.errors.items()
    ]
    return ApiError(400, "; ".join(problems), "bad_request")


@challenges.post("", auth=PLAY, summary="Challenge players: a new game inviting them")
def challenge(request, body: ChallengeIn):
    form = _game_form(body)
    if not form.is_valid():
        raise _form_refused(form)
    game = services.game_create(creator=request.auth.user, **form.create_kwargs())
    return {"id": game.public_id, "status": game.status}


@challenges.get("", summary="Challenges: to you, and yours waiting for an answer")
def challenge_list(request):
    page = reads.my_games_out(request.auth.user)
    return {
        "to_me": [g for g in page["open"] if g["invited"]],
        "mine": [g for g in page["open"] if g["created_by_me"]],
    }


@challenges.post("/{game_id}/accept", auth=PLAY, summary="Accept a challenge")
def challenge_accept(request, game_id: str):
    game = game_by_public_id(game_id)
    if game is None:
        raise services.NotAllowed(_("you have no invitation to this game (any more)"))
    seat = services.invitation_accept(game=game, user=request.auth.user)
    game.refresh_from_db(fields=["status"])
    return {"id": game.public_id, "seat": seat.index, "status": game.status}


@challenges.post("/{game_id}/decline", auth=PLAY, summary="Decline a challenge")
def challenge_decline(request, game_id: str):
    game = game_by_public_id(game_id)
    if game is None:
        raise services.NotAllowed(_("you have no invitation to this game (any more)"))
    services.invitation_decline(game=game, user=request.auth.user)
    return {"id": game.public_id, "declined": True}


@challenges.delete("/{game_id}", auth=PLAY, summary="Cancel your challenge (before it starts)")
def challenge_cancel(request, game_id: str):
    game = _viewed(request, game_id).game
    if game.created_by_id != request.auth.user.pk:
        raise services.NotAllowed(_("only the player who made this challenge can cancel it"))
    services.game_leave(game=game, user=request.auth.user)
    game.refresh_from_db(fields=["status"])
    return {"id": game.public_id, "status": game.status}


api.add_router("/challenges", challenges)


# -- Play now ----------------------------------------------------------------------------------

seek = Router(tags=["play now"])


class SeekIn(Schema):
    mode: Literal["shuffle", "classic"] = "shuffle"
    players: int = 2  # 0: any number
    move_seconds: int = 24 * 3600
    rated: bool = True
    fill_after: int | None = 600  # seconds before the computer takes the empty seats; None: never


@seek.post("", auth=PLAY, summary="Play now: ask for a game")
def seek_ask(request, body: SeekIn):
    data = {
        "mode": body.mode,
        "players": body.players,
        "move_seconds": body.move_seconds,
        "fill_after": "never" if body.fill_after is None else str(body.fill_after),
    }
    if body.rated:
        data["rated"] = "on"
    form = PlayNowForm(data, fill_choices=matching.FILL_CHOICES)
    if not form.is_valid():
        raise _form_refused(form)
    matching.seek_ask(user=request.auth.user, **form.ask_kwargs())
    return reads.seek_out(request.auth.user)


@seek.get("", summary="Play now: your request (waiting, or the game it became)")
def seek_status(request):
    return reads.seek_out(request.auth.user)


@seek.delete("", auth=PLAY, summary="Play now: stop waiting")
def seek_cancel(request):
    matching.seek_cancel(user=request.auth.user)
    return reads.seek_out(request.auth.user)


api.add_router("/seek", seek)


# -- streams -----------------------------------------------------------------------------------

NDJSON = {
    "responses": {
        200: {
            "description": "Newline-delimited JSON, one event a line, endless (a keepalive "
            "line every 20 s of silence); served by the ASGI server.",
            "content": {stream.CONTENT_TYPE: {"schema": {"type": "object"}}},
        }
    }
}


@api.get(
    "/stream/me",
    tags=["streams"],
    summary="Your events: challenge, game started, your turn, game over",
    openapi_extra=NDJSON,
)
async def stream_me(request):
    """The first line (``hello``) lists the games where it is your turn and the challenges to
    you; then one line per event."""
    return stream.streaming(request, stream.me_stream(request.auth))


@api.get(
    "/stream/games/{game_id}",
    tags=["streams"],
    summary="A game's actions as they happen, from your seat's view",
    openapi_extra=NDJSON,
)
async def stream_game(request, game_id: str, since_ply: int | None = None):
    """``action`` lines (ply, seat, the public events) then a ``game`` line (the game from your
    seat, as ``GET /games/{game_id}``); ``?since_ply=N``: first every action after ply N, to
    catch up after a reconnect."""
    await database_sync_to_async(game_for_viewer)(game_id, request.auth.user)  # 404 first
    return stream.streaming(request, stream.game_stream(request.auth, game_id, since_ply))
