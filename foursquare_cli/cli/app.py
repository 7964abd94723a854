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
import difflib
import errno
import importlib
import os
import re
import stat
import sys
import tempfile
import traceback
from collections.abc import Callable
from typing import Any, NamedTuple, NoReturn

import typer
from typer.core import TyperGroup

from .. import __version__
from ..errors import ExitStatus, FoursquareError, clipped, exit_code_of, exit_codes_text
from ..ui.output import Screen, broken_pipe
from .options import COMPLETE_VAR, Format, emitter, screen_of

say = Screen().say


class CommandEntry(NamedTuple):
    """Where a command is defined (a module of this package) and its line in `--help`."""

    module: str
    short_help: str


# Every command, in the order `--help` lists them (as a player meets them, the tools for bots and runs after):
# the module that defines it, loaded only when the command runs or its own help is asked for (start-up by need,
# as Click's lazy groups do), and its line in `--help` and in the shell's completion, which need no module.
CLI_COMMANDS: dict[str, CommandEntry] = {
    "play": CommandEntry("game_commands", "Play a game, at the prompt or with moves piped in."),
    "rules": CommandEntry("more", "The rules of Foursquare, in brief."),
    "hint": CommandEntry("game_commands", "The expert's best moves for a record's position."),
    "history": CommandEntry("game_commands", "Your games, wins, best score and streaks."),
    "replay": CommandEntry("record_commands", "Every state of a game record or a move log."),
    "analyze": CommandEntry("run_commands", "Where a game was won or lost, move by move."),
    "check": CommandEntry("record_commands", "Validate game records: every problem as file:line."),
    "solve": CommandEntry("game_commands", "The best score a search knowing the stock finds."),
    "deal": CommandEntry("record_commands", "The stock of a deal, first card first."),
    "auto": CommandEntry("game_commands", "A player plays a whole game, shown move by move."),
    "stats": CommandEntry("run_commands", "A player over many deals, summed up."),
    "compare": CommandEntry("run_commands", "Which player is better, and how sure."),
    "summarize": CommandEntry("more", "One run's figures from results files of shards."),
    "schema": CommandEntry("more", "The JSON Schema of a format the tool reads or writes."),
    "config": CommandEntry("more", "The settings in force, and where each comes from."),
    "completion": CommandEntry("more", "A shell completion script: bash, zsh or fish."),
    "help": CommandEntry("more", "This help, or a command's: foursquare help play."),
}
COMMAND_ORDER = tuple(CLI_COMMANDS)


