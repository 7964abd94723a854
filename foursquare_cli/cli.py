"""The `foursquare` command: thin Typer commands over the core modules.

Each command reads its input, makes one call into the core, prints with the
printers of `board`, and turns the core's exceptions into one line on standard
error and an exit code:

  0    success (for `check`: every file valid; for `solve`: winnable)
  1    the input is wrong: an invalid or illegal move, an invalid record
  2    usage error: a bad option, a file that cannot be read or written
  3    `solve`: unwinnable;  4  `solve`: gave up
  74   output or a record could not be written (a full disk, a closed stream)
  130  interrupted (Ctrl-C);  141  the reader of the output went away;  143  terminated
"""

from __future__ import annotations

import enum
import errno
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from typer.core import TyperGroup

from . import __version__

if TYPE_CHECKING:
    from .board import Style
    from .cards import Card
    from .game import Game, Step
    from .records import Verdict

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_IO = 0, 1, 2, 74
EXIT_INTERRUPTED, EXIT_BROKEN_PIPE, EXIT_TERMINATED = 130, 141, 143
SOLVE_EXIT = {"winnable": EXIT_OK, "unwinnable": 3, "gave up": 4}


class _OneLineErrors(TyperGroup):
    """Report usage errors as one line on standard error (`foursquare deal: ...`), exit 2;
    a failed or broken standard output as one line (or none), exit 74 or 141."""

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
        except typer.Abort:
            _say("foursquare: interrupted")
            code = EXIT_INTERRUPTED
        except OSError as error:
            code = _output_failed(error)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        """A broken pipe is caught here, before click turns it into exit 1."""
        try:
            return super().invoke(ctx)
        except OSError as error:
            if isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE:
                raise typer.Exit(_output_failed(error)) from None
            raise


def _resume_without_file(arguments: list[str]) -> list[str]:
    """`play --resume` with no file after it means the last unfinished game: give it the sentinel value
    (typer has no option with an optional value)."""
    if "play" not in arguments:
        return arguments
    from .session import LAST_GAME

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
    "74 output could not be written; 130 interrupted; 141 broken pipe; 143 terminated.",
)


_command = ["foursquare"]  # `foursquare COMMAND` once a command is chosen, for `fail`


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """`foursquare COMMAND: message` on standard error, then exit with `code`."""
    _say(f"{_command[0]}: {message}")
    raise typer.Exit(code)


@contextmanager
def core_errors() -> Iterator[None]:
    """The core's exceptions, each turned into one line (or a file's problems and a line) and its exit code.

    Errors about a file start with its name; the others with `foursquare COMMAND:`.
    """
    from .board import problem_line
    from .files import WriteError
    from .records import DealConflict, NoDeal, ReadError
    from .session import PlayRequestError

    try:
        yield
    except (DealConflict, NoDeal) as error:
        fail(str(error))
    except (WriteError, ReadError) as error:
        _say(str(error))
        raise typer.Exit(EXIT_USAGE) from None
    except PlayRequestError as error:
        if error.verdict is not None:
            for problem in error.verdict.problems:
                _say(problem_line(error.verdict.source.display_name, problem))
        code = EXIT_INVALID if error.verdict is not None else EXIT_USAGE
        if error.path is None:
            fail(str(error), code)
        _say(str(error))
        raise typer.Exit(code) from None


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
    from .cards import InvalidSeedError, parse_seed

    try:
        return parse_seed(text)
    except InvalidSeedError as error:
        raise typer.BadParameter(str(error)) from None


def _deck_parser(text: str) -> tuple[Card, ...]:
    from .cards import InvalidCardError, parse_deck

    try:
        return parse_deck(text)
    except InvalidCardError as error:
        raise typer.BadParameter(str(error)) from None


def _player_parser(text: str) -> str:
    from .players import make_player

    try:
        make_player(text)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    return text if ":" in text else text.lower()


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


