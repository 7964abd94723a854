"""`config` and `--version`: the settings in force (the store's settings file, each with where it comes from)
and the playouts this install runs (C, or Python and why). Every command reads the settings through
`app.defaults`, which loads no player."""

from __future__ import annotations

from typing import Any, NamedTuple

from .. import __version__
from ..players.registry import DEFAULT_MOVE_TIME, DEFAULT_PLAYOUTS
from ..rules.playout import PLAYOUTS_IN_USE, PlayoutsInUse
from ..store.config import Settings, read_settings

SETTING_DEFAULTS: dict[str, Any] = {
    "unicode": False,
    "color": "auto",
    "count": False,
    "meter": False,
    "reveal": False,
    "playouts": DEFAULT_PLAYOUTS,
    "think": None,
    "move_time": DEFAULT_MOVE_TIME,
}
"""Each setting's value when the settings file does not give it: the default of the option of that name."""

SETTING_HELP = {
    "unicode": "suit symbols instead of letters",
    "color": "colour at a terminal: auto, always or never",
    "count": "play: the cards to come under each board",
    "meter": "play: the expected score after every move",
    "reveal": "boards name the face-down cards",
    "playouts": "the expert's futures a move (its strength)",
    "think": "the most seconds the expert may think a move",
    "move_time": "an outside program's seconds a move",
}
"""What each setting does, for `config` and docs/commands.md."""


class SettingsReport(NamedTuple):
    """`config`: the settings file, and each setting's value in force."""

    settings: Settings
    playouts: PlayoutsInUse


class VersionReport(NamedTuple):
    """`--version`: the version and the playouts this install runs."""

    version: str
    playouts: PlayoutsInUse


def settings_report() -> SettingsReport:
    return SettingsReport(read_settings(), PLAYOUTS_IN_USE)


def version_report() -> VersionReport:

    return VersionReport(__version__, PLAYOUTS_IN_USE)
