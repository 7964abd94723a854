"""A Foursquare player as a Python class, for `--player module:attribute` (docs/protocol.md, section 8).

Run it as a player (with this folder on the import path):
    PYTHONPATH=examples foursquare compare greedy greedy_player:GreedyPlayer --games 100

It uses only `foursquare_cli.api`. The tool calls `GreedyPlayer(seed)` once a game,
then `choose(state)` for each move, with a copy of the position whose unseen cards
are shuffled anew: the grid, the card in hand and the cards already seen are real.
"""

from __future__ import annotations

from foursquare_cli.api import Move, State, state_after


class GreedyPlayer:
    """The placement that leaves the fewest face-down cards, the first such in the order of the legal moves
    (empty cells, then piles), never a shift: the plain greedy, as `greedy_bot.py` plays it."""

    name = "greedy (example class)"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # a deterministic player needs none; a random one would seed itself here

    def choose(self, state: State) -> Move:
        placements = [move for move in state.legal_moves() if move.is_placement]
        return min(placements, key=lambda move: state_after(state, move).face_down)
