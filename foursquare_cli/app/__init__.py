"""The application layer: what a command does beyond parsing its options and printing its result.

`session` (a game being played: opened new or resumed, kept in the history, saved after every move). It sits
between `runs` and `ui`: it uses the core and the store, and hands `ui` values to turn into text (`Opening`,
`SessionProblem`), never sentences. `ui` reaches the store only through it.
"""
