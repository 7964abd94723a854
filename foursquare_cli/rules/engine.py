"""The rules of Foursquare (protocol.md section 1), and nothing else.

Everything a position may do is decided here: which moves are legal, what a move
does (placing, flipping, shifting), and when the game ends.

The grid is 16 cells numbered row by row: A1=0, B1=1, ..., D1=3, A2=4, ..., D4=15.
A `State` keeps two 16-bit masks, `occupied` (cells holding a pile) and `down`
(cells whose top card is face down), beside the piles themselves; flipping a line
is then one XOR. `Cell` and `Move` are interned `int`s, so they index the tables
below directly; a move's code is this module's business: callers ask a `Move`
what it is (`is_shift`, `on_top`, `cell`, `direction`).

`Card`, `Cell` and `Move` are three kinds of value: none is ever equal to another
kind (`Move.from_str("A1") != Cell.from_str("A1")`). The greedy playout, which
runs this module's flip rule on plain integers, is beside it in `playout.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import CARDS, Card, InvalidCardError, check_deck, deal
from .grids import piles_of_grid
from .moves import (
    CELLS,
    MOVES,
    IllegalMoveError,
    Move,
)
from .outcomes import LOST, LOST_FACE_DOWN, LOST_STOCK, PLAYING, WON, Effect, Outcome, Status
from .tables import FULL, LINES, MAX_FACE_DOWN, MAX_PILE, NEIGHBOURS, RANK_OF_CARD, SHIFT_EDGE, SHIFT_EDGE_NAME


def _down_after_placing(cell: int, rank: int, down: int, occupied: int, piles: list[tuple[Card, ...]]) -> int:
    """The face-down mask after a card of `rank` goes to `cell`: the flip rule, row then column, written once
    (`apply`, `down_after` and `face_downs_after` all come here; the playouts hold to it, tests show).

    The others of a line are the face-up tops of its other piles; the placed cell's old top (when placing
    on a pile) is neither compared nor turned, and a tie is neither higher nor lower.
    """
    bit = 1 << cell
    after = down & ~bit
    others_up = occupied & ~down & ~bit
    line_occupied = occupied | bit
    for mask, others in LINES[cell]:
        higher = lower = True
        for other in others:
            if others_up >> other & 1:
                other_rank = RANK_OF_CARD[piles[other][-1]]
                if other_rank >= rank:
                    higher = False
                if other_rank <= rank:
                    lower = False
        if higher or lower:
            after ^= mask & line_occupied
    return after


_SHIFTED = Effect(None, 0)
_new_effect = tuple.__new__  # Effect without NamedTuple's Python-level __new__: apply is the hot path


class State:
    """A position: the stock (a deck and how many cards were drawn) and the grid.

    Mutable, like OpenSpiel states: `apply` changes it in place; `copy` is cheap
    (16 references and a few ints), and `play` is the pure form. Build a position
    by playing moves from a deal, or lay one out with `State.from_grid`.
    """

    __slots__ = ("deck", "drawn", "piles", "occupied", "down", "status")

    deck: tuple[Card, ...]
    drawn: int
    piles: list[tuple[Card, ...]]
    occupied: int
    down: int
    status: Status

    def __init__(self, deck: Iterable[Card]) -> None:
        """A new game on `deck` (40 distinct cards, the first drawn first)."""
        cards = tuple(CARDS[card] for card in deck)
        check_deck(cards)
        self.deck = cards
        self.drawn = 0
        self.piles = [()] * 16
        self.occupied = 0
        self.down = 0
        self.status = PLAYING

    @classmethod
    def from_seed(cls, seed: int) -> State:
        return cls(deal(seed))

    @classmethod
    def from_grid(cls, rows: Sequence[str] | str, stock: Sequence[str] | str = ()) -> State:
        """A position laid out by hand, for tests, puzzles and analysis.

        `rows`: four rows (row 1 first), each four words, one per cell: `.` for an
        empty cell, else the pile bottom card first, joined by `/` (`5S/AD`), with
        `#` before the pile when its top card is face down (`#7H`, `#5S/AD`). A
        single string is split into lines; blank lines are ignored.
        `stock`: the next cards to draw, first first (the card in hand leads); the
        cards named nowhere follow in ordered-deck order. The status follows the
        end-of-turn rules; an empty stock with the grid not won is lost.
        ValueError (InvalidCardError) says what is wrong with a layout.
        """
        piles, down = piles_of_grid(rows)
        if isinstance(stock, str):
            stock = stock.split()
        placed = [card for pile in piles for card in pile]
        upcoming = [Card.from_str(name) for name in stock]
        named = placed + upcoming
        if len(set(named)) != len(named):
            raise InvalidCardError("a card appears twice in the layout and the stock")
        state = cls(named + [card for card in CARDS if card not in set(named)])
        state.drawn = len(placed)
        state.piles = piles
        state.occupied = sum(1 << cell for cell in range(16) if piles[cell])
        state.down = down
        state.status = state._status_after_turn() if placed else PLAYING
        return state

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
        return self.deck[self.drawn] if self.status is PLAYING else None

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
        return self.status is not PLAYING

    @property
    def outcome(self) -> Outcome:
        if self.status is WON:
            return Outcome(WON, 40 - self.drawn, None)
        if self.status is LOST:
            return Outcome(LOST, None, LOST_FACE_DOWN if self.face_down > MAX_FACE_DOWN else LOST_STOCK)
        return Outcome(PLAYING, None, None)

    def top(self, cell: int) -> Card | None:
        pile = self.piles[cell]
        return pile[-1] if pile else None

    def height(self, cell: int) -> int:
        """How many cards the pile at `cell` holds: 0 (empty) to 4."""
        return len(self.piles[cell])

    def is_face_up(self, cell: int) -> bool:
        return not self.down >> cell & 1

    def unseen_cards(self) -> list[Card]:
        """Cards a player has not seen: neither on the grid, under it, nor in hand (ordered-deck order); once the
        game is over no card is in hand, so the stock's next card is unseen too."""
        seen = set(self.deck[: self.drawn + (0 if self.is_over else 1)])
        return [card for card in CARDS if card not in seen]

    def unseen_by_rank(self) -> tuple[int, ...]:
        """How many unseen cards (`unseen_cards`) each rank has, Ace first: the cards still to come after the
        one in hand, the one count every screen shows (`left`, `--count`, the environment's observation)."""
        counts = [0] * 10
        for card in self.unseen_cards():
            counts[card.rank - 1] += 1
        return tuple(counts)

    def key(self) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...]]:
        """What decides the rest of the game on this stock: cards drawn, the masks, top ranks and heights.

        Suits never matter to the rules, so positions differing only in suits share a key.
        """
        piles = self.piles
        return (
            self.drawn,
            self.occupied,
            self.down,
            tuple(RANK_OF_CARD[pile[-1]] if pile else 0 for pile in piles),
            tuple(len(pile) for pile in piles),
        )

    # -- the rules -----------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, placements first (by cell), then `top`s, then shifts."""
        if self.status is not PLAYING:
            return []
        occupied = self.occupied
        if not occupied:
            return list(MOVES[:16])
        moves = self.legal_placements()
        for direction in range(4):
            if not occupied & SHIFT_EDGE[direction]:
                moves.append(MOVES[32 + direction])
        return moves

    def legal_placements(self) -> list[Move]:
        """The legal moves that place the card in hand: empty cells by cell, then `top`s."""
        if self.status is not PLAYING:
            return []
        occupied = self.occupied
        if not occupied:
            return list(MOVES[:16])
        piles = self.piles
        moves = [MOVES[c] for c in range(16) if not occupied >> c & 1 and NEIGHBOURS[c] & occupied]
        moves += [MOVES[16 + c] for c in range(16) if 0 < len(piles[c]) < MAX_PILE]
        return moves

    def is_legal(self, move: Move) -> bool:
        _check_move(move)
        return self._illegal_reason(move) is None

    def why_illegal(self, move: Move) -> str | None:
        """Why the rules forbid `move` here, in the words the prompt uses (`C3 shares no edge with a pile`);
        None when it is legal."""
        _check_move(move)
        return self._illegal_reason(move)

    def _illegal_reason(self, move: int) -> str | None:
        if self.status is not PLAYING:
            return f"the game is over ({self.status})"
        occupied = self.occupied
        if move >= 32:
            if not occupied:
                return "the grid is empty; there is nothing to shift"
            edge = move - 32
            if occupied & SHIFT_EDGE[edge]:
                return f"a pile in {SHIFT_EDGE_NAME[edge]} would leave the frame"
            return None
        cell = move % 16
        if move < 16:
            if occupied >> cell & 1:
                return f"{CELLS[cell]} holds a pile; to place on it, write '{CELLS[cell]} top'"
            if occupied and not NEIGHBOURS[cell] & occupied:
                return f"{CELLS[cell]} shares no edge with a pile"
            return None
        height = len(self.piles[cell])
        if not height:
            return f"{CELLS[cell]} is empty; to place there, write '{CELLS[cell]}'"
        if height >= MAX_PILE:
            return f"the pile at {CELLS[cell]} already holds {MAX_PILE} cards"
        return None

    def apply(self, move: Move) -> Effect:
        """Play `move` in place: what it placed and turned over.

        IllegalMoveError if the rules forbid it; TypeError if `move` is not a `Move`.
        """
        if move.__class__ is not Move:
            _check_move(move)
        if self.status is not PLAYING:
            self._refuse(move)
        occupied = self.occupied
        if move & 32:  # a shift (codes 32-35); bit tests, not comparisons: a Move compares in Python
            if not occupied or occupied & SHIFT_EDGE[move & 3]:
                self._refuse(move)
            self._shift(move & 3)
            return _SHIFTED
        cell = move & 15
        piles = self.piles
        pile = piles[cell]
        if not move & 16:  # on an empty cell (codes 0-15)
            if pile or (occupied and not NEIGHBOURS[cell] & occupied):
                self._refuse(move)
        elif not 0 < len(pile) < MAX_PILE:
            self._refuse(move)
        card = self.deck[self.drawn]
        before = self.down
        down = self.down_after(move, card)  # reads only the other piles, so before this one grows
        self.drawn += 1
        piles[cell] = pile + (card,)
        self.occupied = occupied | 1 << cell
        self.down = down
        self.status = self._status_after_turn()
        return _new_effect(Effect, (card, (before ^ down) & ~(1 << cell)))

    def down_after(self, move: Move, card: Card) -> int:
        """The face-down mask after placing `card` by placement `move`, without playing it.

        The flip rule alone (`_down_after_placing`), for players weighing moves and cards
        without copying the state; `move` is assumed a legal placement.
        """
        return _down_after_placing(move & 15, RANK_OF_CARD[card], self.down, self.occupied, self.piles)

    def face_downs_after(self, card: Card) -> list[tuple[int, Move]]:
        """(face-down count, move) for every legal placement of `card`, in `legal_placements` order: the hot
        path of players weighing where a card goes."""
        occupied, down, piles, rank = self.occupied, self.down, self.piles, RANK_OF_CARD[card]
        return [
            (_down_after_placing(move & 15, rank, down, occupied, piles).bit_count(), move)
            for move in self.legal_placements()
        ]

    def _status_after_turn(self) -> Status:
        if self.occupied == FULL and not self.down:
            return WON
        if self.down.bit_count() > MAX_FACE_DOWN or self.drawn == 40:
            return LOST
        return PLAYING

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
            self.occupied = (self.occupied << 4) & FULL
            self.down = (self.down << 4) & FULL
        elif direction == 2:
            self.piles = piles[1:] + [()]
            self.occupied >>= 1
            self.down >>= 1
        else:
            self.piles = [()] + piles[:15]
            self.occupied = (self.occupied << 1) & FULL
            self.down = (self.down << 1) & FULL


def _check_move(move: object) -> None:
    if not isinstance(move, Move):
        raise TypeError(f"{move!r}: not a Move; parse text with Move.from_str")


def cornered(state: State) -> State:
    """A copy of `state` with its layout slid up and left as far as it goes, to touch row 1 and column A.

    Shifts are free, so positions that differ only by where the layout sits in the frame are one position:
    this is the frame they all share (a player's figures, and the futures behind them, are worked out in it).
    """
    slid = state.copy()
    if slid.occupied:
        while not slid.occupied & SHIFT_EDGE[0]:
            slid._shift(0)
        while not slid.occupied & SHIFT_EDGE[2]:
            slid._shift(2)
    return slid


def state_after(state: State, move: Move, then: Move | None = None) -> State:
    """The position after `move` (a shift: and the placement `then` it was made for, where given), leaving
    `state` unchanged: the one place a rated move's position is made, for the hint's look-ahead and the grader."""
    after = state.copy()
    after.apply(move)
    if then is not None and move.is_shift:
        after.apply(then)
    return after
