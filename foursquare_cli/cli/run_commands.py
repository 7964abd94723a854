"""The commands of many games (`stats`, `compare`, `analyze`): each parses its options into a typed request,
makes one call into `app`, and emits what comes back (`ui.output.emit`), ending with what it failed with."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import typer

from ..app.players import DEFAULT_MOVE_TIME
from ..app.solve import SOLVE_BUDGET
from ..ui.output import progress_bar
from .app import command
from .options import (
    DECK_OPTION,
    FORCE_OPTION,
    LAST_OPTION,
    SEED_OPTION,
    Format,
    emitter,
    exit_with,
    format_option,
    jobs_parser,
    number_parser,
    screen_of,
    sprt_test,
)
from .player_options import (
    PLAYERS,
    ClusterOption,
    GamesOption,
    JobsOption,
    MoveTimeOption,
    PlayerSeedOption,
    PlayoutsOption,
    ProtocolOption,
    ResultsOption,
    SealedOption,
    ShardOption,
    StartOption,
    ThinkOption,
    complete_player,
    deal_range,
    player_option,
    player_parser,
)


@command("stats")
def stats_command(
    games: GamesOption,
    start: StartOption = 0,
    player: str = player_option(),
    jobs: JobsOption = 1,
    player_seed: PlayerSeedOption = 0,
    playouts: PlayoutsOption = None,
    think: ThinkOption = None,
    move_time: MoveTimeOption = DEFAULT_MOVE_TIME,
    protocol: ProtocolOption = 1,
    output_format: Format = format_option("text, or json."),
    results: ResultsOption = None,
    shard: ShardOption = None,
    cluster: ClusterOption = None,
    sealed: SealedOption = False,
) -> None:
    """Play many deals with a player and sum them up.

    Plays deals START to START+GAMES-1. Prints the win rate with its 95% Wilson
    interval, the mean score of the won games, the mean time per move, the games
    per second and the deals lost. A progress bar is drawn on standard error when
    it is a terminal.
    """
    from ..app.players import player_spec  # start-up: a command's own modules load when it runs
    from ..app.runs import RunRequest  # start-up: a command's own modules load when it runs
    from ..app.stats import player_stats  # start-up: a command's own modules load when it runs

    settings = player_spec(seed=player_seed, playouts=playouts, think=think, move_time=move_time, protocol=protocol)
    request = RunRequest((player,), settings, deal_range(start, games, shard, sealed), jobs, cluster, results)
    show = emitter(output_format, screen_of())
    shown_below_the_bar(f"{player} playing", lambda bar: player_stats(request, show, bar), show)


def shown_below_the_bar(label: str, values: Callable[[Any], Iterable[object]], show: Callable[[object], None]) -> None:
    """Each value of a run (`values` of its progress bar) shown once the bar is gone: those it gave before a Ctrl-C
    too (the figures of what was played), then the interruption goes on, to exit 130."""
    given: list[object] = []
    try:
        with progress_bar(label) as bar:
            given.extend(values(bar))
    finally:
        for value in given:
            show(value)


@command("analyze")
def analyze_command(
    files: list[str] | None = typer.Argument(
        None, help="Game records or move logs; - for standard input.", metavar="[FILE]..."
    ),
    last: bool = LAST_OPTION,
    seed: int | None = SEED_OPTION,
    deck: Any = DECK_OPTION,
    playouts: PlayoutsOption = None,
    think: ThinkOption = None,
    output_format: Format = format_option("text for people, json for JSON Lines (a line per move, then a summary)."),
    boards: bool = typer.Option(
        False, "--boards", help="A board after every move (a marked move also shows the position before it)."
    ),
    solution: str | None = typer.Option(
        None, "--solution", metavar="FILE", help="Save the solver's best line for the deal as a record (one FILE only)."
    ),
    force: bool = FORCE_OPTION,
    solve_budget: int = typer.Option(
        SOLVE_BUDGET,
        "--solve-budget",
        metavar="NODES",
        min=1,
        help="Positions the solver may visit for the deal's best (work, not time).",
    ),
    jobs: int = typer.Option(
        1, "--jobs", "-j", metavar="J", parser=jobs_parser, help="Files analysed at once (four a core at most)."
    ),
    results: ResultsOption = None,
) -> None:
    """Where a game was won or lost, move by move: the expert's figures for each move, a mark for each
    mistake, the move that lost the game for good, and the solver's best for the deal.

    Marks, by what a move lost against the expert's best: while the expert's chance is under 90%, the chance
    to win lost: ?! inaccuracy 3 points (and an eighth of the best's chance), ? mistake 6 (a quarter),
    ?? blunder 10 (40%); from 90% on, the expected score lost: ?! 1 point, ? 2, ?? 4.
    Exit codes: 0 analysed; 1 a file has an illegal move (the moves before it are analysed); 2 usage error.
    """
    from ..app.analyze import AnalyzeRequest, analyses  # start-up: a command's own modules load when it runs
    from ..app.loading import DealGiven  # start-up: a command's own modules load when it runs
    from ..app.players import player_spec  # start-up: a command's own modules load when it runs

    given, expert = DealGiven(seed, deck), player_spec(playouts=playouts, think=think)
    request = AnalyzeRequest(files or [], given, expert, solve_budget, jobs, results, solution, force, boards, last)
    show = emitter(output_format, screen_of())
    with progress_bar("analysing") as bar:
        exit_with([show(report) for report in analyses(request, show, bar)])


def _sprt_rate(flag: str, meaning: str) -> Any:
    """`--sprt-alpha` or `--sprt-beta`: an error rate of the sequential test, 0.001 to 0.49 (default 0.05)."""
    return typer.Option(
        None,
        flag,
        parser=number_parser(0.001, 0.49, "an error rate"),
        metavar="RATE",
        show_default=False,
        help=f"--sprt: {meaning}, 0.001 to 0.49 (default 0.05).",
    )


@command("compare")
def compare_command(
    games: GamesOption,
    players: list[str] = typer.Argument(
        ...,
        metavar="PLAYER PLAYER...",
        parser=player_parser,
        autocompletion=complete_player,
        help=f"Players: {PLAYERS}; one player may be named with other settings (expert:playouts=500).",
    ),
    start: StartOption = 0,
    jobs: JobsOption = 1,
    player_seed: PlayerSeedOption = 0,
    playouts: PlayoutsOption = None,
    think: ThinkOption = None,
    move_time: MoveTimeOption = DEFAULT_MOVE_TIME,
    protocol: ProtocolOption = 1,
    output_format: Format = format_option("text, or json: one object with players and pairs."),
    results: ResultsOption = None,
    shard: ShardOption = None,
    cluster: ClusterOption = None,
    sealed: SealedOption = False,
    sprt: bool = typer.Option(False, "--sprt", help="Stop as soon as a sequential test knows (two players)."),
    sprt_points: float | None = typer.Option(
        None,
        "--sprt-points",
        parser=number_parser(0.01, 24.0, "the difference"),
        metavar="POINTS",
        show_default=False,
        help="--sprt: the difference of mean score a deal worth finding, 0.01 to 24 (default 0.5).",
    ),
    sprt_alpha: float | None = _sprt_rate("--sprt-alpha", "how often it may call a player stronger when neither is"),
    sprt_beta: float | None = _sprt_rate("--sprt-beta", "how often it may miss a true difference of --sprt-points"),
) -> None:
    """Which player is better, and how sure: every player on the same deals, and paired tests.

    Wins are compared with the exact McNemar test, scores (a lost game counting 0)
    with the Wilcoxon signed-rank test. With --sprt the deals are played in order
    and the run stops as soon as a sequential probability ratio test on the paired
    scores decides which of two players is stronger, or that neither is by
    --sprt-points (-n is then the most it plays). Ctrl-C prints what was played so far.
    """
    from ..app.compare import comparisons  # start-up: a command's own modules load when it runs
    from ..app.players import player_spec  # start-up: a command's own modules load when it runs
    from ..app.runs import RunRequest  # start-up: a command's own modules load when it runs

    settings = player_spec(seed=player_seed, playouts=playouts, think=think, move_time=move_time, protocol=protocol)
    deals, test = deal_range(start, games, shard, sealed), sprt_test(sprt, sprt_points, sprt_alpha, sprt_beta)
    request = RunRequest(tuple(players), settings, deals, jobs, cluster, results, test)
    show = emitter(output_format, screen_of())
    shown_below_the_bar("comparing", lambda bar: comparisons(request, show, bar), show)
