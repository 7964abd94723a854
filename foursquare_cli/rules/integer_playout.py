"""The greedy playout on plain integers, in Python: the reference `_playout.c` is held to, and what runs where
it was not built.

The greedy policy (`greedy_pick`), a playout to the end (`finish_python`), the ranks with
a safe place (`safe_ranks_python`), a future's stock (`deal_python`, `future_key`) and a
position's futures (`futures_python`), each the twin of a function of `_playout.c` that
tests hold to it move for move; `playout` picks one or the other. A line's face-up top
ranks are kept as one integer, 4 bits of count a rank (lines 0-3 the rows, 4-7 the
columns), so "strictly higher than every other" is `count < BELOW[rank]` and "strictly
lower" is `not count & UP_TO[rank]`.
"""

from __future__ import annotations

from .tables import (
    BELOW,
    COLUMN_OTHERS,
    FULL,
    LINE_MASKS,
    MAX_FACE_DOWN,
    MAX_PILE,
    NEIGHBOURS,
    ROW_OTHERS,
    SHIFT_OPENINGS,
    UP_TO,
)

STOPPED = -2  # the score of a playout stopped before its end (`stop_at`): the tail table's figures count for it


def finish_python(
    stock: bytes,
    drawn: int,
    occupied: int,
    down: int,
    top_ranks: bytes,
    top_heights: bytes,
    fill_first: bool = False,
    stop_at: int = 40,
) -> tuple[int, int, int, int]:
    """`finish_from` in Python: the reference the C version (`_playout.c`) is held to.

    A line's face-up ranks are kept as counters (`line_counts`), updated by what
    each move turns. `stop_at`: the score is STOPPED, and the masks those of the
    position, when that many cards were drawn before the end.
    """
    ranks = list(top_ranks)
    heights = list(top_heights)
    lines = line_counts(occupied & ~down, ranks)
    pick = greedy_pick
    while True:
        if drawn >= stop_at:
            return STOPPED, drawn, occupied, down
        rank = stock[drawn]
        if occupied:
            fewest, cell, after, direction = pick(rank, occupied, down, ranks, heights, lines, fill_first)
            if direction >= 0:
                occupied, down, after, ranks, heights = _shifted(direction, occupied, down, after, ranks, heights)
                lines = line_counts(occupied & ~down, ranks)
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


def safe_ranks_python(occupied: int, down: int, top_ranks: bytes, top_heights: bytes) -> int:
    """`safe_ranks` in Python: the greedy pick's fewest face-down count for a card of each rank."""
    ranks, heights = list(top_ranks), list(top_heights)
    lines = line_counts(occupied & ~down, ranks)
    mask = 0
    for rank in range(1, 11):
        if greedy_pick(rank, occupied, down, ranks, heights, lines)[0] <= MAX_FACE_DOWN:
            mask |= 1 << rank
    return mask


_MASK = (1 << 64) - 1


def deal_python(seen: bytes, unseen: bytes, key: int) -> bytes:
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


TAIL_UNITS = 1_000_000  # with a tail table, a future's share won and score count in millionths
TAIL_CELLS = 41 * 5 * 17  # positions by cards drawn (0-40), face down (0-4) and empty cells (0-16)


def tail_cell(drawn: int, occupied: int, down: int) -> int:
    """The tail table's cell for a position where a playout stopped: its cards drawn, face down and empty cells."""
    return (drawn * 5 + down.bit_count()) * 17 + 16 - occupied.bit_count()


def futures_python(
    seen: bytes,
    unseen: bytes,
    seed: int,
    first: int,
    count: int,
    starts: bytes,
    fill_first: bool,
    won_worth: bytes,
    lost_worth: bytes,
    tail: int = 0,
    tail_table: bytes = b"",
) -> bytes:
    """`futures` in Python, future by future as `_playout.c` plays them."""
    won = [int.from_bytes(won_worth[8 * i : 8 * i + 8], "little", signed=True) for i in range(25)]
    lost = [int.from_bytes(lost_worth[8 * i : 8 * i + 8], "little", signed=True) for i in range(41)]
    unit = TAIL_UNITS if tail else 1
    records = [starts[i : i + START_BYTES] for i in range(0, len(starts), START_BYTES)]
    totals = [[0, 0, 0] for _ in records]
    for number in range(first, first + count):
        stock = deal_python(seen, unseen, future_key(seed, number))
        for record, total in zip(records, totals, strict=True):
            if record[0] == 0:
                occupied, down = int.from_bytes(record[3:5], "little"), int.from_bytes(record[5:7], "little")
                stop_at = record[2] + tail if tail else 40
                score, drawn, occupied, down = finish_python(
                    stock, record[2], occupied, down, record[7:23], record[23:39], fill_first, stop_at
                )
                placed = drawn - record[2]
            else:
                score, placed = (record[1] if record[0] == 2 else -1), 0
            if score == STOPPED:  # what the tail table says of where it stopped
                at = 12 * tail_cell(drawn, occupied, down)
                total[0] += int.from_bytes(tail_table[at + 4 : at + 8], "little", signed=True)
                total[1] += int.from_bytes(tail_table[at + 8 : at + 12], "little", signed=True)
                total[2] += int.from_bytes(tail_table[at : at + 4], "little", signed=True)
            elif score >= 0:
                total[0] += unit
                total[1] += score * unit
                total[2] += won[score]
            else:
                total[2] += lost[placed]
    return b"".join(value.to_bytes(8, "little", signed=True) for total in totals for value in total)


