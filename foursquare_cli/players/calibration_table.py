"""The meter's calibration, written by `benchmarks/meter_calibration.py fit` (do not edit by hand): of the expert
with its playouts in C, from 1000 deals of fit1000.jsonl. For the figures of the first ply (`one`) and of the
second (`two`): the coefficients of the chance's logistic model on `calibration.chance_terms`, and of the score
of a win's linear model on `calibration.score_terms`.
"""

C_CHANCE = {
    "one": [5.152781, 1.767423, -1.229013, -1.234691, -2.667878, 0.199489, 0.160217],
    "two": [1.827858, 2.23935, -1.374821, 0.242095, -1.552603, 0.405401, 2.069907],
}
C_SCORE = {
    "one": [14.448025, 0.53379, 0.1207, -16.010631, -0.210421, -1.236604, 1.113879],
    "two": [12.151788, 0.828781, 0.080777, -13.308855, -0.076595, 1.124586, -4.392646],
}
