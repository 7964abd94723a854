"""The meter's calibration, written by `benchmarks/meter_calibration.py fit` (do not edit by hand): a first guess,
before any fit. For the figures of the first ply (`one`) and of the second (`two`): the coefficients of the
chance's logistic model on `calibration.chance_terms`, and of the score of a win's linear model on
`calibration.score_terms`.
"""

CHANCE = {"one": [3.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], "two": [3.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]}
SCORE = {"one": [6.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], "two": [6.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]}
