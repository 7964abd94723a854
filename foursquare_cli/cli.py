"""The `foursquare` command: Typer only.

Each command parses its options, makes one call into the core, and prints with
`ui`. Errors are the core's: every `FoursquareError` carries its exit code, and the
one handler here (`_OneLineErrors.main`) turns it into one line on standard error
(a file's name first when it is about a file, else `foursquare COMMAND:`). An
exception that is not one is a bug of ours: one line, the traceback in a crash
log in the data folder, exit 70. The exit codes are listed in `errors`.
"""

from __future__ import annotations

import enum
import errno
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from typer.core import TyperGroup

from . import __version__
from .errors import (
    EXIT_BROKEN_PIPE,
    EXIT_GAVE_UP,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    EXIT_IO,
    EXIT_OK,
    EXIT_UNWINNABLE,
    Forfeit,
    FoursquareError,
    InvalidInputError,
    UsageError,
)

if TYPE_CHECKING:
    from types import ModuleType

    from .formats.records import Verdict
    from .players.expert import Strength
    from .rules.cards import Card
    from .rules.game import Game, Step

SOLVE_EXIT = {"winnable": EXIT_OK, "unwinnable": EXIT_UNWINNABLE, "gave up": EXIT_GAVE_UP}


class _OneLineErrors(TyperGroup):
    """The one handler: usage errors and the core's errors as one line on standard error with their exit
    code; a failed or broken standard output as one line (or none), exit 74 or 141; a bug as one line and a
    crash log, exit 70."""

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> NoReturn:
        arguments = _resume_without_file(list(sys.argv[1:] if args is None else args))
        try:
            code = super().main(arguments, prog_name or "foursquare", complete_var, standalone_mode=False, **extra)
            if sys.stdout is not None:
                sys.stdout.flush()
        except typer.TyperException as error:
            context = getattr(error, "ctx", None)
            where = context.command_path if context is not None else "foursquare"
            _say(f"{where}: {error.format_message()} (see '{where} --help')")
            code = error.exit_code
        except typer.Exit as exit_:
            code = exit_.exit_code
        except FoursquareError as error:
            for line in error.before:
                _say(line)
            _say(str(error) if error.path is not None else f"{_command[0]}: {error}")
            code = error.exit_code
        except (typer.Abort, KeyboardInterrupt):  # before a command is invoked
            _say(f"{_command[0]}: interrupted")
            code = EXIT_INTERRUPTED
        except OSError as error:
            code = _output_failed(error)
        except Exception as error:  # a bug of ours: one line and a crash log, never a traceback on the screen
            _say(f"foursquare: internal error: {type(error).__name__}: {str(error)[:200]}; details in {_crash_log()}")
            code = EXIT_INTERNAL
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        """Ctrl-C and a broken pipe are caught here, before typer turns them into a silent exit."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _say(f"{_command[0]}: interrupted")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except OSError as error:
            if isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE:
                raise typer.Exit(_output_failed(error)) from None
            raise


def _crash_log() -> str:
    """Write the traceback being handled to a crash log in the data folder (else the temporary folder)."""
    import datetime
    import tempfile
    import traceback

    from .store.history import data_folder

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
    """`play --resume` with no file after it means the last unfinished game: give it the sentinel value
    (typer has no option with an optional value)."""
    if "play" not in arguments:
        return arguments
    from .ui.session import LAST_GAME

    for index in range(arguments.index("play") + 1, len(arguments)):
        if arguments[index] == "--":
            break
        if arguments[index] == "--resume":
            following = arguments[index + 1] if index + 1 < len(arguments) else None
            if following is None or (following.startswith("-") and following != "-"):
                return arguments[: index + 1] + [LAST_GAME] + arguments[index + 1 :]
            break
    return arguments


def _say(line: str) -> None:
    """One line on standard error, if there is one to write to."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _output_failed(error: OSError) -> int:
    """Standard output failed: a broken pipe ends quietly (141); anything else is one line (74)."""
    try:  # the rest of the output goes nowhere, so the exit does not fail a second time
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
    except OSError:
        pass
    if isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE:
        return EXIT_BROKEN_PIPE
    _say(f"foursquare: cannot write the output: {error.strerror or error}")
    return EXIT_IO


