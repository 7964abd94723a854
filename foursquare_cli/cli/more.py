"""The commands around the game: the rules, help, the settings, shell completion, and summarize."""

from __future__ import annotations

import typer

from ..errors import UsageError
from ..ui import output
from .app import app
from .options import COMPLETE_VAR, Format, Shell, format_option, print_result


@app.command(short_help="The rules of Foursquare, in brief.")
def rules() -> None:
    """The rules of Foursquare: placing a card, turning cards over, shifting, winning and losing."""
    from ..ui.prompt import RULES

    output.write(RULES + "\n")


@app.command("help", short_help="This help, or a command's: foursquare help play.")
def help_command(context: typer.Context, command: str | None = typer.Argument(None, metavar="[COMMAND]")) -> None:
    """This help, or the help of COMMAND."""
    group = context.parent.command if context.parent is not None else None
    chosen = group.get_command(context, command) if group is not None and command else None  # type: ignore[attr-defined]
    if command and chosen is None:
        raise UsageError(f"{command!r}: no such command; foursquare --help lists them")
    target = chosen or group
    assert target is not None and context.parent is not None
    with typer.Context(target, info_name=command or "foursquare", parent=context.parent if chosen else None) as shown:
        output.write(target.get_help(shown) + "\n")


@app.command(short_help="A shell completion script: bash, zsh or fish.")
def completion(shell: Shell = typer.Argument(..., help="bash, zsh or fish.")) -> None:
    """Print a script that completes commands, options, their choices and file names in SHELL.

    Install it for bash with: foursquare completion bash >> ~/.bashrc (zsh: ~/.zshrc;
    fish: foursquare completion fish > ~/.config/fish/completions/foursquare.fish).
    """
    from typer.completion import completion_init, get_completion_script  # type: ignore[attr-defined]

    completion_init()
    output.write(get_completion_script(prog_name="foursquare", complete_var=COMPLETE_VAR, shell=shell.value) + "\n")


@app.command("config", short_help="The settings in force, and where each comes from.")
def config_command() -> None:
    """The settings in force, each with where it comes from: the settings file (its path is shown first: a
    TOML file of `name = value` lines, the defaults of the options of that name), or the default."""
    from ..app.settings import PLAYOUTS_IN_USE, read_settings
    from ..ui.about import settings_text

    output.write(settings_text(read_settings(), PLAYOUTS_IN_USE) + "\n")


@app.command(short_help="One run's figures from results files of shards.")
def summarize(
    files: list[str] = typer.Argument(..., help="Results files of stats or compare (--results).", metavar="FILE..."),
    output_format: Format = format_option("text, or json: what stats or compare print."),
) -> None:
    """What one run over the union of results files prints: shards, machines or runs of one plan.

    Files that disagree on the plan (players, budget, player seed, range) or hold a
    game twice are refused with a line.
    """
    from ..runs.results import merged
    from ..runs.run import merged_summary
    from ..runs.stats import Summary
    from ..ui.reports import compare_json, compare_text, stats_text

    figures = merged_summary(merged(files))
    if isinstance(figures, Summary):
        print_result(figures.to_json(), output_format, lambda: stats_text(figures))
    else:
        print_result(compare_json(figures), output_format, lambda: compare_text(figures))
