"""How hard a deal is, for a simple player and for a strong one, and its grade.

Two measures, both played on the deal's real stock (a grade is a property of the
deal, not of a position a player sees), both seeded by the deal number so a deal's
grade is the same on every machine:

- its **ease**: the share of `PLAYOUTS` games of the greedy policy won, each move
  of which is, with probability `NOISE`, a random legal placement instead. What a
  simple player finds.
- its **quick score**: the score of one game of the expert at `QUICK_PLAYOUTS`
  playouts a move, with the valuation pinned here (`QUICK_VALUATION`) and the plain
  greedy playouts, so tuning the expert does not regrade the deals; a lost game
  scores 0. What a strong player finds.

The two hardly agree (across deals 30000-30655 the greedy player's wins and the
expert's scores are hardly related), so a deal is `easy` when it is easy by both
(ease at least `EASY_EASE` and quick score at least `EASY_SCORE`), `hard` when it
is hard by both (ease below `HARD_EASE` and quick score below `HARD_SCORE`), else
`medium`: about 23%, 67% and 10% of the deals. The band between the two cuts keeps
each extreme clear of the deals that are easy for one player only, which is what
makes the greedy player's easy-medium step show (with one cut for both, at 6% and
12, it did not: docs/figures.md). The thresholds were chosen on deals 30000-30655
and 60000-61399, never on the range the figures were then measured on (70000 on).
About 0.3 s of one core a deal. docs/figures.md has what the grades mean for the
players.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..rules.cards import deal
from ..rules.engine import State
from ..rules.playout import greedy_choice
from .expert import ExpertPlayer, Valuation

PLAYOUTS = 100
NOISE = 0.1
QUICK_PLAYOUTS = 30
QUICK_VALUATION = Valuation(score_weight=0.01, loss_decay=0.8, near_loss_penalty=0.0, near_cards=2)
EASY_EASE = 0.07  # easy needs at least this share of the noisy greedy games won...
EASY_SCORE = 12  # ...and at least this quick score
HARD_EASE = 0.04  # hard needs a share below this...
HARD_SCORE = 11  # ...and a quick score below this
LEVELS = ("easy", "medium", "hard")
BEST_SCORE = 24  # 40 cards less the 16 a won grid holds


class Grade(NamedTuple):
    """A deal's two measures and its level."""

    ease: float
    quick_score: int
    level: str

    def __str__(self) -> str:
        return (
            f"{self.level} ({self.ease:.0%} of {PLAYOUTS} noisy greedy games won; "
            f"a quick expert scored {self.quick_score})"
        )


def level_of(ease: float, quick_score: int) -> str:
    if ease >= EASY_EASE and quick_score >= EASY_SCORE:
        return "easy"
    if ease < HARD_EASE and quick_score < HARD_SCORE:
        return "hard"
    return "medium"


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


def quick_score(seed: int, playouts: int = QUICK_PLAYOUTS) -> int:
    """The score of one game of a quick expert on deal `seed` (0 when it is lost)."""
    expert = ExpertPlayer(seed, playouts, valuation=QUICK_VALUATION, fill_first=False)
    state = State(deal(seed))
    while not state.is_over:
        state.apply(expert.choose(state))
    return state.outcome.score or 0


def grade(seed: int) -> Grade:
    """The grade of deal `seed` (see the module's docstring)."""
    share, score = ease(seed), quick_score(seed)
    return Grade(share, score, level_of(share, score))


def deal_of_level(level: str, rng: random.Random, tries: int = 100) -> tuple[int, Grade]:
    """A random deal (0 to 2^32-1) of the grade `level`: the first found in `tries` draws, else the last one
    drawn. Hard is the rarest level (about a tenth of the deals), so 100 draws all miss about once in 10^4.
    A draw whose ease already rules the level out is not played by the quick expert, which keeps the search
    near a second."""
    if level not in LEVELS:
        raise ValueError(f"{level!r}: levels are {', '.join(LEVELS)}")
    for _ in range(tries):
        seed = rng.randrange(2**32)
        share = ease(seed)
        if level not in (level_of(share, 0), "medium", level_of(share, BEST_SCORE)):
            continue  # no quick score could give this share the level
        score = quick_score(seed)
        if level_of(share, score) == level:
            return seed, Grade(share, score, level)
    return seed, grade(seed)