app = typer.Typer(
    cls=_OneLineErrors,
    add_completion=False,
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Play, replay, check, hint and solve games of Foursquare, the one-player card game.\n\n"
    "Exit codes: 0 success; 1 invalid input (an illegal move, an invalid record); "
    "2 usage error (bad option, a file that cannot be read or written); 3 and 4 solve's unwinnable and gave up; "
    "70 internal error; 74 output could not be written; 130 interrupted; 141 broken pipe; 143 terminated.",
)


_command = ["foursquare"]  # `foursquare COMMAND` once a command is chosen, for the handler's lines


def _show_version(value: bool) -> None:
    if value:
        print(f"foursquare {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    context: typer.Context,
    version: bool | None = typer.Option(
        None, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Play, replay, check, hint and solve games of Foursquare, the one-player card game."""
    _command[0] = f"foursquare {context.invoked_subcommand}" if context.invoked_subcommand else "foursquare"
    if context.invoked_subcommand is None:
        print(context.get_help())


# -- options shared by several commands -------------------------------------------------


def _seed_parser(text: str) -> int:
    from .rules.cards import InvalidSeedError, parse_seed

    try:
        return parse_seed(text)
    except InvalidSeedError as error:
        raise typer.BadParameter(str(error)) from None


def _deck_parser(text: str) -> tuple[Card, ...]:
    from .rules.cards import InvalidCardError, parse_deck

    try:
        return parse_deck(text)
    except InvalidCardError as error:
        raise typer.BadParameter(str(error)) from None


def _player_parser(text: str) -> str:
    """The player's name, checked without building the player (that is where its own errors are reported)."""
    from .players import parse_player

    try:
        return parse_player(text)
    except FoursquareError as error:
        raise typer.BadParameter(str(error)) from None


def _seconds_parser(text: str) -> float:
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


class Color(enum.StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


FILE_HELP = "A game record or a move log; - for standard input."
SEED_OPTION = typer.Option(None, "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number, 0 to 2^64-1.")
DECK_OPTION = typer.Option(
    None, "--deck", parser=_deck_parser, metavar="CARDS", help="The 40 cards in draw order, in one argument."
)
REVEAL_OPTION = typer.Option(False, "--reveal", help="Show face-down cards on the board.")
UNICODE_OPTION = typer.Option(False, "--unicode", help="Suit symbols instead of letters.")
COLOR_OPTION = typer.Option(
    Color.auto, "--color", help="Colour on a terminal (auto; NO_COLOR turns it off), always or never."
)
FORCE_OPTION = typer.Option(False, "--force", help="Replace an existing record file.")
PLAYER_SEED_OPTION = typer.Option(0, "--player-seed", metavar="N", min=0, help="Seed of the player's own choices.")
PLAYOUTS_OPTION = typer.Option(
    None, "--playouts", metavar="N", min=1, help="The expert's budget: futures played out a move (default 1500)."
)
THINK_OPTION = typer.Option(
    None, "--think", metavar="SECONDS", parser=_seconds_parser, help="The most seconds the expert may think a move."
)
PLAYER_NAMES = "random, greedy, expert"  # players.BUILT_IN_PLAYERS, held to it by a test


def _player_option(default: str = "expert") -> Any:
    return typer.Option(
        default,
        "--player",
        "-p",
        parser=_player_parser,
        metavar="NAME",
        help=f"The player: {PLAYER_NAMES}, cmd:COMMAND (a program speaking the move protocol) or module:attribute.",
    )


MOVE_TIME_OPTION = typer.Option(
    10.0,
    "--move-time",
    metavar="SECONDS",
    parser=_seconds_parser,
    help="An outside program's time a move, after which it forfeits the game.",
)


def _format_option(text_help: str) -> Any:
    return typer.Option(Format.text, "--format", "-f", help=text_help)


# -- what the commands share ----------------------------------------------------------------


def _output() -> ModuleType:
    """`ui.output`, imported when a command first prints (so `check` loads no more than it needs)."""
    from .ui import output

    return output


def _print(value: object, output_format: Format, text: Callable[[], str]) -> None:
    """A command's result: its JSON on one line, or its text for people."""
    from .formats.protocol import json_line

    _output().write(json_line(value) if output_format is Format.json else text() + "\n")


def _strength(playouts: int | None, think: float | None) -> Strength:
    from .players import DEFAULT_PLAYOUTS, Strength

    return Strength(playouts or DEFAULT_PLAYOUTS, think)


def _loaded(
    file: str, seed: int | None, deck: tuple[Card, ...] | None, on_step: Callable[[Step], None] | None = None
) -> Verdict:
    """Read and play a record or move log; its problems go to standard error, usage errors end the run."""
    from .formats.records import load
    from .ui.reports import problem_line

    verdict = load(file, seed=seed, deck=deck, on_step=on_step)
    for problem in verdict.problems:
        _say(problem_line(verdict.source.display_name, problem))
    return verdict


def _playable(verdict: Verdict) -> Game:
    """The game of a valid record that is still being played (exit 1 otherwise)."""
    from .ui.reports import verdict_summary

    if verdict.problems or verdict.game is None:
        raise typer.Exit(EXIT_INVALID)
    if verdict.game.state.is_over:
        name = verdict.source.display_name
        raise InvalidInputError(f"{name}: the game is over ({verdict_summary(verdict)}); there is no move to hint")
    return verdict.game


def _announced_seed(seed: int | None) -> int:
    """The deal asked for, or a random one, said on standard error so it can be played again."""
    if seed is not None:
        return seed
    from .ui.session import new_seed

    seed = new_seed()
    _say(f"Deal {seed} (to watch it again: --seed {seed})")
    return seed


# -- commands ------------------------------------------------------------------------------


@app.command()
def deal(
    seed: int = typer.Option(..., "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number, 0 to 2^64-1."),
    unicode: bool = UNICODE_OPTION,
) -> None:
    """Print the stock of a deal, first card first, on one line."""
    from .rules.cards import deal as deal_cards
    from .ui.board import Style, card_text

    _output().write(" ".join(card_text(card, Style(unicode=unicode)) for card in deal_cards(seed)) + "\n")


@app.command()
def replay(
    file: str = typer.Argument(..., help=FILE_HELP, metavar="FILE"),
    seed: int | None = SEED_OPTION,
    deck: Any = DECK_OPTION,
    output_format: Format = _format_option("text for people, json for JSON Lines."),
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
    output = _output()
    printer = output.step_printer(output_format is Format.json, output.style(reveal, unicode, color))
    verdict = _loaded(file, seed, deck, on_step=printer)
    raise typer.Exit(EXIT_INVALID if verdict.problems else EXIT_OK)


@app.command()
def check(
    files: list[str] = typer.Argument(..., help="Game records to validate; - for standard input.", metavar="FILE..."),
    output_format: Format = _format_option("text, or json: one object per file per line."),
) -> None:
    """Validate game records; report each problem as file:line: message.

    Prints the outcome of each valid file (won, score 7, 29 moves, 2 undos). Exit
    codes: 0 every file is valid; 1 some file is invalid; 2 a file could not be read.
    """
    from .formats.records import check_path
    from .ui.reports import check_report

    json_output = output_format is Format.json
    code = EXIT_OK
    for path in files:
        out, errors, result = check_report(path, check_path(path), json_output=json_output)
        _output().emit(out, errors, out_first=json_output)
        code = max(code, result)
    raise typer.Exit(code)


@app.command()
def play(
    seed: int | None = typer.Option(
        None, "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number; random if not given."
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
    output_format: Format = _format_option("From a pipe: text boards, or json (one state per line)."),
    reveal: bool = REVEAL_OPTION,
    unicode: bool = UNICODE_OPTION,
    color: Color = COLOR_OPTION,
    playouts: int | None = PLAYOUTS_OPTION,
    think: float | None = THINK_OPTION,
) -> None:
    """Play a game: at a prompt, or with moves piped in one per line.

    At a terminal: type a move (B3, B3 top, shift up), or moves, board, hint,
    undo, help, quit. From a pipe (or with --format json): moves one per line,
    blank lines and # comments allowed, undo and quit too; the state is printed
    before the first move and after each (--format json: the JSON Lines of
    replay, flushed, so a bot can drive the game as a co-process); the first
    invalid or illegal line ends the run. quit, end of input and Ctrl-C stop
    cleanly and say how to resume.

    Exit codes: 0 the game ended or you stopped; 1 an invalid or illegal move
    from a pipe; 2 usage error; 74 a write failed; 130 interrupted.
    """
    from .ui.play import play as play_game
    from .ui.session import PlayOptions

    options = PlayOptions(seed, deck, daily, record, resume, no_record, force)
    shown = _output().style(reveal, unicode, color)
    raise typer.Exit(
        play_game(options, json_output=output_format is Format.json, shown=shown, strength=_strength(playouts, think))
    )


@app.command()
def history(
    limit: int = typer.Option(20, "--limit", "-n", metavar="N", min=1, help="How many of the last games to list."),
    deal: int | None = typer.Option(
        None, "--deal", parser=_seed_parser, metavar="N", help="Only the games of this deal number."
    ),
    output_format: Format = _format_option("text, or json: one object with games and totals."),
) -> None:
    """Your games, newest first, and how you are doing: won, best score, streaks, daily deals.

    Every game played with `play` is kept (see --no-record) in the data folder:
    $FOURSQUARE_HOME, else $XDG_DATA_HOME/foursquare or ~/.local/share/foursquare.
    """
    from .store.history import History, totals
    from .ui.reports import history_json, history_text

    kept = History()
    games = kept.games(seed=deal)
    for note in kept.notes:
        _output().say(note)
    figures = totals(games)
    _print(history_json(games, figures, limit), output_format, lambda: history_text(games, figures, limit))


@app.command()
def hint(
    file: str = typer.Argument(..., help=FILE_HELP, metavar="FILE"),
    seed: int | None = SEED_OPTION,
    deck: Any = DECK_OPTION,
    output_format: Format = _format_option("text, or json."),
    player: str = _player_option(),
    player_seed: int = PLAYER_SEED_OPTION,
    playouts: int | None = PLAYOUTS_OPTION,
    think: float | None = THINK_OPTION,
    move_time: float = MOVE_TIME_OPTION,
) -> None:
    """A player's move for the position at the end of a record: the expert's, with its ratings, by default."""
    from .players import ExpertPlayer, make_player, next_move
    from .ui.reports import hint_json, hint_text, other_hint

    game = _playable(_loaded(file, seed, deck))
    strength = _strength(playouts, think)
    if player == "expert":
        ratings = ExpertPlayer(player_seed, strength.playouts, strength.think).rate(game.state)
        _print(hint_json(ratings), output_format, lambda: hint_text(ratings, game.state))
    else:
        step = next_move(game, make_player(player, player_seed, strength, move_time), player)
        _output().write(other_hint(player, step, json_output=output_format is Format.json))


@app.command()
def solve(
    seed: int | None = typer.Option(None, "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number."),
    deck: Any = DECK_OPTION,
    budget: int | None = typer.Option(
        None, "--budget", metavar="NODES", min=1, help="Most positions to visit (default: no limit)."
    ),
    timeout: float = typer.Option(
        10.0, "--timeout", metavar="SECONDS", parser=_seconds_parser, help="Most seconds to search."
    ),
    record: str | None = typer.Option(None, "--record", metavar="FILE", help="Write the winning line to this file."),
    force: bool = FORCE_OPTION,
    output_format: Format = _format_option("text, or json."),
) -> None:
    """Search a deal knowing the whole stock: the best score it can find.

    Not a player: it sees every card in advance, so its result is an upper bound
    for any real player. Exit codes: 0 winnable (with the best score found, and
    whether it is proven best), 3 unwinnable (an exhaustive search found no win),
    4 gave up (budget or time ran out with nothing found), 2 usage error.
    """
    from .formats.records import format_record
    from .players.solver import solve as search
    from .players.solver import winning_game
    from .rules.cards import deal as deal_cards
    from .store.files import opened_record
    from .ui.reports import solve_json, solve_text

    if (seed is None) == (deck is None):
        raise UsageError("give --seed N or --deck CARDS (one of them)")
    cards = deck if deck is not None else deal_cards(seed or 0)
    with opened_record(record, replace=force) as file:
        solution = search(cards, budget=budget, timeout=timeout)
        game = winning_game(cards, seed, solution)
        record_text = format_record(game) if game is not None else None
        if file is not None and record_text is not None:
            file.write(record_text)
    _print(solve_json(solution, seed), output_format, lambda: solve_text(solution, seed, record_text, timeout))
    raise typer.Exit(SOLVE_EXIT[solution.status])


@app.command()
def stats(
    games: int = typer.Option(..., "--games", "-n", metavar="N", min=1, help="How many deals to play."),
    start: int = typer.Option(0, "--start", metavar="S", min=0, help="The first deal number."),
    player: str = _player_option(),
    jobs: int = typer.Option(
        1,
        "--jobs",
        "-j",
        metavar="J",
        min=1,
        help="Processes to play in (at most one per game); the figures are the same.",
    ),
    player_seed: int = PLAYER_SEED_OPTION,
    playouts: int | None = PLAYOUTS_OPTION,
    think: float | None = THINK_OPTION,
    move_time: float = MOVE_TIME_OPTION,
    output_format: Format = _format_option("text, or json."),
) -> None:
    """Play many deals with a player and sum them up.

    Plays deals START to START+GAMES-1. Prints the win rate with its 95% Wilson
    interval, the mean score of the won games, the mean time per move, the games
    per second and the deals lost. A progress bar is drawn on standard error when
    it is a terminal.
    """
    from .runs.stats import check_range, summarize
    from .ui.reports import stats_text

    check_range(start, games)
    with _output().progress(games, f"{player} playing") as progress:
        strength = _strength(playouts, think)
        summary = summarize(player, start, games, jobs, player_seed, progress, strength, move_time)
    _print(summary.as_dict(), output_format, lambda: stats_text(summary))


@app.command()
def auto(
    seed: int | None = typer.Option(
        None, "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number; random if not given."
    ),
    player: str = _player_option(),
    player_seed: int = PLAYER_SEED_OPTION,
    playouts: int | None = PLAYOUTS_OPTION,
    think: float | None = THINK_OPTION,
    move_time: float = MOVE_TIME_OPTION,
    record: str | None = typer.Option(None, "--record", metavar="FILE", help="Write the game record to this file."),
    force: bool = FORCE_OPTION,
    output_format: Format = _format_option("text for people, json for JSON Lines."),
    reveal: bool = REVEAL_OPTION,
    unicode: bool = UNICODE_OPTION,
    color: Color = COLOR_OPTION,
) -> None:
    """A built-in player plays a whole game, printed as replay prints it."""
    from .formats.records import format_record
    from .players import closing_programs, make_player, play_game
    from .rules.game import Game
    from .store.files import opened_record

    output = _output()
    seed = _announced_seed(seed)
    with opened_record(record, replace=force) as file, closing_programs():
        game = Game.from_seed(seed, meta={"player": player})
        show = output.step_printer(output_format is Format.json, output.style(reveal, unicode, color))
        show(game.step)
        forfeit = play_game(game, make_player(player, player_seed, _strength(playouts, think), move_time), show)
        if forfeit is not None:
            raise Forfeit(f"{player} forfeits the game: {forfeit}")
        if file is not None:
            file.write(format_record(game))


@app.command()
def analyze(
    files: list[str] = typer.Argument(..., help="Game records or move logs; - for standard input.", metavar="FILE..."),
    seed: int | None = SEED_OPTION,
    deck: Any = DECK_OPTION,
    playouts: int | None = PLAYOUTS_OPTION,
    think: float | None = THINK_OPTION,
    player_seed: int = PLAYER_SEED_OPTION,
    output_format: Format = _format_option("text for people, json for JSON Lines (a line per move, then a summary)."),
    boards: bool = typer.Option(False, "--boards", help="A board after every move, not only after a marked one."),
    solution: str | None = typer.Option(
        None, "--solution", metavar="FILE", help="Save the solver's best line for the deal as a record (one FILE only)."
    ),
    force: bool = FORCE_OPTION,
    solve_budget: int = typer.Option(
        400_000, "--solve-budget", metavar="NODES", min=1, help="Positions the solver may visit for the deal's best."
    ),
    jobs: int = typer.Option(
        1, "--jobs", "-j", metavar="J", min=1, help="Files analysed at once; the figures are the same."
    ),
) -> None:
    """Where a game was won or lost, move by move: the expert's figures for each move, a mark for each
    mistake, the move that lost the game for good, and the solver's best for the deal.

    Marks: ?! inaccuracy, ? mistake, ?? blunder (see the README for the thresholds).
    Exit codes: 0 analysed; 1 a file has an illegal move (the moves before it are analysed); 2 usage error.
    """
    from .formats.records import format_record
    from .runs.analysis import Request, analyze_files
    from .store.files import opened_record
    from .ui.reports import analysis_report

    if solution is not None and len(files) > 1:
        raise UsageError("--solution goes with one file")
    requests = [Request(path, seed, deck, player_seed, _strength(playouts, think), solve_budget) for path in files]
    code = EXIT_OK
    with opened_record(solution, replace=force) as file, _output().progress(len(requests), "analysing") as progress:
        for analysis in analyze_files(requests, jobs, progress):
            out, errors, result = analysis_report(analysis, json_output=output_format is Format.json, boards=boards)
            _output().emit(out, errors, out_first=True)
            code = max(code, result)
            if file is not None and analysis.summary is not None and analysis.summary.solution is not None:
                file.write(format_record(analysis.summary.solution))
    raise typer.Exit(code)


@app.command()
def compare(
    players: list[str] = typer.Argument(
        ..., metavar="PLAYER PLAYER...", help="Players: random, greedy, expert, cmd:COMMAND or module:attribute."
    ),
    games: int = typer.Option(..., "--games", "-n", metavar="N", min=1, help="How many deals every player plays."),
    start: int = typer.Option(0, "--start", metavar="S", min=0, help="The first deal number."),
    jobs: int = typer.Option(
        1, "--jobs", "-j", metavar="J", min=1, help="Processes to play in; the figures are the same."
    ),
    player_seed: int = PLAYER_SEED_OPTION,
    playouts: int | None = PLAYOUTS_OPTION,
    think: float | None = THINK_OPTION,
    move_time: float = MOVE_TIME_OPTION,
    output_format: Format = _format_option("text, or json: one object with players and pairs."),
) -> None:
    """Which player is better, and how sure: every player on the same deals, and paired tests.

    Wins are compared with the exact McNemar test, scores (a lost game counting 0)
    with the Wilcoxon signed-rank test. Ctrl-C prints what was played so far.
    """
    from .players import parse_player
    from .runs.compare import compare as run
    from .runs.stats import check_range
    from .ui.reports import compare_json, compare_text

    if len(players) < 2:
        raise UsageError("give at least two players to compare")
    checked = [parse_player(player) for player in players]
    check_range(start, games)
    with _output().progress(games * len(players), "comparing") as progress:
        for comparison in run(
            checked, start, games, jobs, player_seed, _strength(playouts, think), move_time, progress
        ):
            _print(compare_json(comparison), output_format, lambda: compare_text(comparison))  # noqa: B023


def _guard_standard_streams() -> None:
    """Closed standard streams: hold their descriptors with /dev/null, so no file the tool opens
    takes their place; a closed standard output is then an error, a closed input is seen as closed."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass
            if fd == 1:
                _say("foursquare: standard output is closed; nothing could be shown")
                sys.exit(EXIT_IO)


def main() -> None:
    _guard_standard_streams()
    app()
