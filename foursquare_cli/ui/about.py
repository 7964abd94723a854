"""What the tool says about itself: `foursquare config` (the settings in force) and `--version`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import display_name

if TYPE_CHECKING:
    from ..app.settings import PlayoutsInUse, Settings

SETTING_DEFAULTS = {
    "unicode": False,
    "color": "auto",
    "count": False,
    "meter": False,
    "reveal": False,
    # players.DEFAULT_PLAYOUTS, written out so `check` need not import the players (a test holds the two equal)
    "playouts": 20000,
    "think": None,
    "move_time": 10.0,
}


def settings_text(settings: Settings, playouts: PlayoutsInUse) -> str:
    """`foursquare config`: each setting, its value, and where it comes from; then the playouts in use."""
    shown = display_name(str(settings.path))
    lines = [f"Settings file: {shown}" + ("" if settings.exists else " (none there: every setting is the default)")]
    for key, default in SETTING_DEFAULTS.items():
        value = settings.values.get(key, default)
        text = "true" if value is True else "false" if value is False else "none" if value is None else str(value)
        lines.append(f"  {key:<9} = {text:<8} ({'from the file' if key in settings.values else 'default'})")
    lines.append(playouts_text(playouts)[0].upper() + playouts_text(playouts)[1:])
    return "\n".join(lines)


def playouts_text(playouts: PlayoutsInUse) -> str:
    """`playouts in C`, or `playouts in Python` and why (`--version` and `config` say it)."""
    if playouts.why_not_c is None:
        return f"playouts in {playouts.language}"
    return f"playouts in {playouts.language}, some 30 times slower: {playouts.why_not_c}"


def version_text(version: str, playouts: PlayoutsInUse) -> str:
    """`foursquare --version`: the version, and the playouts this install runs."""
    return f"foursquare {version} ({playouts_text(playouts)})"
