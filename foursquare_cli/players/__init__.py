"""The players layer: a position in, a move out; the one registry of players; the solver.

`registry` (which player plays and how: `PlayerSpec`, and the one registry of players,
read off the `foursquare.players` entry points), `random_player`, `greedy` and `expert`
(this package's players, each a module with a class the registry names), `evaluation`
(a position's one evaluation, which every screen reads), `grade` (how hard a deal is),
`outside` (programs speaking the move protocol, and Python classes, each in a process
of its own: `processes`, `warden`, `host`), `plugins` (another package's players, read
in a process of their own: nothing of theirs is imported here), `solver` (a search that knows the whole
stock: not a player; an upper bound once its best is proven) and `calibration` (the expert's figures as they
come true). It imports `errors`,
`rules`, `formats` and `store` only, and returns values: no text for people beyond an
error's message.

This module is the loop a player plays in: `play_game` lets a player play a game and
reports its forfeit; `closing_programs` ends the programs a run started.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence

from ..errors import Forfeit
from ..rules.game import Game, Player, Step, play_out
from .registry import DEFAULT_MOVE_TIME, DEFAULT_PLAYOUTS, PlayerKind, PlayerSpec, Strength

__all__ = [
    "DEFAULT_MOVE_TIME",
    "DEFAULT_PLAYOUTS",
    "MOVE_LIMIT",
    "Player",
    "PlayerKind",
    "PlayerSpec",
    "Strength",
    "closing_programs",
    "next_move",
    "Seat",
    "play_game",
    "play_in_lockstep",
]


MOVE_LIMIT = 1000
"""The most moves a player may make in one game. A game places 40 cards at most, but shifts are free, and a
player that shifts round and round would play for ever: past this many moves it forfeits (a results file's
line holds no more)."""


class Seat:
    """A player at its game, played a stretch at a time: the one game loop with a player (`play_game` plays it
    to the end; `play_in_lockstep` a card at a time, every player of a deal in turn). A forfeit ends the game
    there, its reason kept; so does a game not over after `MOVE_LIMIT` moves. `move_seconds`: the time each
    move took the player, counted from the start of its turn, never while the others play theirs."""

    def __init__(self, game: Game, player: Player, on_step: Callable[[Step], None] | None = None) -> None:
        self.game, self.player, self.on_step = game, player, on_step
        self.forfeit: str | None = None
        self.over = False
        self.move_seconds: list[float] = []
        self._steps = play_out(game, player)

    def play(self, *, most: int | None = None, to_next_card: bool = False) -> None:
        """Play on until the game ends, or `most` moves are played, or (`to_next_card`) a card is placed."""
        played = 0
        started = time.perf_counter()
        try:
            for step in self._steps:
                now = time.perf_counter()
                self.move_seconds.append(now - started)
                started = now
                if self.on_step is not None:
                    self.on_step(step)
                played += 1
                if step.ply >= MOVE_LIMIT and not step.state.is_over:
                    ended = getattr(self.player, "forfeited", None)  # an outside player's process ends with it
                    if ended is not None:
                        ended()
                    self.forfeit = f"no end after {MOVE_LIMIT} moves (a game is 40 cards; shifts are free, not endless)"
                    break
                if (most is not None and played >= most) or (to_next_card and step.card is not None):
                    return
        except Forfeit as forfeit:
            self.forfeit = forfeit.reason
        self.over = True


def play_game(
    game: Game, player: Player, on_step: Callable[[Step], None] | None = None, *, most: int | None = None
) -> str | None:
    """Let `player` play `game` to its end (or `most` moves), `on_step(step)` after each move; the reason of
    its forfeit, or None (see `Seat`)."""
    seat = Seat(game, player, on_step)
    seat.play(most=most)
    return seat.forfeit


def play_in_lockstep(seats: Sequence[Seat]) -> None:
    """The games of one deal's players, a card at a time: each in turn plays until it places a card (its shifts
    first), and only then the next. So no player is shown a card before every other has been shown the one
    before it: what one player learns of the stock, and could pass on, another already holds (a sealed run's
    games, `runs.stats.play_deal_together`). A player is shown its next card only when next asked to move."""
    while not all(seat.over for seat in seats):
        for seat in seats:
            if not seat.over:
                seat.play(to_next_card=True)


@contextlib.contextmanager
def closing_programs() -> Iterator[None]:
    """The programs started inside are closed at the end (a run of one game, or of a command)."""
    try:
        yield
    finally:
        from .outside import close_programs  # start-up: 18 ms, for outside players alone

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
