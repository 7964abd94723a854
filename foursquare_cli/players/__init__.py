"""The players layer: a position in, a move out; the one registry of players; the solver.

`registry` (which player plays and how: `PlayerSpec`, and the built-in players' table),
`random_player`, `greedy` and `expert` (the built-in players, each a module with a
`build(spec)`), `grade` (how hard a deal is), `outside` (programs speaking the move
protocol, and Python classes, each in a process of its own: `processes`, `warden`,
`host`), `solver` (a search that knows the whole stock: not a player, an upper bound)
and `calibration` (the expert's figures as they come true). It imports `errors`,
`rules`, `formats` and `store` only, and returns values: no text for people beyond an
error's message.

This module is the loop a player plays in: `play_game` lets a player play a game and
reports its forfeit; `closing_programs` ends the programs a run started.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from ..errors import Forfeit
from ..rules.game import Game, Player, Step, play_out
from .registry import BUILT_IN_PLAYERS, DEFAULT_MOVE_TIME, DEFAULT_PLAYOUTS, PlayerKind, PlayerSpec, Strength

__all__ = [
    "BUILT_IN_PLAYERS",
    "DEFAULT_MOVE_TIME",
    "DEFAULT_PLAYOUTS",
    "MOVE_LIMIT",
    "Player",
    "PlayerKind",
    "PlayerSpec",
    "Strength",
    "closing_programs",
    "next_move",
    "play_game",
]


MOVE_LIMIT = 1000
"""The most moves a player may make in one game. A game places 40 cards at most, but shifts are free, and a
player that shifts round and round would play for ever: past this many moves it forfeits (a results file's
line holds no more)."""


def play_game(
    game: Game, player: Player, on_step: Callable[[Step], None] | None = None, *, most: int | None = None
) -> str | None:
    """Let `player` play `game` to its end (or `most` moves), `on_step(step)` after each move.

    The one game loop with a player: a forfeit ends the game there, and its reason
    is returned (None when the player did not forfeit). A game not over after
    `MOVE_LIMIT` moves is forfeited.
    """
    played = 0
    try:
        for step in play_out(game, player):
            if on_step is not None:
                on_step(step)
            played += 1
            if most is not None and played >= most:
                break
            if step.ply >= MOVE_LIMIT and not step.state.is_over:
                ended = getattr(player, "forfeited", None)  # an outside player's process ends, as at any forfeit
                if ended is not None:
                    ended()
                return f"no end after {MOVE_LIMIT} moves (a game is 40 cards; shifts are free, not endless)"
    except Forfeit as forfeit:
        return forfeit.reason
    return None


@contextlib.contextmanager
def closing_programs() -> Iterator[None]:
    """The programs started inside are closed at the end (a run of one game, or of a command)."""
    try:
        yield
    finally:
        from .outside import close_programs

        close_programs()


def next_move(game: Game, player: Player, name: str) -> Step:
    """The move `player` makes in `game` (played on it): what `hint` asks of a player that does not rate its
    moves. Forfeit, saying which player, when it forfeits instead; its programs are closed after."""
    with closing_programs():
        steps: list[Step] = []
        forfeit = play_game(game, player, steps.append, most=1)
    if forfeit is not None:
        raise Forfeit(f"{name} forfeits: {forfeit}")
    return steps[0]
