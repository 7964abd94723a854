"""A Foursquare bot that counts cards, standard library only: version 2 of the move protocol (docs/protocol.md).

Run it as a player, the tool asked for version 2:
    foursquare compare greedy "cmd:python3 examples/counting_bot.py" --games 100 --protocol 2

Version 2 states carry `unseen`: how many cards of each rank are neither on the grid
(at any depth) nor in hand. This bot counts by it alone, so it could join a game at
any move. Of the placements that leave the fewest cards face down (never a shift), it
plays the one after which the most of the cards to come would have a safe place next
(some placement leaving at most four face down), the first such in the order of `legal`.
"""

from __future__ import annotations

import json
import sys
from typing import Any

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
Grid = dict[tuple[int, int], tuple[int, bool]]  # (row, column) from 0: (the top card's rank, face up)


def rank(card: str) -> int:
    """`AS` is 1, `10D` 10: the rank, all the rules look at."""
    return 1 if card[0] == "A" else int(card[:-1])


def piles_of(state: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    return {(r, c): pile for r, row in enumerate(state["grid"]) for c, pile in enumerate(row) if pile}


def grid_of(state: dict[str, Any]) -> Grid:
    return {cell: (rank(pile["card"]), pile["up"]) for cell, pile in piles_of(state).items()}


def placed(grid: Grid, here: tuple[int, int], card_rank: int) -> Grid:
    """The grid after a card of `card_rank` goes to `here`: its row, then its column, turned when it is higher or
    lower than every other face-up top card there (or there is none)."""
    after = dict(grid)
    after[here] = (card_rank, True)
    for line in ([(here[0], c) for c in range(4)], [(r, here[1]) for r in range(4)]):
        others = [cell for cell in line if cell != here and cell in grid]
        shown = [grid[cell][0] for cell in others if grid[cell][1]]
        if not shown or card_rank > max(shown) or card_rank < min(shown):
            for cell in others:
                after[cell] = (after[cell][0], not after[cell][1])
    return after


def face_down(grid: Grid) -> int:
    return sum(1 for _, up in grid.values() if not up)


def places(grid: Grid, heights: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
    """Where a card may go on this grid, the layout left where it is: an empty cell beside a pile, or a pile of
    fewer than four cards."""
    beside = {(r + dr, c + dc) for r, c in grid for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))}
    empty = [cell for cell in beside if cell not in grid and 0 <= cell[0] < 4 and 0 <= cell[1] < 4]
    return empty + [cell for cell in grid if heights[cell] < 4]


def safe_share(grid: Grid, heights: dict[tuple[int, int], int], unseen: dict[str, int]) -> float:
    """The share of the cards to come that would have a safe place on `grid`."""
    total = sum(unseen.values())
    if not total:
        return 1.0
    safe = 0
    for name, count in unseen.items():
        if any(face_down(placed(grid, cell, RANKS.index(name) + 1)) <= 4 for cell in places(grid, heights)):
            safe += count
    return safe / total


def choose(state: dict[str, Any]) -> str:
    grid = grid_of(state)
    heights = {cell: pile["height"] for cell, pile in piles_of(state).items()}
    in_hand = rank(state["next"])
    scored: list[tuple[int, float, str]] = []
    for move in state["legal"]:
        if move.startswith("shift"):
            continue
        here = (int(move[1]) - 1, "ABCD".index(move[0]))
        after = placed(grid, here, in_hand)
        grown = {**heights, here: heights.get(here, 0) + 1}
        scored.append((face_down(after), -safe_share(after, grown, state["unseen"]), move))
    return min(scored, key=lambda score: score[:2])[2]  # min keeps the first of the best


def main() -> None:
    for line in sys.stdin:
        state = json.loads(line)
        if "unseen" not in state:
            sys.exit("counting_bot: its states carry no `unseen`: run it with --protocol 2")
        if state["status"] == "playing":
            print(choose(state), flush=True)


if __name__ == "__main__":
    main()
