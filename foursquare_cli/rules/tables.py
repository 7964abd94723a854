"""The grid's geometry and the cards' ranks as public tables: the one source the engine (`engine.py`), the
Python playout (`playout.py`) and the C playout (`_playout.c`, through `_tables.h`) read.

Cells are numbered row by row, 0 = A1 to 15 = D4; a set of cells is a 16-bit mask.
Lines are numbered 0-3 for the rows and 4-7 for the columns. A card is its index in
the ordered deck (0 = AS ... 39 = 10C, protocol.md section 3), so its rank is index % 10 + 1.

This module imports nothing, so that `setup.py` can run it at build time to write
`_tables.h` (`c_header()`): the C source holds no table of its own.
"""

from __future__ import annotations

MAX_PILE = 4  # the cards a pile may hold
MAX_FACE_DOWN = 4  # the face-down cards a game survives; one more loses it
FULL = 0xFFFF
ROW_MASKS = tuple(0xF << (4 * row) for row in range(4))
COLUMN_MASKS = tuple(0x1111 << column for column in range(4))
LINE_MASKS = ROW_MASKS + COLUMN_MASKS
RANK_OF_CARD = tuple(card % 10 + 1 for card in range(40))


def _neighbours(cell: int) -> int:
    row, column = divmod(cell, 4)
    mask = 0
    for r, c in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
        if 0 <= r < 4 and 0 <= c < 4:
            mask |= 1 << (r * 4 + c)
    return mask


NEIGHBOURS = tuple(_neighbours(cell) for cell in range(16))
"""The cells that share an edge with each cell."""
ROW_OTHERS = tuple(ROW_MASKS[cell >> 2] & ~(1 << cell) for cell in range(16))
COLUMN_OTHERS = tuple(COLUMN_MASKS[cell & 3] & ~(1 << cell) for cell in range(16))
LINES = tuple(
    (
        (ROW_OTHERS[cell], tuple(c for c in range(16) if ROW_OTHERS[cell] >> c & 1)),
        (COLUMN_OTHERS[cell], tuple(c for c in range(16) if COLUMN_OTHERS[cell] >> c & 1)),
    )
    for cell in range(16)
)
"""For each cell, its row then its column: (the mask of the other cells of the line, those cells)."""
SHIFT_EDGE = (ROW_MASKS[0], ROW_MASKS[3], COLUMN_MASKS[0], COLUMN_MASKS[3])
"""For each shift (up, down, left, right): the edge that must be empty for the layout to slide that way."""
SHIFT_EDGE_NAME = ("row 1", "row 4", "column A", "column D")
SHIFT_OPENINGS = tuple(
    (
        SHIFT_EDGE[direction],
        tuple((cell, 4 + (cell & 3)) for cell in range(12, 16))
        if direction == 0
        else tuple((cell, 4 + (cell & 3)) for cell in range(0, 4))
        if direction == 1
        else tuple((cell, cell >> 2) for cell in range(3, 16, 4))
        if direction == 2
        else tuple((cell, cell >> 2) for cell in range(0, 16, 4)),
    )
    for direction in range(4)
)
"""For each shift: the edge it needs empty, and the cells beside the edge it opens, each with the line a card
placed beyond it shares (its column for up/down, its row for left/right)."""

# The playouts keep a line's face-up top ranks as one integer, 4 bits of count a rank: a card of rank r is
# strictly higher than every other when the count is below BELOW[r], strictly lower when no bit of UP_TO[r]
# is set.
BELOW = tuple(1 << 4 * rank for rank in range(11))
UP_TO = tuple((1 << 4 * rank + 4) - 1 for rank in range(11))


def c_header() -> str:
    """`_tables.h`: these tables as C arrays, for `_playout.c` (written by setup.py at build time)."""

    def array(kind: str, name: str, values: tuple[int, ...]) -> str:
        return f"static const {kind} {name}[{len(values)}] = {{{', '.join(f'{value:#x}u' for value in values)}}};"

    beside_cell = [cell for _, beside in SHIFT_OPENINGS for cell, _ in beside]
    beside_line = [line for _, beside in SHIFT_OPENINGS for _, line in beside]
    return "\n".join(
        [
            "/* Written from foursquare_cli/rules/tables.py by setup.py at build time: do not edit. */",
            "#define FULL 0xFFFFu",
            array("uint32_t", "ROW_OTHERS", ROW_OTHERS),
            array("uint32_t", "COLUMN_OTHERS", COLUMN_OTHERS),
            array("uint32_t", "NEIGHBOURS", NEIGHBOURS),
            array("uint32_t", "LINE_MASKS", LINE_MASKS),
            array("uint32_t", "NEEDS_EMPTY", SHIFT_EDGE),
            array("uint64_t", "BELOW", BELOW).replace("u,", "ull,").replace("u}", "ull}"),
            array("uint64_t", "UP_TO", UP_TO).replace("u,", "ull,").replace("u}", "ull}"),
            f"static const int BESIDE_CELL[4][4] = {{{', '.join(_rows(beside_cell))}}};",
            f"static const int BESIDE_LINE[4][4] = {{{', '.join(_rows(beside_line))}}};",
            "",
        ]
    )


def _rows(values: list[int]) -> list[str]:
    return ["{" + ", ".join(map(str, values[index : index + 4])) + "}" for index in range(0, 16, 4)]
