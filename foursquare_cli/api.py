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


PROTOCOL_VERSIONS = (1, 2)
"""The versions of the move protocol the tool speaks: 1, the states exactly as docs/protocol.md's section 7 gives
them (the default: what every program written for it reads); 2, asked for (`--protocol 2`), each state also says
the version, the seconds a move may take, and how many cards of each rank are still to come."""


def legal_moves(state: State) -> list[Move]:
    """Every legal move of `state`, in the order of the protocol's `legal` (`State.legal_moves`)."""
    return state.legal_moves()


def state_from_protocol(sent: Mapping[str, Any], seed: int = 0) -> State:
    """The position a state of the move protocol (version 2: it names the unseen cards) stands for, as a `State`
    to play on: its grid (the cards under each pile, of the ranks neither on top, in hand nor unseen, suits chosen
    freely: the rules never look at them), the card in hand, then the unseen cards in an order drawn from `seed`,
    never the real one. ValueError, and no other error, for anything that is not such a state: one of version 1
    (no `unseen`: which cards are under the piles is not in it), one of a version this module does not know, a
    `grid`, `next` or `unseen` missing or not of its kind, counts that do not add up to the deck."""
    if not isinstance(sent, Mapping):
        raise ValueError(f"a state of the protocol is a JSON object, not {type(sent).__name__}")
    version = sent.get("protocol", 1)
    if type(version) is not int or version not in PROTOCOL_VERSIONS:
        raise ValueError(f"protocol {_shown(version)}: not a version of the move protocol this tool knows (1, 2)")
    if version == 1 and "unseen" not in sent:
        raise ValueError("a state of version 1 names no unseen cards; ask for version 2 (--protocol 2)")
    hand = [_card(sent["next"], "next")] if _present(sent, "next") is not None else []
    piles = _piles(_present(sent, "grid"))
    unseen_ranks = _unseen_ranks(_present(sent, "unseen"))
    shown = hand + [top for top, _, _ in piles if top is not None]
    if len(set(shown)) != len(shown):
        raise ValueError("its grid and card in hand show a card twice")
    spare = [card for card in CARDS if card not in shown]
    buried_count = 40 - len(shown) - len(unseen_ranks)
    under = _by_rank(spare, _buried_ranks(shown, unseen_ranks))
    left = [card for card in spare if card not in under]
    heights = sum(height - 1 for top, _, height in piles if top is not None)
    if heights != buried_count or len(under) != buried_count or sorted(c.rank for c in left) != sorted(unseen_ranks):
        raise ValueError("its grid, card in hand and unseen cards do not make a deck of 40")
    random.Random(seed).shuffle(left)
    words = []
    for top, up, height in piles:
        below = [under.pop() for _ in range(height - 1)] if top is not None else []
        words.append("." if top is None else ("" if up else "#") + "/".join(str(card) for card in [*below, top]))
    rows = [" ".join(words[row * 4 : row * 4 + 4]) for row in range(4)]
    state = State.from_grid(rows, [str(card) for card in hand + left])
    if state.next_card != (hand[0] if hand else None):
        said = "the game is over" if state.is_over else "the game goes on"
        raise ValueError(f"next: {_shown(sent['next'])}, but its grid and unseen cards say {said}")
    return state


def _shown(value: object) -> str:
    """A value from outside as a message quotes it: its JSON-ish repr, cut short."""
    text = "null" if value is None else repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


def _present(sent: Mapping[str, Any], key: str) -> Any:
    if key not in sent:
        raise ValueError(f"{key}: missing; a state of the protocol has it")
    return sent[key]


def _card(value: object, where: str) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"{where}: {_shown(value)} is not a card (a string like '7H')")
    try:
        return Card.from_str(value)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None


def _piles(grid: object) -> list[tuple[Card | None, bool, int]]:
    """Each cell's (top card or None, face up, height), A1 first; ValueError for a grid not of its kind."""
    if not (isinstance(grid, list | tuple) and len(grid) == 4 and all(_four(row) for row in grid)):
        raise ValueError("grid: 4 rows (row 1 first) of 4 cells (column A first)")
    piles: list[tuple[Card | None, bool, int]] = []
    for number, row in enumerate(grid, start=1):
        for column, pile in zip("ABCD", row, strict=True):
            where = f"grid {column}{number}"
            if pile is None:
                piles.append((None, True, 0))
                continue
            if not isinstance(pile, Mapping) or set(pile) != {"card", "up", "height"}:
                raise ValueError(f"{where}: null, or an object of card, up and height")
            up, height = pile["up"], pile["height"]
            if type(up) is not bool or type(height) is not int or not 1 <= height <= MAX_PILE:
                raise ValueError(f"{where}: up is true or false, height a whole number from 1 to {MAX_PILE}")
            piles.append((_card(pile["card"], where), up, height))
    return piles


def _four(row: object) -> bool:
    return isinstance(row, list | tuple) and len(row) == 4


def _unseen_ranks(unseen: object) -> list[int]:
    """The ranks of the unseen cards, one a card, from `unseen` (a count for each rank's name)."""
    if not isinstance(unseen, Mapping) or set(unseen) != set(RANK_NAMES):
        raise ValueError(f"unseen: an object with a count for each rank, {', '.join(RANK_NAMES)}")
    counts = [unseen[name] for name in RANK_NAMES]
    if any(type(count) is not int or not 0 <= count <= 4 for count in counts):
        raise ValueError("unseen: each rank's count is a whole number from 0 to 4")
    return [rank for rank, count in enumerate(counts, start=1) for _ in range(count)]


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
