"""The player a command is given, from its options: a `PlayerSpec` (the registry's), its name checked before
anything is built, and what `--player` takes, for the help (read off the registry)."""

from __future__ import annotations

from ..players.registry import (
    BUILT_IN_PLAYERS,
    DEFAULT_MOVE_TIME,
    DEFAULT_PLAYOUTS,
    PlayerSpec,
    Strength,
    parse_player_name,
    players_help,
)
from ..rules.playout import MAX_PLAYOUTS

__all__ = ["BUILT_IN_PLAYERS", "DEFAULT_MOVE_TIME", "DEFAULT_PLAYOUTS", "MAX_PLAYOUTS", "PlayerSpec",
           "parse_player_name", "player_spec", "players_help"]  # fmt: skip


def player_spec(
    name: str = "expert",
    seed: int = 0,
    playouts: int | None = None,
    think: float | None = None,
    move_time: float = DEFAULT_MOVE_TIME,
) -> PlayerSpec:
    """The spec of `name` with a command's settings (the expert's default budget when none is given);
    PlayerError for a name that names no player."""
    return PlayerSpec.parse(name, seed, Strength(playouts or DEFAULT_PLAYOUTS, think), move_time)
