"""Which player is better, and how sure: every player on the same deals, and paired tests between them.

Playing the same deals pairs the games, which removes the luck of the deal from the
comparison. For each pair of players:

- wins: the exact McNemar test, a two-sided binomial test on the deals that one
  player won and the other lost (the deals both won or both lost say nothing about
  which is better);
- scores (a lost game counting 0): the Wilcoxon signed-rank test on the paired
  differences, zero differences dropped, ties ranked by their mean rank, with the
  normal approximation (continuity-corrected, tie-corrected variance); exact enough
  from about 20 differing deals, and said so when fewer.

The finding is the wins test's when it is significant (p < 0.05), else the scores
test's when that one is, else no significant difference; `ui.runs_text` says it in words.
"""

from __future__ import annotations

import enum
import math
from typing import Any, NamedTuple

from .sprt import Sprt
from .stats import GameResult, Summary

SIGNIFICANT = 0.05


def mcnemar_exact(only_first: int, only_second: int) -> float:
    """The two-sided p-value of the exact McNemar test for `only_first` against `only_second` discordant pairs."""
    n = only_first + only_second
    if n == 0:
        return 1.0
    k = min(only_first, only_second)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return float(min(1.0, 2 * tail))


def wilcoxon_signed_rank(differences: list[float]) -> tuple[float, int]:
    """The two-sided p-value of the Wilcoxon signed-rank test, and how many differences were not zero."""
    nonzero = [d for d in differences if d != 0]
    n = len(nonzero)
    if n == 0:
        return 1.0, 0
    order = sorted(range(n), key=lambda i: abs(nonzero[i]))
    ranks = [0.0] * n
    tie_term = 0.0
    start = 0
    while start < n:
        end = start
        while end + 1 < n and abs(nonzero[order[end + 1]]) == abs(nonzero[order[start]]):
            end += 1
        mean_rank = (start + end) / 2 + 1
        for position in range(start, end + 1):
            ranks[order[position]] = mean_rank
        tied = end - start + 1
        tie_term += tied**3 - tied
        start = end + 1
    positive = sum(rank for rank, d in zip(ranks, nonzero, strict=True) if d > 0)
    mean = n * (n + 1) / 4
    variance = n * (n + 1) * (2 * n + 1) / 24 - tie_term / 48
    if variance <= 0:
        return 1.0, n
    z = (abs(positive - mean) - 0.5) / math.sqrt(variance)
    return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2))), n


class Finding(enum.StrEnum):
    """What a paired comparison found: which test decided, if any."""

    WINS = "wins"  # the win rates differ significantly
    SCORES = "scores"  # the win rates do not, the scores do
    NONE = "none"  # no significant difference


class Pair(NamedTuple):
    """Two players on the same deals: their differences, the tests, and what they found."""

    first: str
    second: str
    win_difference: float  # first's win rate less second's, in points
    only_first: int  # deals first won and second lost
    only_second: int
    wins_p: float
    score_difference: float  # first's mean score (lost = 0) less second's
    scores_p: float
    differing: int  # deals whose scores differed
    finding: Finding

    @property
    def better(self) -> str | None:
        """The player the finding favours (None when there is no significant difference)."""
        if self.finding is Finding.NONE:
            return None
        difference = self.win_difference if self.finding is Finding.WINS else self.score_difference
        return self.first if difference > 0 else self.second

    @property
    def worse(self) -> str | None:
        better = self.better
        return None if better is None else (self.second if better == self.first else self.first)

    @property
    def approximate(self) -> bool:
        """Fewer than 20 deals differ in score: the normal approximation of the scores test is rough."""
        return 0 < self.differing < 20

    def to_json(self) -> dict[str, Any]:
        """The pair in `compare --format json`: the figures, the tests, and the finding as data (which test
        decided, which player it favours), never as a sentence."""
        return {
            "first": self.first,
            "second": self.second,
            "win_rate_difference": self.win_difference / 100,
            "only_first_won": self.only_first,
            "only_second_won": self.only_second,
            "wins_test": "mcnemar_exact",
            "wins_p": self.wins_p,
            "mean_score_difference": self.score_difference,
            "scores_test": "wilcoxon_signed_rank",
            "scores_p": self.scores_p,
            "scores_differing": self.differing,
            "scores_approximate": self.approximate,
            "finding": str(self.finding),
            "better": self.better,
        }


def pair(first: str, second: str, a: list[GameResult], b: list[GameResult]) -> Pair:
    """The paired comparison of two players' results on the same deals, in the same order."""
    only_first = sum(1 for x, y in zip(a, b, strict=True) if x.won and not y.won)
    only_second = sum(1 for x, y in zip(a, b, strict=True) if y.won and not x.won)
    games = len(a)
    win_difference = 100 * (sum(x.won for x in a) - sum(y.won for y in b)) / games if games else 0.0
    differences = [float((x.score or 0) - (y.score or 0)) for x, y in zip(a, b, strict=True)]
    score_difference = sum(differences) / games if games else 0.0
    wins_p = mcnemar_exact(only_first, only_second)
    scores_p, differing = wilcoxon_signed_rank(differences)
    if wins_p < SIGNIFICANT and win_difference != 0:
        finding = Finding.WINS
    elif scores_p < SIGNIFICANT and score_difference != 0:
        finding = Finding.SCORES
    else:
        finding = Finding.NONE
    return Pair(
        first, second, win_difference, only_first, only_second, wins_p, score_difference, scores_p, differing, finding
    )


class Comparison(NamedTuple):
    summaries: list[Summary]
    pairs: list[Pair]
    complete: bool  # False when the run was stopped before every game was played
    sprt: Sprt | None = None  # `compare --sprt`: the sequential test, where it stopped the run
    names: dict[str, tuple[str, str]] = {}  # by each player's whole name: its short name, its name without it

    def to_json(self) -> dict[str, Any]:
        """`compare --format json` (and `summarize`'s)."""
        return {
            "complete": self.complete,
            "players": [summary.to_json() for summary in self.summaries],
            "pairs": [pair.to_json() for pair in self.pairs],
        } | ({"sprt": self.sprt.to_json()} if self.sprt is not None else {})
