"""The app and its one error handler: every error as one line on standard error and its exit code.

`_OneLineErrors.main` turns a `FoursquareError` into one line (a file's name first
when it is about a file, else `foursquare COMMAND:`) and the exit code of its kind
(`errors.exit_code_of`, the one table); a usage error into typer's message in one
line (exit 2); a failed standard output into one line (74) or none (a broken pipe,
141); Ctrl-C into `interrupted` (130). Any other exception is a bug of ours: one line,
the traceback in a crash log in the data folder, exit 70.
"""

from __future__ import annotations

import datetime
import os
import sys
import tempfile
import traceback
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

from .. import __version__
from ..errors import ExitStatus, FoursquareError, clipped, exit_code_of, exit_codes_text
from ..ui.output import Screen, broken_pipe
from .options import COMPLETE_VAR, Format, emitter, fill_players_help, screen_of

say = Screen().say

# the commands as `--help` lists them: in the order a player meets them, the tools for bots and runs after
COMMAND_ORDER = (
    "play",
    "rules",
    "hint",
    "history",
    "replay",
    "analyze",
    "check",
    "solve",
    "deal",
    "auto",
    "stats",
    "compare",
    "summarize",
    "schema",
    "config",
    "completion",
    "help",
)


class _OneLineErrors(TyperGroup):
    """The one handler: usage errors and the core's errors as one line on standard error with their exit
    code; a failed or broken standard output as one line (or none), exit 74 or 141; a bug as one line and a
    crash log, exit 70. It also lists the commands in `COMMAND_ORDER`."""

    def list_commands(self, ctx: Any) -> list[str]:
        """The commands as a player meets them (`COMMAND_ORDER`), then any other."""
        names = list(super().list_commands(ctx))
        return [name for name in COMMAND_ORDER if name in names] + [name for name in names if name not in COMMAND_ORDER]

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> NoReturn:
        arguments = _resume_without_file(list(sys.argv[1:] if args is None else args))
        if _shows_help(arguments):
            fill_players_help(self)
        try:
            code = super().main(arguments, prog_name or "foursquare", complete_var, standalone_mode=False, **extra)
            if sys.stdout is not None:
                sys.stdout.flush()
        except typer.TyperException as error:
            context = getattr(error, "ctx", None)
            where = context.command_path if context is not None else "foursquare"
            say(f"{where}: {clipped(error.format_message())} (see '{where} --help')")
            code = ExitStatus.USAGE
        except typer.Exit as exit_:
            code = exit_.exit_code
        except FoursquareError as error:
            for line in error.before:
                say(line)
            say(str(error) if error.path is not None else f"{_command[0]}: {error}")
            code = exit_code_of(error)
        except (typer.Abort, KeyboardInterrupt):  # before a command is invoked
            say(f"{_command[0]}: interrupted")
            code = ExitStatus.INTERRUPTED
        except OSError as error:
            code = _output_failed(error)
        except Exception as error:  # a bug of ours: one line and a crash log, never a traceback on the screen
            say(f"foursquare: internal error: {type(error).__name__}: {str(error)[:200]}; details in {_crash_log()}")
            code = ExitStatus.INTERNAL
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        """Ctrl-C and a broken pipe are caught here, before typer turns them into a silent exit."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            say(f"{_command[0]}: interrupted")
            raise typer.Exit(ExitStatus.INTERRUPTED) from None
        except OSError as error:
            if broken_pipe(error):
                raise typer.Exit(_output_failed(error)) from None
            raise


def _crash_log() -> str:
    """Write the traceback being handled to a crash log in the data folder (else the temporary folder)."""

    from ..app.history import data_folder  # start-up: a command's own modules load when it runs

    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%S")
    text = f"foursquare {__version__}: {' '.join(sys.argv)}\n" + traceback.format_exc()
    for folder in (str(data_folder()), tempfile.gettempdir()):
        path = os.path.join(folder, f"crash-{stamp}-{os.getpid()}.log")
        try:
            os.makedirs(folder, exist_ok=True)
            with open(path, "x", encoding="utf-8", errors="backslashreplace") as log:
                log.write(text)
            return repr(path) if any(not ch.isprintable() for ch in path) else path
        except OSError:
            continue
    return "no file (the data folder and the temporary folder refused it)"


def _resume_without_file(arguments: list[str]) -> list[str]:
    """Options whose value may be left out (typer has no option with an optional value): `play --resume` with no
    file after it means the last unfinished game; `history --share` with no day, today's daily deal."""
    for command, option in (("play", "--resume"), ("history", "--share")):
        if command not in arguments or option not in arguments:
            continue
        if command == "play":
            from ..app.opening import LAST_GAME as missing  # start-up: a command's own modules load when it runs
        else:
            missing = "today"
        for index in range(arguments.index(command) + 1, len(arguments)):
            if arguments[index] == "--":
                break
            if arguments[index] == option:
                following = arguments[index + 1] if index + 1 < len(arguments) else None
                if following is None or (following.startswith("-") and following != "-"):
                    return arguments[: index + 1] + [missing] + arguments[index + 1 :]
                break
    return arguments


