"""Legal actions and their effects: RULES.md R3–R8.

``apply(state, action)`` returns a new state (the old one is untouched) or raises
``IllegalAction`` naming the rule. Everything that needs no decision happens inside ``apply``:
drawing, passing when nothing can be placed (R5.3), turns lost to Skip (R6.1), the single card a
Draw 2 drew (R6.3), the end of the game (R8.1).

Decisions taken where RULES.md leaves a point open (also on the help page):

* The shared colour's setup placement is its first turn (player 1's); its first main turn is
  player 2's (R2.4). Only turns it actually takes advance the rotation (R2.4a).
* A Warp must move the piece to a *different* set of squares (R6.8); a piece may land on squares it
  covered before as long as the set differs.
* Edge to Edge (R6.5) asks for side contact with any of the player's own colours, so with two
  players a blue piece may lean on a red one.
* A player whose Double Play first piece empties the colour's supply places no second piece (R6.6:
  no second placement exists).
* The card a Draw 2 does not keep goes to the bottom of the pile before the kept card is played,
  so a kept Draw 2 may draw it again (R6.3).
* A Wild piece is checked against the declared colour only: it may share a side with its real
  colour (R6.4). Edge to Edge needs no free corner even for a colour with no piece on the board.
* Ties share the place and the next place is skipped: scores 10, 10, 12 rank 1, 1, 3 (R8.3).
* The +5 of R8.4 looks at the last piece the colour itself placed; a Warp moves a piece but is not
  a placement by its colour.

Resigning (R11.1, R11.2; the printed rules do not speak of it; ``resign`` below, on the help page
too):

* ``{"resign": "<colour>"}`` is the one action a player may send out of turn, at any point once the
  setup round is over (R3.1: every colour places its setup piece), and with two players during it
  too (it ends the game): the player who owns that colour (R2.5; with two players either of
  theirs) resigns. It is written in the record like any action.
* From then on the player's colours take no more turns, as a colour with an empty supply (R7.2):
  they play no card, place no piece and draw nothing; their pieces stay on the board (a Warp may
  still move them) and the squares left in their supply count as left (R8.2). If it was their turn,
  the turn ends there: a card played this turn stays played (a Skip still skips), a Draw 2's cards
  go to the bottom of the pile, and play moves to the next colour in play (R7.3).
* With three players the shared colour's rotation passes a resigned player by (R2.4).
* When at most one player has not resigned the game ends at once (a two-player game ends with the
  resignation); otherwise the others play on and the game ends by R8.1.
* Places (R8.3, R8.4): every player who resigned ranks below every player who did not; among
  themselves they rank by score.
"""

from __future__ import annotations

from .cards import CARD_KINDS, CARD_NAMES
from .errors import IllegalAction

# Legal move generation lives in .moves and the steps' registry in .steps; the names below are
# re-exported because the AI, the CLI and the tests import them from here.
from .moves import (  # noqa: E402, F401
    _any_placement,
    _any_warp,
    _placements,
    has_placement,
    legal_actions,
    legal_placements,
    placement_context,
    placement_text,
    placements_covering,
    r4_context,
    warp_moves,
)
from .pieces import (
    BOARD,
    PIECE_INDEX,
    PIECE_SHIFT,
    PLACEMENT_PIECE,
    mask_text,
    parse_squares,
    shape_of_mask,
    shift_adjacent,
    shift_diagonal,
)
from .state import COLOUR_INDEX, COLOURS, State
from .steps import STEP_ACTION, STEP_RULE, STEP_WHAT, STEPS, Step  # noqa: E402, F401

# -- applying an action ---------------------------------------------------------------------


def _action_kind(action: object) -> str:
    if not isinstance(action, dict):
        raise IllegalAction('an action must be an object such as {"place": "a1"}')
    keys = set(action)
    for key in keys:
        if key not in ("place", "card", "keep", "declare", "recycle", "warp", "to"):
            raise IllegalAction(f"unknown key {key!r} in action")
    if "warp" in keys or "to" in keys:
        if keys != {"warp", "to"}:
            raise IllegalAction("a warp action has exactly the keys 'warp' and 'to' (R6.8)")
        kind = "warp"
    elif len(keys) != 1:
        raise IllegalAction("an action has exactly one key (or 'warp' with 'to')")
    else:
        kind = next(iter(keys))
    for key in keys:
        if not isinstance(action[key], str):
            raise IllegalAction(f"the value of {key!r} must be a string")
    return kind


def _placement_value(text: str) -> int:
    try:
        mask = parse_squares(text)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    name = shape_of_mask(mask)
    if name is None:
        raise IllegalAction(f"squares {mask_text(mask)} do not form a piece (R1.3)")
    return mask | 1 << (PIECE_SHIFT + PIECE_INDEX[name])


