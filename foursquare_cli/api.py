"""The Python API of foursquare: what a `module:` player (and any script) may use.

A player named `--player module:attribute` is a class or a factory on the import
path; the tool calls it once a game (with the player seed, an `int`, if it takes an
argument) and then `choose(state)` whenever it is to move (`PythonPlayer`). The `state` is
a copy of the position the player sees: the grid, every card on it and under it, the
card in hand; the cards not yet seen follow in a fresh random order, so neither
reading nor playing ahead on it tells the order of the real stock.

The promise: the names in `__all__`, and the members of `State`, `Move`, `Cell` and
`Card` named below, keep their meaning; one that changes or goes away does so only in
a release whose version number says so (the major number; while it is 0, the minor).
Everything else in the package may change in any release.

`State` (a position; mutable, cheap to copy):
    next_card        the card to place now (`Card`), None once the game is over
    stock            cards left in the stock, the card in hand included
    face_down        face-down top cards on the grid (the game is lost above 4)
    status, outcome  `Status.PLAYING`, `WON` or `LOST`; `Outcome(status, score, reason)`
    is_over          the game has ended
    top(cell)        the top card of the pile at `cell`, None if empty
    height(cell)     how many cards the pile at `cell` holds (0 to 4)
    is_face_up(cell) whether that top card is face up
    unseen_cards()   the cards neither on the grid, under it nor in hand
    unseen_by_rank() how many of them each rank has, Ace first
    legal_moves()    every legal move: placements on empty cells, then on piles, then shifts
    is_legal(move)   whether `move` is legal here; why_illegal(move): why not, or None
    face_downs_after(card)  (face-down count, move) for every placement of `card`
    copy(), apply(move)     a copy; play a move in place (IllegalMoveError if it is not legal)
`state_after(state, move)` is the position after `move`, `state` left as it was.

`Move`: `Move.from_str("B3 top")`, `Move.place(cell)`, `Move.top(cell)`, `Move.shift("up")`;
`str(move)` is its canonical text; `is_shift`, `is_placement`, `on_top`, `cell`, `direction`.
`Cell`: `Cell.from_str("B3")`, `str`, `row` (1-4), `column` (`A`-`D`); a cell is also the
int 0 (A1) to 15 (D4), row by row. `Card`: `Card.from_str("10D")`, `str`, `rank` (1-10),
`suit` (`S`, `H`, `D`, `C`; the rules never look at it).
"""

from __future__ import annotations

from typing import Protocol

from .rules.cards import Card
from .rules.engine import Outcome, State, Status, state_after
from .rules.moves import Cell, IllegalMoveError, InvalidMoveError, Move

__all__ = [
    "Card",
    "Cell",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "Outcome",
    "PythonPlayer",
    "State",
    "Status",
    "state_after",
]


class PythonPlayer(Protocol):
    """What the tool asks of a `module:` player's objects: a legal move for the position it is shown.

    Raising anything, returning something that is not a legal `Move`, or taking longer
    than the move time (`--move-time`) forfeits the game, which counts as lost.
    """

    def choose(self, state: State) -> Move: ...
