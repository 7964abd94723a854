"""The players layer: a position in, a move out; the one registry of players; the solver.

`simple` (random, greedy), `expert` (Monte Carlo with successive halving),
`outside` (programs speaking the move protocol, and Python classes), `solver`
(a search that knows the whole stock: not a player, an upper bound). It imports
`errors`, `rules`, `formats` and `store` only, and returns values: no text for
people beyond an error's message.

This module is the registry, the library face for a bot author: `parse_player`
checks a name without building anything; `make_player` builds the player, which is
where its errors (a module that cannot be imported, a constructor that raises) are
reported, as one line; `play_game` is the one loop that lets a player play a game
and reports its forfeit; `closing_programs` ends the programs a run started.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from ..errors import Forfeit, PlayerError
from ..rules.game import Game, Player, Step, play_out
from .expert import DEFAULT_PLAYOUTS, ExpertPlayer, Strength
from .processes import split_command
from .simple import GreedyPlayer, RandomPlayer

__all__ = [
    "BUILT_IN_PLAYERS",
    "DEFAULT_PLAYOUTS",
    "ExpertPlayer",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "Strength",
    "closing_programs",
    "make_player",
    "parse_player",
    "play_game",
]

PLAYERS: dict[str, type[RandomPlayer] | type[GreedyPlayer] | type[ExpertPlayer]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "expert": ExpertPlayer,
}
BUILT_IN_PLAYERS = tuple(PLAYERS)
PLAYER_NAMES = ", ".join(PLAYERS)


def parse_player(name: str) -> str:
    """The canonical name of a player (a built-in one in lower case), checked without building it.

    PlayerError for a name that names no player: an unknown built-in, `cmd:` with no
    program or unbalanced quotes, `module:attribute` with a part missing.
    """
    if name.startswith("cmd:"):
        try:
            argv = split_command(name[4:])
        except ValueError as error:
            raise PlayerError(f"{name}: {error}") from None
        if not argv:
            raise PlayerError("cmd: names no program; write cmd:COMMAND")
        return name
    if ":" in name:
        module, _, attribute = name.partition(":")
        if not module or not attribute or not all(part.isidentifier() for part in module.split(".") + [attribute]):
            raise PlayerError(f"{name!r}: not a player; write module:attribute (like mybots:Greedy)")
        return name
    if name.lower() not in PLAYERS:
        raise PlayerError(
            f"{name!r}: no such player; players are {PLAYER_NAMES}, cmd:COMMAND (a program) or module:attribute"
        )
    return name.lower()


def make_player(name: str, seed: int = 0, strength: Strength = Strength(), move_time: float | None = None) -> Player:
    """A player by name (any case), or an outside one (`cmd:COMMAND`, `module:attribute`, see `outside`).

    PlayerError (one line) for a name that names no player or a player that cannot
    be built. `strength` is for the expert, `move_time` (seconds) for outside
    players; the others ignore them. An outside player is one process per worker,
    reused from game to game (a `module:` one builds a fresh player each game).
    """
    name = parse_player(name)
    if ":" in name:
        from .outside import DEFAULT_MOVE_TIME, ModulePlayer, running_program

        player = running_program(name, move_time if move_time is not None else DEFAULT_MOVE_TIME)
        if isinstance(player, ModulePlayer):
            player.seed = seed  # the next game's player is built with it
        return player
    if name == "expert":
        return ExpertPlayer(seed, strength.playouts, strength.think)
    return PLAYERS[name](seed)


def play_game(
    game: Game, player: Player, on_step: Callable[[Step], None] | None = None, *, most: int | None = None
) -> str | None:
    """Let `player` play `game` to its end (or `most` moves), `on_step(step)` after each move.

    The one game loop with a player: a forfeit ends the game there, and its reason
    is returned (None when the player did not forfeit).
    """
    played = 0
    try:
        for step in play_out(game, player):
            if on_step is not None:
                on_step(step)
            played += 1
            if most is not None and played >= most:
                break
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
    """The move `player` makes in `game` (played on it): what `hint` asks of a player other than the expert.

    Forfeit, saying which player, when it forfeits instead; its programs are closed after.
    """
    with closing_programs():
        steps: list[Step] = []
        forfeit = play_game(game, player, steps.append, most=1)
    if forfeit is not None:
        raise Forfeit(f"{name} forfeits: {forfeit}")
    return steps[0]
