"""A Foursquare bot for `--player cmd:...`, standard library only: the move protocol (docs/protocol.md, section 7).

Run it as a player: foursquare compare greedy "cmd:python3 examples/greedy_bot.py" --games 100
It reads one JSON state a line; while the game is being played it answers with the
placement that leaves the fewest face-down cards, the first such in the order of
`legal` (empty cells, then piles, each from A1 to D4), never a shift: the plain
greedy (the built-in `greedy` also uses shifts).
"""

from __future__ import annotations

import json
import sys
from typing import Any


def rank(card: str) -> int:
    """`AS` is 1, `10D` 10: the rank, all the rules look at."""
    return 1 if card[0] == "A" else int(card[:-1])


def face_down_after(state: dict[str, Any], move: str) -> int:
    """The face-down top cards after the card in hand is placed by `move` (`B3` or `B3 top`)."""
    piles = {(r, c): pile for r, row in enumerate(state["grid"]) for c, pile in enumerate(row) if pile}
    here = (int(move[1]) - 1, "ABCD".index(move[0]))  # (row, column), both from 0
    down = {cell for cell, pile in piles.items() if not pile["up"]} - {here}  # the placed card is face up
    for line in ([(here[0], c) for c in range(4)], [(r, here[1]) for r in range(4)]):  # its row, then its column
        others = [cell for cell in line if cell != here and cell in piles]
        shown = [rank(piles[cell]["card"]) for cell in others if piles[cell]["up"]]
        placed = rank(state["next"])
        if not shown or placed > max(shown) or placed < min(shown):
            down ^= set(others)  # the line triggers: every other top card in it turns over
    return len(down)


def choose(state: dict[str, Any]) -> str:
    placements: list[str] = [move for move in state["legal"] if not move.startswith("shift")]
    return min(placements, key=lambda move: face_down_after(state, move))  # min keeps the first of the fewest


if __name__ == "__main__":
    for line in sys.stdin:
        state = json.loads(line)
        if state["status"] == "playing":
            print(choose(state), flush=True)
