"""What `config` and `--version` report: the settings in force (the store's settings file) and the playouts
this install runs (C, or Python and why), handed on to `ui` from here."""

from __future__ import annotations

from ..rules.playout import PLAYOUTS_IN_USE, PlayoutsInUse
from ..store.config import Settings, read_settings

__all__ = ["PLAYOUTS_IN_USE", "PlayoutsInUse", "Settings", "read_settings"]
