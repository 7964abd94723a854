"""The meter's calibration (issue 34, point 5): the table's curves read as documented, and the shipped table
is monotone, bounded, and never claims certainty."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foursquare_cli.players import calibration, calibration_table

TOY_CHANCE = [
    [[0.2, 0.5], [0.6, 0.9]],  # cards placed 0-9 (middle 4.5)
    [[0.2, 0.3], [0.6, 0.7]],  # 10-19 (14.5)
    [[0.0, 0.0], [1.0, 1.0]],  # 20-29 (24.5)
    [[0.0, 0.0], [1.0, 0.5]],  # 30-39 (34.5)
]
TOY_SCORE = [[[0.0, 0.0], [10.0, 20.0]]] * 4


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setattr(calibration, "CHANCE", TOY_CHANCE)
    monkeypatch.setattr(calibration, "SCORE", TOY_SCORE)


def test_a_band_curve_is_linear_between_knots_and_flat_beyond(toy):
    assert calibration.calibrated_chance(0.4, 2) == pytest.approx(0.7)  # halfway from 0.5 to 0.9
    assert calibration.calibrated_chance(0.1, 2) == pytest.approx(0.5)  # below the first knot: flat
    assert calibration.calibrated_chance(0.9, 4) == pytest.approx(0.9)  # above the last knot: flat


def test_between_the_middles_of_two_bands_the_curves_are_blended(toy):
    # at 0.4 the first band's curve says 0.7, the second's 0.5; drawn 9 is 0.45 of the way from 4.5 to 14.5
    assert calibration.calibrated_chance(0.4, 9) == pytest.approx(0.55 * 0.7 + 0.45 * 0.5)
    assert calibration.calibrated_chance(0.4, 14) == pytest.approx(0.05 * 0.7 + 0.95 * 0.5)
    assert calibration.calibrated_chance(0.4, 39) == pytest.approx(0.2)  # past the last middle: the last curve


def test_the_expected_score_is_never_more_than_a_win_with_the_next_card_scores(toy):
    assert calibration.calibrated_score(5.0, 0) == pytest.approx(10.0)
    assert calibration.calibrated_score(9.0, 30) == pytest.approx(9.0)  # 18 by the curve; 9 cards at most
    assert calibration.calibrated_score(-1.0, 3) == 0.0


@given(st.floats(0, 1), st.floats(0, 1), st.integers(0, 39))
def test_the_shipped_table_is_monotone_and_bounded(a, b, drawn):
    low, high = sorted((a, b))
    assert 0 <= calibration.calibrated_chance(low, drawn) <= calibration.calibrated_chance(high, drawn) <= 1
    assert 0 <= calibration.calibrated_score(low * 24, drawn) <= calibration.calibrated_score(high * 24, drawn)
    assert calibration.calibrated_score(high * 24, drawn) <= 39 - drawn


def test_the_shipped_table_has_a_curve_for_every_band_and_claims_no_certainty():
    assert len(calibration_table.CHANCE) == len(calibration_table.SCORE) == len(calibration.BANDS)
    for curve in calibration_table.CHANCE:
        xs = [x for x, _ in curve]
        assert xs == sorted(xs) and all(0 < y < 1 for _, y in curve), "a chance seen every time is not 100%"


@pytest.mark.parametrize(("sample", "certain"), [("lost.yaml", 0.0), ("won.yaml", 1.0)])
def test_a_move_that_ends_the_game_is_rated_with_certainty_not_through_the_table(sample, certain):
    """The table's lowest knot is a pooled block (0.25 in the middle bands): a move that loses at once is 0%,
    not 25%, and a winning one 100% with its very score."""
    from pathlib import Path

    from foursquare_cli.formats.records import load
    from foursquare_cli.players.expert import ExpertPlayer
    from foursquare_cli.rules.engine import state_after

    game = load(str(Path(__file__).parent.parent / "samples" / sample)).game
    before, last = game.steps[-2].state, game.steps[-1]
    rating = next(r for r in ExpertPlayer(0, 200).rate(before) if r.move == last.move and r.then is None)
    assert rating.final and rating.chance == certain
    assert rating.expected == (last.state.outcome.score or 0)
    earlier = game.steps[-6].state
    for other in ExpertPlayer(0, 200).rate(earlier):
        after = state_after(earlier, other.move)
        if other.then is not None:
            after.apply(other.then)
        assert other.final == after.is_over, other  # final only for a move that ends the game
