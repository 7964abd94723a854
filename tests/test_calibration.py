"""The meter's calibration (issue 48, point 3): the model is read as documented, the shipped tables (one for each
build's expert) move with the futures at every stage of the game, an install reads the one of the expert it plays,
and no figure they give goes beyond what the cards allow."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foursquare_cli.players.calibration import (
    SHIPPED,
    WITH_C,
    WITHOUT_C,
    Calibration,
    Features,
    calibrated_figures,
    chance_terms,
    score_terms,
)
from foursquare_cli.players.evaluation import held_to_the_cards


def features(
    share: float,
    drawn: int = 10,
    *,
    safe: float = 1.0,
    looked: bool = True,
    mean: float = 18.0,
    face_down: int = 1,
    empty: int = 8,
    ceiling: int = 20,
) -> Features:
    return Features(looked, share, share * mean, drawn, face_down, empty, safe, ceiling)


TABLES = {"with C": WITH_C, "without C": WITHOUT_C}


def test_the_model_is_a_logistic_chance_and_a_linear_score_of_a_win():
    """By hand: with the chance's coefficients (0, 1, 0, ...) the chance is the futures' share among the safe
    cards itself; with the score's (2, 1, 0, ...) a win scores 2 + the futures' mean, so the expected score is
    the chance times that, held to the best score left."""
    zeros = [0.0] * (len(chance_terms(features(0.5))) - 2)
    by_hand = Calibration(
        {"one": [0.0, 1.0, *zeros], "two": [0.0, 1.0, *zeros]},
        {"one": [2.0, 1.0] + [0.0] * 5, "two": [2.0, 1.0] + [0.0] * 5},
    )
    chance, expected = calibrated_figures(features(0.6, mean=10.0, safe=0.8), by_hand)
    assert chance == pytest.approx(0.75) and expected == pytest.approx(0.75 * 12.0)  # 0.6 of 0.8 safe: 0.75
    chance, expected = calibrated_figures(features(0.6, mean=30.0, ceiling=20), by_hand)
    assert expected == pytest.approx(chance * 20), "a win scores at most the best score left"
    assert calibrated_figures(features(0.6, safe=0.0), by_hand) == (0.0, 0.0), "no card to come has a safe place"


@pytest.mark.parametrize("model", TABLES.values(), ids=TABLES.keys())
def test_each_shipped_table_has_both_kinds_of_figures_with_a_coefficient_for_every_term(model):
    for kind in ("one", "two"):
        assert len(model.chance[kind]) == len(chance_terms(features(0.5)))
        assert len(model.score[kind]) == len(score_terms(features(0.5)))
        assert all(math.isfinite(c) for c in model.chance[kind] + model.score[kind])
    assert WITH_C != WITHOUT_C, "each build's expert has a table fitted on its own games"


def test_an_install_reads_the_table_of_the_expert_it_plays():
    """The playouts in C: the C expert's table; in Python (as an install without a compiler runs them, asked for
    here by the variable the tests use), the table fitted on that expert's games."""
    assert SHIPPED is WITH_C
    environment = {**os.environ, "FOURSQUARE_PLAYOUTS": "python"}
    program = (
        "from foursquare_cli.players import calibration as c; from foursquare_cli.players import expert as e\n"
        "print(c.SHIPPED is c.WITHOUT_C, e.ExpertPlayer().settings == e.expert_without_c().settings)"
    )
    shown = subprocess.run([sys.executable, "-c", program], env=environment, capture_output=True, text=True)
    assert shown.stdout.split() == ["True", "True"], shown.stderr


@pytest.mark.parametrize("model", TABLES.values(), ids=TABLES.keys())
@pytest.mark.parametrize("drawn", [2, 8, 14, 20, 26, 32])
@pytest.mark.parametrize("looked", [False, True])
def test_at_no_stage_is_the_chance_a_constant_it_moves_with_the_futures(drawn, looked, model):
    """Issue 48: the table before had one knot for 0-9 cards and one for 10-19: 99.99% whatever the futures said.
    At every stage the chance now rises with the futures' share, and by more than a rounding: by 2 points or more
    from a tenth of the futures won to nearly all, or from a chance of 99% already, the meter's highest short of
    certain. (The expert without a compiler rates its replies by the tail table, whose share of wins hardly
    differs between positions of the first ten cards, all won in its fitting games: its looked-at moves there
    start at 99.4% to 99.8%.)"""
    shares = [0.1, 0.3, 0.5, 0.7, 0.9, 0.99]
    chances = [calibrated_figures(features(share, drawn, looked=looked), model)[0] for share in shares]
    assert chances == sorted(chances) and chances[-1] > chances[0], chances
    assert chances[-1] - chances[0] > 0.02 or chances[0] >= 0.99, chances


@given(
    st.floats(0, 1),
    st.integers(1, 39),
    st.floats(0, 1),
    st.booleans(),
    st.floats(0, 24),
    st.integers(0, 4),
    st.integers(0, 15),
    st.integers(0, 24),
    st.sampled_from(list(TABLES.values())),
)
def test_no_calibrated_figure_goes_beyond_the_cards(share, drawn, safe, looked, mean, face_down, empty, ceiling, model):
    figures = features(
        share, drawn, safe=safe, looked=looked, mean=mean, face_down=face_down, empty=empty, ceiling=ceiling
    )
    chance, expected = held_to_the_cards(*calibrated_figures(figures, model), figures)
    assert 0.0 <= chance <= safe and 0.0 <= expected <= chance * ceiling + 1e-9
