"""The rules in brief: what `rules` prints and the prompt's `help` opens with (a module of its own, so that
`rules` loads nothing else)."""

from __future__ import annotations

RULES = """\
Place each card you are given on the 4x4 grid (columns A-D, rows 1-4).
  B3          place it on the empty cell B3 (it must share an edge with a pile; \
the first card may go anywhere)
  B3 top      place it on top of the pile at B3 (a pile holds at most 4 cards)
  shift up    slide the whole layout one cell (up, down, left, right); free
After a card is placed, its row and then its column are checked: if it is higher \
than every other face-up top card in the line, or lower than every one, or there \
is none, every other top card in the line is turned over. Ties never count.
Win: all 16 cells filled and face up; your score is the cards left in the stock.
Lose: more than 4 face-down cards, or the stock runs out."""