def _output_failed(error: OSError) -> int:
    """Standard output failed: a broken pipe ends quietly (141); anything else is one line (74)."""
    try:  # the rest of the output goes nowhere, so the exit does not fail a second time
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
    except OSError:
        pass
    if broken_pipe(error):
        return ExitStatus.BROKEN_PIPE
    say(f"{_command[0]}: cannot write the output: {error.strerror or error}")
    return ExitStatus.IO


app = typer.Typer(
    cls=_OneLineErrors,
    add_completion=False,
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=(
        "Foursquare, the one-player card game: each card you are dealt goes into a 4x4 grid; a card that is the "
        "highest or the lowest of its row or column turns the others over; too many face down and the game is "
        "lost. Play it at a prompt, with a hint from the expert when you want one; look back at your games; "
        "replay, check and analyse records; pit players (yours too) against each other over many deals.\n\n"
        "Start with: foursquare play. The rules: foursquare rules. A command's options: foursquare help COMMAND."
    ),
    epilog=exit_codes_text(),
)


_command = ["foursquare"]  # `foursquare COMMAND` once a command is chosen, for the handler's lines


def _setting_text(param: Any, value: object) -> str:
    """A setting's value as --help shows it: a flag by its option as typed (`--unicode`, `--no-meter`), else
    the value."""
    if isinstance(value, bool) and getattr(param, "secondary_opts", None):
        return str((param.opts if value else param.secondary_opts)[0])
    return str(value)


def _show_version(value: bool) -> None:
    if value:
        from ..app.config import version_report  # start-up: a command's own modules load when it runs

        emitter(Format.text, screen_of())(version_report())
        raise typer.Exit(0)


@app.callback()
def _root(
    context: typer.Context,
    version: bool | None = typer.Option(
        None,
        "--version",
        callback=_show_version,
        is_eager=True,
        help="Print the version (and the playouts in use: C, or Python and why) and exit.",
    ),
) -> None:
    """Play, replay, check, hint and solve games of Foursquare, the one-player card game."""
    _command[0] = f"foursquare {context.invoked_subcommand}" if context.invoked_subcommand else "foursquare"
    if context.invoked_subcommand is None:
        screen_of().write(context.get_help() + "\n")
        return
    _settings_as_defaults(context)


def _settings_as_defaults(context: typer.Context) -> None:
    """The settings file's values, the defaults of the options of their names (the command line wins); --help
    shows the value in force (typer shows a flag's own default otherwise)."""
    from ..app.config import settings_in_force  # start-up: a command's own modules load when it runs

    settings = settings_in_force()
    if not settings:
        return
    commands = getattr(context.command, "commands", {})
    context.default_map = {
        name: {key: value for key, value in settings.items() if any(p.name == key for p in command.params)}
        for name, command in commands.items()
    }
    for command in commands.values():
        for param in command.params:
            if param.name in settings:
                param.show_default = f"{_setting_text(param, settings[param.name])}, from the settings file"


def _shows_help(arguments: list[str]) -> bool:
    """Whether this start shows a command's help or completes a word: then the registry's players are read, to
    name them (`options.PLAYERS`); a start that does neither is spared reading it."""

    asked = {"--help", "-h", "help"} & set(arguments)
    return bool(asked) or not arguments or COMPLETE_VAR in os.environ
