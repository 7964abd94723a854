"""The options the commands share, and their parsers: each value read by the core's own parser (through
`app.parsing`), its error turned into typer's usage line. The options of players and runs are in
`player_options`, which only the commands that play load."""

from __future__ import annotations

import enum
import math
import os
from collections.abc import Callable, Iterable
from typing import Any

import typer

from ..app.parsing import parse_deck, parse_seed
from ..errors import ExitStatus, FoursquareError, UsageError, quoted, worst
from ..ui.output import OutputFormat, Screen, emit, style


def option_parser(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An option's parser: the core's `parse`, its error as typer's usage error (one line, exit 2)."""

    def parsed(text: str) -> Any:
        try:
            return parse(text)
        except (FoursquareError, ValueError) as error:
            raise typer.BadParameter(str(error)) from None

    return parsed


def seed_parser(text: str | int) -> int:
    """A deal number (`--seed`, `--start`, `--deal`): decimal digits or `0x` hex, as a record writes a seed; a
    default comes as a number already."""
    return text if isinstance(text, int) else int(option_parser(parse_seed)(text))


def player_seed_parser(text: str | int) -> int:
    """`--player-seed`: a whole number 0 to 2^64-1 as a deal number is (a results file's plan holds no more),
    said as a player's seed. The default (or a setting) comes as a number already."""
    if isinstance(text, int):
        return text
    try:
        return int(parse_seed(text))
    except (FoursquareError, ValueError):
        raise typer.BadParameter(f"{quoted(text, 30)}: a player seed is a whole number 0 to 2^64-1") from None


def jobs_parser(text: str | int) -> int:
    """`--jobs`: 1 to four a core of this machine. A worker is a Python process of some 20 MB, and a typo of
    `--jobs 1000` started hundreds of them, slower than one and eating the memory."""
    most = max(8, 4 * (os.cpu_count() or 1))
    said = str(text).strip()
    digits = said.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        raise typer.BadParameter(f"{quoted(said, 30)}: not a whole number")
    if len(digits) > 6 or not 1 <= int(said) <= most:  # 5,000 digits are a number too, only far too large
        raise typer.BadParameter(f"{quoted(said, 30)}: jobs are 1 to {most} on this machine (four a core)")
    return int(said)


def deck_parser(text: str) -> Any:

    return option_parser(parse_deck)(text)


def seconds_parser(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise typer.BadParameter(f"{text[:30]!r}: not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise typer.BadParameter(f"{quoted(text, 30)}: a time limit is a finite number of seconds above 0")
    return value


def number_parser(low: float, high: float, what: str) -> Callable[[str], float]:
    """The parser of an option that takes a number from `low` to `high` (`what` it is, for the message): NaN,
    an infinity or a number out of the range is a usage error in one line (click's FloatRange lets NaN through:
    it is neither below nor above a bound)."""

    def parsed(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise typer.BadParameter(f"{quoted(text, 30)}: {what} is a number from {low:g} to {high:g}")
        return value

    return parsed


SPRT_DEFAULTS = (0.5, 0.05, 0.05)  # compare --sprt: the difference worth finding, alpha and beta
SPRT_OPTIONS = ("--sprt-points", "--sprt-alpha", "--sprt-beta")


def sprt_test(
    sprt: bool, points: float | None, alpha: float | None, beta: float | None
) -> tuple[float, float, float] | None:
    """compare's sequential test from its options (None where one is not given: its default): None without
    --sprt, and then any of its settings given is refused in one line, never ignored."""
    given = (points, alpha, beta)
    if not sprt:
        named = [option for option, value in zip(SPRT_OPTIONS, given, strict=True) if value is not None]
        if named:
            verb, them = ("goes", "it") if len(named) == 1 else ("go", "them")
            raise UsageError(
                f"{', '.join(named)} {verb} with --sprt, the sequential test; give --sprt, or leave {them} out"
            )
        return None
    chosen = [default if value is None else value for value, default in zip(given, SPRT_DEFAULTS, strict=True)]
    return chosen[0], chosen[1], chosen[2]


class Format(enum.StrEnum):
    text = "text"
    json = "json"


class HistoryFormat(enum.StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


class Shell(enum.StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


COMPLETE_VAR = "_FOURSQUARE_COMPLETE"  # set by the completion script when the shell asks for completions


class Level(enum.StrEnum):
    easy = "easy"
    medium = "medium"
    hard = "hard"


class Color(enum.StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


FILE_HELP = "A game record or a move log; - for standard input (or --last)."
LAST_OPTION = typer.Option(False, "--last", help="The game you played last (kept in your history), for FILE.")
SEED_OPTION = typer.Option(None, "--seed", "-s", parser=seed_parser, metavar="N", help="Deal number, 0 to 2^64-1.")
DECK_OPTION = typer.Option(
    None, "--deck", parser=deck_parser, metavar="CARDS", help="The 40 cards in draw order, in one argument."
)
# The options that are settings (config.toml) each have their --no- form, and --help shows the value in force:
# the settings file's, or the default.
REVEAL_OPTION = typer.Option(
    False, "--reveal/--no-reveal", show_default=True, help="Show face-down cards on the board."
)
UNICODE_OPTION = typer.Option(
    False, "--unicode/--no-unicode", show_default=True, help="Suit symbols instead of letters."
)
COLOR_OPTION = typer.Option(
    Color.auto,
    "--color",
    show_default=True,
    help="Colour on a terminal (auto; NO_COLOR turns it off), always or never.",
)
COUNT_OPTION = typer.Option(
    False, "--count/--no-count", show_default=True, help="At the prompt, the cards still to come under each board."
)
METER_OPTION = typer.Option(
    False,
    "--meter/--no-meter",
    show_default=True,
    help="At the prompt, the expected score after every move.",
)
FORCE_OPTION = typer.Option(False, "--force", help="Replace an existing record file.")


def format_option(text_help: str) -> Any:
    return typer.Option(Format.text, "--format", "-f", help=text_help)


# -- what the commands share ----------------------------------------------------------------


def screen_of(reveal: bool = False, unicode: bool = False, color: Color = Color.never) -> Any:

    return Screen(style(reveal, unicode, color.value))


def format_of(output_format: Format | HistoryFormat) -> Any:

    return OutputFormat(output_format.value)


def exit_with(statuses: Iterable[ExitStatus | None]) -> None:
    """End the command with the worst of its statuses (each said already where it happened), when one failed."""
    status = worst(statuses)
    if status is not ExitStatus.SUCCESS:
        raise typer.Exit(int(status))


def emitter(output_format: Format | HistoryFormat, screen: Any) -> Any:
    """`emit` bound to a format and a screen: what a command hands its app call to show values as they come."""

    return lambda value: emit(value, format_of(output_format), screen)
