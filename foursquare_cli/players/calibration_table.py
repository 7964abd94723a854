"""The meter's calibration, written by `benchmarks/meter_calibration.py fit` (do not edit by hand): of the expert
with its playouts in C, from 1000 deals of fit4000.jsonl. For the figures of the first ply (`one`) and of the
second (`two`): the coefficients of the chance's logistic model on `calibration.chance_terms`, and of the score
of a win's linear model on `calibration.score_terms`.
"""

C_CHANCE = {
    "one": [5.28386, 2.171851, -1.624846, -1.235506, -2.98809, 0.216487, 1.521882],
    "two": [0.562182, 2.663497, -1.587422, 0.303616, -0.508431, 0.37611, 4.313348],
}
C_SCORE = {
    "one": [15.105642, 0.596036, 0.012737, -16.579032, -0.11984, -1.894873, 0.268137],
    "two": [10.208698, 0.908014, -0.010286, -11.122293, -0.005262, 0.788445, -4.142603],
}
