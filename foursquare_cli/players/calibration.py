"""The expert's figures as they come true: the chance that the expert wins after a move, and its score.

The expert rates a move by futures: the unseen cards shuffled anew, each played out by
the greedy policy filling first. That policy plays worse than the expert (it wins about
69% of new deals, the expert nearly all), so the share of futures won is not the chance to
win, nor their score the score to expect. What the tool shows is a model of the expert's
outcome, measured on deals the expert was never tuned on, from positions of every kind
(reached by the expert, by a greedy or a random player for a while), each played by the
expert to its end (`benchmarks/meter_calibration.py`, which writes `calibration_table.py`;
docs/figures.md has the run and the reliability table by decile and stage).

As Stockfish's win-draw-loss model depends on the material left rather than one curve for
the whole game, the model reads what carries risk, not the stage alone (`Features`): the
futures' share of wins, taken against the share of the cards to come that have a safe
place next (a card without one loses at once, whatever the futures say), the cards placed,
the face-down cards, the empty cells. The chance is a logistic model of those terms
(`chance_terms`); the score of a win a linear one (`score_terms`), so the expected score is
the chance times that score. A move looked at again over the next card has figures of
another kind (its replies' best's), with a model of its own. Both are then held within what
the cards allow (`evaluation.held_to_the_cards`).

The expert an install plays depends on its build (without a compiler, a smaller budget spent
otherwise: `expert.expert_without_c`), and so does what it then gets: each build has its table,
fitted on its own expert's games (`calibration_table.py`, `calibration_table_without_c.py`), and
the figures read the one of the expert this install plays (`SHIPPED`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from ..rules.playout import ACCELERATED
from . import calibration_table, calibration_table_without_c

__all__ = [
    "SHIPPED",
    "WITHOUT_C",
    "WITH_C",
    "Calibration",
    "Features",
    "calibrated_figures",
    "chance_terms",
    "score_terms",
]

SMALLEST_SHARE = 1e-4  # a share of futures is taken within [this, 1 - this] before its log-odds


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


class Calibration(NamedTuple):
    """One expert's model, as `benchmarks/meter_calibration.py fit` wrote it: for each kind of figure (`one`, the
    first ply's; `two`, the replies'), the chance's coefficients on `chance_terms` and the score of a win's on
    `score_terms`."""

    chance: dict[str, list[float]]
    score: dict[str, list[float]]


WITH_C = Calibration(calibration_table.C_CHANCE, calibration_table.C_SCORE)
WITHOUT_C = Calibration(calibration_table_without_c.PYTHON_CHANCE, calibration_table_without_c.PYTHON_SCORE)
SHIPPED = WITH_C if ACCELERATED else WITHOUT_C
"""The model of the expert this install plays: the C expert's where the playouts run in C."""


def chance_terms(features: Features) -> list[float]:
    """The terms of the chance's logistic model: the log-odds of the futures' share among the cards that do not
    lose at once, with the stage, the face-down cards and the empty cells."""
    safe = features.safe
    share = min(max(features.share / safe if safe > 0 else 0.0, SMALLEST_SHARE), 1 - SMALLEST_SHARE)
    odds = math.log(share / (1 - share))
    stage = features.drawn / 40
    return [1.0, odds, odds * stage, stage, stage * stage, features.face_down / 4, features.empty / 16]


def score_terms(features: Features) -> list[float]:
    """The terms of the score of a win's linear model: the futures' mean score of their wins, the stage, the
    face-down cards, the empty cells and the best score left."""
    mean = features.expected / features.share if features.share > 0 else 0.0
    stage = features.drawn / 40
    return [1.0, mean, mean * stage, stage, features.face_down / 4, features.empty / 16, features.ceiling / 24]


def _model(coefficients: Sequence[float], terms: Sequence[float]) -> float:
    return sum(c * t for c, t in zip(coefficients, terms, strict=True))


def calibrated_figures(features: Features, model: Calibration = SHIPPED) -> tuple[float, float]:
    """The chance that the expert wins after the move and the score it can expect (a loss counting 0), from its
    `features`, by `model` (the expert's this install plays): before the bounds of the cards
    (`evaluation.held_to_the_cards`)."""
    kind = "two" if features.looked_again else "one"
    if features.safe <= 0:
        return 0.0, 0.0
    logit = _model(model.chance[kind], chance_terms(features))
    chance = 1 / (1 + math.exp(-logit)) if logit > -700 else 0.0
    score = min(max(_model(model.score[kind], score_terms(features)), 0.0), float(features.ceiling))
    return chance, chance * score