def apply(s: State, action: dict) -> State:
    """The state after ``action``, with every automatic step that follows it carried out."""
    if s.step == "over":
        raise IllegalAction("the game is over: no action can follow (R8.1)")
    if isinstance(action, dict) and "resign" in action:
        return resign(s, action)
    kind = _action_kind(action)
    expected = STEP_ACTION[s.step]
    if kind != expected:
        also = "; one card per turn, R6.9" if kind == "card" and s.step != "setup" else ""
        raise IllegalAction(
            f"a {kind!r} action is out of place: {COLOURS[s.turn]} must "
            f"{STEP_WHAT[s.step]} now ({STEP_RULE[s.step]}{also})"
        )
    n = s.copy()
    n.ply += 1
    if kind == "place":
        _do_place(n, _placement_value(action["place"]))
    elif kind == "card":
        _do_card(n, action["card"])
    elif kind == "keep":
        _do_keep(n, action["keep"])
    elif kind == "declare":
        _do_declare(n, action["declare"])
    elif kind == "recycle":
        _do_recycle(n, action["recycle"])
    else:
        _do_warp(n, action["warp"], action["to"])
    _settle(n)
    return n


def _refuse_placement(s: State, value: int) -> None:
    """Raise IllegalAction naming the first rule the placement breaks, if it breaks one."""
    c, step = s.turn, s.step
    mask, name = value & BOARD, PLACEMENT_PIECE[value]
    colour = COLOURS[c]
    if not s.supply[c] >> PIECE_INDEX[name] & 1:
        raise IllegalAction(f"piece {name} is not in {colour}'s supply (R5.3)")
    occupied = s.occupied
    if mask & occupied:
        raise IllegalAction("piece covers a square that is not free (R4.1)")
    anchors, blocked, _ = placement_context(s)
    if mask & anchors and not mask & blocked:
        return
    if step == "setup":
        raise IllegalAction("a setup piece must cover a free corner square (R3.1)")
    if step == "place_second":
        if mask & shift_adjacent(s.boards[c]):
            raise IllegalAction(f"piece touches {colour} along a side (R4.3, R6.6)")
        raise IllegalAction("Double Play's second piece must touch the first at a corner (R6.6)")
    if s.edge:
        raise IllegalAction(
            "with Edge to Edge the piece must share a side with a piece of your colours (R6.5)"
        )
    rules_colour = s.wild if s.wild is not None else c
    own = s.boards[rules_colour]
    who = "its own colour" if s.wild is None else f"the declared colour {COLOURS[s.wild]} (R6.4)"
    if not own:
        raise IllegalAction(f"with no piece of {who} on the board it must cover a corner (R4.5)")
    if mask & shift_adjacent(own):
        raise IllegalAction(f"piece touches {who} along a side (R4.3)")
    raise IllegalAction(f"piece does not touch {who} at a corner (R4.2)")


def _event(s: State, kind: str, **data) -> None:
    s.events.append({"colour": COLOURS[s.turn], "event": kind, **data})


def _do_place(s: State, value: int) -> None:
    _refuse_placement(s, value)
    c = s.turn
    mask, name = value & BOARD, PLACEMENT_PIECE[value]
    s.boards[c] |= mask
    s.pieces[c].append(value)
    s.supply[c] &= ~(1 << PIECE_INDEX[name])
    s.last_piece[c] = name
    s.changed = True
    _event(s, "place", piece=name, squares=placement_text(value))
    if s.step == "setup":
        owner = s.owner(c)
        if owner == c:  # R3.2: right after the player's first setup placement, draw two
            _draw(s, owner, 2)
        if c == 3:  # R3.3
            _end_setup_turn(s)
            _begin_turn(s, 0)
        else:
            _end_setup_turn(s)
            s.turn = c + 1
        return
    if s.step == "place" and s.double:  # R6.6
        s.first = mask
        s.step = "place_second"
        return
    _finish_turn(s)


def _end_setup_turn(s: State) -> None:
    if s.turn == s.shared:  # R2.4: the shared colour's setup placement is player 1's
        s.rotation = (s.rotation + 1) % 3


def _draw(s: State, owner: int, count: int) -> int:
    pile = s.piles[owner]
    taken = pile[:count]
    del pile[:count]
    s.hands[owner].extend(taken)
    s.known_bottom[owner] = min(s.known_bottom[owner], len(pile))
    return len(taken)


