"""Reads for take backs (games.services.takeback writes them): the last move, the cards it drew,
the request waiting at the game's ply, and what the game page shows a viewer about them."""

from __future__ import annotations

from collections import Counter

from games import engine
from games.engine.state import COLOUR_INDEX
from games.models import Action, Game, Seat, TakeBack

# R3.1: the setup round is one placement per colour, the record's first four plies (only a
# two-player game may see a resignation during it, and that ends the game).
SETUP_PLIES = 4


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
        and not draw2_drew(move)
    )


def draw2_drew(move: list[Action]) -> bool:
    """Whether a Draw 2 of ``move`` drew cards (R6.3). The card it played went face up on the
    discard pile, so every player has seen it: taken back, it would lie among the top two cards
    of its owner's pile, and everyone would know part of that pile's order, which R9.3 keeps
    secret. R11.3 lets a move whose turn ended with a draw be taken back (that card only its
    owner has seen); a Draw 2's draw is refused. The engine writes a Draw 2's draw right after
    the card's own event, in the same action (games.engine.rules)."""
    for action in move:
        events = action.events
        for first, second in zip(events, events[1:], strict=False):
            if (
                first.get("event") == "card"
                and first.get("card") == "draw2"
                and second.get("event") == "draw"
            ):
                return True
    return False


def rebuilt(game: Game, from_ply: int) -> engine.State:
    """The state before ``from_ply``: the first position and the record's actions before it."""
    state = game.initial_state()
    for payload in Action.objects.filter(game=game, ply__lt=from_ply).values_list(
        "payload", flat=True
    ):
        state = engine.apply(state, payload)
    return state


def drawn(game: Game, move: list[Action]) -> dict[int, int]:
    """Per seat, how many cards ``move`` (the game's last actions) drew from the top of that
    seat's draw pile: its player's setup draw (R3.2), end-of-turn draw (R5.4) and Draw 2 (R6.3).
    Every draw event of the move counts, whoever's colour it names; in practice only the
    mover's: a colour that passes by itself after the move holds no card, so its pile is empty
    (R5.5). An accepted take back rebuilds the game without the move, so these cards are back on
    top of their piles, in order (R11.3). Only how many is read, which is public (R9.1): never
    which cards (R9.2)."""
    if game.mode != Game.Mode.SHUFFLE or not move:
        return {}
    after = game.current_state()
    counts: Counter = Counter()
    if move[0].ply <= SETUP_PLIES:
        # A setup draw is no event (R3.2); the round's few plies replay at once, and no card is
        # put at the bottom of a pile during it (no card is played).
        before = rebuilt(game, move[0].ply)
        for owner in after.owners():
            counts[owner] = len(before.piles[owner]) - len(after.piles[owner])
    else:
        for action in move:
            for event in action.events:
                if event.get("event") == "draw":
                    counts[after.owner(COLOUR_INDEX[event["colour"]])] += event["count"]
    return {after.seat_of(owner): n for owner, n in counts.items() if owner is not None and n > 0}


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
        undone = list(Action.objects.filter(game=game, ply__gte=request.from_ply))
        return {
            "id": request.pk,
            "asker": labels.get(request.seat, ""),
            "mine": request.seat == seat.index,
            "answer": request.seat != seat.index and seat.index not in answered,
            "answered": seat.index in answered,
            **_back_on_top(drawn(game, undone), seat, labels),
        }
    declined = about_now(game).filter(status=TakeBack.Status.DECLINED).first()
    if declined is not None:
        return {"declined": True, "mine": declined.seat == seat.index}
    move = last_move(game)
    if may_ask(game, seat, move):
        return {"can_ask": True, **_back_on_top(drawn(game, move), seat, labels)}
    return None


def _back_on_top(counts: dict[int, int], seat: Seat, labels: dict[int, str]) -> dict:
    """What the viewer is told, before anyone answers, of the cards a take back puts back on
    top of their piles (R11.3): how many go back on their own pile, and on whose other piles
    how many; the cards are not named (R9.2)."""
    return {
        "back_mine": counts.get(seat.index, 0),
        "back_others": [
            {"name": labels.get(other, ""), "count": n}
            for other, n in sorted(counts.items())
            if other != seat.index
        ],
    }
