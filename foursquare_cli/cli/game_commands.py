"""The commands of a game (`play`, `history`, `hint`, `solve`, `auto`): each parses its options into a typed
request, makes one call into `app`, and emits what comes back (`ui.output.emit`), ending with what it failed
with."""

from __future__ import annotations

from typing import Any

import typer

from ..app.players import DEFAULT_MOVE_TIME
from ..app.solve import SOLVE_BUDGET
from ..ui.output import progress_bar, style
from .app import command
from .options import (
    COLOR_OPTION,
    COUNT_OPTION,
    DECK_OPTION,
    FILE_HELP,
    FORCE_OPTION,
    LAST_OPTION,
    METER_OPTION,
    REVEAL_OPTION,
    SEED_OPTION,
    UNICODE_OPTION,
    Color,
    Format,
    HistoryFormat,
    Level,
    emitter,
    exit_with,
    format_of,
    format_option,
    screen_of,
    seconds_parser,
    seed_parser,
)
from .player_options import (
    MoveTimeOption,
    PlayerSeedOption,
    PlayoutsOption,
    ProtocolOption,
    ThinkOption,
    player_option,
)


@command("play")
def play_command(
    seed: int | None = typer.Option(
        None, "--seed", "-s", parser=seed_parser, metavar="N", help="Deal number; random if not given."
    ),
    deck: Any = DECK_OPTION,
    daily: bool = typer.Option(False, "--daily", help="The deal of the day (UTC), the same for everyone."),
    record: str | None = typer.Option(
        None, "--record", metavar="FILE", help="Keep the game record in this file, rewritten after every move."
    ),
    resume: str | None = typer.Option(
        None,
        "--resume",
        metavar="[FILE]",
        help="Continue the unfinished game in FILE (and keep recording to it); alone, the last unfinished game.",
    ),
    no_record: bool = typer.Option(False, "--no-record", help="Write no record (with --resume: leave the file alone)."),
    force: bool = FORCE_OPTION,
    output_format: Format = format_option("From a pipe: text boards, or json (one state per line)."),
    reveal: bool = REVEAL_OPTION,
    unicode: bool = UNICODE_OPTION,
    color: Color = COLOR_OPTION,
    playouts: PlayoutsOption = None,
    think: ThinkOption = None,
    count: bool = COUNT_OPTION,
    level: Level | None = typer.Option(None, "--level", help="A random deal of this grade: easy, medium or hard."),
    meter: bool = METER_OPTION,
) -> None:
    """Play a game: at a prompt, or with moves piped in one per line.

    At a terminal: type a move (B3, B3 top, shift up), or a command: moves,
    left, try B3, board, hint, undo, restart, new, help, quit. From a pipe (or
    with --format json): moves one per line,
    blank lines and # comments allowed, undo and quit too; the state is printed
    before the first move and after each (--format json: the JSON Lines of
    replay, flushed, so a bot can drive the game as a co-process); the first
    invalid or illegal line ends the run. quit, end of input and Ctrl-C stop
    cleanly and say how to resume.

    Exit codes: 0 the game ended or you stopped; 1 an invalid or illegal move
    from a pipe; 2 usage error; 74 a write failed; 130 interrupted.
    """
    from ..app.opening import GameChoice  # start-up: a command's own modules load when it runs
    from ..app.play import PlayRequest, play_as_asked  # start-up: a command's own modules load when it runs
    from ..app.players import player_spec  # start-up: a command's own modules load when it runs
    from ..ui.terminal import PlayScreens  # start-up: a command's own modules load when it runs

    choice = GameChoice(seed, deck, daily, record, resume, no_record, force, level.value if level else None)
    request = PlayRequest(choice, player_spec(playouts=playouts, think=think), count, meter)
    exit_with([play_as_asked(request, PlayScreens(style(reveal, unicode, color.value), format_of(output_format)))])


@command("history")
def history_command(
    limit: int = typer.Option(20, "--limit", "-n", metavar="N", min=1, help="How many of the last games to list."),
    deal: int | None = typer.Option(
        None, "--deal", parser=seed_parser, metavar="N", help="Only the games of this deal number."
    ),
    output_format: HistoryFormat = typer.Option(
        HistoryFormat.text,
        "--format",
        "-f",
        help="text, json (one object with games and totals) or csv (a row a game).",
    ),
    share: str | None = typer.Option(
        None,
        "--share",
        metavar="DAY",
        help="The result of a day's daily deal, to paste: today (--share alone), 2026-12-01, or its number 20261201.",
    ),
    no_unicode: bool = typer.Option(False, "--no-unicode", help="Pictures (shared, trend) in ASCII, not blocks."),
    wide: bool = typer.Option(False, "--wide", help="Each game's record file too (the table passes 100 columns)."),
) -> None:
    """Your games, newest first, and how you are doing: won, best score, streaks, daily deals.

    Every game played with `play` is kept (see --no-record) in the data folder: $FOURSQUARE_HOME, else the
    system's folder for an application's data (~/.local/share/foursquare on Linux, ~/Library/Application
    Support/foursquare on macOS, %APPDATA%\\foursquare on Windows).
    """
    from ..app.history import HistoryRequest, kept_games  # start-up: a command's own modules load when it runs

    show = emitter(output_format, screen_of(unicode=not no_unicode))
    show(kept_games(HistoryRequest(limit, deal, wide, share, output_format.value), show))


