"""Many games of every kind, written as rows in bulk (the restore drill's test and the data
export's bench need hundreds or thousands; playing them through the services would take
minutes). Each game is played by the engine with random legal actions from a seeded start, so
its rows are what the write path leaves: the settings, the seed and salt (Shuffle), the
snapshot, the actions with their public events, the seats with places and scores once it is
over. Kinds: classic and Shuffle, two to four players, open, in play, finished and aborted."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta

from games import engine
from games.models import Action, Game, Seat

START = datetime(2025, 1, 1, tzinfo=UTC)
KINDS = [
    (mode, players, status)
    for mode in ("classic", "shuffle")
    for players in (2, 3, 4)
    for status in (
        Game.Status.FINISHED,
        Game.Status.FINISHED,
        Game.Status.ACTIVE,
        Game.Status.OPEN,
        Game.Status.ABORTED,
    )
]


def _played(mode: str, players: int, status: str, rng: random.Random):
    """(seed, salt, initial state, final state, actions with their events) for one game."""
    seed = salt = None
    if mode == "shuffle":
        seed, salt = f"{rng.getrandbits(256):064x}", f"{rng.getrandbits(128):032x}"
    state = engine.new_game(mode=mode, players=players, seed=seed, salt=salt)
    initial, actions = state, []
    if status == Game.Status.OPEN:
        return seed, salt, initial, None, actions
    stop = None if status == Game.Status.FINISHED else rng.randrange(4, 30)
    while not state.over and (stop is None or len(actions) < stop):
        action = rng.choice(engine.legal_actions(state))
        seat = state.controller()
        state = engine.apply(state, action)
        actions.append((seat, action, state.events))
    return seed, salt, initial, state, actions


def bulk_games(users, count: int, *, seed: int = 1, owner=None) -> list[Game]:
    """``count`` games cycling through ``KINDS``; seats go to ``users`` in turn (``owner``, if
    given, sits in every game at seat 0). Returns the games."""
    rng = random.Random(seed)
    others = itertools.cycle([u for u in users if u != owner])
    kinds = itertools.cycle(KINDS)
    games, seats, actions = [], [], []
    for i in range(count):
        mode, players, status = next(kinds)
        game_seed, salt, initial, final, played = _played(mode, players, status, rng)
        at = START + timedelta(hours=i)
        game = Game(
            created_by=owner or next(others),
            mode=mode,
            players=players,
            status=status,
            seed=game_seed,
            salt=salt or "",
            state=final.to_json() if final is not None else None,
            ply=len(played),
            to_move_seat=final.controller()
            if final is not None and status == Game.Status.ACTIVE
            else None,
            started_at=at if final is not None else None,
            finished_at=at + timedelta(minutes=30) if status == Game.Status.FINISHED else None,
            turn_started_at=at if status == Game.Status.ACTIVE else None,
            rated=False,
        )
        game.deck_recipe = dict(initial.recipe) if mode == "shuffle" and initial.recipe else None
        games.append((game, final, played))
    Game.objects.bulk_create([g for g, _f, _p in games])
    for game, final, played in games:
        places = {}
        if game.status == Game.Status.FINISHED:
            places = {p["seat"]: p for p in engine.score(final)["players"]}
        for index in range(game.players):
            user = owner if owner is not None and index == 0 else next(others)
            seats.append(
                Seat(
                    game=game,
                    index=index,
                    kind=Seat.Kind.HUMAN
                    if game.status != Game.Status.OPEN or index == 0
                    else Seat.Kind.OPEN,
                    user=user if game.status != Game.Status.OPEN or index == 0 else None,
                    final_place=places[index]["place"] if places else None,
                    final_score=places[index]["score"] if places else None,
                    joined_at=game.started_at,
                )
            )
        for ply, (seat, action, events) in enumerate(played, start=1):
            actions.append(Action(game=game, ply=ply, seat=seat, payload=action, events=events))
    Seat.objects.bulk_create(seats, batch_size=2000)
    Action.objects.bulk_create(actions, batch_size=5000)
    return [g for g, _f, _p in games]
