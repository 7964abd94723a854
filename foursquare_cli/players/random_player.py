"""The random player: uniform over the legal moves, shifts included."""

from __future__ import annotations

import random

from ..rules.engine import State
from ..rules.moves import Move


class RandomPlayer:
    """Uniform over the legal moves (shifts included)."""

    name = "random"
    REPLAYABLE = True  # its moves follow from the position and its seed alone: `summarize --verify` asks again
    summary = "uniform over the legal moves, shifts included"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return self._rng.choice(state.legal_moves())
