"""The greedy playout: the fast greedy policy on plain integers, the inner loop of every simulation.

Not a rule, but the flip rule run on integers instead of through `State.apply`,
so it lives beside the engine whose tables it uses (and tests hold the two
together). `greedy_choice` is the greedy player's move; `finish` plays that
policy to the end of the game from a position, without changing it, and returns
how the game ends as a value (`Playout`). The expert's futures are played by
`finish_from` with `fill_first`: the greedy order, but an empty cell whenever one
is safe, which wins far more often than the greedy player and so tells the
expert more about a position.

A line's face-up top ranks are kept as one integer, 4 bits of count a rank
(lines 0-3 the rows, 4-7 the columns), so "strictly higher than every other" is
`count < BELOW[rank]` and "strictly lower" is `not count & UP_TO[rank]`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import NamedTuple

from .cards import Card
from .engine import MAX_FACE_DOWN, MAX_PILE, State, Status, cornered
from .moves import MOVES, Move
from .tables import BELOW, COLUMN_OTHERS, FULL, LINE_MASKS, NEIGHBOURS, RANK_OF_CARD, ROW_OTHERS, SHIFT_OPENINGS, UP_TO


class Playout(NamedTuple):
    """How a greedy playout ended: the score (-1 for a loss), the cards drawn by then, and the
    occupied and face-down masks of the last position."""

    score: int
    drawn: int
    occupied: int
    down: int

    @property
    def won(self) -> bool:
        return self.score >= 0

    @property
    def status(self) -> Status:
        return Status.WON if self.score >= 0 else Status.LOST


def greedy_choice(state: State, fill_first: bool = False) -> tuple[Move | None, Move]:
    """The greedy policy's move: (the shift it needs or None, the placement).

    The policy (see `_greedy_pick`): the placement leaving the fewest face-down
    cards, the layout free to shift; with `fill_first`, the expert's playouts' move.
    On an empty grid, B2.
    """
    occupied = state.occupied
    if not occupied:
        return None, MOVES[5]
    ranks = [RANK_OF_CARD[pile[-1]] if pile else 0 for pile in state.piles]
    heights = [len(pile) for pile in state.piles]
    lines = _line_counts(occupied & ~state.down, ranks)
    rank = RANK_OF_CARD[state.deck[state.drawn]]
    _, cell, _, direction = _greedy_pick(rank, occupied, state.down, ranks, heights, lines, fill_first)
    if direction >= 0:
        return MOVES[32 + direction], MOVES[cell]  # after the shift, the opened cell has the edge cell's number
    return None, MOVES[cell + 16 if occupied >> cell & 1 else cell]


def finish(state: State) -> Playout:
    """Play the greedy policy from `state` to the end of the game; `state` is left as it was.

    The moves of `greedy_choice`, run on plain integers instead of through `apply`
    (`finish_from`, in C when it was built).
    """
    if state.status is not Status.PLAYING:
        return Playout(40 - state.drawn if state.status is Status.WON else -1, state.drawn, state.occupied, state.down)
    return Playout(*finish_from(stock_of(state), *start_of(state)))


Start = tuple[int, int, int, bytes, bytes]  # drawn, occupied, down, the top rank and the height of every cell


def start_of(state: State) -> Start:
    """The integers `finish_from` starts from: the position's `key`, its ranks and heights as bytes."""
    drawn, occupied, down, ranks, heights = state.key()
    return drawn, occupied, down, bytes(ranks), bytes(heights)


def stock_of(state: State) -> bytes:
    """The rank of every card of the deck, in drawing order: the stock `finish_from` draws from."""
    return stock_of_cards(state.deck)


def stock_of_cards(cards: Iterable[Card]) -> bytes:
    """The ranks of `cards`, in their order."""
    return bytes(RANK_OF_CARD[card] for card in cards)


