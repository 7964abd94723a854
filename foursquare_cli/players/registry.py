"""Which player plays, and how: `PlayerSpec`, and the one registry of the built-in players.

A built-in player is a module of this package with a player class that builds itself
from a spec (`from_spec`), and a line of `BUILT_IN_PLAYERS`: its name, what it does in a
few words, and where its class is (`module:Class`). The command line's choices and
help, docs/players.md's table and the error for a name that is no player all read this
table, so a new built-in player is one module and one line. Nothing here imports a
player: building one imports its module, so the command line starts without the expert.

Outside players are named, not registered: `cmd:COMMAND` (a program speaking the move
protocol) and `module:attribute` (a Python class or factory), both run in a process of
their own by `outside`.
"""

from __future__ import annotations

import enum
import importlib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

from ..errors import PlayerError
from ..rules.playout import ACCELERATED

if TYPE_CHECKING:
    from ..rules.game import Player

C_PLAYOUTS = 20000  # the expert's budget with the playouts in C: futures played out a move (docs/players.md)
PYTHON_PLAYOUTS = 1000  # without C (no compiler at install): the budget that keeps a move under a second there
DEFAULT_PLAYOUTS = C_PLAYOUTS if ACCELERATED else PYTHON_PLAYOUTS
"""The expert's default budget for this build: fixed by the build, never by the clock, so a build's moves are
the same on every run (docs/figures.md has what each budget wins and scores)."""
DEFAULT_MOVE_TIME = 10.0  # seconds an outside player has for a move before it forfeits


class Strength(NamedTuple):
    """How hard the expert thinks: playouts a move (a deterministic budget) and an optional cap in seconds."""

    playouts: int = DEFAULT_PLAYOUTS
    think: float | None = None


class BuiltInPlayer(NamedTuple):
    """A built-in player: its name, what it does (for help and docs), and its class (`module:Class` in this
    package, with `from_spec(spec)`)."""

    name: str
    summary: str
    where: str


BUILT_IN_PLAYERS = (
    BuiltInPlayer("random", "uniform over the legal moves, shifts included", "random_player:RandomPlayer"),
    BuiltInPlayer("greedy", "the placement that leaves the fewest cards face down", "greedy:GreedyPlayer"),
    BuiltInPlayer("expert", "Monte Carlo over the unseen cards; the hint and the meter are its", "expert:ExpertPlayer"),
)
"""The built-in players, in the order help lists them."""

OUTSIDE_PLAYERS = "cmd:COMMAND (a program speaking the move protocol) or module:attribute (a Python class)"


def built_in_names() -> tuple[str, ...]:
    return tuple(player.name for player in BUILT_IN_PLAYERS)


def players_help() -> str:
    """`random, greedy, expert, cmd:COMMAND (...) or module:attribute (...)`: what `--player` takes."""
    return ", ".join(built_in_names()) + ", " + OUTSIDE_PLAYERS


def players_table() -> str:
    """The built-in players as docs/players.md's table lists them (a test holds the page to it)."""
    rows = ["| player | what it does |", "| --- | --- |"]
    rows += [f"| `{player.name}` | {player.summary} |" for player in BUILT_IN_PLAYERS]
    return "\n".join(rows)


class PlayerKind(enum.StrEnum):
    BUILT_IN = "built-in"
    PROGRAM = "cmd"
    MODULE = "module"


def parse_player_name(name: str) -> str:
    """The canonical name of a player (a built-in one in lower case), checked without building it.

    PlayerError for a name that names no player: an unknown built-in, `cmd:` with no
    program or unbalanced quotes, `module:attribute` with a part missing.
    """
    if name.startswith("cmd:"):
        from .processes import split_command

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
    if name.lower() not in built_in_names():
        raise PlayerError(f"{name!r}: no such player; players are {players_help()}")
    return name.lower()


@dataclass(frozen=True)
class PlayerSpec:
    """A player, as named (`expert`, `cmd:./bot`, `mybots:Greedy`), and its settings: the seed of its own
    choices, the expert's strength, an outside program's time a move. A value: it builds the player."""

    name: str = "expert"
    seed: int = 0
    strength: Strength = Strength()
    move_time: float = DEFAULT_MOVE_TIME

    @classmethod
    def parse(
        cls, name: str, seed: int = 0, strength: Strength = Strength(), move_time: float = DEFAULT_MOVE_TIME
    ) -> PlayerSpec:
        """The spec of the player `name` (checked, not built: PlayerError for a name that names none)."""
        return cls(parse_player_name(name), seed, strength, move_time)

    @property
    def kind(self) -> PlayerKind:
        if self.name.startswith("cmd:"):
            return PlayerKind.PROGRAM
        return PlayerKind.MODULE if ":" in self.name else PlayerKind.BUILT_IN

    def named(self, name: str) -> PlayerSpec:
        """The same settings for another player (checked)."""
        return replace(self, name=parse_player_name(name))

    def for_deal(self, deal: int) -> PlayerSpec:
        """The spec of this player's game on `deal` in a run: seeded from the player seed and the deal, so a
        deal's game is the same whichever process plays it."""
        return replace(self, seed=self.seed * 1_000_003 + deal)

    def build(self) -> Player:
        """The player (PlayerError, one line, when it cannot be built). An outside player is one process per
        worker, reused from game to game (a `module:` one builds a fresh player each game)."""
        if self.kind is PlayerKind.BUILT_IN:
            entry = next(player for player in BUILT_IN_PLAYERS if player.name == parse_player_name(self.name))
            module, _, kind = entry.where.partition(":")
            built: Player = getattr(importlib.import_module(f"{__package__}.{module}"), kind).from_spec(self)
            return built
        from .outside import running_program

        return running_program(self.name, self.move_time, self.seed)