def _do_card(s: State, kind: str) -> None:
    if kind not in CARD_KINDS:
        raise IllegalAction(f"unknown card {kind!r} (R1.4)")
    hand = s.hands[s.owner(s.turn)]
    if kind not in hand:
        raise IllegalAction(f"{CARD_NAMES[kind]} is not in your hand (R5.1)")
    hand.remove(kind)
    _play(s, kind)


def _play(s: State, kind: str) -> None:
    """Put a card on the discard pile and carry out its action if able (R5.1, R6)."""
    c = s.turn
    owner = s.owner(c)
    s.discards[owner].append(kind)
    _event(s, "card", card=kind)
    s.step = "place"
    able = True
    if kind == "skip":  # R6.1
        able = bool(s.in_play() & ~(1 << c))
        s.skip_pending = able
    elif kind == "reverse":  # R6.2
        s.direction = -s.direction
    elif kind == "draw2":  # R6.3
        pile = s.piles[owner]
        able = bool(pile)
        if able:
            s.drawn = pile[:2]
            del pile[:2]
            s.known_bottom[owner] = min(s.known_bottom[owner], len(pile))
            _event(s, "draw", count=len(s.drawn))
            if len(s.drawn) == 2:
                s.step = "keep"
            else:
                _play(s, s.drawn.pop())
    elif kind == "wild":  # R6.4
        s.step = "declare"
    elif kind == "edge":  # R6.5
        s.edge = True
        able = has_placement(s)
        s.edge = able
    elif kind == "double":  # R6.6
        s.double = True
    elif kind == "recycle":  # R6.7
        able = bool(s.own_mask(s.controller()))
        if able:
            s.step = "recycle"
    elif kind == "warp":  # R6.8
        able = _any_warp(s)
        if able:
            s.step = "warp"
    if not able:
        _event(s, "no_effect", card=kind)


def _do_keep(s: State, kind: str) -> None:
    if kind not in s.drawn:
        raise IllegalAction(f"{kind!r} is not one of the cards Draw 2 drew (R6.3)")
    owner = s.owner(s.turn)
    s.drawn.remove(kind)
    s.piles[owner].append(s.drawn.pop())  # R6.3: the other card to the bottom of the pile
    s.known_bottom[owner] += 1
    _play(s, kind)


def _do_declare(s: State, name: str) -> None:
    if name not in COLOUR_INDEX:
        raise IllegalAction(f"unknown colour {name!r}: declare blue, yellow, red or green (R6.4)")
    s.wild = COLOUR_INDEX[name]
    s.step = "place"
    _event(s, "declare", declared=name)


def _find_piece(s: State, text: str, colours, rule: str) -> tuple[int, int]:
    try:
        mask = parse_squares(text)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    for colour in range(4):
        for value in s.pieces[colour]:
            if value & BOARD == mask:
                if colour not in colours:
                    raise IllegalAction(f"the piece at {text} is {COLOURS[colour]}'s ({rule})")
                return colour, value
    raise IllegalAction(f"no piece covers exactly the squares {text} ({rule})")


def _do_recycle(s: State, text: str) -> None:
    colour, value = _find_piece(s, text, s.seat_colours(s.controller()), "R6.7")
    s.pieces[colour].remove(value)
    s.boards[colour] &= ~(value & BOARD)
    s.supply[colour] |= 1 << PIECE_INDEX[PLACEMENT_PIECE[value]]
    s.changed = True
    s.step = "place"
    _event(s, "recycle", piece=PLACEMENT_PIECE[value], owner=COLOURS[colour], squares=text)


def _do_warp(s: State, text: str, to: str) -> None:
    mine = s.seat_colours(s.controller())
    colour, value = _find_piece(s, text, [c for c in range(4) if c not in mine], "R6.8")
    new = _placement_value(to)
    name = PLACEMENT_PIECE[value]
    if PLACEMENT_PIECE[new] != name:
        raise IllegalAction(f"a warped piece keeps its shape: {to} is not the {name} (R6.8)")
    if new == value:
        raise IllegalAction("a warped piece must move to a different spot (R6.8)")
    mask = value & BOARD
    rest = s.boards[colour] & ~mask
    if not rest:
        raise IllegalAction(f"{COLOURS[colour]} has no other piece for it to touch (R6.8)")
    occupied = s.occupied & ~mask
    new_mask = new & BOARD
    if new_mask & occupied:
        raise IllegalAction("the new spot covers a square that is not free (R4.1, R6.8)")
    if new_mask & shift_adjacent(rest):
        raise IllegalAction(f"the new spot touches {COLOURS[colour]} along a side (R4.3, R6.8)")
    if not new_mask & shift_diagonal(rest):
        raise IllegalAction(
            f"the new spot does not touch {COLOURS[colour]} at a corner (R4.2, R6.8)"
        )
    pieces = s.pieces[colour]
    pieces[pieces.index(value)] = new
    s.boards[colour] = rest | new_mask
    s.changed = True
    s.step = "place"
    _event(s, "warp", owner=COLOURS[colour], squares=text, to=placement_text(new))