def _finish_python(
    stock: bytes, drawn: int, occupied: int, down: int, top_ranks: bytes, top_heights: bytes, fill_first: bool = False
) -> tuple[int, int, int, int]:
    """`finish_from` in Python: the reference the C version (`_playout.c`) is held to.

    A line's face-up ranks are kept as counters (`_line_counts`), updated by what
    each move turns.
    """
    ranks = list(top_ranks)
    heights = list(top_heights)
    lines = _line_counts(occupied & ~down, ranks)
    pick = _greedy_pick
    while True:
        rank = stock[drawn]
        if occupied:
            fewest, cell, after, direction = pick(rank, occupied, down, ranks, heights, lines, fill_first)
            if direction >= 0:
                occupied, down, after, ranks, heights = _shifted(direction, occupied, down, after, ranks, heights)
                lines = _line_counts(occupied & ~down, ranks)
            bit = 1 << cell
            if occupied & ~down & bit:  # the covered top leaves its lines
                one = 1 << 4 * ranks[cell]
                lines[cell >> 2] -= one
                lines[4 + (cell & 3)] -= one
            turned = (down ^ after) & ~bit
            while turned:
                low = turned & -turned
                other = low.bit_length() - 1
                one = -(1 << 4 * ranks[other]) if after & low else 1 << 4 * ranks[other]
                lines[other >> 2] += one
                lines[4 + (other & 3)] += one
                turned ^= low
            down = after
        else:
            fewest, cell = 0, 5
        one = 1 << 4 * rank
        lines[cell >> 2] += one
        lines[4 + (cell & 3)] += one
        drawn += 1
        occupied |= 1 << cell
        ranks[cell] = rank
        heights[cell] += 1
        if occupied == FULL and not down:
            return 40 - drawn, drawn, occupied, down
        if fewest > MAX_FACE_DOWN or drawn == 40:
            return -1, drawn, occupied, down


def _safe_ranks_python(occupied: int, down: int, top_ranks: bytes, top_heights: bytes) -> int:
    """`safe_ranks` in Python: the greedy pick's fewest face-down count for a card of each rank."""
    ranks, heights = list(top_ranks), list(top_heights)
    lines = _line_counts(occupied & ~down, ranks)
    mask = 0
    for rank in range(1, 11):
        if _greedy_pick(rank, occupied, down, ranks, heights, lines)[0] <= MAX_FACE_DOWN:
            mask |= 1 << rank
    return mask


def safe_ranks_of(state: State) -> int:
    """The ranks that have a safe place in `state` (bit r set for rank r): a placement, beyond an edge included
    (the layout shifted), that leaves at most four face down. A card of another rank loses at once. On an empty
    grid every rank is safe."""
    _, occupied, down, ranks, heights = start_of(state)
    return safe_ranks(occupied, down, ranks, heights) if occupied else 0b11111111110


_MASK = (1 << 64) - 1


def _deal_python(seen: bytes, unseen: bytes, key: int) -> bytes:
    """`future_stock` in Python: Fisher-Yates on splitmix64 numbers, as `_playout.c` does it."""
    order = bytearray(unseen)
    state = key
    for i in range(len(order) - 1, 0, -1):
        state = state + 0x9E3779B97F4A7C15 & _MASK
        z = (state ^ state >> 30) * 0xBF58476D1CE4E5B9 & _MASK
        z = (z ^ z >> 27) * 0x94D049BB133111EB & _MASK
        j = ((z ^ z >> 31) >> 32) * (i + 1) >> 32
        order[i], order[j] = order[j], order[i]
    return seen + bytes(order)


_GOLDEN = 0x9E3779B97F4A7C15
START_BYTES = 39  # a candidate's record for `futures`: its end, score, drawn, two masks, 16 ranks, 16 heights


def future_key(seed: int, number: int) -> int:
    """The key of a position's future `number` (from 0): the splitmix64 number that `seed` gives there (counted,
    not drawn in turn, so any run of futures is the same however it is split)."""
    z = seed + (number + 1) * _GOLDEN & _MASK
    z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ z >> 27) * 0x94D049BB133111EB & _MASK
    return z ^ z >> 31


