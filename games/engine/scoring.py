"""End of game and scoring: R8.2–R8.5."""

from __future__ import annotations

from .pieces import PIECE_INDEX, PIECE_SIZE
from .state import COLOURS, State


def remaining(s: State, colour: int) -> int:
    """R8.2: the squares of the pieces still in the colour's supply."""
    supply = s.supply[colour]
    return sum(PIECE_SIZE[p] for p, i in PIECE_INDEX.items() if supply >> i & 1)


def colour_points(s: State, colour: int) -> int:
    """R8.4: −1 per remaining square; nothing remaining: +15, and +5 more if the 1 came last."""
    left = remaining(s, colour)
    if left:
        return -left
    return 20 if s.last_piece[colour] == "1" else 15


def seat_score(s: State, seat: int) -> int:
    """R8.3 (basic, lower wins) or R8.4 (advanced, higher wins) for one player."""
    colours = s.seat_colours(seat)
    if s.scoring == "basic":
        values = [remaining(s, c) for c in colours]
        if len(values) == 1:
            return values[0]
        return max(values) if s.mode == "shuffle" else sum(values)  # R8.3 two players
    values = [colour_points(s, c) for c in colours]
    if len(values) == 1:
        return values[0]
    return min(values) if s.mode == "shuffle" else sum(values)  # R8.4 two players


def score(s: State) -> dict:
    """The record's ``score`` output: scores so far by the game's scoring (RECORD.md)."""
    seats = range(s.players)
    scores = [seat_score(s, seat) for seat in seats]
    out = [bool(s.resigned >> seat & 1) for seat in seats]
    sign = 1 if s.scoring == "basic" else -1  # lower wins (R8.3), higher wins (R8.4)
    # A player who resigned ranks below every player who did not (rules.resign).
    keys = [(out[seat], sign * scores[seat]) for seat in seats]
    players = []
    for seat in seats:
        place = 1 + sum(1 for other in keys if other < keys[seat])
        players.append(
            {
                "seat": seat,
                "colours": [COLOURS[c] for c in s.seat_colours(seat)],
                "score": scores[seat],
                "place": place,
                "resigned": out[seat],
            }
        )
    return {
        "over": s.over,
        "scoring": s.scoring,
        "remaining": {COLOURS[c]: remaining(s, c) for c in range(4)},
        "points": {
            COLOURS[c]: (remaining(s, c) if s.scoring == "basic" else colour_points(s, c))
            for c in range(4)
        },
        "players": players,
    }
