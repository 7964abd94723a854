"""How hard a deal is: the share of noisy greedy playouts that win it, and its grade.

The measure is played on the deal's real stock (it is a property of the deal, not
of a position a player sees): `PLAYOUTS` games of the greedy policy, each of whose
moves is, with probability `NOISE`, a random legal placement instead, the noise
seeded by the deal number so a deal's grade is the same on every machine. The share
of those games won is the deal's ease; the grade cuts it at two thresholds chosen
as the thirds of deals 30000-30199 (a range kept apart from the published ones):
`easy` (at least `EASY`), `medium` (at least `MEDIUM`), else `hard`. About a
tenth of a second a deal. docs/figures.md has what the grades mean for the players.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..rules.cards import deal
from ..rules.engine import State
from ..rules.playout import greedy_choice

PLAYOUTS = 200
NOISE = 0.1
EASY = 0.10  # at least this share of the playouts won: easy
MEDIUM = 0.055  # at least this share: medium; below it, hard
LEVELS = ("easy", "medium", "hard")


class Grade(NamedTuple):
    """A deal's ease (the share of noisy greedy playouts won) and its level."""

    ease: float
    level: str

    def __str__(self) -> str:
        return f"{self.level} ({self.ease:.0%} of {PLAYOUTS} noisy greedy games won)"


def level_of(ease: float) -> str:
    return "easy" if ease >= EASY else "medium" if ease >= MEDIUM else "hard"


def ease(seed: int, playouts: int = PLAYOUTS) -> float:
    """The share of `playouts` noisy greedy games on deal `seed` that are won."""
    start = State(deal(seed))
    rng = random.Random(f"grade:{seed}")
    won = 0
    for _ in range(playouts):
        state = start.copy()
        while not state.is_over:
            if rng.random() < NOISE:
                state.apply(rng.choice(state.legal_placements()))
                continue
            shift, placement = greedy_choice(state)
            if shift is not None:
                state.apply(shift)
            state.apply(placement)
        won += state.outcome.score is not None
    return won / playouts


def grade(seed: int) -> Grade:
    """The grade of deal `seed` (see the module's docstring)."""
    share = ease(seed)
    return Grade(share, level_of(share))


def deal_of_level(level: str, rng: random.Random, tries: int = 200) -> tuple[int, Grade]:
    """A random deal (0 to 2^32-1) of the grade `level`; the first found in `tries` draws, else the closest."""
    if level not in LEVELS:
        raise ValueError(f"{level!r}: levels are {', '.join(LEVELS)}")
    closest: tuple[float, int, Grade] | None = None
    for _ in range(tries):
        seed = rng.randrange(2**32)
        found = grade(seed)
        if found.level == level:
            return seed, found
        target = {"easy": 1.0, "medium": (EASY + MEDIUM) / 2, "hard": 0.0}[level]
        distance = abs(found.ease - target)
        if closest is None or distance < closest[0]:
            closest = (distance, seed, found)
    assert closest is not None
    return closest[1], closest[2]
