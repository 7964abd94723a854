"""The meter's calibration, written by `benchmarks/meter_calibration.py fit` (do not edit by hand): of the expert of
an install without a compiler, from 1000 deals of fit_tab1000.jsonl. For the figures of the first ply (`one`) and
of the second (`two`): the coefficients of the chance's logistic model on `calibration.chance_terms`, and of the
score of a win's linear model on `calibration.score_terms`.
"""

PYTHON_CHANCE = {
    "one": [6.47505, 1.731007, -1.164547, -2.100878, -3.72451, 0.508988, 0.347995],
    "two": [5.59769, 0.331252, 1.55776, -3.126255, -2.48148, 0.852317, 2.795973],
}
PYTHON_SCORE = {
    "one": [16.997172, 0.537162, 0.024654, -18.585115, -0.11507, -3.357094, 0.289315],
    "two": [17.022675, 0.687756, -0.007073, -18.756168, 0.094007, -1.828607, -3.016754],
}
