"""The options the commands share, their parsers, and the few steps several commands take."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

from ..errors import FoursquareError, InvalidInput, ProblemsSaid
from ..ui import output
from ..ui.output import say

if TYPE_CHECKING:
    from ..formats.records import Verdict
    from ..players.expert import Strength
    from ..rules.cards import Card
    from ..rules.game import Game, Step
    from ..runs.plans import Plan


def seed_parser(text: str) -> int:
    from ..rules.cards import InvalidSeedError, parse_seed

    try:
        return parse_seed(text)
    except InvalidSeedError as error:
        raise typer.BadParameter(str(error)) from None


def deck_parser(text: str) -> tuple[Card, ...]:
    from ..rules.cards import InvalidCardError, parse_deck

    try:
        return parse_deck(text)
    except InvalidCardError as error:
        raise typer.BadParameter(str(error)) from None


def player_parser(text: str) -> str:
    """The player's name, checked without building the player (that is where its own errors are reported)."""
    from ..players import parse_player

    try:
        return parse_player(text)
    except FoursquareError as error:
        raise typer.BadParameter(str(error)) from None


def seconds_parser(text: str) -> float:
    import math

    try:
        value = float(text)
    except ValueError:
        raise typer.BadParameter(f"{text[:30]!r}: not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise typer.BadParameter(f"{text[:30]!r}: a time limit is a finite number of seconds above 0")
    return value


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


FILE_HELP = "A game record or a move log; - for standard input."
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
    False, "--meter/--no-meter", show_default=True, help="At the prompt, the expert's chance to win after every move."
)
FORCE_OPTION = typer.Option(False, "--force", help="Replace an existing record file.")
PLAYER_SEED_OPTION = typer.Option(0, "--player-seed", metavar="N", min=0, help="Seed of the player's own choices.")
PLAYOUTS_OPTION = typer.Option(
    None, "--playouts", metavar="N", min=1, help="The expert's budget: futures played out a move (default 20000)."
)
THINK_OPTION = typer.Option(
    None, "--think", metavar="SECONDS", parser=seconds_parser, help="The most seconds the expert may think a move."
)
PLAYER_NAMES = "random, greedy, expert"  # players.BUILT_IN_PLAYERS, held to it by a test


def player_option(default: str = "expert") -> Any:
    return typer.Option(
        default,
        "--player",
        "-p",
        parser=player_parser,
        metavar="NAME",
        help=f"The player: {PLAYER_NAMES}, cmd:COMMAND (a program speaking the move protocol) or module:attribute.",
    )


MOVE_TIME_OPTION = typer.Option(
    10.0,
    "--move-time",
    metavar="SECONDS",
    parser=seconds_parser,
    help="An outside program's time a move, after which it forfeits the game.",
)


def format_option(text_help: str) -> Any:
    return typer.Option(Format.text, "--format", "-f", help=text_help)


# -- what the commands share ----------------------------------------------------------------


def print_result(value: object, output_format: Format, text: Callable[[], str]) -> None:
    """A command's result: its JSON on one line, or its text for people."""
    from ..formats.protocol import json_line

    output.write(json_line(value) if output_format is Format.json else text() + "\n")


def strength_of(playouts: int | None, think: float | None) -> Strength:
    from ..players import DEFAULT_PLAYOUTS, Strength

    return Strength(playouts or DEFAULT_PLAYOUTS, think)


def loaded(
    file: str, seed: int | None, deck: tuple[Card, ...] | None, on_step: Callable[[Step], None] | None = None
) -> Verdict:
    """Read and play a record or move log; its problems go to standard error, usage errors end the run."""
    from ..formats.records import load
    from ..ui.reports import problem_line

    verdict = load(file, seed=seed, deck=deck, on_step=on_step)
    for problem in verdict.problems:
        say(problem_line(verdict.source.display_name, problem))
    return verdict


def playable(verdict: Verdict) -> Game:
    """The game of a valid record that is still being played (exit 1 otherwise)."""
    from ..ui.reports import verdict_summary

    if verdict.problems or verdict.game is None:
        raise ProblemsSaid()  # its problems were said by `loaded`
    if verdict.game.state.is_over:
        name = verdict.source.display_name
        raise InvalidInput(f"{name}: the game is over ({verdict_summary(verdict)}); there is no move to hint")
    return verdict.game


def announced_seed(seed: int | None) -> int:
    """The deal asked for, or a random one, said on standard error so it can be played again."""
    if seed is not None:
        return seed
    from ..app.session import new_seed

    seed = new_seed()
    say(f"Deal {seed} (to watch it again: --seed {seed})")
    return seed


RESULTS_OPTION = typer.Option(
    None, "--results", metavar="FILE", help="Append each game to FILE as it ends; the same FILE again resumes the run."
)
SHARD_OPTION = typer.Option(None, "--shard", metavar="I/N", help="Play the I-th of N parts of the range.")
CLUSTER_OPTION = typer.Option(
    None,
    "--cluster",
    metavar="ADDRESS",
    envvar="FOURSQUARE_CLUSTER",
    help="Play on the Dask cluster at ADDRESS (tcp://host:8786); needs the cluster extra.",
)


def public_deals_warning(plan: Plan) -> Callable[[], None]:
    """Said once the players are ready: with an outside player and numbered deals, a line on standard error
    that the deals can be known in advance (a program can read the run's command line)."""

    def warn() -> None:
        if not plan.sealed and any(":" in name for name in plan.players):
            say(
                f"foursquare {plan.command}: the deals are public numbers, so an outside player can know every "
                "stock in advance; --sealed deals them from secret seeds"
            )

    return warn


SEALED_OPTION = typer.Option(
    False,
    "--sealed",
    help="Deal each game from a fresh secret seed (the same for every player of a deal), written to --results "
    "only once every player has finished it: no player can know the deals in advance.",
)


def planned(
    command: str,
    players: list[str],
    start: int,
    games: int,
    player_seed: int,
    strength: Strength,
    move_time: float,
    shard: str | None,
    sealed: bool = False,
) -> Plan:
    """The plan of a `stats` or `compare` run, its players' names and its shard checked."""
    from ..players import parse_player
    from ..runs.plans import Plan, parse_shard

    names = tuple(parse_player(player) for player in players)
    part = parse_shard(shard) if shard is not None else (1, 1)
    return Plan(command, names, start, games, player_seed, strength.playouts, strength.think, move_time, part, sealed)


def said_already_analysed(paths: list[str], results: str | None) -> None:
    """The files a results file already holds, each said on standard error (they are not analysed again)."""
    from ..errors import display_name

    for path in paths:
        say(f"{display_name(path)}: analysed already, in {display_name(results or '')}")
