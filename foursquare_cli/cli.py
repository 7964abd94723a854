"""The `foursquare` command: thin Typer commands over the core modules.

Each command reads its input, makes one call into the core, and turns the core's
exceptions into one line on standard error and an exit code:

  0  success (for `check`: every file valid; for `play`: the game ended or you quit)
  1  the input is wrong: an invalid or illegal move, an invalid record
  2  usage error: a bad option, a missing or unreadable file
  130  interrupted (Ctrl-C)
"""

from __future__ import annotations

import sys
from typing import NoReturn, Optional

import typer
from typer.core import TyperGroup

from . import __version__


EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class _OneLineErrors(TyperGroup):
    """Report usage errors as one line on standard error (`foursquare deal: ...`), exit 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]
        try:
            code = super().main(args, prog_name or "foursquare", complete_var, standalone_mode=False, **extra)
        except typer.TyperException as error:
            context = getattr(error, "ctx", None)
            where = context.command_path if context is not None else "foursquare"
            print(f"{where}: {error.format_message()} (see '{where} --help')", file=sys.stderr)
            sys.exit(error.exit_code)
        except typer.Abort:
            print("foursquare: interrupted", file=sys.stderr)
            sys.exit(EXIT_INTERRUPTED)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=_OneLineErrors,
    add_completion=False,
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Play, replay and check games of Foursquare, the one-player card game.\n\n"
    "Exit codes: 0 success; 1 invalid input (an illegal move, an invalid record); "
    "2 usage error (bad option, missing file); 130 interrupted.",
)


def fail(message: str, code: int = EXIT_INVALID) -> NoReturn:
    """One line on standard error, then exit with `code`."""
    print(message, file=sys.stderr)
    raise typer.Exit(code)


def _show_version(value: bool) -> None:
    if value:
        print(f"foursquare {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    context: typer.Context,
    version: Optional[bool] = typer.Option(
        None, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Play, replay and check games of Foursquare, the one-player card game."""
    if context.invoked_subcommand is None:
        print(context.get_help())


def _seed_parser(text: str) -> int:
    from .cards import InvalidSeedError, parse_seed

    try:
        return parse_seed(text)
    except InvalidSeedError as error:
        raise typer.BadParameter(str(error)) from None


@app.command()
def deal(
    seed: int = typer.Option(..., "--seed", "-s", parser=_seed_parser, help="Deal number, 0 to 2^64-1."),
    unicode: bool = typer.Option(False, "--unicode", help="Suit symbols instead of letters."),
) -> None:
    """Print the stock of a deal, first card first, on one line."""
    from .cards import deal as deal_cards

    cards = deal_cards(seed)
    print(" ".join(card.symbol() if unicode else str(card) for card in cards))


def main() -> None:
    app()
