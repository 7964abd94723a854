"""The settings file's values as the defaults of the options of their names: read at every command's start, so
this module loads the settings file's reader and nothing of the players (`config` shows the defaults)."""

from __future__ import annotations

from typing import Any

from ..store.config import read_settings


def settings_in_force() -> dict[str, Any]:
    """The settings file's values, each the default of the option of its name (ConfigError for a bad file)."""
    return read_settings().values
