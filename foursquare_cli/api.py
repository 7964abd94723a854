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

Positions for a bot's tests: `State.from_seed(n)` is deal `n` at its start (play moves
on it with `apply`); `state_from_protocol(sent)` the position a state of the move
protocol's version 2 stands for (its unseen cards in a fresh order); `legal_moves(state)`
its legal moves, in the protocol's order.

`Move`: `Move.from_str("B3 top")`, `Move.place(cell)`, `Move.top(cell)`, `Move.shift("up")`;
`str(move)` is its canonical text; `is_shift`, `is_placement`, `on_top`, `cell`, `direction`.
`Cell`: `Cell.from_str("B3")`, `str`, `row` (1-4), `column` (`A`-`D`); a cell is also the
int 0 (A1) to 15 (D4), row by row. `Card`: `Card.from_str("10D")`, `str`, `rank` (1-10),
`suit` (`S`, `H`, `D`, `C`; the rules never look at it).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

from .rules.cards import CARDS, RANK_NAMES, Card
from .rules.engine import State, state_after
from .rules.moves import Cell, IllegalMoveError, InvalidMoveError, Move
from .rules.outcomes import Outcome, Status
from .rules.tables import MAX_PILE

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
    "legal_moves",
    "state_after",
    "state_from_protocol",
]


def legal_moves(state: State) -> list[Move]:
    """Every legal move of `state`, in the order of the protocol's `legal` (`State.legal_moves`)."""
    return state.legal_moves()


def state_from_protocol(sent: Mapping[str, Any], seed: int = 0) -> State:
    """The position a state of the move protocol (version 2: it names the unseen cards) stands for, as a `State`
    to play on: its grid (the cards under each pile, of the ranks neither on top, in hand nor unseen, suits chosen
    freely: the rules never look at them), the card in hand, then the unseen cards in an order drawn from `seed`,
    never the real one. ValueError for a state that does not say enough: one of version 1 (no `unseen`: which
    cards are under the piles is not in it) or one whose counts do not add up."""
    unseen = sent.get("unseen")
    if not isinstance(unseen, Mapping):
        raise ValueError("a state of version 1 names no unseen cards; ask for version 2 (--protocol 2)")
    hand = [Card.from_str(sent["next"])] if sent.get("next") else []
    shown = list(hand)
    tops = [[Card.from_str(pile["card"]) if pile else None for pile in row] for row in sent["grid"]]
    shown += [card for row in tops for card in row if card is not None]
    unseen_ranks = [index + 1 for index, name in enumerate(RANK_NAMES) for _ in range(int(unseen[name]))]
    spare = [card for card in CARDS if card not in shown]
    buried_count = 40 - len(shown) - len(unseen_ranks)
    under = _by_rank(spare, _buried_ranks(shown, unseen_ranks))
    left = [card for card in spare if card not in under]
    if len(under) != buried_count or sorted(card.rank for card in left) != sorted(unseen_ranks):
        raise ValueError("its grid, card in hand and unseen cards do not make a deck of 40")
    random.Random(seed).shuffle(left)
    rows = []
    for row, piles in zip(tops, sent["grid"], strict=True):
        words = []
        for top, pile in zip(row, piles, strict=True):
            if top is None:
                words.append(".")
                continue
            below = [under.pop() for _ in range(int(pile["height"]) - 1)]
            if len(below) >= MAX_PILE:
                raise ValueError("a pile holds at most 4 cards")
            words.append(("" if pile["up"] else "#") + "/".join(str(card) for card in [*below, top]))
        rows.append(" ".join(words))
    return State.from_grid(rows, [str(card) for card in hand + left])


def _buried_ranks(shown: list[Card], unseen: list[int]) -> list[int]:
    """The ranks of the cards under the piles: those of the deck that are neither shown nor unseen."""
    counts = [4] * 11
    for card in shown:
        counts[card.rank] -= 1
    for rank in unseen:
        counts[rank] -= 1
    if any(count < 0 for count in counts[1:]):
        raise ValueError("its grid, card in hand and unseen cards name more than 4 cards of a rank")
    return [rank for rank in range(1, 11) for _ in range(counts[rank])]


def _by_rank(cards: list[Card], ranks: list[int]) -> list[Card]:
    """Cards of `cards` with the ranks `ranks`, the first of each rank first (a suit the rules never read)."""
    chosen, pool = [], list(cards)
    for rank in ranks:
        card = next(card for card in pool if card.rank == rank)
        pool.remove(card)
        chosen.append(card)
    return chosen


class PythonPlayer(Protocol):
    """What the tool asks of a `module:` player's objects: a legal move for the position it is shown.

    Raising anything, returning something that is not a legal `Move`, or taking longer
    than the move time (`--move-time`) forfeits the game, which counts as lost.
    """

    def choose(self, state: State) -> Move: ...
