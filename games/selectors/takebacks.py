"""Reads for take backs (games.services.takeback writes them): the last move, the request
waiting at the game's ply, and what the game page shows a viewer about them."""

from __future__ import annotations

from games import engine
from games.models import Action, Game, Seat, TakeBack


def last_move(game: Game) -> list[Action]:
    """The actions of the last move, oldest first: the trailing run of actions by one seat for
    one colour (a turn's card, its choices and its piece); [] before the first action."""
    rows = list(Action.objects.filter(game=game).order_by("-ply")[:12])
    if not rows:
        return []
    colour = _colour_of(rows[0])
    run = []
    for row in rows:
        if row.seat != rows[0].seat or _colour_of(row) != colour:
            break
        run.append(row)
    return run[::-1]


def _colour_of(row: Action) -> str | None:
    return next((e.get("colour") for e in row.events if e.get("colour")), None)


def may_ask(game: Game, seat: Seat | None, move: list[Action]) -> bool:
    """The page's cheap test for offering "Take back" (the request checks everything)."""
    return bool(
        seat is not None
        and not game.rated
        and game.status == Game.Status.ACTIVE
        and move
        and move[-1].seat == seat.index
        and all(a.user_id == seat.user_id and "resign" not in a.payload for a in move)
        and not any(e.get("event") == "draw" for a in move for e in a.events)
    )


def rebuilt(game: Game, from_ply: int) -> engine.State:
    """The state before ``from_ply``: the first position and the record's actions before it."""
    state = game.initial_state()
    for payload in Action.objects.filter(game=game, ply__lt=from_ply).values_list(
        "payload", flat=True
    ):
        state = engine.apply(state, payload)
    return state


def drew(before: engine.State, after: engine.State) -> bool:
    """Whether a card left a draw pile between the two states (R3.2, R5.4, R6.3)."""
    return any(len(after.piles[o]) < len(before.piles[o]) for o in before.owners())


def about_now(game: Game):
    """The take backs asked about the game's current position: at its ply, and since its last
    action (a ply taken back is played again: older requests at that ply were about another
    move)."""
    last = Action.objects.filter(game=game).order_by("-ply").values("created_at").first()
    rows = TakeBack.objects.filter(game=game, at_ply=game.ply)
    return rows.filter(created_at__gte=last["created_at"]) if last else rows


def pending(game: Game) -> TakeBack | None:
    """The take back waiting for answers at the game's current position, if any (a move since
    lapsed it)."""
    return about_now(game).filter(status=TakeBack.Status.PENDING).first()


def facts(game: Game, seat: Seat | None, labels: dict[int, str]) -> dict | None:
    """What ``seat``'s player sees about take backs now (plain data for
    games.presenters.concede), or None: nothing to show."""
    if seat is None or game.rated or game.status != Game.Status.ACTIVE:
        return None
    request = pending(game)
    if request is not None:
        answered = {int(k) for k in request.answers}
        return {
            "id": request.pk,
            "asker": labels.get(request.seat, ""),
            "mine": request.seat == seat.index,
            "answer": request.seat != seat.index and seat.index not in answered,
            "answered": seat.index in answered,
        }
    declined = about_now(game).filter(status=TakeBack.Status.DECLINED).first()
    if declined is not None:
        return {"declined": True, "mine": declined.seat == seat.index}
    move = last_move(game)
    if may_ask(game, seat, move):
        # A setup placement draws without an event (R3.2): in Shuffle, look (cache misses only:
        # the panel is cached per position).
        if game.mode == Game.Mode.SHUFFLE and drew(
            rebuilt(game, move[0].ply), game.current_state()
        ):
            return None
        return {"can_ask": True}
    return None