def position_seed(state: State) -> int:
    """The seed of a position's futures, from what a player sees of it, up to where the layout sits and the
    cards' suits: the grid slid to its corner (its cards placed, masks, top ranks and heights), the rank in hand,
    and how many unseen cards each rank has; mixed a byte at a time by splitmix64 (as `_playout.c` does), so the
    same position deals the same futures in every game, in C and in Python."""
    drawn, occupied, down, ranks, heights = start_of(cornered(state))
    card = state.next_card
    counts = state.unseen_by_rank()
    data = bytes([drawn]) + occupied.to_bytes(2, "little") + down.to_bytes(2, "little") + ranks + heights
    data += bytes([0 if card is None else card.rank, *counts])
    seed = 0x243F6A8885A308D3
    for byte in data:
        seed = future_key(seed ^ byte, 0)
    return seed


def candidate_record(state: State) -> bytes:
    """What `futures` needs of a candidate's position (the position after its move): its end, or its integers."""
    if state.is_over:
        score = state.outcome.score
        return bytes([1, 0] if score is None else [2, score]) + bytes(START_BYTES - 2)
    drawn, occupied, down, ranks, heights = start_of(state)
    return bytes([0, 0, drawn]) + occupied.to_bytes(2, "little") + down.to_bytes(2, "little") + ranks + heights


def _futures_python(
    seen: bytes,
    unseen: bytes,
    seed: int,
    first: int,
    count: int,
    starts: bytes,
    fill_first: bool,
    won_worth: bytes,
    lost_worth: bytes,
) -> bytes:
    """`futures` in Python, future by future as `_playout.c` plays them."""
    won = [int.from_bytes(won_worth[8 * i : 8 * i + 8], "little", signed=True) for i in range(25)]
    lost = [int.from_bytes(lost_worth[8 * i : 8 * i + 8], "little", signed=True) for i in range(41)]
    records = [starts[i : i + START_BYTES] for i in range(0, len(starts), START_BYTES)]
    totals = [[0, 0, 0] for _ in records]
    for number in range(first, first + count):
        stock = _deal_python(seen, unseen, future_key(seed, number))
        for record, total in zip(records, totals, strict=True):
            if record[0] == 0:
                occupied, down = int.from_bytes(record[3:5], "little"), int.from_bytes(record[5:7], "little")
                score, drawn, _, _ = _finish_python(
                    stock, record[2], occupied, down, record[7:23], record[23:39], fill_first
                )
                placed = drawn - record[2]
            else:
                score, placed = (record[1] if record[0] == 2 else -1), 0
            if score >= 0:
                total[0] += 1
                total[1] += score
                total[2] += won[score]
            else:
                total[2] += lost[placed]
    return b"".join(value.to_bytes(8, "little", signed=True) for total in totals for value in total)


MAX_PLAYOUTS = 1_000_000
"""The largest budget the expert takes (futures a move): some 15 s a move in C, minutes in Python. A larger one
would only run until killed; options, settings and results files refuse it in one line."""


class PlayoutsInUse(NamedTuple):
    """Which playouts this install runs, for `--version` and `config`: "C", or "Python" and why not C."""

    language: str
    why_not_c: str | None = None


PYTHON_ONLY = "FOURSQUARE_PLAYOUTS"
"""Set to `python`, the playouts run in Python even where the C module was built: how the tests (and anyone
who wants to see it) run the path an install without a compiler takes."""

try:
    if os.environ.get(PYTHON_ONLY, "").lower() == "python":
        raise ImportError(f"{PYTHON_ONLY}=python asks for them")
    from ._playout import deal as _deal_c
    from ._playout import finish as _finish_c
    from ._playout import futures as _futures_c
    from ._playout import reply as _reply_c
    from ._playout import safe_ranks as _safe_ranks_c

    PLAYOUTS_IN_USE = PlayoutsInUse("C")
