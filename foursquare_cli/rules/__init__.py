"""The rules layer: the game itself, with no I/O.

`cards` (cards, deals), `moves` (cells and moves: the notation), `engine` (the
rules: what a position may do), `game` (a
game's steps, the one game loop) and `playout` (the fast greedy playout beside the
engine whose tables it uses). This layer imports only `errors`; it reads and
writes nothing, prints nothing, and never imports typer, click or rich.

The library face for a bot author: `Card`, `Cell`, `Move`, `State`, `Game`.
"""

from .cards import Card
from .engine import State
from .game import Game, Step
from .moves import Cell, IllegalMoveError, InvalidMoveError, Move

__all__ = ["Card", "Cell", "Game", "IllegalMoveError", "InvalidMoveError", "Move", "State", "Step"]