class _OneLineErrors(TyperGroup):
    """The one handler: usage errors and the core's errors as one line on standard error with their exit
    code; a failed or broken standard output as one line (or none), exit 74 or 141; a bug as one line and a
    crash log, exit 70. It also loads each command by need (`CLI_COMMANDS`) and lists them in its order."""

    shows_help = False  # this start shows a command's help or completes a word: the players are named in it
    settings: dict[str, Any] | None = None  # the settings file's values, once read: the defaults of the options

    def list_commands(self, ctx: Any) -> list[str]:
        """The commands as a player meets them (`CLI_COMMANDS`), then any other."""
        return list(CLI_COMMANDS) + [name for name in self.commands if name not in CLI_COMMANDS]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command of that name, its module imported now if it was not yet."""
        command = self.commands.get(cmd_name)
        if command is None and cmd_name in CLI_COMMANDS:
            importlib.import_module(f"{__package__}.{CLI_COMMANDS[cmd_name].module}")
            info = _COMMAND_INFOS[cmd_name]
            command = typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
            )
            self.commands[cmd_name] = command
        if command is not None:
            self._prepared(ctx, cmd_name, command)
        return command

    def _prepared(self, ctx: Any, name: str, command: Any) -> None:
        """A command given what this start knows: the players in its help (when help is shown), and the
        settings file's values as its options' defaults (when read)."""
        if self.shows_help and not getattr(command, "players_named", False):
            from .player_options import fill_players_help  # start-up: the registry is read only for help

            fill_players_help(command)
            command.players_named = True
        if self.settings:
            _settings_as_defaults_of(ctx.find_root(), name, command, self.settings)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The commands' lines of `--help`, from `CLI_COMMANDS` alone: no command's module is loaded for them."""
        from typer._click.utils import make_default_short_help  # start-up: only --help draws the list

        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            entry = CLI_COMMANDS.get(name)
            command = None if entry is not None else self.get_command(ctx, name)
            said = entry.short_help if entry is not None else command.get_short_help_str(limit) if command else ""
            rows.append((name, make_default_short_help(said, limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        """A command's name completed from `CLI_COMMANDS` alone; an option of the root as typer completes it."""
        from typer._click.shell_completion import CompletionItem  # start-up: only the shell asks for it

        named = [name for name in self.list_commands(ctx) if name.startswith(incomplete) and name in CLI_COMMANDS]
        return [CompletionItem(name, help=CLI_COMMANDS[name].short_help) for name in named] + list(
            super(TyperGroup, self).shell_complete(ctx, incomplete)
        )

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """typer's, with its suggestion for a mistyped name made from every command, loaded or not."""
        try:
            return super().resolve_command(ctx, args)
        except typer.TyperException as error:
            close = difflib.get_close_matches(args[0], list(CLI_COMMANDS)) if args else []
            if close and isinstance(getattr(error, "message", None), str) and "Did you mean" not in error.message:
                error.message = error.message.rstrip(".") + ". Did you mean " + ", ".join(map(repr, close)) + "?"
            raise

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> NoReturn:
        arguments = _resume_without_file(list(sys.argv[1:] if args is None else args))
        self.shows_help = _shows_help(arguments)
        try:
            code = super().main(arguments, prog_name or "foursquare", complete_var, standalone_mode=False, **extra)
            if sys.stdout is not None:
                sys.stdout.flush()
        except typer.TyperException as error:
            context = getattr(error, "ctx", None)
            where = context.command_path if context is not None else "foursquare"
            say(f"{where}: {clipped(_in_words(error.format_message()))} (see '{where} --help')")
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


_CLICK_WORDS = (
    ("is not a valid int range.", "is not a whole number."),
    ("is not a valid integer.", "is not a whole number."),
    ("is not a valid float range.", "is not a number."),
    ("is not a valid float.", "is not a number."),
)
"""Click's names for its types, as a player reads them: `'nan' is not a valid int range` said `--playouts`."""


_TOO_LONG_A_NUMBER = re.compile(r"('[-+]?[0-9]+') is not a whole number\.")  # past the 4,300 digits int() reads


def _in_words(message: str) -> str:
    for said, meant in _CLICK_WORDS:
        message = message.replace(said, meant)
    return _TOO_LONG_A_NUMBER.sub(r"\1 is a whole number far out of range.", message)


def _output_failed(error: OSError) -> int:
    """Standard output failed: a broken pipe ends quietly (141); a terminal that went away (EIO at a terminal:
    its window closed, as SIGHUP says when it comes first) is a hang-up, 143; anything else is one line (74)."""
    hung_up = error.errno == errno.EIO and _at_a_terminal()
    try:  # the rest of the output goes nowhere, so the exit does not fail a second time
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
    except OSError:
        pass
    if broken_pipe(error):
        return ExitStatus.BROKEN_PIPE
    if hung_up:
        return ExitStatus.TERMINATED
    say(f"{_command[0]}: cannot write the output: {error.strerror or error}")
    return ExitStatus.IO


def _at_a_terminal() -> bool:
    """Standard output is a terminal's device, a hung-up one too (no longer `isatty`; a disk file is no device)."""
    try:
        return stat.S_ISCHR(os.fstat(1).st_mode)
    except OSError:
        return False


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


_COMMAND_TYPER = typer.Typer()
_COMMAND_INFOS: dict[str, typer.models.CommandInfo] = {}
"""Each command's function and settings, kept here rather than in the Typer app: typer builds every command
it holds (its options read off the function's annotations, some 0.3 ms each) whenever it builds the group,
where the group builds a command only when it is named (`_OneLineErrors.get_command`)."""


def command(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The decorator of a command's function: registered under its name, its line in `--help` from `CLI_COMMANDS`
    (the one place it is written)."""

    def register(function: Callable[..., None]) -> Callable[..., None]:
        _COMMAND_TYPER.command(name, short_help=CLI_COMMANDS[name].short_help)(function)
        _COMMAND_INFOS[name] = _COMMAND_TYPER.registered_commands.pop()  # typer's own record of it, kept here
        return function

    return register


def every_command() -> dict[str, Any]:
    """Every command, each module loaded: for what reads them all (the docs' tests), never a start of the tool."""
    group = typer.main.get_command(app)
    return {name: group.get_command(None, name) for name in group.list_commands(None)}  # type: ignore[attr-defined]


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


SETTINGS_UNREAD = frozenset({"rules", "completion", "schema", "check", "summarize", "solve", "history"})
"""Commands with no option a setting gives (a test holds the list to them): a broken settings file stops none."""
SETTINGS_SHOWN_ONLY = frozenset({"help"})
"""Commands that only show the settings: a broken file is said in one line, and they go on without it (as
does any command's --help)."""


def _settings_as_defaults(context: typer.Context) -> None:
    """The settings file's values, the defaults of the options of their names (the command line wins), for the
    command chosen and any loaded later (`help COMMAND`)."""
    from ..app.defaults import settings_in_force  # start-up: the settings' reader alone, no player

    group = context.command
    if context.invoked_subcommand in SETTINGS_UNREAD:
        return
    try:
        settings = settings_in_force()
    except FoursquareError as error:
        if context.invoked_subcommand not in SETTINGS_SHOWN_ONLY and not getattr(group, "shows_help", False):
            raise
        # help still helps, not least to mend the file: said in one line, the defaults shown the tool's own
        say(f"{_command[0]}: {error} (the settings file is left out of this help)")
        return
    if not settings or not isinstance(group, _OneLineErrors):
        return
    group.settings = settings
    for name, command in group.commands.items():
        _settings_as_defaults_of(context, name, command, settings)


def _settings_as_defaults_of(root: Any, name: str, command: Any, settings: dict[str, Any]) -> None:
    """The settings of the options of `command`: its defaults (through the root context's `default_map`, which
    the command line overrides), and --help shows the value in force (typer shows a flag's own default
    otherwise)."""
    own = {key: value for key, value in settings.items() if any(p.name == key for p in command.params)}
    root.default_map = {**(root.default_map or {}), name: own}
    for param in command.params:
        if param.name in settings:
            param.show_default = f"{_setting_text(param, settings[param.name])}, from the settings file"


def _shows_help(arguments: list[str]) -> bool:
    """Whether this start shows a command's help or completes a word: then the registry's players are read, to
    name them (`options.PLAYERS`); a start that does neither is spared reading it."""

    asked = {"--help", "-h", "help"} & set(arguments)
    return bool(asked) or not arguments or COMPLETE_VAR in os.environ