except ImportError as error:  # not built (no C compiler at install): the same playouts, some fifty times slower
    _finish_c = None  # type: ignore[assignment]
    _deal_c = None  # type: ignore[assignment]
    _safe_ranks_c = None  # type: ignore[assignment]
    _futures_c = None  # type: ignore[assignment]
    _reply_c = None  # type: ignore[assignment]
    if isinstance(error, ModuleNotFoundError) and error.name == f"{__package__}._playout":
        PLAYOUTS_IN_USE = PlayoutsInUse(
            "Python",
            "the C module was not built at install (no C compiler?); a binary wheel, or a reinstall with one, runs C",
        )
    elif not isinstance(error, ModuleNotFoundError) and str(error).startswith(PYTHON_ONLY):
        PLAYOUTS_IN_USE = PlayoutsInUse("Python", str(error))
    else:  # built, but it cannot be loaded (built for another Python, a missing symbol)
        PLAYOUTS_IN_USE = PlayoutsInUse("Python", f"the C module did not load: {error}")

ACCELERATED = _finish_c is not None
"""Whether the playouts run in C (`_playout.c`, built at install when a C compiler is there)."""

future_stock = _deal_c if _deal_c is not None else _deal_python
"""`future_stock(seen, unseen, key) -> bytes`: the ranks `seen`, then those `unseen` in an order drawn from the
64-bit `key` (the same order in C and in Python): a future's stock for `finish_from`."""

finish_from = _finish_c if _finish_c is not None else _finish_python
"""`finish_from(stock, drawn, occupied, down, top_ranks, top_heights, fill_first=False) -> (score, drawn,
occupied, down)`: the greedy playout (`fill_first`: the expert's, see `_greedy_pick`) from the integers of
`start_of` on the ranks of `stock_of`; the score is -1 for a loss."""

futures = _futures_c if _futures_c is not None else _futures_python
"""`futures(seen, unseen, seed, first, count, starts, fill_first, won_worth, lost_worth) -> bytes`: a position's
futures `first` to `first + count - 1` (`future_key`) played by each candidate of `starts` (`candidate_record`s);
three int64 a candidate, little-endian: the futures won, their scores summed, their worth summed (in the units of
`won_worth`, 25 int64 by score, and `lost_worth`, 41 int64 by the cards placed until the loss). In C, without
the interpreter's lock: two threads play at once."""

reply_in_c = _reply_c
"""`reply(occupied, down, drawn, ranks, heights, hand, unseen, playouts, fill_first, won_worth, lost_worth, second,
second_playouts) -> (value, won, scored)`: the expert's search of a position whose card in hand has rank `hand`,
its best `second` looked at again over the next card on one ply of `second_playouts`, all in C: its best move's
mean worth, share won and score (its twin in Python is `ExpertPlayer.evaluate`: a test holds the two to the same
figures); None without the C module."""

safe_ranks = _safe_ranks_c if _safe_ranks_c is not None else _safe_ranks_python
"""`safe_ranks(occupied, down, top_ranks, top_heights) -> int`: bit r (1-10) set when a card of rank r has a
placement leaving at most four face down (the layout free to shift); the grid must hold a pile."""


# For each cell, what `_greedy_pick` looks up: the cell, its bit, its row's and column's line numbers, the other
# cells of that row and column, and its neighbours.
_CELLS = tuple(
    (cell, 1 << cell, cell >> 2, 4 + (cell & 3), ROW_OTHERS[cell], COLUMN_OTHERS[cell], NEIGHBOURS[cell])
    for cell in range(16)
)


def _line_counts(up: int, ranks: list[int]) -> list[int]:
    lines = [0] * 8
    for cell in range(16):
        if up >> cell & 1:
            one = 1 << 4 * ranks[cell]
            lines[cell >> 2] += one
            lines[4 + (cell & 3)] += one
    return lines


