"""Cells and moves: the notation of protocol.md section 2, as values.

`Cell` (`A1` to `D4`) and `Move` (`B3`, `B3 top`, `shift up`) are interned `int`s,
so they index the engine's tables directly; a move's code is the engine's
business: callers ask a `Move` what it is (`is_shift`, `on_top`, `cell`,
`direction`). Like `Card`, they are never equal to a value of another kind.
"""

from __future__ import annotations

import enum
import re

from ..errors import InvalidInput
from .cards import Value

COLUMNS = "ABCD"
DIRECTIONS = ("up", "down", "left", "right")
WORD_NOT_A_MOVE = "not a move; a move is a cell (B3), a cell and top (B3 top) or a shift (shift up)"


class MoveKind(enum.StrEnum):
    PLACE = "place"
    TOP = "top"
    SHIFT = "shift"


class _MoveError(InvalidInput):
    """`str` is the quoted input and the reason; both are kept for callers that say where."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{text!r}: {reason}")
        self.text = text
        self.reason = reason


class InvalidMoveError(_MoveError):
    """Text that is not a move or a cell; the message quotes it and says what was expected."""


class IllegalMoveError(_MoveError):
    """A well-formed move that the position forbids; the message names it and the rule."""


class Cell(Value):
    """A cell of the 4x4 frame, `A1` (top left) to `D4` (bottom right)."""

    __slots__ = ()

    def __bool__(self) -> bool:
        """Always true: A1 (index and code 0) is a value like any other, never "nothing"."""
        return True

    def __new__(cls, index: int) -> Cell:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < 16:
            raise ValueError(f"{index!r}: not a cell index; cells are 0 (A1) to 15 (D4)")
        return CELLS[index] if _INTERNED else int.__new__(cls, index)

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


_INTERNED = False
CELLS: tuple[Cell, ...] = tuple(Cell(i) for i in range(16))


class Move(Value):
    """A move: `B3` (place on an empty cell), `B3 top` (place on a pile), `shift up`.

    Inside, a code: 0-15 a placement on an empty cell, 16-31 on a pile (`| 16`), 32-35
    a shift (`| 32`); its properties test bits, since a comparison of a `Value` runs
    in Python.

    There are 36 moves, each one object; parse with `Move.from_str`, build with
    `Move.place`, `Move.top`, `Move.shift`; `str` gives the canonical text.
    """

    __slots__ = ()

    def __bool__(self) -> bool:
        """Always true: A1 (index and code 0) is a value like any other, never "nothing"."""
        return True

    def __new__(cls, code: int) -> Move:
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < 36:
            raise ValueError(f"{code!r}: not a move code")
        return MOVES[code] if _INTERNED else int.__new__(cls, code)

    @property
    def kind(self) -> MoveKind:
        return MoveKind.SHIFT if self & 32 else MoveKind.TOP if self & 16 else MoveKind.PLACE

    @property
    def is_shift(self) -> bool:
        return bool(self & 32)

    @property
    def is_placement(self) -> bool:
        """A card is placed (on an empty cell or on top of a pile)."""
        return not self & 32

    @property
    def on_top(self) -> bool:
        return bool(self & 16)

    @property
    def cell(self) -> Cell | None:
        """The cell a placement goes to; None for a shift."""
        return None if self & 32 else CELLS[self & 15]

    @property
    def direction(self) -> str | None:
        return DIRECTIONS[self & 3] if self & 32 else None

    @property
    def opened_cells(self) -> tuple[Cell, ...]:
        """For a shift, the edge it empties (column A after `shift right`); nothing for a placement."""
        return _OPENED[self & 3] if self & 32 else ()

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
        if len(words) == 1 and words[0].isalpha():  # a word (`undo`, `hint`, `hello`): not "no such cell"
            raise InvalidMoveError(text, WORD_NOT_A_MOVE)
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
        return MOVES[Cell(cell)]

    @classmethod
    def top(cls, cell: int) -> Move:
        return MOVES[16 + Cell(cell)]

    @classmethod
    def shift(cls, direction: str) -> Move:
        if direction not in DIRECTIONS:
            raise ValueError(f"{direction!r}: not a direction; directions are {', '.join(DIRECTIONS)}")
        return MOVES[32 + DIRECTIONS.index(direction)]


_MOVE_TEXT = tuple(
    [str(cell) for cell in CELLS] + [f"{cell} top" for cell in CELLS] + [f"shift {d}" for d in DIRECTIONS]
)
MOVES: tuple[Move, ...] = tuple(Move(code) for code in range(36))
_INTERNED = True
_OPENED = (CELLS[12:16], CELLS[0:4], CELLS[3:16:4], CELLS[0:16:4])


_PAIR = re.compile(r"\s*(.*?)\s*(?:,\s*(?:then\s+)?|\s+then\s+)(.*?)\s*", re.IGNORECASE)


def moves_of_line(text: str) -> tuple[Move, ...]:
    """The moves a person typed on one line: one move, or a shift and the placement it is made for, as a hint
    writes them (`shift left, then D3`; `shift left then D3` too). Only a shift may lead a pair: the card after
    a placement is not known yet. InvalidMoveError (quoting the whole line) for anything else."""
    pair = _PAIR.fullmatch(text)
    if pair is None:
        return (Move.from_str(text),)
    first, second = pair.groups()
    try:
        lead, placement = Move.from_str(first), Move.from_str(second)
    except InvalidMoveError as error:
        raise InvalidMoveError(text, f"{error.reason} (two moves on a line: a shift, then its placement)") from None
    if not lead.is_shift or placement.is_shift:
        raise InvalidMoveError(
            text, "two moves on a line are a shift, then the placement it opens: shift left, then D3"
        )
    return lead, placement


def cells_of(mask: int) -> tuple[Cell, ...]:
    """The cells of a 16-bit mask, A1 first."""
    return tuple(CELLS[cell] for cell in range(16) if mask >> cell & 1)
