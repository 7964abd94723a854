"""The `foursquare` command: Typer only.

`app` (the Typer app, the one error handler, and `COMMANDS`: which module defines each
command, loaded only when that command runs), `options` (the options the commands share,
their parsers, and `emitter`, the one way a command writes), `player_options` (those of
the commands that play), `record_commands` (a record's or a deal's), `game_commands` (a
game's), `run_commands` (many games') and `more` (the rest): each command a handful of
lines, parse its options into a request, one call into `app`, emit what comes back. It
imports `app` and `ui` (and `errors`, for the handler's table), never the core below
them. Nothing imports this layer.
"""

from __future__ import annotations

import os
import signal
import sys

from ..errors import ExitStatus, interrupted_by
from .app import COMMAND_ORDER, app, say
from .options import COMPLETE_VAR

__all__ = ["app", "main"]


def _guard_standard_streams() -> None:
    """Closed standard streams: hold their descriptors with /dev/null, so no file the tool opens
    takes their place; a closed standard output is then an error, a closed input is seen as closed."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass
            if fd == 1:
                say(f"{_command_named(sys.argv[1:])}: standard output is closed; nothing could be shown")
                sys.exit(ExitStatus.IO)


def _command_named(arguments: list[str]) -> str:
    """`foursquare COMMAND` as the arguments name it (the root takes no option with a value), before typer
    has parsed them."""
    first = next((word for word in arguments if not word.startswith("-")), None)
    return f"foursquare {first}" if first in COMMAND_ORDER else "foursquare"


def _never_unencodable() -> None:
    """Text the standard streams' encoding lacks (`PYTHONIOENCODING=ascii`, a path that is not UTF-8) is
    written as escapes, never a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (OSError, ValueError):
                pass


def _terminated_on_hangup_and_term() -> None:
    """SIGTERM and SIGHUP (a closed terminal) end any command as an error of their kind (`Terminated`): one line,
    exit 143, and a game being played saved first. A signal ignored by whoever started the tool (`nohup`)
    stays ignored."""

    def terminated(signum: int, frame: object) -> None:
        raise interrupted_by(signum)

    for name in ("SIGTERM", "SIGHUP"):  # SIGHUP is POSIX's only
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, terminated)


def main() -> None:
    _guard_standard_streams()
    _never_unencodable()
    _terminated_on_hangup_and_term()
    if COMPLETE_VAR in os.environ:  # the shell asks for completions (`foursquare completion`)
        from typer.completion import completion_init  # type: ignore[attr-defined]

        completion_init()
    app()
