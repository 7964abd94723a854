"""The expert's figures as they come true: the chance that the expert wins from a position, and its score.

The expert rates a move by futures: the unseen cards shuffled anew, each played out
by the greedy policy filling first. That policy plays worse than the expert (it wins
about 69% of new deals, the expert nearly all), so the share of futures won is not
the chance to win, nor their mean score the score to expect. What the tool shows
(the meter, `hint`, `analyze`) is that share mapped through a measured table: on
deals the expert was never tuned on, positions of every kind (reached by the expert,
by a greedy or a random player for a while) were rated, and the expert then played
each to its end (`benchmarks/meter_calibration.py`, which writes
`calibration_table.py`; docs/figures.md has the run and predicted against observed by
decile).

The table holds, for each band of cards placed (`BANDS`), the knots of an isotonic
(monotone) fit: the futures' share of wins against how often the expert then won,
and the futures' expected score against the score it then got (a loss counting 0).
Between knots the figure is interpolated; between bands too (from the middle of one
to the middle of the next), so the meter moves smoothly as the game goes on. The
same table serves a move's figures (the position after it), as the futures of any
move are the futures of the position it leads to.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import NamedTuple

from .calibration_table import CHANCE, SCORE

__all__ = ["BANDS", "Features", "calibrated_chance", "calibrated_figures", "calibrated_score"]

BANDS = ((0, 9), (10, 19), (20, 29), (30, 39))  # cards placed, the bounds included
_MIDDLES = [(low + high) / 2 for low, high in BANDS]


def _on_curve(knots: Sequence[Sequence[float]], x: float) -> float:
    """The fitted curve at `x`: linear between knots, flat beyond the first and the last."""
    xs = [knot[0] for knot in knots]
    if x <= xs[0]:
        return float(knots[0][1])
    if x >= xs[-1]:
        return float(knots[-1][1])
    right = bisect_left(xs, x)
    (x0, y0), (x1, y1) = knots[right - 1], knots[right]
    return float(y0 + (y1 - y0) * (x - x0) / (x1 - x0)) if x1 > x0 else float(y1)


def _blended(curves: Sequence[Sequence[Sequence[float]]], x: float, drawn: int) -> float:
    """The band curves at `x`, blended by how far `drawn` is from the middles of the two nearest bands."""
    if drawn <= _MIDDLES[0]:
        return _on_curve(curves[0], x)
    if drawn >= _MIDDLES[-1]:
        return _on_curve(curves[-1], x)
    upper = bisect_left(_MIDDLES, drawn)
    share = (drawn - _MIDDLES[upper - 1]) / (_MIDDLES[upper] - _MIDDLES[upper - 1])
    return (1 - share) * _on_curve(curves[upper - 1], x) + share * _on_curve(curves[upper], x)


def calibrated_chance(futures_won: float, drawn: int) -> float:
    """The chance that the expert wins, for a position `drawn` cards in whose futures won `futures_won`."""
    return min(1.0, max(0.0, _blended(CHANCE, futures_won, drawn)))


def calibrated_score(futures_expected: float, drawn: int) -> float:
    """The score the expert can expect (a loss counting 0), for futures whose expected score is that; never
    more than a win with the very next card would score (the cards left once it is placed)."""
    return min(float(39 - drawn), max(0.0, _blended(SCORE, futures_expected, drawn)))


class Features(NamedTuple):
    """What a move's figures are made from: its futures' own figures (`share` won, `expected` score, a loss
    counting 0: the raw figures; for a move looked at again over the next card, the replies' best's, weighted by
    how many unseen cards have each rank) and the position the move leaves: the cards placed, the cards face
    down, the empty cells, the share of the cards to come with a safe place next, the best score left."""

    looked_again: bool
    share: float
    expected: float
    drawn: int
    face_down: int
    empty: int
    safe: float
    ceiling: int


def calibrated_figures(features: Features) -> tuple[float, float]:
    """The chance that the expert wins after the move and the score it can expect, from its `features`."""
    drawn = max(0, features.drawn - 1)  # the table's stage: the cards placed before the move
    return calibrated_chance(features.share, drawn), calibrated_score(features.expected, drawn)
