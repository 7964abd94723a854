"""The meter's calibration (issue 48, point 3): the model is read as documented, the shipped table moves with the
futures at every stage of the game, and no figure it gives goes beyond what the cards allow."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foursquare_cli.players import calibration, calibration_table
from foursquare_cli.players.calibration import Features, calibrated_figures, chance_terms, score_terms
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


def test_the_model_is_a_logistic_chance_and_a_linear_score_of_a_win(monkeypatch):
    """By hand: with the chance's coefficients (0, 1, 0, ...) the chance is the futures' share among the safe
    cards itself; with the score's (2, 1, 0, ...) a win scores 2 + the futures' mean, so the expected score is
    the chance times that, held to the best score left."""
    zeros = [0.0] * (len(chance_terms(features(0.5))) - 2)
    monkeypatch.setattr(calibration, "CHANCE", {"one": [0.0, 1.0, *zeros], "two": [0.0, 1.0, *zeros]})
    monkeypatch.setattr(calibration, "SCORE", {"one": [2.0, 1.0] + [0.0] * 5, "two": [2.0, 1.0] + [0.0] * 5})
    chance, expected = calibrated_figures(features(0.6, mean=10.0, safe=0.8))
    assert chance == pytest.approx(0.75) and expected == pytest.approx(0.75 * 12.0)  # 0.6 of 0.8 safe: 0.75
    chance, expected = calibrated_figures(features(0.6, mean=30.0, ceiling=20))
    assert expected == pytest.approx(chance * 20), "a win scores at most the best score left"
    assert calibrated_figures(features(0.6, safe=0.0)) == (0.0, 0.0), "no card to come has a safe place: none"


def test_the_shipped_table_has_both_kinds_of_figures_with_a_coefficient_for_every_term():
    for kind in ("one", "two"):
        assert len(calibration_table.CHANCE[kind]) == len(chance_terms(features(0.5)))
        assert len(calibration_table.SCORE[kind]) == len(score_terms(features(0.5)))
        assert all(math.isfinite(c) for c in calibration_table.CHANCE[kind] + calibration_table.SCORE[kind])


@pytest.mark.parametrize("drawn", [2, 8, 14, 20, 26, 32])
@pytest.mark.parametrize("looked", [False, True])
def test_at_no_stage_is_the_chance_a_constant_it_moves_with_the_futures(drawn, looked):
    """Issue 48: the table before had one knot for 0-9 cards and one for 10-19: 99.99% whatever the futures said.
    At every stage the chance now rises with the futures' share, and by more than a rounding."""
    shares = [0.1, 0.3, 0.5, 0.7, 0.9, 0.99]
    chances = [calibrated_figures(features(share, drawn, looked=looked))[0] for share in shares]
    # more than a rounding of the percent shown (at two cards placed the futures' share moves it least: from a
    # tenth of futures won to nearly all, about four points)
    assert chances == sorted(chances) and chances[-1] - chances[0] > 0.02, chances


@given(
    st.floats(0, 1),
    st.integers(1, 39),
    st.floats(0, 1),
    st.booleans(),
    st.floats(0, 24),
    st.integers(0, 4),
    st.integers(0, 15),
    st.integers(0, 24),
)
def test_no_calibrated_figure_goes_beyond_the_cards(share, drawn, safe, looked, mean, face_down, empty, ceiling):
    figures = features(
        share, drawn, safe=safe, looked=looked, mean=mean, face_down=face_down, empty=empty, ceiling=ceiling
    )
    chance, expected = held_to_the_cards(*calibrated_figures(figures), figures)
    assert 0.0 <= chance <= safe and 0.0 <= expected <= chance * ceiling + 1e-9
