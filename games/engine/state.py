"""The game state: a plain object that round-trips through JSON.

Colours are indices 0–3 in turn order (R1.2). Decks belong to *owners*: the colour that names the
deck in a record (RECORD.md ``decks``): each colour with four players, each non-shared colour with
three (R2.4: the shared colour's cards stay face down and are never used, so it has no deck here),
``blue`` (blue/red player) and ``yellow`` (yellow/green player) with two (R2.3).

Seats are players, numbered from 0: with four players seat i plays colour i; with two players seat 0
plays blue and red, seat 1 yellow and green; with three players the non-shared colours are numbered
in turn order (R2.4).
"""

from __future__ import annotations

from functools import lru_cache

from .cards import (
    DEFAULT_RECIPE,
    check_recipe,
    commitment,
    new_salt,
    new_seed,
    recipe_cards,
    shuffled_decks,
)
from .errors import RecordError
from .pieces import (
    ALL_PIECES_MASK,
    BOARD,
    PIECE_INDEX,
    PIECE_SHIFT,
    PIECES,
    PLACEMENT_PIECE,
    SIZE,
    W,
    mask_text,
    parse_squares,
    placement_text,
    shape_of_mask,
    squares_of,
)

COLOURS: tuple[str, ...] = ("blue", "yellow", "red", "green")
COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}
LETTERS = "BYRG"
MODES = ("classic", "shuffle")
SCORINGS = ("basic", "advanced")