def resign(s: State, action: dict) -> State:
    """The state after a player resigns (the module's docstring says what that means)."""
    if set(action) != {"resign"} or not isinstance(action["resign"], str):
        raise IllegalAction('a resignation is {"resign": "<one of your colours>"}')
    name = action["resign"]
    if name not in COLOUR_INDEX:
        raise IllegalAction(f"unknown colour {name!r}: resign with one of your colours (R2.5)")
    seat = s.seat_of(COLOUR_INDEX[name])
    if seat is None:
        raise IllegalAction(f"{name} is the shared colour, nobody's own: it cannot resign (R2.5)")
    if s.resigned >> seat & 1:
        raise IllegalAction(f"{name}'s player has resigned already: their colours are out (R7.2)")
    last = len(s.playing_seats()) <= 2
    if s.step == "setup" and not last:
        raise IllegalAction(
            "a player may resign once every colour has placed its setup piece (R3.1)"
        )
    n = s.copy()
    n.ply += 1
    n.resigned |= 1 << seat
    n.events.append({"colour": name, "event": "resign", "seat": seat})
    if last:  # one player is left: they have won (a two-player game ends here)
        _bottom_drawn(n)
        _game_over(n)
        return n
    if n.players == 3 and n.rotation == seat and n.turn != n.shared:
        n.rotation = _next_rotation(n, seat)
    if n.controller() == seat:  # it was their turn: it ends here (R7.3)
        _bottom_drawn(n)
        _finish_turn(n, abandoned=True)
        _settle(n)
    return n


def _bottom_drawn(s: State) -> None:
    """Cards a Draw 2 drew and nobody kept go to the bottom of the pile (R6.3)."""
    if s.drawn:
        owner = s.owner(s.turn)
        s.piles[owner].extend(s.drawn)
        s.known_bottom[owner] += len(s.drawn)
        s.drawn = []


def _next_rotation(s: State, after: int) -> int:
    """The player whose turn of the shared colour comes after ``after``'s (R2.4), passing by a
    player who resigned."""
    for k in range(1, 4):
        nxt = (after + k) % 3
        if not s.resigned >> nxt & 1:
            return nxt
    return (after + 1) % 3  # nobody left: the game is over anyway


def _game_over(s: State) -> None:
    _event(s, "over")
    s.turn, s.step = None, "over"
    s.wild, s.edge, s.double, s.first, s.skip_pending = None, False, False, 0, False


# -- turn flow ------------------------------------------------------------------------------


def _settle(s: State) -> None:
    """Carry out automatic steps until a decision is needed or the game is over."""
    while s.step in ("place", "place_second") and not has_placement(s):
        if s.step == "place":
            _event(s, "pass")  # R5.3
        _finish_turn(s)


def _finish_turn(s: State, *, abandoned: bool = False) -> None:
    """R5.4 draw, then R8.1 end check, then the next colour (R7, R6.1). ``abandoned``: the turn
    ends because its player resigned (no draw, and it is not a pass)."""
    c = s.turn
    owner = s.owner(c)
    if owner is not None and not abandoned and _draw(s, owner, 1):
        _event(s, "draw", count=1)
    if s.changed:
        s.passed = 0
    elif not abandoned:
        s.passed |= 1 << c  # the placement was passed (R5.3)
    if c == s.shared:
        s.rotation = _next_rotation(s, s.rotation)  # R2.4a
    in_play = s.in_play()
    if not in_play & ~s.passed:  # R8.1
        _game_over(s)
        return
    nxt = _next_colour(s, c, in_play)
    if s.skip_pending:  # R6.1: the next colour loses its turn; no rotation advance (R2.4a)
        s.events.append({"colour": COLOURS[nxt], "event": "skipped"})
        nxt = _next_colour(s, nxt, in_play)
    _begin_turn(s, nxt)


def _next_colour(s: State, c: int, in_play: int) -> int:
    """The next colour in play in the current direction (R7.3)."""
    for k in range(1, 5):
        nxt = (c + k * s.direction) % 4
        if in_play >> nxt & 1:
            return nxt
    raise AssertionError("no colour in play")  # _finish_turn ends the game first


def _begin_turn(s: State, c: int) -> None:
    s.turn = c
    s.wild, s.edge, s.double, s.first = None, False, False, 0
    s.skip_pending = s.changed = False
    owner = s.owner(c)
    s.step = "card" if owner is not None and s.hands[owner] else "place"  # R5.1
