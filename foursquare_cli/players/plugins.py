"""Another package's players, read without importing them: their settings and summary, from a process of its own.

The tool imports no module of another package in its own process: a module may loop,
raise, print or exit as it is imported, and the tool's output (JSON a script parses)
must stay its own. To name such a player (its settings checked, its summary listed) the
tool starts `python -m foursquare_cli.players.host --describe MODULE:ATTRIBUTE`, which
imports it there and says what it read as one line (`formats.protocol.PlayerDescription`),
or why it could not. It has `READ_TIME` seconds; then it and every process it started
are ended (`processes`), and the player cannot be named: a PlayerError, one line. What
it writes otherwise, on standard output or error, goes nowhere. What was read is kept
for the rest of the tool's process (a name is checked more than once a run), and travels
with the `PlayerSpec` to the workers, which read nothing again.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from typing import Any, NamedTuple

from ..errors import PlayerError
from .processes import PlayerProcess

READ_TIME = 5.0
"""Seconds another package's player has to be imported and read in its process (docs/players.md)."""
SETTING_KINDS: dict[str, type] = {"int": int, "float": float, "str": str, "bool": bool}
_LONGEST_WAIT = 0.1  # the longest single wait, so an exit is seen within it
_LAST_WORDS = 0.5  # after it exits: how long its last line may take to come through the reader
_LONGEST_LINE = 65536  # what it may say, at most


class Description(NamedTuple):
    """Another package's player as read in its process: what it does, and its settings (name: type)."""

    summary: str
    settings: dict[str, type]


def description_of(name: str, target: str) -> Description:
    """The summary and settings of the player `name`, whose entry point is `target` (`module:attribute`), read in
    a process of its own within `READ_TIME` seconds; PlayerError, one line, when they cannot be."""
    said = _read(target)
    if isinstance(said, str):
        raise PlayerError(f"{name}: {said}")
    return said


@functools.cache
def _read(target: str) -> Description | str:
    """What the host read off `target`, or why it could not (kept: the same answer all through a run)."""
    host = [sys.executable, "-m", "foursquare_cli.players.host", "--describe", target]
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path or os.curdir for path in sys.path))
    try:
        process = PlayerProcess(host, environment)
    except OSError as error:
        return f"its entry point {target!r} cannot be read: {error.strerror or error}"
    try:
        process.close_input()  # nothing to read: a module that waits for input at import gets its end at once
        line = _first_line(process, time.monotonic() + READ_TIME)
        code = process.wait(timeout=1) if line == "" else None  # it ended without a word: how
    finally:
        process.end()
    if line is None:
        return f"its entry point {target!r} was not read within {READ_TIME:g} s (its import did not end)"
    if not line:
        exited = f"exited with code {code}" if code is not None else "closed its output"
        return f"its entry point {target!r} cannot be read: its process {exited}"
    if line.startswith("error "):
        return line.removeprefix("error ")
    return _parsed(target, line)


def _first_line(process: PlayerProcess, deadline: float) -> str | None:
    """The first line the process writes, within `deadline`: "" when it ends without one, None when time ran out."""
    pending = b""
    while b"\n" not in pending:
        if len(pending) > _LONGEST_LINE:
            return ""
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        chunk = process.output(min(left, _LONGEST_WAIT))
        if chunk is None:
            if process.poll() is None:
                continue
            chunk = process.output(_LAST_WORDS)  # exited (a child of its may hold the pipe): its last words
            if chunk is None:
                return ""
        if not chunk:
            return ""
        pending += chunk
    return pending.partition(b"\n")[0].decode("utf-8", errors="replace").strip()


def _parsed(target: str, line: str) -> Description | str:
    """The description a host's line holds, or why it holds none."""
    try:
        said: Any = json.loads(line)
        summary, settings = said["summary"], said["settings"]
        if not isinstance(summary, str) or not isinstance(settings, dict):
            raise TypeError
        kinds = {str(key): SETTING_KINDS[kind] for key, kind in settings.items()}
    except (ValueError, TypeError, KeyError):
        return f"its entry point {target!r} cannot be read: its process said something else than its settings"
    return Description("".join(ch if ch.isprintable() else "?" for ch in summary), kinds)
