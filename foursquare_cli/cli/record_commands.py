"""The commands that read records and deals (`deal`, `replay`, `check`): each parses its options into a typed
request, makes one call into `app`, and emits what comes back. They load no player: a script that checks files
one by one pays only for reading them."""

from __future__ import annotations

from typing import Any

import typer

from .app import command
from .options import (
    COLOR_OPTION,
    DECK_OPTION,
    FILE_HELP,
    LAST_OPTION,
    REVEAL_OPTION,
    SEED_OPTION,
    UNICODE_OPTION,
    Color,
    Format,
    emitter,
    exit_with,
    format_option,
    screen_of,
    seed_parser,
)


@command("deal")
def deal_command(
    seed: int = typer.Option(..., "--seed", "-s", parser=seed_parser, metavar="N", help="Deal number, 0 to 2^64-1."),
    unicode: bool = UNICODE_OPTION,
) -> None:
    """Print the stock of a deal, first card first, on one line; its grade (how hard it is) on standard error."""
    from ..app.deal import dealt  # start-up: a command's own modules load when it runs

    emitter(Format.text, screen_of(unicode=unicode))(dealt(seed))


@command("replay")
def replay_command(
    file: str | None = typer.Argument(None, help=FILE_HELP, metavar="[FILE]"),
    last: bool = LAST_OPTION,
    seed: int | None = SEED_OPTION,
    deck: Any = DECK_OPTION,
    output_format: Format = format_option("text for people, json for JSON Lines."),
    reveal: bool = REVEAL_OPTION,
    unicode: bool = UNICODE_OPTION,
    color: Color = COLOR_OPTION,
) -> None:
    """Print every state of a game record or a move log.

    The start, then the position after each move, naming what it turned over.
    A move log carries no deal: give --seed or --deck. At the first invalid or
    illegal move the states before it are printed, then the problem on standard
    error, and the exit code is 1.
    """
    from ..app.loading import DealGiven  # start-up: a command's own modules load when it runs
    from ..app.replay import ReplayRequest, replayed  # start-up: a command's own modules load when it runs

    show = emitter(output_format, screen_of(reveal, unicode, color))
    exit_with([show(replayed(ReplayRequest(file, DealGiven(seed, deck), last), show))])


@command("check")
def check_command(
    files: list[str] | None = typer.Argument(
        None, help="Game records to validate; - for standard input.", metavar="[FILE]..."
    ),
    last: bool = LAST_OPTION,
    output_format: Format = format_option("text, or json: one object per file per line."),
) -> None:
    """Validate game records; report each problem as file:line: message.

    Prints the outcome of each valid file (won, score 7, 29 moves, 2 undos). Exit
    codes: 0 every file is valid; 1 some file is invalid; 2 a file could not be read.
    """
    from ..app.check import check_files  # start-up: a command's own modules load when it runs

    show = emitter(output_format, screen_of())
    exit_with([show(checked) for checked in check_files(files or [], last)])
