"""The meter's calibration, written by `benchmarks/meter_calibration.py fit` (do not edit by hand): from
1000 deals of fit1000.jsonl. For the figures of the first ply (`one`) and of the second
(`two`): the coefficients of the chance's logistic model on `calibration.chance_terms`, and of the score
of a win's linear model on `calibration.score_terms`.
"""

CHANCE = {
    "one": [7.271671, 1.524719, -0.990804, -5.026083, -0.911874, 0.148879, -1.432786],
    "two": [-1.391224, 3.045247, -2.340759, 8.366299, -6.902768, 0.400398, 3.099788],
}
SCORE = {
    "one": [41.390602, 0.525022, 0.129995, -43.108884, -0.25392, -11.852868, -14.959368],
    "two": [36.846682, 0.819841, 0.093257, -38.159923, -0.116823, -8.561665, -19.139096],
}
