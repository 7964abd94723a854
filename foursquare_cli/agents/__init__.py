"""Foursquare for learning agents: `environment`, a Gymnasium environment (the `gym` extra), and turning a
trained policy into a player (`environment.policy_player`).

A layer of its own, above the text for people (its `ansi` render is the board of `ui.board`) and below the
command line, which never imports it. Nothing below imports it either.
"""
