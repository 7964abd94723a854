"""A player in a package of its own: `pip install .`, then `foursquare stats --player cautious -n 100`."""

from __future__ import annotations

from foursquare_cli.api import Move, State, state_after


class CautiousPlayer:
    """Fewest cards face down; an empty cell before a pile."""

    summary = "the fewest cards face down, an empty cell before a pile (within margin)"
    SETTINGS = {"margin": int}  # cautious:margin=1 takes an empty cell leaving one more face down

    def __init__(self, seed: int = 0, margin: int = 0) -> None:
        if margin < 0:
            raise ValueError("margin is 0 or more")
        self.margin = margin

    def choose(self, state: State) -> Move:
        placements = [move for move in state.legal_moves() if move.is_placement]
        down = {move: state_after(state, move).face_down for move in placements}
        fewest = min(down.values())
        cells = [move for move in placements if not move.on_top and down[move] <= fewest + self.margin]
        return min(cells or placements, key=lambda move: down[move])