@command("hint")
def hint_command(
    file: str | None = typer.Argument(None, help=FILE_HELP, metavar="[FILE]"),
    last: bool = LAST_OPTION,
    seed: int | None = SEED_OPTION,
    deck: Any = DECK_OPTION,
    output_format: Format = format_option("text, or json."),
    player: str = player_option(),
    player_seed: PlayerSeedOption = 0,
    playouts: PlayoutsOption = None,
    think: ThinkOption = None,
    move_time: MoveTimeOption = DEFAULT_MOVE_TIME,
    protocol: ProtocolOption = 1,
    detail: bool = typer.Option(False, "--detail", help="The figures behind the hint, and how they are made."),
) -> None:
    """A player's move for the position at the end of a record (or a deal's start, --seed or --deck alone)."""
    from ..app.hint import HintRequest, hint_for  # start-up: a command's own modules load when it runs
    from ..app.loading import DealGiven  # start-up: a command's own modules load when it runs
    from ..app.players import player_spec  # start-up: a command's own modules load when it runs

    spec = player_spec(player, player_seed, playouts, think, move_time, protocol)
    show = emitter(output_format, screen_of())
    with progress_bar(f"{spec.name} thinking"):  # on standard error at a terminal: a slow hint says so
        hinted = hint_for(HintRequest(file, DealGiven(seed, deck), spec, detail, last))
    exit_with([show(hinted)])


@command("solve")
def solve_command(
    seed: int | None = typer.Option(None, "--seed", "-s", parser=seed_parser, metavar="N", help="Deal number."),
    deck: Any = DECK_OPTION,
    budget: int = typer.Option(
        SOLVE_BUDGET, "--budget", metavar="NODES", min=1, help="Most positions to visit: work, the same on any machine."
    ),
    timeout: float | None = typer.Option(
        None, "--timeout", metavar="SECONDS", parser=seconds_parser, help="Most seconds to search (none unless given)."
    ),
    record: str | None = typer.Option(None, "--record", metavar="FILE", help="Write the winning line to this file."),
    force: bool = FORCE_OPTION,
    output_format: Format = format_option("text, or json."),
) -> None:
    """Search a deal knowing the whole stock: the best score it can find.

    Not a player: it sees every card in advance, so a proven result is an upper
    bound for any real player; a best not proven is the best line found, knowing
    the stock. It starts from the games of the deal you won. Exit codes: 0 winnable (with the best score found, and
    whether it is proven best), 3 unwinnable (an exhaustive search found no win),
    4 gave up (budget or time ran out with nothing found), 2 usage error.
    """
    from ..app.solve import SolveRequest, solve_deal  # start-up: a command's own modules load when it runs

    show = emitter(output_format, screen_of())
    with progress_bar("searching"):  # on standard error at a terminal: a long search says so
        solved = solve_deal(SolveRequest(seed, deck, budget, timeout, record, force))
    exit_with([show(solved)])


@command("auto")
def auto_command(
    seed: int | None = typer.Option(
        None, "--seed", "-s", parser=seed_parser, metavar="N", help="Deal number; random if not given."
    ),
    player: str = player_option(),
    player_seed: PlayerSeedOption = 0,
    playouts: PlayoutsOption = None,
    think: ThinkOption = None,
    move_time: MoveTimeOption = DEFAULT_MOVE_TIME,
    protocol: ProtocolOption = 1,
    record: str | None = typer.Option(None, "--record", metavar="FILE", help="Write the game record to this file."),
    force: bool = FORCE_OPTION,
    output_format: Format = format_option("text for people, json for JSON Lines."),
    reveal: bool = REVEAL_OPTION,
    unicode: bool = UNICODE_OPTION,
    color: Color = COLOR_OPTION,
) -> None:
    """A built-in player plays a whole game, printed as replay prints it."""
    from ..app.auto import AutoRequest, auto_game  # start-up: a command's own modules load when it runs
    from ..app.players import player_spec  # start-up: a command's own modules load when it runs

    spec = player_spec(player, player_seed, playouts, think, move_time, protocol)
    auto_game(AutoRequest(seed, spec, record, force), emitter(output_format, screen_of(reveal, unicode, color)))
