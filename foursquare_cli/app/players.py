"""The player a command is given, from its options: a `PlayerSpec` (the registry's), its name made canonical and
checked before anything is built, and what `--player` takes, for the help (read off the registry)."""

from __future__ import annotations

from ..players.registry import (
    DEFAULT_MOVE_TIME,
    DEFAULT_PLAYER,
    DEFAULT_PLAYOUTS,
    PlayerSpec,
    Strength,
    players_help,
    registered_players,
)
from ..rules.playout import MAX_PLAYOUTS

__all__ = [
    "DEFAULT_MOVE_TIME",
    "DEFAULT_PLAYER",
    "DEFAULT_PLAYOUTS",
    "MAX_PLAYOUTS",
    "PlayerSpec",
    "canonical_player",
    "player_names",
    "player_spec",
    "players_help",
]


def player_spec(
    name: str = DEFAULT_PLAYER,
    seed: int = 0,
    playouts: int | None = None,
    think: float | None = None,
    move_time: float = DEFAULT_MOVE_TIME,
    protocol: int = 1,
) -> PlayerSpec:
    """The spec of `name` with a command's run-wide defaults (the expert's default budget when none is given);
    PlayerError for a name that names no player. The default is the expert, named as the registry names it: it is
    not looked up, so that `play`, which builds the expert only for a hint, never reads the entry points at start
    (30 ms); `PlayerSpec.parse` gives the same spec."""
    strength = Strength(playouts or DEFAULT_PLAYOUTS, think)
    if name == DEFAULT_PLAYER:
        return PlayerSpec(DEFAULT_PLAYER, seed, strength, move_time, protocol=protocol)
    return PlayerSpec.parse(name, seed, strength, move_time, protocol)


def canonical_player(text: str) -> str:
    """A player's name as the tool writes it (`Expert:Playouts=0500` is `expert:playouts=500`), checked: the
    form every later check compares (PlayerError for a name that names no player)."""
    return PlayerSpec.parse(text).text


def player_names() -> list[str]:
    """The registered players' names, for completion."""
    return [player.name for player in registered_players()]
