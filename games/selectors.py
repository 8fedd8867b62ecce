"""Read queries for views (STYLE.md): who may see a game, what they see, the lists."""

from __future__ import annotations

from django.http import Http404

from games import engine
from games.models import Game, Seat


def game_for_viewer(public_id: str, user, *, token: str = "") -> tuple[Game, Seat | None]:
    """The game and the viewer's seat (None for spectators), or 404.

    A private game is visible to its seated and invited players, to staff, and to whoever holds
    its invite link; to anyone else it does not exist (404, not 403: no probing for ids).
    """
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        raise Http404("no such game")
    seat = None
    if user is not None and user.is_authenticated:
        seat = game.seats.filter(user=user, kind=Seat.Kind.HUMAN).first()
        invited = game.seats.filter(user=user, kind=Seat.Kind.INVITED).exists()
        if seat is None and not invited and not user.is_staff:
            _require_public(game, token)
    else:
        _require_public(game, token)
    return game, seat


def _require_public(game: Game, token: str) -> None:
    if game.visibility != Game.Visibility.PUBLIC and token != game.invite_token:
        raise Http404("no such game")


def game_view(game: Game, seat: Seat | None) -> dict | None:
    """engine.view for the viewer: everything shown during play goes through it (R9)."""
    if game.state is None:
        return None
    state = engine.State.from_json(game.state)
    return engine.view(state, seat.index if seat is not None else None)


def my_games(user) -> dict[str, list[Game]]:
    """The viewer's games: their turn first, then waiting for others, then open, then finished."""
    games = list(Game.objects.for_user(user).prefetch_related("seats__user"))
    mine = {s.game_id: s.index for g in games for s in g.seats.all() if s.user_id == user.pk}
    groups: dict[str, list[Game]] = {"your_turn": [], "waiting": [], "open": [], "finished": []}
    for game in games:
        if game.status == Game.Status.ACTIVE:
            key = "your_turn" if game.to_move_seat == mine.get(game.pk) else "waiting"
            groups[key].append(game)
        elif game.status == Game.Status.OPEN:
            groups["open"].append(game)
        else:
            groups["finished"].append(game)
    groups["your_turn"].sort(key=lambda g: g.turn_started_at or g.created_at)
    return groups


def open_games():
    return Game.objects.open_to_join().select_related("created_by").prefetch_related("seats__user")
