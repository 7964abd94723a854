"""A Foursquare player as a Python class, for `--player module:attribute`.

Run it as a player (with this folder on the import path):
    PYTHONPATH=examples foursquare compare greedy greedy_player:GreedyPlayer --games 1000

The tool calls `GreedyPlayer(seed)` once a game, then `choose(state)` for each move,
with a copy of the position whose unseen cards are shuffled anew: only the grid,
the card in hand (`state.next_card`) and the cards already seen mean anything.
"""

from foursquare_cli.rules import Move, State


class GreedyPlayer:
    """The placement that leaves the fewest face-down cards; the first such (empty cells, then piles), no shift.

    The plain greedy, as `greedy_bot.py` plays it; the built-in `greedy` also uses shifts.
    """

    name = "greedy (example class)"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # a deterministic player needs none; a random one would seed itself here

    def choose(self, state: State) -> Move:
        assert state.next_card is not None
        fewest, move = min(state.face_downs_after(state.next_card))
        return move
