"""The options of the commands that play (a player, its budget and time, a run's deals and results file), and
their parsers: loaded only by those commands, since naming the players reads the registry."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..app.parsing import parsed_shard
from ..app.players import (
    DEFAULT_PLAYER,
    DEFAULT_PLAYOUTS,
    MAX_PLAYOUTS,
    canonical_player,
    player_names,
    players_help,
)
from ..app.runs import DealRange
from .options import jobs_parser, option_parser, player_seed_parser, seconds_parser, seed_parser


def player_parser(text: str) -> str:
    """The player's name in canonical form, checked without building the player (that is where its own errors
    are reported): the form every later check compares."""

    return str(option_parser(canonical_player)(text))


PLAYERS = "{players}"
"""Where a help text names the players: filled from the registry when help is shown (`fill_players_help`), so
that a start of the tool reads the registry only when it needs it."""


def fill_players_help(command: Any) -> None:
    """`PLAYERS` in the help of every option and argument of `command` and its subcommands, made the registry's
    players (`players_help`)."""

    for sub in getattr(command, "commands", {}).values():
        fill_players_help(sub)
    for parameter in getattr(command, "params", []):
        said = getattr(parameter, "help", None)
        if isinstance(said, str) and PLAYERS in said:
            parameter.help = said.replace(PLAYERS, players_help())


def complete_player(incomplete: str) -> list[str]:
    """The registered players whose name begins with what is typed (the shell's completion)."""

    return [name for name in player_names() if name.startswith(incomplete.lower())]


# The options the commands that play share, each defined once (`Annotated`, so a command's signature gives only
# its name, type and default).
PlayerSeedOption = Annotated[
    int,
    typer.Option(
        "--player-seed", metavar="N", parser=player_seed_parser, help="Seed of the player's own choices, 0 to 2^64-1."
    ),
]
PlayoutsOption = Annotated[
    int | None,
    typer.Option(
        "--playouts",
        metavar="N",
        min=1,
        max=MAX_PLAYOUTS,
        help=f"The expert's budget: futures played out a move (default {DEFAULT_PLAYOUTS}).",
    ),
]
ThinkOption = Annotated[
    float | None,
    typer.Option(
        "--think", metavar="SECONDS", parser=seconds_parser, help="The most seconds the expert may think a move."
    ),
]


def player_option(default: str = DEFAULT_PLAYER) -> Any:
    return typer.Option(
        default,
        "--player",
        "-p",
        parser=player_parser,
        metavar="NAME",
        autocompletion=complete_player,
        help=f"The player: {PLAYERS}; settings after a colon (expert:playouts=1000), a short name before an "
        "equals sign (fast=expert:playouts=500).",
    )


ProtocolOption = Annotated[
    int,
    typer.Option(
        "--protocol",
        metavar="VERSION",
        min=1,
        max=2,
        help="The version of the move protocol a cmd: program is spoken to in: 1, the states as the contract "
        "gives them; 2, each state also with the protocol's version, the seconds a move may take and the unseen "
        "cards.",
    ),
]
MoveTimeOption = Annotated[
    float,
    typer.Option(
        "--move-time",
        metavar="SECONDS",
        parser=seconds_parser,
        help="An outside program's time a move, after which it forfeits the game.",
    ),
]

# A run of many deals (`stats`, `compare`)
GamesOption = Annotated[int, typer.Option("--games", "-n", metavar="N", min=1, help="How many deals to play.")]
StartOption = Annotated[
    int, typer.Option("--start", metavar="S", parser=seed_parser, help="The first deal number (or 0x hex).")
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        metavar="J",
        parser=jobs_parser,
        help="Processes to play in (at most one a game, four a core); the figures are the same.",
    ),
]
ResultsOption = Annotated[
    str | None,
    typer.Option(
        "--results", metavar="FILE", help="Append each game to FILE as it ends; the same FILE again resumes the run."
    ),
]
ShardOption = Annotated[
    str | None, typer.Option("--shard", metavar="I/N", help="Play the I-th of N parts of the range.")
]
ClusterOption = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        metavar="ADDRESS",
        envvar="FOURSQUARE_CLUSTER",
        help="Play on the Dask cluster at ADDRESS (tcp://host:8786); needs the cluster extra.",
    ),
]
SealedOption = Annotated[
    bool,
    typer.Option(
        "--sealed",
        help="Deal each game from a fresh secret seed (the same for every player of a deal), written to --results "
        "only once every player has finished it: no player can know the deals in advance.",
    ),
]


def deal_range(start: int, games: int, shard: str | None, sealed: bool) -> Any:
    """The deals of a run, from its options: START to START+GAMES-1, this machine's `--shard K/N` of them."""

    return DealRange(start, games, parsed_shard(shard) if shard is not None else (1, 1), sealed)
