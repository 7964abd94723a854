"""A sequential test that stops when it knows (`compare --sprt`): which of two players scores more, deal by deal.

As chess engine testers do (fastchess, cutechess-cli `-sprt`, OpenBench), the deals are
played in order and after each one a sequential probability ratio test weighs the paired
differences of score (a lost game counting 0: the luck of the deal taken out by pairing):
is the first player better than the second by `points` a deal, is the second better than
the first by as much, or is neither? Each direction is Wald's test of a mean difference of
0 against `points`, on a normal model whose variance is the one seen so far (the
"generalised" SPRT of the engine testers; drawn a little toward 9, a deal's difference of 3
points, as if 8 such deals had been seen, so that a run's first deals all alike do not make
it 0); each runs at `alpha / 2`, so the two together
wrongly call either player better at most `alpha` of the time, and miss a true difference of
`points` at most `beta`. The run stops as soon as one direction accepts its difference (that
player is stronger), or both accept none (neither is stronger by `points`); `-n` is then the
most it may play. No decision is taken before `FEWEST_DEALS`, so the variance is known.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

FEWEST_DEALS = 16  # deals played before the test may decide: the variance of the differences is known by then
PRIOR_VARIANCE = 9.0  # the variance of a deal's difference (3 points) the test starts from, as if it had seen...
PRIOR_DEALS = 8  # ...this many deals: a run's first deals all alike (both lost) do not make the variance 0


class SprtSettings(NamedTuple):
    """What the sequential test looks for: a difference of `points` of mean score a deal, found with the error
    rates `alpha` (calling a player better when neither is) and `beta` (missing a true difference)."""

    points: float = 0.5
    alpha: float = 0.05
    beta: float = 0.05

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points, "alpha": self.alpha, "beta": self.beta}

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds of a direction's log-likelihood ratio: below the first, its difference is rejected; above
        the second, accepted (each direction at alpha / 2)."""
        alpha = self.alpha / 2
        return math.log(self.beta / (1 - alpha)), math.log((1 - self.beta) / alpha)


class SprtVerdict(enum.StrEnum):
    FIRST = "first"  # the first player is stronger by the difference sought
    SECOND = "second"  # the second is
    NEITHER = "neither"  # neither is stronger by it
    UNDECIDED = "undecided"  # not yet (the deals ran out, or the run was stopped)


class Sprt(NamedTuple):
    """Where the test stands after `deals` deals: the mean difference (first less second) with its normal 95%
    interval, each direction's log-likelihood ratio, and the verdict."""

    settings: SprtSettings
    deals: int
    mean: float
    low: float
    high: float
    first_ratio: float  # the first is better by `points`: its log-likelihood ratio
    second_ratio: float
    verdict: SprtVerdict

    def to_json(self) -> dict[str, Any]:
        return {
            **self.settings.to_json(),
            "deals": self.deals,
            "mean_score_difference": self.mean,
            "interval_95": [self.low, self.high],
            "first_llr": self.first_ratio,
            "second_llr": self.second_ratio,
            "bounds": list(self.settings.bounds),
            "verdict": str(self.verdict),
        }


def sprt_of(settings: SprtSettings, differences: Sequence[float]) -> Sprt:
    """The test after the deals whose paired differences (first less second) are `differences`, in order."""
    return _tested(settings, len(differences), sum(differences), sum(d * d for d in differences))


class SequentialTest:
    """The test as the deals come: each deal's difference added in turn, where it stands after it."""

    def __init__(self, settings: SprtSettings) -> None:
        self.settings = settings
        self.count = 0
        self.total = self.squares = 0.0

    def add(self, difference: float) -> Sprt:
        self.count += 1
        self.total += difference
        self.squares += difference * difference
        return _tested(self.settings, self.count, self.total, self.squares)


def decided_at(settings: SprtSettings, differences: Iterable[float]) -> Sprt:
    """The test where it first decided over `differences` (in deal order), or after them all when it never did:
    where a run stops, and what a results file of it says, however it is read back."""
    test = SequentialTest(settings)
    found = _tested(settings, 0, 0.0, 0.0)
    for difference in differences:
        found = test.add(difference)
        if found.verdict is not SprtVerdict.UNDECIDED:
            break
    return found


def _tested(settings: SprtSettings, count: int, total: float, squares: float) -> Sprt:
    mean = total / count if count else 0.0
    deviations = max(0.0, squares - count * mean * mean)
    variance = (deviations + PRIOR_DEALS * PRIOR_VARIANCE) / (max(count - 1, 0) + PRIOR_DEALS)
    spread = math.sqrt(variance / count) if count else 0.0
    points = settings.points
    first = points / variance * (total - count * points / 2)  # a mean difference of `points` against 0
    second = points / variance * (-total - count * points / 2)  # of -`points` against 0
    low, high = settings.bounds
    if count < FEWEST_DEALS:
        verdict = SprtVerdict.UNDECIDED
    elif first >= high:
        verdict = SprtVerdict.FIRST
    elif second >= high:
        verdict = SprtVerdict.SECOND
    elif first <= low and second <= low:
        verdict = SprtVerdict.NEITHER
    else:
        verdict = SprtVerdict.UNDECIDED
    return Sprt(settings, count, mean, mean - 1.96 * spread, mean + 1.96 * spread, first, second, verdict)
