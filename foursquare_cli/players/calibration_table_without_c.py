"""The meter's calibration, written by `benchmarks/meter_calibration.py fit` (do not edit by hand): of the expert of
an install without a compiler, from 1000 deals of fit_py1000.jsonl. For the figures of the first ply (`one`) and
of the second (`two`): the coefficients of the chance's logistic model on `calibration.chance_terms`, and of the
score of a win's linear model on `calibration.score_terms`.
"""

PYTHON_CHANCE = {
    "one": [7.548373, 1.798352, -1.353402, -2.733184, -4.652025, 0.307244, -1.408651],
    "two": [4.828636, 3.009519, -2.197987, -1.356535, -3.779634, 0.583155, 1.117361],
}
PYTHON_SCORE = {
    "one": [13.616098, 0.560155, -0.007906, -14.964851, -0.118823, -2.952467, 2.279143],
    "two": [10.759013, 0.819223, -0.056291, -11.67983, -0.054296, -0.345378, -1.74195],
}
