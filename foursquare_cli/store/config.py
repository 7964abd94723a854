"""Settings: the defaults a player repeats, kept in a TOML file (read with the standard library's `tomllib`).

The file is `$FOURSQUARE_CONFIG` if set, else `config.toml` in the platform's folder for
a user's settings, as `platformdirs` knows it: `$XDG_CONFIG_HOME/foursquare` or
`~/.config/foursquare` on Linux, `~/Library/Application Support/foursquare` on macOS,
`%APPDATA%\\foursquare` on Windows. It holds top-level keys only, each the default
of the option of the same name wherever a command has it; the command line wins
over the file. A missing file is no settings; a bad one is one line naming the
file, the line and the key (exit 2).

    unicode = true        # suit symbols
    color = "always"      # auto, always or never
    count = true          # play: the cards to come under each board
    meter = false         # play: the expert's chance after every move
    reveal = false        # boards: name the face-down cards
    playouts = 600        # the expert's budget a move
    think = 0.5           # the most seconds the expert may think a move
    move_time = 5.0       # an outside program's time a move
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any, NamedTuple

import platformdirs

from ..errors import UsageError, display_name
from ..formats.lines import ReadError, read_bytes
from ..rules.playout import MAX_PLAYOUTS

CHOICES = {"color": ("auto", "always", "never")}
KINDS: dict[str, type] = {
    "unicode": bool,
    "color": str,
    "count": bool,
    "meter": bool,
    "reveal": bool,
    "playouts": int,
    "think": float,
    "move_time": float,
}
MAX_SETTINGS_BYTES = 64 * 1024
_WANTED = {bool: "true or false", str: "a string", int: "a whole number", float: "a number of seconds"}


class ConfigError(UsageError):
    """A settings file that cannot be used: one line naming the file, the line and the key."""


class Settings(NamedTuple):
    """The settings a file holds (none when there is no file), and where they came from."""

    path: Path
    values: dict[str, Any]
    exists: bool


def config_path() -> Path:
    named = os.environ.get("FOURSQUARE_CONFIG")
    if named:
        return Path(os.path.abspath(named))

    folder = platformdirs.user_config_dir("foursquare", appauthor=False, roaming=True)
    return Path(os.path.abspath(folder)) / "config.toml"


def _line_of(text: str, key: str) -> int | None:
    """The line a key is set on, `key = ...`, or opened as a table, `[key]` (no setting is one)."""
    match = re.search(rf"^[ \t]*(?:{re.escape(key)}[ \t]*=|\[\[?[ \t]*{re.escape(key)}[ \t]*[\].])", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _refused(path: Path, line: int | None, message: str) -> ConfigError:
    where = display_name(str(path)) + (f":{line}" if line is not None else "")
    return ConfigError(f"{where}: {message}")


def _checked(path: Path, text: str, key: str, value: Any) -> Any:
    kind = KINDS[key]
    line = _line_of(text, key)
    good = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value, good = float(value), True
    if not good:
        raise _refused(path, line, f"{key}: expected {_WANTED[kind]}, got {value!r}")
    if key in CHOICES and value not in CHOICES[key]:
        raise _refused(path, line, f"{key}: {value!r} is not one of {', '.join(CHOICES[key])}")
    if kind is int and value < 1:
        raise _refused(path, line, f"{key}: {value} is below 1")
    if key == "playouts" and value > MAX_PLAYOUTS:
        raise _refused(path, line, f"{key}: {str(value)[:30]} is above {MAX_PLAYOUTS}, the largest budget")
    if kind is float and (not math.isfinite(value) or value <= 0):
        raise _refused(path, line, f"{key}: a number of seconds above 0, not {value!r}")
    return value


def read_settings(path: Path | None = None) -> Settings:
    """The settings of the file (see the module's docstring); ConfigError for a bad one."""
    path = path or config_path()
    if not os.path.lexists(path):
        return Settings(path, {}, False)
    try:
        # a regular file only: a FIFO or a device is refused, never waited on
        data = read_bytes(str(path), "a settings file is a TOML file of a few lines")
    except ReadError as error:
        raise _refused(path, None, f"{error.message.replace('cannot read', 'cannot read the settings', 1)}") from None
    if len(data) > MAX_SETTINGS_BYTES:
        raise _refused(path, None, "larger than 64 KiB; a settings file has a few lines")
    if data.startswith(b"\xef\xbb\xbf"):
        raise _refused(
            path, 1, "starts with a byte-order mark, which TOML does not allow; save it as UTF-8 without one"
        )

    import tomllib  # start-up: parsed only when a settings file is there, as it mostly is not

    try:
        text = data.decode("utf-8")
        parsed = tomllib.loads(text)
    except UnicodeDecodeError:
        raise _refused(path, None, "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"\(at line (\d+)", str(error))
        said = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error))
        raise _refused(path, int(found.group(1)) if found else None, f"not TOML: {said}") from None
    except RecursionError:  # `a = [[[[...` thousands deep: no setting nests at all
        raise _refused(path, None, "not TOML of ours: nested too deep") from None
    except ValueError:  # a whole number of more digits than Python reads (4,300): no setting is near it
        long = re.search(r"[0-9_]{4000,}", text)
        line = text.count("\n", 0, long.start()) + 1 if long else None
        raise _refused(path, line, "a number of thousands of digits; no setting is near it") from None
    values = {}
    for key, value in parsed.items():
        if key not in KINDS:
            import difflib  # start-up: only a mistyped setting needs it

            close = difflib.get_close_matches(key, KINDS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; settings are {', '.join(KINDS)}"
            raise _refused(path, _line_of(text, key), f"unknown setting {key!r}{hint}")
        values[key] = _checked(path, text, key, value)
    return Settings(path, values, True)
