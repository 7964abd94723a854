"""A placeholder until `benchmarks/meter_calibration.py fit` writes the table: the futures' own figures."""

CHANCE = [[[0.0, 0.0], [1.0, 1.0]]] * 4
SCORE = [[[0.0, 0.0], [24.0, 24.0]]] * 4