def _strength(playouts: int | None, think: float | None) -> Any:
    from .players import DEFAULT_PLAYOUTS, Strength

    return Strength(playouts or DEFAULT_PLAYOUTS, think)


def _player_option(default: str = "expert") -> Any:
    from .game import BUILT_IN_PLAYERS

    names = ", ".join(BUILT_IN_PLAYERS)
    return typer.Option(
        default,
        "--player",
        "-p",
        parser=_player_parser,
        metavar="NAME",
        help=f"The player: {names}, cmd:COMMAND (a program speaking the move protocol) or module:attribute.",
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


def _style(reveal: bool, unicode: bool, color: Color = Color.never) -> Style:
    from .board import Style

    use_color = color is Color.always or (
        color is Color.auto
        and "NO_COLOR" not in os.environ
        and os.environ.get("TERM") != "dumb"
        and sys.stdout is not None
        and sys.stdout.isatty()
    )
    return Style(reveal=reveal, unicode=unicode, color=use_color)


def _print(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def _step_printer(output: Format, style: Style) -> Callable[[Step], None]:
    """A listener printing each step as `replay` shows it: boards (the first with the legend), or JSON Lines."""
    from .board import state_block

    first = True

    def show(step: Step) -> None:
        nonlocal first
        _print(state_block(step, json_output=output is Format.json, style=style, first=first))
        first = False

    return show


def _loaded(
    file: str, seed: int | None, deck: tuple[Card, ...] | None, on_step: Callable[[Step], None] | None = None
) -> Verdict:
    """Read and play a record or move log; usage errors end the run here, file problems go to stderr."""
    from .board import problem_line
    from .records import DealConflict, NoDeal, ReadError, display_name, load

    name = display_name(file)
    try:
        verdict = load(file, seed=seed, deck=deck, on_step=on_step)
    except (ReadError, DealConflict, NoDeal) as error:
        _say(f"{name}: {error}")
        raise typer.Exit(EXIT_USAGE) from None
    for problem in verdict.problems:
        _say(problem_line(name, problem))
    return verdict


# -- commands ------------------------------------------------------------------------------


@app.command()
def deal(
    seed: int = typer.Option(..., "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number, 0 to 2^64-1."),
    unicode: bool = UNICODE_OPTION,
) -> None:
    """Print the stock of a deal, first card first, on one line."""
    from .board import Style, card_text
    from .cards import deal as deal_cards

    _print(" ".join(card_text(card, Style(unicode=unicode)) for card in deal_cards(seed)) + "\n")


@app.command()
def replay(
    file: str = typer.Argument(..., help=FILE_HELP, metavar="FILE"),
    seed: int | None = SEED_OPTION,
    deck: Any = DECK_OPTION,
    output: Format = _format_option("text for people, json for JSON Lines."),
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
    verdict = _loaded(file, seed, deck, on_step=_step_printer(output, _style(reveal, unicode, color)))
    raise typer.Exit(EXIT_INVALID if verdict.problems else EXIT_OK)


@app.command()
def check(
    files: list[str] = typer.Argument(..., help="Game records to validate; - for standard input.", metavar="FILE..."),
    output: Format = _format_option("text, or json: one object per file per line."),
) -> None:
    """Validate game records; report each problem as file:line: message.

    Prints the outcome of each valid file (won, score 7, 29 moves, 2 undos). Exit
    codes: 0 every file is valid; 1 some file is invalid; 2 a file could not be read.
    """
    from .board import json_line, problem_line, verdict_line
    from .records import ReadError, check_path, display_name

    code = EXIT_OK
    for path in files:
        name = display_name(path)
        verdict = check_path(path)
        if isinstance(verdict, ReadError):
            if output is Format.json:
                unread = {"line": None, "move": None, "move_text": None, "message": str(verdict)}
                _print(json_line({"path": path, "valid": False, "outcome": None, "problems": [unread]}))
            _say(f"{name}: {verdict}")
            code = EXIT_USAGE
            continue
        if output is Format.json:
            _print(json_line(verdict.as_dict()))
        for problem in verdict.problems:
            _say(problem_line(name, problem))
        if output is Format.text:
            _print(verdict_line(name, verdict) + "\n")
        if not verdict.valid and code == EXIT_OK:
            code = EXIT_INVALID
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
    output: Format = _format_option("From a pipe: text boards, or json (one state per line)."),
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
    from .history import History
    from .session import open_session, run_pipe, run_terminal

    stdin = sys.stdin
    if stdin is None or stdin.closed:
        fail("standard input is closed; pipe moves in, or play at a terminal")
    at_prompt = stdin.isatty() and output is Format.text
    history = None if output is Format.json or no_record else History()
    with core_errors():
        session, opening = open_session(
            seed=seed,
            deck=deck,
            daily=daily,
            record=record,
            resume=resume,
            no_record=no_record,
            force=force,
            history=history,
            mention_waiting=at_prompt,
        )
    for line in opening:
        print(line, file=sys.stdout if at_prompt else sys.stderr)
    style = _style(reveal, unicode, color if at_prompt else Color.never)
    with session:
        if at_prompt:
            hint = _prompt_hint(_strength(playouts, think))
            code = run_terminal(session, sys.stdout, style=style, hint=hint, epilogue=_epilogue)
        else:
            code = run_pipe(
                session, stdin.buffer, sys.stdout, sys.stderr, json_output=output is Format.json, style=style
            )
    raise typer.Exit(code)


@app.command()
def history(
    limit: int = typer.Option(20, "--limit", "-n", metavar="N", min=1, help="How many of the last games to list."),
    deal: int | None = typer.Option(
        None, "--deal", parser=_seed_parser, metavar="N", help="Only the games of this deal number."
    ),
    output: Format = _format_option("text, or json: one object with games and totals."),
) -> None:
    """Your games, newest first, and how you are doing: won, best score, streaks, daily deals.

    Every game played with `play` is kept (see --no-record) in the data folder:
    $FOURSQUARE_HOME, else $XDG_DATA_HOME/foursquare or ~/.local/share/foursquare.
    """
    from .board import history_json, history_text, json_line
    from .history import History, HistoryError, totals

    kept = History()
    try:
        games = kept.games(seed=deal)
    except HistoryError as error:
        fail(str(error))
    for note in kept.notes:
        _say(note)
    figures = totals(games)
    _print(
        json_line(history_json(games, figures, limit))
        if output is Format.json
        else history_text(games, figures, limit) + "\n"
    )


def _prompt_hint(strength: Any) -> Callable[[Game], str]:
    def hint(game: Game) -> str:
        from .board import hint_text
        from .players import ExpertPlayer

        return hint_text(ExpertPlayer(0, strength.playouts, strength.think).rate(game.state), game.state)

    return hint


def _epilogue(session: Any) -> str:
    """What the deal allowed, from two seconds of the solver."""
    from .board import deal_potential
    from .solver import solve

    return deal_potential(solve(session.game.deck, timeout=2.0))


@app.command()
def hint(
    file: str = typer.Argument(..., help=FILE_HELP, metavar="FILE"),
    seed: int | None = SEED_OPTION,
    deck: Any = DECK_OPTION,
    output: Format = _format_option("text, or json."),
    player: str = _player_option(),
    player_seed: int = PLAYER_SEED_OPTION,
    playouts: int | None = PLAYOUTS_OPTION,
    think: float | None = THINK_OPTION,
    move_time: float = MOVE_TIME_OPTION,
) -> None:
    """A player's move for the position at the end of a record: the expert's, with its ratings, by default."""
    from .board import hint_json, hint_text, json_line, verdict_summary
    from .players import ExpertPlayer

    verdict = _loaded(file, seed, deck)
    if verdict.problems:
        raise typer.Exit(EXIT_INVALID)
    assert verdict.state is not None
    if verdict.state.is_over:
        fail(
            f"{verdict.source.display_name}: the game is over ({verdict_summary(verdict)}); there is no move to hint",
            EXIT_INVALID,
        )
    strength = _strength(playouts, think)
    if player != "expert":
        _print(_other_players_hint(player, player_seed, strength, move_time, verdict, output is Format.json))
        return
    ratings = ExpertPlayer(player_seed, strength.playouts, strength.think).rate(verdict.state)
    _print(json_line(hint_json(ratings)) if output is Format.json else hint_text(ratings, verdict.state) + "\n")


def _other_players_hint(
    player: str, seed: int, strength: Any, move_time: float, verdict: Verdict, json_output: bool
) -> str:
    """The move another player would make at the end of the record (it has no ratings to show)."""
    from .board import json_line
    from .game import play_out
    from .outside import Forfeit, close_programs
    from .players import make_player

    assert verdict.game is not None
    game = verdict.game
    try:
        step = next(play_out(game, make_player(player, seed, strength, move_time)))
    except Forfeit as forfeit:
        fail(f"{player} forfeits: {forfeit.reason}", EXIT_INVALID)
    finally:
        close_programs()
    if json_output:
        return json_line({"move": str(step.move), "player": player, "ratings": []})
    return f"Hint from {player}: {step.move}\n"


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
    output: Format = _format_option("text, or json."),
) -> None:
    """Search a deal knowing the whole stock: the best score it can find.

    Not a player: it sees every card in advance, so its result is an upper bound
    for any real player. Exit codes: 0 winnable (with the best score found, and
    whether it is proven best), 3 unwinnable (an exhaustive search found no win),
    4 gave up (budget or time ran out with nothing found), 2 usage error.
    """
    from .board import json_line, solve_json, solve_text
    from .cards import deal as deal_cards
    from .files import opened_record
    from .records import format_record
    from .solver import solve as search
    from .solver import winning_game

    if (seed is None) == (deck is None):
        fail("give --seed N or --deck CARDS (one of them)")
    cards = deck if deck is not None else deal_cards(seed or 0)
    with core_errors(), opened_record(record, replace=force) as file:
        solution = search(cards, budget=budget, timeout=timeout)
        game = winning_game(cards, seed, solution)
        record_text = format_record(game) if game is not None else None
        if file is not None and record_text is not None:
            file.write(record_text)
    _print(
        json_line(solve_json(solution, seed))
        if output is Format.json
        else solve_text(solution, seed, record_text, timeout) + "\n"
    )
    raise typer.Exit(SOLVE_EXIT[solution.status])


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[..., None] | None]:
    """`rich`'s progress bar (elapsed time, time left) on standard error when it is a terminal; else nothing.

    The bar is updated with `update(done)`, or `update(done, total)` when the total becomes known.
    """
    if sys.stderr is None or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("elapsed,"),
        TimeRemainingColumn(),
        TextColumn("left"),
    )
    with Progress(*columns, console=Console(file=sys.stderr), transient=True) as bar:
        task = bar.add_task(label, total=total)

        def update(done: int, new_total: int | None = None) -> None:
            bar.update(task, completed=done, total=new_total if new_total is not None else bar.tasks[0].total)

        yield update


