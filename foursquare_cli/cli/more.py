"""The commands around the game: the rules, help, the settings, shell completion, and summarize."""

from __future__ import annotations

from collections.abc import Iterable

import typer

from ..errors import UsageError
from .app import COMMAND_ORDER, command
from .options import COMPLETE_VAR, Format, Shell, emitter, format_option, screen_of


@command("rules")
def rules_command() -> None:
    """The rules of Foursquare: placing a card, turning cards over, shifting, winning and losing."""
    from ..ui.rules_text import RULES  # start-up: a command's own modules load when it runs

    screen_of().write(RULES + "\n")


def _complete_command(incomplete: str) -> list[str]:
    """The commands whose name begins with what is typed (the shell's completion of `help COMMAND`)."""
    return _begun(COMMAND_ORDER, incomplete)


def _complete_shell(incomplete: str) -> list[str]:
    """The shells whose name begins with what is typed (`completion SHELL`)."""
    return _begun(tuple(Shell), incomplete)


def _complete_schema(incomplete: str) -> list[str]:
    """The schemas whose name begins with what is typed (`schema NAME`)."""
    from ..app.schema import SCHEMAS  # start-up: only when the shell asks

    return _begun([entry.name for entry in SCHEMAS], incomplete)


def _begun(names: Iterable[str], incomplete: str) -> list[str]:
    """The names that begin with what is typed: a positional argument's choices, for the shell's completion."""
    return [str(name) for name in names if str(name).startswith(incomplete)]


@command("help")
def help_command(
    context: typer.Context,
    command: str | None = typer.Argument(None, metavar="[COMMAND]", autocompletion=_complete_command),
) -> None:
    """This help, or the help of COMMAND."""
    group = context.parent.command if context.parent is not None else None
    chosen = group.get_command(context, command) if group is not None and command else None  # type: ignore[attr-defined]
    if command and chosen is None:
        import difflib  # start-up: only a mistyped name needs it

        close = difflib.get_close_matches(command, COMMAND_ORDER)
        meant = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
        raise UsageError(f"{command!r}: no such command; {meant}foursquare --help lists them")
    target = chosen or group
    assert target is not None and context.parent is not None
    with typer.Context(target, info_name=command or "foursquare", parent=context.parent if chosen else None) as shown:
        screen_of().write(target.get_help(shown) + "\n")


@command("completion")
def completion_command(
    shell: str = typer.Argument(..., help="bash, zsh or fish.", metavar="SHELL", autocompletion=_complete_shell),
) -> None:
    """Print a script that completes commands, options, their choices and file names in SHELL.

    Install it for bash with: foursquare completion bash >> ~/.bashrc (zsh: ~/.zshrc;
    fish: foursquare completion fish > ~/.config/fish/completions/foursquare.fish).
    """
    from typer.completion import completion_init, get_completion_script  # type: ignore[attr-defined]

    if shell not in tuple(Shell):
        raise UsageError(f"{shell[:30]!r}: not a shell this tool completes in; give bash, zsh or fish")
    completion_init()
    script = get_completion_script(prog_name="foursquare", complete_var=COMPLETE_VAR, shell=shell)
    screen_of().write(script + "\n", fit=False)


@command("config")
def config_command() -> None:
    """The settings in force, each with where it comes from: the settings file (its path is shown first: a
    TOML file of `name = value` lines, the defaults of the options of that name), or the default."""
    from ..app.config import settings_report  # start-up: a command's own modules load when it runs

    emitter(Format.text, screen_of())(settings_report())


@command("schema")
def schema_command(
    name: str | None = typer.Argument(
        None, help="The format (state, record, stats, ...); none lists them.", autocompletion=_complete_schema
    ),
    output_format: Format = format_option("text (the schema, indented), or json (one line)."),
) -> None:
    """The JSON Schema (draft 2020-12) of a format the tool reads or writes: a state, a
    record, a results file's lines, the JSON of check, hint, solve, stats, compare,
    history and analyze. Without NAME, the list of them."""
    from ..app.schema import schema_named  # start-up: a command's own modules load when it runs

    emitter(output_format, screen_of())(schema_named(name))


@command("summarize")
def summarize_command(
    files: list[str] = typer.Argument(..., help="Results files of stats or compare (--results).", metavar="FILE..."),
    output_format: Format = format_option("text, or json: what stats or compare print."),
    verify: bool = typer.Option(
        False,
        "--verify",
        help="Replay each game of a player whose moves follow from the deal and its seed alone (greedy, random) "
        "by that player: a game it would not have played is refused with file:line.",
    ),
) -> None:
    """What one run over the union of results files prints: shards, machines or runs of one plan.

    Files that disagree on the plan (players, budget, player seed, range) or hold a
    game twice are refused with a line.
    """
    from ..app.summarize import summarized  # start-up: a command's own modules load when it runs

    show = emitter(output_format, screen_of())
    for value in summarized(files, verify):
        show(value)
