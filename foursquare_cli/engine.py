"""The rules of Foursquare (SPEC section 1), and nothing else.

Everything a position may do is decided here: which moves are legal, what a move
does (placing, flipping, shifting), and when the game ends.

The grid is 16 cells numbered row by row: A1=0, B1=1, ..., D1=3, A2=4, ..., D4=15.
A `State` keeps two 16-bit masks, `occupied` (cells holding a pile) and `down`
(cells whose top card is face down), beside the piles themselves; flipping a line
is then one XOR. `Cell` and `Move` are `int`s (a move is a code from 0 to 35) so
they index the precomputed tables below directly, and every one of them is
created once: parsing and move generation hand out the same objects.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CARDS, Card, check_deck, deal

COLUMNS = "ABCD"
DIRECTIONS = ("up", "down", "left", "right")
MAX_PILE = 4
MAX_FACE_DOWN = 4

PLAYING = "playing"
WON = "won"
LOST = "lost"

LOST_FACE_DOWN = "more than 4 face-down cards"
LOST_STOCK = "the stock ran out"

_FULL = 0xFFFF
_ROW_MASKS = tuple(0xF << (4 * row) for row in range(4))
_COLUMN_MASKS = tuple(0x1111 << column for column in range(4))
_RANK = tuple(card % 10 + 1 for card in CARDS)


class _MoveError(ValueError):
    """`str` is the quoted input and the reason; both are kept for callers that say where."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{text!r}: {reason}")
        self.text = text
        self.reason = reason


class InvalidMoveError(_MoveError):
    """Text that is not a move or a cell; the message quotes it and says what was expected."""


class IllegalMoveError(_MoveError):
    """A well-formed move that the position forbids; the message names it and the rule."""