class State:
    """Everything about a game at one moment, the hidden parts included.

    ``pieces[c]`` lists colour c's placements on the board (``mask | piece tag`` ints, see
    ``pieces.py``) in the order they were placed; ``boards[c]`` is their union and ``supply[c]``
    a bitmask of piece indices still to play.
    """

    __slots__ = (
        "mode",
        "players",
        "scoring",
        "shared",
        "recipe",
        "seed",
        "salt",
        "commitment",
        "boards",
        "pieces",
        "supply",
        "last_piece",
        "hands",
        "piles",
        "discards",
        "known_bottom",
        "drawn",
        "turn",
        "step",
        "direction",
        "wild",
        "edge",
        "double",
        "first",
        "skip_pending",
        "changed",
        "passed",
        "rotation",
        "ply",
        "events",
        "resigned",
    )

    def copy(self) -> State:
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        new.boards = list(self.boards)
        new.pieces = [list(p) for p in self.pieces]
        new.supply = list(self.supply)
        new.last_piece = list(self.last_piece)
        new.hands = {k: list(v) for k, v in self.hands.items()}
        new.piles = {k: list(v) for k, v in self.piles.items()}
        new.discards = {k: list(v) for k, v in self.discards.items()}
        new.known_bottom = dict(self.known_bottom)
        new.drawn = list(self.drawn)
        new.events = []
        return new

    # -- who is who -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.step == "over"

    @property
    def occupied(self) -> int:
        b = self.boards
        return b[0] | b[1] | b[2] | b[3]

    def owner(self, colour: int) -> int | None:
        """The deck owner (a colour index) whose hand serves this colour, or None (no cards)."""
        if self.mode != "shuffle":
            return None
        if self.players == 2:
            return colour % 2
        if self.players == 3 and colour == self.shared:
            return None
        return colour

    def owners(self) -> list[int]:
        if self.mode != "shuffle":
            return []
        if self.players == 2:
            return [0, 1]
        return [c for c in range(4) if c != self.shared]

    def seat_colours(self, seat: int) -> list[int]:
        """A seat's own colours (R2.5)."""
        if self.players == 4:
            return [seat]
        if self.players == 2:
            return [seat, seat + 2]
        return [[c for c in range(4) if c != self.shared][seat]]

    def seat_of(self, colour: int) -> int | None:
        """The seat that owns a colour; None for the shared colour (nobody's own, R2.5)."""
        if self.players == 4:
            return colour
        if self.players == 2:
            return colour % 2
        if colour == self.shared:
            return None
        return [c for c in range(4) if c != self.shared].index(colour)

    def controller(self) -> int | None:
        """The seat that decides now: the owner of the colour to move, or for the shared colour
        the player whose rotation it is (R2.4)."""
        if self.turn is None:
            return None
        seat = self.seat_of(self.turn)
        return self.rotation if seat is None else seat

    def own_mask(self, seat: int) -> int:
        out = 0
        for c in self.seat_colours(seat):
            out |= self.boards[c]
        return out

    def in_play(self) -> int:
        """Bitmask of colours that still have a piece in supply (R7.2) and whose player has not
        resigned (rules.resign: a resigned player's colours take no more turns)."""
        return sum(
            1 << c for c in range(4) if self.supply[c] and not self.resigned >> self.seat(c) & 1
        )

    def seat(self, colour: int) -> int:
        """``seat_of`` for the resignation mask: the shared colour (nobody's) maps to a bit no
        seat sets."""
        seat = self.seat_of(colour)
        return 7 if seat is None else seat

    def playing_seats(self) -> list[int]:
        """The seats whose player has not resigned, in seat order."""
        return [p for p in range(self.players) if not self.resigned >> p & 1]

    # -- JSON -------------------------------------------------------------------------------

    def board_rows(self) -> list[str]:
        """The board as RECORD.md writes it: row 20 first, a colour's letter or "." a square.
        Walks the occupied squares only (every page and move writes it); where two
        boards claimed a square, the first colour's letter would win, as it always has."""
        cells = ["."] * (SIZE * W)
        for c in (3, 2, 1, 0):
            letter, mask = LETTERS[c], self.boards[c]
            while mask:
                low = mask & -mask
                cells[low.bit_length() - 1] = letter
                mask ^= low
        return ["".join(cells[y * W : y * W + SIZE]) for y in range(SIZE - 1, -1, -1)]

    def to_json(self) -> dict:
        """The all-knowing referee's view (RECORD.md ``state``); round-trips via from_json."""
        own = [COLOURS[o] for o in self.owners()]
        return {
            "mode": self.mode,
            "players": self.players,
            "scoring": self.scoring,
            "shared_color": COLOURS[self.shared] if self.shared is not None else None,
            "deck_recipe": dict(self.recipe) if self.mode == "shuffle" else None,
            "seed": self.seed,
            "salt": self.salt,
            "commitment": self.commitment,
            "board": self.board_rows(),
            "to_move": COLOURS[self.turn] if self.turn is not None else None,
            "step": self.step,
            "direction": self.direction,
            "over": self.over,
            "ply": self.ply,
            "supply": {
                COLOURS[c]: [p for p in PIECES if self.supply[c] >> PIECE_INDEX[p] & 1]
                for c in range(4)
            },
            "pieces": {COLOURS[c]: [placement_text(v) for v in self.pieces[c]] for c in range(4)},
            "last_piece": {COLOURS[c]: self.last_piece[c] for c in range(4)},
            "hands": {o: list(self.hands[COLOUR_INDEX[o]]) for o in own},
            "draw_piles": {o: list(self.piles[COLOUR_INDEX[o]]) for o in own},
            "discards": {o: list(self.discards[COLOUR_INDEX[o]]) for o in own},
            "known_bottom": {o: self.known_bottom[COLOUR_INDEX[o]] for o in own},
            "drawn": list(self.drawn),
            "effect": self.effect_json(),
            "skip_pending": self.skip_pending,
            "changed": self.changed,
            "passed": [COLOURS[c] for c in range(4) if self.passed >> c & 1],
            "rotation": self.rotation,
            "events": list(self.events),
            "resigned": [p for p in range(self.players) if self.resigned >> p & 1],
        }

    def effect_json(self) -> dict:
        """The card effect in force this turn (public, R9.1)."""
        return {
            "wild": COLOURS[self.wild] if self.wild is not None else None,
            "edge": self.edge,
            "double": self.double,
            "first": mask_text(self.first) if self.first else None,
        }

    @classmethod
    def from_json(cls, data: dict) -> State:
        s = cls.__new__(cls)
        s.mode = data["mode"]
        s.players = data["players"]
        s.scoring = data["scoring"]
        s.shared = COLOUR_INDEX[data["shared_color"]] if data.get("shared_color") else None
        s.recipe = dict(data["deck_recipe"] or DEFAULT_RECIPE)
        s.seed = data.get("seed")
        s.salt = data.get("salt")
        s.commitment = data.get("commitment")
        s.pieces = [[] for _ in range(4)]
        s.boards = [0, 0, 0, 0]
        for name, texts in data["pieces"].items():
            c = COLOUR_INDEX[name]
            for text in texts:
                value = _placed(text)
                s.pieces[c].append(value)
                s.boards[c] |= value & BOARD
        s.supply = [0, 0, 0, 0]
        for name, names in data["supply"].items():
            for p in names:
                s.supply[COLOUR_INDEX[name]] |= 1 << PIECE_INDEX[p]
        s.last_piece = [data["last_piece"][c] for c in COLOURS]
        s.hands, s.piles, s.discards, s.known_bottom = {}, {}, {}, {}
        for o in data["hands"]:
            i = COLOUR_INDEX[o]
            s.hands[i] = list(data["hands"][o])
            s.piles[i] = list(data["draw_piles"][o])
            s.discards[i] = list(data["discards"][o])
            s.known_bottom[i] = data["known_bottom"][o]
        s.drawn = list(data["drawn"])
        s.turn = COLOUR_INDEX[data["to_move"]] if data["to_move"] else None
        s.step = data["step"]
        s.direction = data["direction"]
        effect = data["effect"]
        s.wild = COLOUR_INDEX[effect["wild"]] if effect["wild"] else None
        s.edge = effect["edge"]
        s.double = effect["double"]
        s.first = parse_squares(effect["first"]) if effect["first"] else 0
        s.skip_pending = data["skip_pending"]
        s.changed = data["changed"]
        s.passed = sum(1 << COLOUR_INDEX[c] for c in data["passed"])
        s.rotation = data["rotation"]
        s.ply = data["ply"]
        s.events = list(data["events"])
        s.resigned = sum(1 << p for p in data.get("resigned", ()))  # absent: older snapshots
        return s