def line_counts(up: int, ranks: list[int]) -> list[int]:
    lines = [0] * 8
    for cell in range(16):
        if up >> cell & 1:
            one = 1 << 4 * ranks[cell]
            lines[cell >> 2] += one
            lines[4 + (cell & 3)] += one
    return lines


_Pile = tuple[int, int, int, int, int, int]  # cell, bit, row line, column line, the piles in its row, in its column
_Empty = tuple[int, int, int, int, int, int]  # an empty cell beside a pile: the same but its bit, and its tie-break key
_Beyond = tuple[int, int, int, int]  # a shift open, the edge cell (a pile) beyond which a card goes, its line, piles
_Layout = tuple[tuple[_Pile, ...], tuple[_Empty, ...], tuple[_Beyond, ...]]
_LAYOUTS: dict[int, _Layout] = {}  # one a set of occupied cells: a game's playouts meet some 5,000
LAYOUTS_KEPT = 16384  # then they are forgotten and worked out anew: some 30 MB at most, not the 2**16 sets' 110


def _layout_of(occupied: int) -> _Layout:
    """What `greedy_pick` looks at for a set of occupied cells, worked out once a process: the piles, the empty
    cells touching one (each with its tie-break key: the more piles touched, the lower), and the cells beyond an
    edge a shift opens, each in the order the pick tries them; so a pick only loops over the cells it may use."""
    piles: list[_Pile] = []
    empties: list[_Empty] = []
    for cell in range(16):
        bit = 1 << cell
        its_lines = (cell >> 2, 4 + (cell & 3), ROW_OTHERS[cell] & occupied, COLUMN_OTHERS[cell] & occupied)
        if occupied & bit:
            piles.append((cell, bit, *its_lines))
        elif NEIGHBOURS[cell] & occupied:
            empties.append((cell, *its_lines, 16 - 4 * (NEIGHBOURS[cell] & occupied).bit_count()))
    beyond: list[_Beyond] = []
    for direction, (needs_empty, beside) in enumerate(SHIFT_OPENINGS):
        if not occupied & needs_empty:
            beyond += [
                (direction, cell, line, LINE_MASKS[line] & occupied) for cell, line in beside if occupied >> cell & 1
            ]
    if len(_LAYOUTS) >= LAYOUTS_KEPT:
        _LAYOUTS.clear()
    layout = _LAYOUTS[occupied] = (tuple(piles), tuple(empties), tuple(beyond))
    return layout


def greedy_pick(
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

    A move's key is 64 x the face-down count after it, plus its tie-break (a pile 32 + 4 x its height, an empty
    cell 16 - 4 x the piles it touches, beyond an edge 12): the lowest key wins, the first in the order tried on
    a tie. The empty cells (beyond an edge included) are tried first: filling first, the piles are not looked at
    when one of them is safe; and which kind comes first cannot change a winner, their tie-breaks never meet.
    """
    below = BELOW[rank]
    up_to = UP_TO[rank]
    piles, empties, beyond = _LAYOUTS.get(occupied) or _layout_of(occupied)
    best_key = empty_key = 1 << 30
    best_cell = best_down = empty_cell = empty_down = 0
    empty_direction = -1
    flips = [count < below or not count & up_to for count in lines]  # a card placed on an empty cell
    for cell, row_line, column_line, row_piles, column_piles, tie_break in empties:
        after = down
        if flips[row_line]:
            after ^= row_piles
        if flips[column_line]:
            after ^= column_piles
        key = after.bit_count() * 64 + tie_break
        if key < empty_key:
            empty_key, empty_cell, empty_down = key, cell, after
    for direction, cell, line, line_piles in beyond:
        after = down ^ line_piles if flips[line] else down
        key = after.bit_count() * 64 + 12
        if key < empty_key:
            empty_key, empty_cell, empty_down, empty_direction = key, cell, after, direction
    if fill_first and empty_key >> 6 <= MAX_FACE_DOWN:
        return empty_key >> 6, empty_cell, empty_down, empty_direction
    for cell, bit, row_line, column_line, row_piles, column_piles in piles:
        height = heights[cell]
        if height >= MAX_PILE:
            continue
        if down & bit:
            after = down & ~bit
            if flips[row_line]:
                after ^= row_piles
            if flips[column_line]:
                after ^= column_piles
        else:  # the covered top is not compared
            own = BELOW[ranks[cell]]
            after = down
            row = lines[row_line] - own
            if row < below or not row & up_to:
                after ^= row_piles
            column = lines[column_line] - own
            if column < below or not column & up_to:
                after ^= column_piles
        key = after.bit_count() * 64 + 32 + 4 * height
        if key < best_key:
            best_key, best_cell, best_down = key, cell, after
    if empty_key < best_key:  # never equal: a pile's tie-break and an empty cell's never meet
        return empty_key >> 6, empty_cell, empty_down, empty_direction
    return best_key >> 6, best_cell, best_down, -1


def _shifted(
    direction: int, occupied: int, down: int, after: int, ranks: list[int], heights: list[int]
) -> tuple[int, int, int, list[int], list[int]]:
    """The integers of `greedy_pick`'s position slid one cell (`DIRECTIONS` order), as `State._shift` does."""
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