@contextmanager
def _interruptible() -> Iterator[None]:
    """A long run stopped by Ctrl-C or SIGTERM: one line, exit 130 or 143."""
    import signal

    from .workers import Interrupted

    try:
        yield
    except (Interrupted, KeyboardInterrupt) as error:
        terminated = isinstance(error, Interrupted) and error.signum == signal.SIGTERM
        fail("terminated" if terminated else "interrupted", EXIT_TERMINATED if terminated else EXIT_INTERRUPTED)


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
    output: Format = _format_option("text, or json."),
) -> None:
    """Play many deals with a player and sum them up.

    Plays deals START to START+GAMES-1. Prints the win rate with its 95% Wilson
    interval, the mean score of the won games, the mean time per move, the games
    per second and the deals lost. A progress bar is drawn on standard error when
    it is a terminal.
    """
    from .board import json_line, stats_text
    from .stats import check_range, summarize

    try:
        check_range(start, games)
    except ValueError as error:
        fail(str(error))
    with _interruptible(), _progress(games, f"{player} playing") as progress:
        try:
            summary = summarize(
                player,
                start,
                games,
                jobs,
                player_seed,
                progress=progress,
                strength=_strength(playouts, think),
                move_time=move_time,
            )
        except OSError as error:
            fail(f"cannot start {jobs} worker processes: {error.strerror or error}")
    _print(json_line(summary.as_dict()) if output is Format.json else stats_text(summary) + "\n")


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
    output: Format = _format_option("text for people, json for JSON Lines."),
    reveal: bool = REVEAL_OPTION,
    unicode: bool = UNICODE_OPTION,
    color: Color = COLOR_OPTION,
) -> None:
    """A built-in player plays a whole game, printed as replay prints it."""
    from .files import opened_record
    from .game import Game, play_out
    from .outside import Forfeit, close_programs
    from .players import make_player
    from .records import format_record
    from .session import new_seed

    if seed is None:
        seed = new_seed()
        _say(f"Deal {seed} (to watch it again: --seed {seed})")
    with core_errors(), opened_record(record, replace=force) as file:
        game = Game.from_seed(seed, meta={"player": player})
        show = _step_printer(output, _style(reveal, unicode, color))
        show(game.step)
        chosen = make_player(player, player_seed, _strength(playouts, think), move_time)
        try:
            for step in play_out(game, chosen):
                show(step)
        except Forfeit as forfeit:
            fail(f"{player} forfeits the game: {forfeit.reason}", EXIT_INVALID)
        finally:
            close_programs()
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
    output: Format = _format_option("text for people, json for JSON Lines (a line per move, then a summary)."),
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
    from .analysis import Request, report
    from .files import opened_record
    from .workers import run_in_order

    if solution is not None and len(files) > 1:
        fail("--solution goes with one file")
    strength = _strength(playouts, think)
    requests = [
        Request(path, seed, deck, player_seed, strength, output is Format.json, boards, solve_budget) for path in files
    ]
    code = EXIT_OK
    with _interruptible(), core_errors(), opened_record(solution, replace=force) as file:
        single = len(requests) == 1
        with _progress(len(requests), "analysing") as progress:
            if single:
                results = iter([report(requests[0], progress)])
            else:
                results = run_in_order(report, requests, jobs)
            for done, result in enumerate(results, start=1):
                if progress is not None and not single:
                    progress(done)
                _print(result.out)
                for line in result.err:
                    _say(line)
                code = max(code, result.code)
                if file is not None and result.solution is not None:
                    file.write(result.solution)
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
    output: Format = _format_option("text, or json: one object with players and pairs."),
) -> None:
    """Which player is better, and how sure: every player on the same deals, and paired tests.

    Wins are compared with the exact McNemar test, scores (a lost game counting 0)
    with the Wilcoxon signed-rank test. Ctrl-C prints what was played so far.
    """
    from .board import compare_json, compare_text, json_line
    from .compare import compare as run
    from .stats import check_range

    if len(players) < 2:
        fail("give at least two players to compare")
    checked = [_player_parser(player) for player in players]
    try:
        check_range(start, games)
    except ValueError as error:
        fail(str(error))

    def show(comparison: Any) -> None:
        _print(json_line(compare_json(comparison)) if output is Format.json else compare_text(comparison) + "\n")

    with _interruptible(), _progress(games * len(players), "comparing") as progress:
        runs = run(checked, start, games, jobs, player_seed, _strength(playouts, think), move_time, progress)
        try:
            for comparison in runs:
                show(comparison)
        except OSError as error:
            fail(f"cannot start {jobs} worker processes: {error.strerror or error}")


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