# A snapshot is read on every request of its game, and a placed piece's value never changes:
# cached per process, as its text is the other way (pieces.placement_text). A text
# that is not a piece raises, and is not cached.
@lru_cache(maxsize=1 << 16)
def _placed(text: str) -> int:
    """A placed piece's value (its squares and its piece's tag) from its record text."""
    mask = parse_squares(text)
    return mask | _tag_of(mask)


def _tag_of(mask: int) -> int:
    name = shape_of_mask(mask)
    if name is None:
        raise RecordError(f"squares {mask_text(mask)} do not form a piece (R1.3)")
    return 1 << (PIECE_SHIFT + PIECE_INDEX[name])


def piece_of(value: int) -> str:
    return PLACEMENT_PIECE[value]


def new_game(
    *,
    mode: str = "shuffle",
    players: int = 4,
    scoring: str = "basic",
    shared_color: str | None = None,
    deck_recipe: dict | None = None,
    seed: int | str | None = None,
    decks: dict[str, list[str]] | None = None,
    salt: str | None = None,
) -> State:
    """A game at its first decision (blue's setup placement, R3.1).

    The shuffle seed (256 bits, hex) and its salt come from ``secrets`` unless given (R3.2), and
    the public ``commitment`` to them is computed (cards.py); an integer seed shuffles as older
    records did, with no commitment. ``decks`` (owner colour name → cards, top first) replaces the
    shuffle, as a record's ``decks`` does.
    """
    if mode not in MODES:
        raise RecordError(f"mode must be 'classic' or 'shuffle', not {mode!r} (R2.1)")
    if players not in (2, 3, 4) or isinstance(players, bool):
        raise RecordError(f"players must be 2, 3 or 4, not {players!r} (R2)")
    if scoring not in SCORINGS:
        raise RecordError(f"scoring must be 'basic' or 'advanced', not {scoring!r} (R8.3)")
    s = State.__new__(State)
    s.mode, s.players, s.scoring = mode, players, scoring
    s.shared = None
    if players == 3:
        name = shared_color or "green"
        if name not in COLOUR_INDEX:
            raise RecordError(f"unknown shared colour {name!r} (R2.4)")
        s.shared = COLOUR_INDEX[name]
    elif shared_color is not None:
        raise RecordError("shared_color is for three players only (R2.4)")
    s.recipe = check_recipe(deck_recipe if deck_recipe is not None else DEFAULT_RECIPE)
    s.seed = s.salt = s.commitment = None
    s.boards = [0, 0, 0, 0]
    s.pieces = [[], [], [], []]
    s.supply = [ALL_PIECES_MASK] * 4
    s.last_piece = [None] * 4
    s.hands, s.piles, s.discards, s.known_bottom = {}, {}, {}, {}
    s.drawn = []
    if mode == "shuffle":
        owners = s.owners()
        per_owner = recipe_cards(s.recipe) * (2 if players == 2 else 1)
        s.seed = new_seed() if seed is None and decks is None else seed
        if isinstance(s.seed, str):
            s.salt = salt if salt is not None else new_salt()
            s.commitment = commitment(s.seed, s.salt)
        if decks is None:
            shuffled = shuffled_decks(s.seed, owners, {o: per_owner for o in owners})
        else:
            shuffled = _check_decks(decks, owners, per_owner)
        for o in owners:
            s.hands[o], s.piles[o], s.discards[o], s.known_bottom[o] = [], shuffled[o], [], 0
    s.turn, s.step, s.direction = 0, "setup", 1
    s.wild, s.edge, s.double, s.first = None, False, False, 0
    s.skip_pending = s.changed = False
    s.passed = 0
    s.rotation = 0
    s.ply = 0
    s.events = []
    s.resigned = 0
    return s


def _check_decks(decks, owners: list[int], per_owner: list[str]) -> dict[int, list[str]]:
    """Validate a record's ``decks``: one per owner, each exactly the recipe's cards (R1.4).

    With three players a deck given for the shared colour is accepted and ignored: its cards stay
    face down all game (R2.4).
    """
    if not isinstance(decks, dict):
        raise RecordError("decks must be an object: owner colour → list of cards")
    names = {COLOURS[o] for o in owners}
    out = {}
    for key, cards in decks.items():
        if key not in COLOUR_INDEX:
            raise RecordError(f"unknown deck owner {key!r} in decks")
        if key not in names:
            if len(owners) == 3:  # the shared colour's face-down deck
                continue
            raise RecordError(f"{key} owns no deck with {len(owners)} players (R2.3)")
        if not isinstance(cards, list) or sorted(map(str, cards)) != sorted(per_owner):
            raise RecordError(f"deck {key} does not hold exactly the recipe's cards (R1.4)")
        out[COLOUR_INDEX[key]] = list(cards)
    missing = names - {COLOURS[o] for o in out}
    if missing:
        raise RecordError(f"decks lacks the deck of {', '.join(sorted(missing))}")
    return out


__all__ = ["COLOURS", "COLOUR_INDEX", "State", "new_game", "piece_of", "squares_of"]
