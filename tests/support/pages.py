"""Shared test helpers (moved from tests/games/test_play.py)."""

from __future__ import annotations

import json
import re

from django.test import Client

from games import engine, services
from games.engine.state import State
from games.models import Game

CORNERS = {"blue": ["a1"], "yellow": ["t1"], "red": ["t20"], "green": ["a20"]}

HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page_url(game) -> str:
    return f"/games/{game.public_id}/"


def panel_url(game, query: str = "") -> str:
    return f"/games/{game.public_id}/panel/" + (f"?{query}" if query else "")


def act_url(game) -> str:
    return f"/games/{game.public_id}/act/"


def save_state(game, state: State, **extra) -> Game:
    """Make ``state`` the game's snapshot (at the game's current ply)."""
    data = state.to_json()
    Game.objects.filter(pk=game.pk).update(
        state=data, to_move_seat=state.controller(), ply=data["ply"], **extra
    )
    game.refresh_from_db()
    return game


def post_action(client, game, action, *, ply=None, key="", htmx=True, raw=None):
    """POST a move as the page does. A move the server takes answers 204 with the ply it reached
    (HX-Trigger "game-moved") and the page then fetches its panel: so does this helper, and it
    returns that panel, the mover's view after the move (``.moved`` holds the POST's answer)."""
    game.refresh_from_db()
    data = {
        "action": raw if raw is not None else json.dumps(action),
        "ply": game.ply if ply is None else ply,
        "key": key,
    }
    response = client.post(act_url(game), data, **(HTMX if htmx else {}))
    if htmx and response.status_code == 204:
        moved = response
        response = client.get(panel_url(game), **HTMX)
        response.moved = moved
    return response


def text(response) -> str:
    return response.content.decode()


def section(content: str, css_class: str) -> str:
    match = re.search(r'<section class="' + css_class + r'".*?</section>', content, re.S)
    assert match, f"no section {css_class}"
    return match.group(0)


def play_setup(game) -> Game:
    """Play the four setup placements (the first legal one each time) through the service."""
    for _ in range(4):
        game.refresh_from_db()
        state = game.current_state()
        user = game.seats.get(index=state.controller()).user
        action = engine.legal_actions(state)[0]
        services.action_submit(game=game, user=user, action=action, expected_ply=game.ply)
    game.refresh_from_db()
    return game
