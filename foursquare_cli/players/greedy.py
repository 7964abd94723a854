"""The greedy player: the placement that leaves the fewest face-down cards, the layout free to shift."""

from __future__ import annotations

from ..rules.engine import State
from ..rules.moves import Move
from ..rules.playout import greedy_choice


def greedy_move(state: State) -> Move:
    """The greedy policy's next move (`playout.greedy_choice`): the shift it needs first, else the placement.

    After that shift the same policy picks the placement it was played for (the
    opened cell keeps its value and every other candidate its value and order).
    """
    shift, placement = greedy_choice(state)
    return shift if shift is not None else placement


class GreedyPlayer:
    """Fewest face-down cards after the move, the layout free to shift (`playout.greedy_choice`).

    It plays the moves of the simulations' playouts (`playout.finish`).
    """

    name = "greedy"
    REPLAYABLE = True  # its moves follow from the position alone, on every machine: `summarize --verify` asks again
    summary = "the placement that leaves the fewest cards face down"

    def __init__(self, seed: int = 0) -> None:
        del seed  # deterministic

    def choose(self, state: State) -> Move:
        return greedy_move(state)
