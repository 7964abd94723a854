"""A grid laid out by hand (`State.from_grid`): four rows of four words, a card or a pile a cell."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .tables import MAX_PILE


def piles_of_grid(rows: Sequence[str] | str) -> tuple[list[tuple[Card, ...]], int]:
    """The piles of `rows` (cell 0, A1, first; each pile bottom card first) and the face-down mask.

    `rows`: four rows (row 1 first), each four words, one per cell: `.` for an empty
    cell, else the pile bottom card first, joined by `/` (`5S/AD`), with `#` before the
    pile when its top card is face down (`#7H`, `#5S/AD`). A single string is split into
    lines; blank lines are ignored. ValueError (InvalidCardError) says what is wrong.
    """
    if isinstance(rows, str):
        rows = [line for line in rows.splitlines() if line.strip()]
    if len(rows) != 4:
        raise ValueError(f"a grid has 4 rows, not {len(rows)}")
    piles: list[tuple[Card, ...]] = []
    down = 0
    for number, row in enumerate(rows, start=1):
        words = row.split()
        if len(words) != 4:
            raise ValueError(f"row {number} {row!r}: a row has 4 cells, not {len(words)}")
        for word in words:
            if word == ".":
                piles.append(())
                continue
            if word.startswith("#"):
                down |= 1 << len(piles)
                word = word[1:]
            pile = tuple(Card.from_str(name) for name in word.split("/"))
            if len(pile) > MAX_PILE:
                raise ValueError(f"{word!r}: a pile holds at most {MAX_PILE} cards")
            piles.append(pile)
    return piles, down