def _greedy_pick(
    rank: int,
    occupied: int,
    down: int,
    ranks: list[int],
    heights: list[int],
    lines: list[int],
    fill_first: bool = False,
) -> tuple[int, int, int, int]:
    """The greedy placement of a card of `rank` on a non-empty grid: (face-down count after, cell,
    face-down mask after, shift direction or -1).

    Fewest face-down cards after the move; among those, an empty cell before a pile
    (filling the grid is progress), the empty cell touching the most piles (a compact
    layout keeps shifts open), the lowest pile; then the first in cell order, the
    cells beyond an edge last. The layout is free to shift: a cell beyond an edge
    counts when the edge opposite is empty, the move being that shift, then placing
    on the cell it opens. This tie-break wins about 12.6% of deals by itself, where
    the first fewest in the fixed frame won 8% (README: the players).

    `fill_first` (the expert's playouts): the best empty cell by the same order, a
    cell beyond an edge included, whenever it leaves at most four face down; the
    greedy placement only when none does. It wins about 69% of deals by itself.
    """
    below = BELOW[rank]
    up_to = UP_TO[rank]
    best_key = empty_key = 1 << 30
    best_cell = best_down = empty_cell = empty_down = 0
    best_direction = empty_direction = -1
    flips = [count < below or not count & up_to for count in lines]  # a card placed on an empty cell
    for cell, bit, row_line, column_line, row_others, column_others, neighbours in _CELLS:
        if occupied & bit:
            height = heights[cell]
            if height >= MAX_PILE:
                continue
            after = down & ~bit
            key = 32 + 4 * height
            if down & bit:
                row_flips, column_flips = flips[row_line], flips[column_line]
            else:  # the covered top is not compared
                own = BELOW[ranks[cell]]
                row = lines[row_line] - own
                column = lines[column_line] - own
                row_flips = row < below or not row & up_to
                column_flips = column < below or not column & up_to
        else:
            near = neighbours & occupied
            if not near:
                continue
            after = down
            key = 16 - 4 * near.bit_count()
            row_flips, column_flips = flips[row_line], flips[column_line]
        if row_flips:
            after ^= row_others & occupied
        if column_flips:
            after ^= column_others & occupied
        key += after.bit_count() * 64
        if key < best_key:
            best_key, best_cell, best_down = key, cell, after
        if key < empty_key and not occupied & bit:
            empty_key, empty_cell, empty_down = key, cell, after
    for direction in range(4):
        needs_empty, beside = SHIFT_OPENINGS[direction]
        if occupied & needs_empty:
            continue
        for cell, line in beside:
            if occupied >> cell & 1:
                after = down ^ (LINE_MASKS[line] & occupied) if flips[line] else down
                key = after.bit_count() * 64 + 12
                if key < best_key:
                    best_key, best_cell, best_down, best_direction = key, cell, after, direction
                if key < empty_key:
                    empty_key, empty_cell, empty_down, empty_direction = key, cell, after, direction
    if fill_first and empty_key >> 6 <= MAX_FACE_DOWN:
        return empty_key >> 6, empty_cell, empty_down, empty_direction
    return best_key >> 6, best_cell, best_down, best_direction


def _shifted(
    direction: int, occupied: int, down: int, after: int, ranks: list[int], heights: list[int]
) -> tuple[int, int, int, list[int], list[int]]:
    """The integers of `_greedy_pick`'s position slid one cell (`DIRECTIONS` order), as `State._shift` does."""
    if direction == 0:
        return occupied >> 4, down >> 4, after >> 4, ranks[4:] + [0] * 4, heights[4:] + [0] * 4
    if direction == 1:
        return (
            occupied << 4 & FULL,
            down << 4 & FULL,
            after << 4 & FULL,
            [0] * 4 + ranks[:12],
            [0] * 4 + heights[:12],
        )
    if direction == 2:
        return occupied >> 1, down >> 1, after >> 1, ranks[1:] + [0], heights[1:] + [0]
    return occupied << 1 & FULL, down << 1 & FULL, after << 1 & FULL, [0] + ranks[:15], [0] + heights[:15]
