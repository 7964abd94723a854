"""The runs layer: many games, values only.

`executor` (tasks in worker processes, in order, stopped cleanly by a signal), `cluster`
(the same on a Dask cluster, no worker trusted blindly), `plans` (a run's plan),
`results` (its results file, every line replayed), `verify` (a line's player asked again
for its moves), `run` (a plan played and summed up), `stats` (a player over a range of
deals), `compare` (players on the same deals, paired tests) and `analysis` (a game move
by move). It imports every layer below it (`errors`, `rules`, `formats`, `store`,
`players`) and nothing above: it returns figures as values, reports progress through a
callback, and writes no sentence for people (error messages aside).
"""