class Cell(int):
    """A cell of the 4x4 frame, `A1` (top left) to `D4` (bottom right)."""

    __slots__ = ()

    @property
    def row(self) -> int:
        """1 (top) to 4."""
        return self // 4 + 1

    @property
    def column(self) -> str:
        """`A` (left) to `D`."""
        return COLUMNS[self % 4]

    def __str__(self) -> str:
        return COLUMNS[self % 4] + str(self // 4 + 1)

    def __repr__(self) -> str:
        return f"Cell.from_str({str(self)!r})"

    @classmethod
    def from_str(cls, text: str) -> Cell:
        name = text.strip().upper()
        if len(name) == 2 and name[0] in COLUMNS and name[1] in "1234":
            return CELLS[(int(name[1]) - 1) * 4 + COLUMNS.index(name[0])]
        raise InvalidMoveError(text, "no such cell; cells are A1 to D4")


CELLS: tuple[Cell, ...] = tuple(Cell(i) for i in range(16))

_PLACE, _TOP, _SHIFT = "place", "top", "shift"


class Move(int):
    """A move: `B3` (place on an empty cell), `B3 top` (place on a pile), `shift up`.

    Codes 0-15 place on cell N, 16-31 place on top of cell N-16, 32-35 shift
    up, down, left, right. Parse with `Move.from_str`; `str` gives canonical text.
    """

    __slots__ = ()

    @property
    def kind(self) -> str:
        """`place`, `top` or `shift`."""
        return _PLACE if self < 16 else _TOP if self < 32 else _SHIFT

    @property
    def cell(self) -> Cell | None:
        return CELLS[self % 16] if self < 32 else None

    @property
    def direction(self) -> str | None:
        return DIRECTIONS[self - 32] if self >= 32 else None

    def __str__(self) -> str:
        return _MOVE_TEXT[self]

    def __repr__(self) -> str:
        return f"Move.from_str({_MOVE_TEXT[self]!r})"

    @classmethod
    def from_str(cls, text: str) -> Move:
        words = text.lower().split()
        if not words:
            raise InvalidMoveError(text, "empty move; expected a cell like 'B3', 'B3 top' or 'shift up'")
        if words[0] == "shift":
            if len(words) != 2 or words[1] not in DIRECTIONS:
                raise InvalidMoveError(text, "a shift is 'shift up', 'shift down', 'shift left' or 'shift right'")
            return MOVES[32 + DIRECTIONS.index(words[1])]
        if len(words) > 2 or (len(words) == 2 and words[1] != "top"):
            raise InvalidMoveError(text, "expected a cell, optionally followed by 'top' (like 'B3' or 'B3 top')")
        try:
            cell = Cell.from_str(words[0])
        except InvalidMoveError:
            named = "" if len(words) == 1 else f" {words[0].upper()!r}"  # the whole input is the cell
            raise InvalidMoveError(text, f"no such cell{named}; cells are A1 to D4") from None
        return MOVES[cell + 16] if len(words) == 2 else MOVES[cell]

    @classmethod
    def place(cls, cell: int) -> Move:
        return MOVES[cell]

    @classmethod
    def top(cls, cell: int) -> Move:
        return MOVES[16 + cell]

    @classmethod
    def shift(cls, direction: str) -> Move:
        return MOVES[32 + DIRECTIONS.index(direction)]


_MOVE_TEXT = tuple(
    [str(cell) for cell in CELLS] + [f"{cell} top" for cell in CELLS] + [f"shift {d}" for d in DIRECTIONS]
)
MOVES: tuple[Move, ...] = tuple(Move(code) for code in range(36))
SHIFT_UP, SHIFT_DOWN, SHIFT_LEFT, SHIFT_RIGHT = MOVES[32:36]


def _neighbours(cell: int) -> int:
    row, column = divmod(cell, 4)
    mask = 0
    for r, c in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
        if 0 <= r < 4 and 0 <= c < 4:
            mask |= 1 << (r * 4 + c)
    return mask


_NEIGHBOURS = tuple(_neighbours(cell) for cell in range(16))
# For each cell: (row mask without it, the other cells of its row), then the same for its column.
_LINES = tuple(
    (
        (_ROW_MASKS[cell // 4] & ~(1 << cell), tuple(c for c in range(16) if c // 4 == cell // 4 and c != cell)),
        (_COLUMN_MASKS[cell % 4] & ~(1 << cell), tuple(c for c in range(16) if c % 4 == cell % 4 and c != cell)),
    )
    for cell in range(16)
)
# A shift fits when the edge it moves towards is empty: row 1 for up, row 4 for down, ...
_SHIFT_EDGE = (_ROW_MASKS[0], _ROW_MASKS[3], _COLUMN_MASKS[0], _COLUMN_MASKS[3])
_SHIFT_EDGE_NAME = ("row 1", "row 4", "column A", "column D")


class Outcome(NamedTuple):
    """How a game stands: `status` is playing, won or lost; `score` is set only when won."""

    status: str
    score: int | None
    reason: str | None  # why a lost game was lost


class State:
    """A position: the stock (a deck and how many cards were drawn) and the grid.

    Mutable, like OpenSpiel states: `apply` changes it in place; `copy` is cheap
    (16 references and a few ints), and `play` is the pure form.
    """

    __slots__ = ("deck", "drawn", "piles", "occupied", "down", "status")

    deck: tuple[Card, ...]
    drawn: int
    piles: list[tuple[Card, ...]]
    occupied: int
    down: int
    status: str

    def __init__(self, deck: tuple[Card, ...]) -> None:
        """A new game on `deck` (40 distinct cards, the first drawn first)."""
        deck = tuple(CARDS[card] for card in deck)
        check_deck(deck)
        self.deck = deck
        self.drawn = 0
        self.piles = [()] * 16
        self.occupied = 0
        self.down = 0
        self.status = PLAYING

    @classmethod
    def from_seed(cls, seed: int) -> State:
        return cls(deal(seed))

    def copy(self) -> State:
        other = State.__new__(State)
        other.deck = self.deck
        other.drawn = self.drawn
        other.piles = self.piles[:]
        other.occupied = self.occupied
        other.down = self.down
        other.status = self.status
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (
            self.deck == other.deck
            and self.drawn == other.drawn
            and self.piles == other.piles
            and self.down == other.down
            and self.status == other.status
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<State drawn={self.drawn} status={self.status} face_down={self.face_down}>"

    # -- what a player sees -------------------------------------------------

    @property
    def next_card(self) -> Card | None:
        """The card to place now (the top of the stock), or None once the game is over."""
        return self.deck[self.drawn] if self.status == PLAYING else None

    @property
    def stock(self) -> int:
        """Cards left in the stock, the next card included."""
        return 40 - self.drawn

    @property
    def face_down(self) -> int:
        """Face-down top cards on the grid."""
        return self.down.bit_count()

    @property
    def is_over(self) -> bool:
        return self.status != PLAYING

    @property
    def outcome(self) -> Outcome:
        if self.status == WON:
            return Outcome(WON, 40 - self.drawn, None)
        if self.status == LOST:
            return Outcome(LOST, None, LOST_FACE_DOWN if self.face_down > MAX_FACE_DOWN else LOST_STOCK)
        return Outcome(PLAYING, None, None)

    def top(self, cell: int) -> Card | None:
        pile = self.piles[cell]
        return pile[-1] if pile else None

    def is_face_up(self, cell: int) -> bool:
        return not self.down >> cell & 1

    # -- the rules -----------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, placements first (by cell), then `top`s, then shifts."""
        if self.status != PLAYING:
            return []
        occupied = self.occupied
        if not occupied:
            return list(MOVES[:16])
        piles = self.piles
        moves = [MOVES[c] for c in range(16) if not occupied >> c & 1 and _NEIGHBOURS[c] & occupied]
        moves += [MOVES[16 + c] for c in range(16) if 0 < len(piles[c]) < MAX_PILE]
        for direction in range(4):
            if not occupied & _SHIFT_EDGE[direction]:
                moves.append(MOVES[32 + direction])
        return moves

    def is_legal(self, move: int) -> bool:
        return self._illegal_reason(move) is None

    def _illegal_reason(self, move: int) -> str | None:
        if self.status != PLAYING:
            return f"the game is over ({self.status})"
        occupied = self.occupied
        if move >= 32:
            if not occupied:
                return "the grid is empty; there is nothing to shift"
            edge = move - 32
            if occupied & _SHIFT_EDGE[edge]:
                return f"a pile in {_SHIFT_EDGE_NAME[edge]} would leave the frame"
            return None
        cell = move % 16
        if move < 16:
            if occupied >> cell & 1:
                return f"{CELLS[cell]} holds a pile; to place on it, write '{CELLS[cell]} top'"
            if occupied and not _NEIGHBOURS[cell] & occupied:
                return f"{CELLS[cell]} shares no edge with a pile"
            return None
        height = len(self.piles[cell])
        if not height:
            return f"{CELLS[cell]} is empty; to place there, write '{CELLS[cell]}'"
        if height >= MAX_PILE:
            return f"the pile at {CELLS[cell]} already holds {MAX_PILE} cards"
        return None

    def apply(self, move: int) -> None:
        """Play `move` (a `Move` or its code) in place; raise IllegalMoveError if the rules forbid it."""
        if self.status != PLAYING:
            self._refuse(move)
        occupied = self.occupied
        if move >= 32:
            if not occupied or occupied & _SHIFT_EDGE[move - 32]:
                self._refuse(move)
            self._shift(move - 32)
            return
        cell = move & 15
        piles = self.piles
        pile = piles[cell]
        if move < 16:
            if pile or (occupied and not _NEIGHBOURS[cell] & occupied):
                self._refuse(move)
        elif not 0 < len(pile) < MAX_PILE:
            self._refuse(move)
        card = self.deck[self.drawn]
        down = self.down_after(move, card)  # reads only the other piles, so before this one grows
        self.drawn += 1
        piles[cell] = pile + (card,)
        occupied |= 1 << cell
        self.occupied = occupied
        self.down = down
        if occupied == _FULL and not down:
            self.status = WON
        elif down.bit_count() > MAX_FACE_DOWN or self.drawn == 40:
            self.status = LOST

    def down_after(self, move: int, card: int) -> int:
        """The face-down mask after placing `card` by placement `move` (code < 32), not playing it.

        The flip rule alone, for players weighing moves and cards without copying the
        state; `move` is assumed legal.
        """
        cell = move & 15
        occupied = self.occupied | 1 << cell
        down = self.down & ~(1 << cell)
        piles = self.piles
        rank = _RANK[card]
        for mask, others in _LINES[cell]:
            higher = lower = True
            for other in others:
                if occupied >> other & 1 and not down >> other & 1:
                    other_rank = _RANK[piles[other][-1]]
                    if other_rank >= rank:
                        higher = False
                    if other_rank <= rank:
                        lower = False
            if higher or lower:
                down ^= mask & occupied
        return down

    def _refuse(self, move: int) -> None:
        raise IllegalMoveError(str(MOVES[move]), self._illegal_reason(move) or "")

    def _shift(self, direction: int) -> None:
        piles = self.piles
        if direction == 0:
            self.piles = piles[4:] + [()] * 4
            self.occupied >>= 4
            self.down >>= 4
        elif direction == 1:
            self.piles = [()] * 4 + piles[:12]
            self.occupied = (self.occupied << 4) & _FULL
            self.down = (self.down << 4) & _FULL
        elif direction == 2:
            self.piles = piles[1:] + [()]
            self.occupied >>= 1
            self.down >>= 1
        else:
            self.piles = [()] + piles[:15]
            self.occupied = (self.occupied << 1) & _FULL
            self.down = (self.down << 1) & _FULL


def play(state: State, move: int) -> State:
    """The position after `move`, leaving `state` unchanged."""
    after = state.copy()
    after.apply(move)
    return after
