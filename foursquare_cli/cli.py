"""The `foursquare` command: thin Typer commands over the core modules.

Each command reads its input, makes one call into the core, and turns the core's
exceptions into one line on standard error and an exit code:

  0  success (for `check`: every file valid; for `play`: the game ended or you quit;
     for `solve`: winnable)
  1  the input is wrong: an invalid or illegal move, an invalid record
  2  usage error: a bad option, a missing or unreadable file
  3  `solve`: unwinnable;  4  `solve`: gave up
  130  interrupted (Ctrl-C)
"""

from __future__ import annotations

import enum
import sys
from typing import TYPE_CHECKING, NoReturn

import typer
from typer.core import TyperGroup

from . import __version__

if TYPE_CHECKING:
    from .records import Source, Verdict


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
        except BrokenPipeError:
            # The reader went away (`foursquare replay ... | head`): nothing left to say.
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(EXIT_OK)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=_OneLineErrors,
    add_completion=False,
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Play, replay, check, hint and solve games of Foursquare, the one-player card game.\n\n"
    "Exit codes: 0 success; 1 invalid input (an illegal move, an invalid record); "
    "2 usage error (bad option, missing file); 3 and 4 solve's unwinnable and gave up; 130 interrupted.",
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
    version: bool | None = typer.Option(
        None, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Play, replay, check, hint and solve games of Foursquare, the one-player card game."""
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
    seed: int = typer.Option(..., "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number, 0 to 2^64-1."),
    unicode: bool = typer.Option(False, "--unicode", help="Suit symbols instead of letters."),
) -> None:
    """Print the stock of a deal, first card first, on one line."""
    from .cards import deal as deal_cards

    cards = deal_cards(seed)
    print(" ".join(card.symbol() if unicode else str(card) for card in cards))


class Format(enum.StrEnum):
    text = "text"
    json = "json"


def _deck_parser(text: str):
    from .cards import InvalidCardError, parse_deck

    try:
        return parse_deck(text)
    except InvalidCardError as error:
        raise typer.BadParameter(str(error)) from None


FILE_HELP = "A game record or a move log; - for standard input."
SEED_OPTION = typer.Option(None, "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number, 0 to 2^64-1.")
DECK_OPTION = typer.Option(
    None, "--deck", parser=_deck_parser, metavar="CARDS", help="The 40 cards in draw order, in one argument."
)
REVEAL_OPTION = typer.Option(False, "--reveal", help="Show face-down cards on the board.")
UNICODE_OPTION = typer.Option(False, "--unicode", help="Suit symbols instead of letters.")


def _read(path: str) -> Source:
    from .records import read_source

    try:
        return read_source(path)
    except OSError as error:
        fail(f"{path}: cannot read: {error.strerror or error}", EXIT_USAGE)


def _judge_file(path: str, seed: int | None, deck, on_state=None) -> tuple[str, Verdict]:
    """Read a record or move log and play it on its deal; usage errors end the run here."""
    from .records import DealConflict, judge

    if seed is not None and deck is not None:
        fail("foursquare: give --seed or --deck, not both", EXIT_USAGE)
    source = _read(path)
    name = source.display_name
    if source.kind == "log" and seed is None and deck is None:
        fail(f"{name}: a move log carries no deal; give --seed N or --deck CARDS", EXIT_USAGE)
    try:
        return name, judge(source, seed=seed, deck=deck, on_state=on_state)
    except DealConflict as error:
        fail(f"{name}: {error}", EXIT_USAGE)


def _report(name: str, verdict: Verdict) -> None:
    for problem in verdict.problems:
        print(problem.describe(name), file=sys.stderr)


def _print_json(obj: object) -> None:
    import json

    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _state_printer(output: Format, reveal: bool, unicode: bool):
    """A callback printing each state as `replay` shows it: boards, or JSON Lines."""
    from .board import state_block

    def show(ply, move_line, move, card, state) -> None:
        sys.stdout.write(
            state_block(state, ply, move, card, json_output=output is Format.json, reveal=reveal, unicode=unicode)
        )
        sys.stdout.flush()

    return show


@app.command()
def replay(
    file: str = typer.Argument(..., help=FILE_HELP, metavar="FILE"),
    seed: int | None = SEED_OPTION,
    deck=DECK_OPTION,
    output: Format = typer.Option(Format.text, "--format", "-f", help="text for people, json for JSON Lines."),
    reveal: bool = REVEAL_OPTION,
    unicode: bool = UNICODE_OPTION,
) -> None:
    """Print every state of a game record or a move log.

    The start, then the position after each move.
    A move log carries no deal: give --seed or --deck. At the first invalid or
    illegal move the states before it are printed, then the problem on standard
    error, and the exit code is 1.
    """
    name, verdict = _judge_file(file, seed, deck, on_state=_state_printer(output, reveal, unicode))
    _report(name, verdict)
    if verdict.problems:
        raise typer.Exit(EXIT_INVALID)


@app.command()
def check(
    files: list[str] = typer.Argument(..., help="Game records to validate; - for standard input.", metavar="FILE..."),
    output: Format = typer.Option(Format.text, "--format", "-f", help="text, or json: one object per file per line."),
) -> None:
    """Validate game records; report each problem as file:line: message.

    Prints the outcome of each valid file (won, score 7, 29 moves). Exit codes:
    0 every file is valid; 1 some file is invalid; 2 a file could not be read.
    """
    from .records import Problem, check_record, read_source

    code = EXIT_OK
    for path in files:
        name = "<stdin>" if path == "-" else path
        try:
            source = read_source(path)
        except OSError as error:
            message = f"cannot read: {error.strerror or error}"
            if output is Format.json:
                problems = [Problem(None, message).as_dict()]
                _print_json({"path": path, "valid": False, "outcome": None, "problems": problems})
            print(f"{name}: {message}", file=sys.stderr)
            code = EXIT_USAGE
            continue
        verdict = check_record(source)
        if output is Format.json:
            _print_json(verdict.as_dict())
        for problem in verdict.problems:
            print(problem.describe(name), file=sys.stderr)
        if output is Format.text:
            if verdict.valid:
                print(f"{name}: {verdict.summary()}")
            else:
                count = len(verdict.problems)
                print(f"{name}: invalid ({count} problem{'s' if count != 1 else ''})")
        if not verdict.valid and code == EXIT_OK:
            code = EXIT_INVALID
    raise typer.Exit(code)


@app.command()
def play(
    seed: int | None = typer.Option(
        None, "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number; random if not given."
    ),
    record: str | None = typer.Option(
        None, "--record", metavar="FILE", help="Keep the game record in this file, rewritten after every move."
    ),
    resume: str | None = typer.Option(
        None,
        "--resume",
        metavar="FILE",
        help="Continue the unfinished game recorded in this file (and keep recording to it).",
    ),
    no_record: bool = typer.Option(False, "--no-record", help="With --resume: do not write to the file."),
    output: Format = typer.Option(
        Format.text, "--format", "-f", help="From a pipe: text boards, or json (one state per line)."
    ),
    reveal: bool = REVEAL_OPTION,
    unicode: bool = UNICODE_OPTION,
) -> None:
    """Play a game: at a prompt, or with moves piped in one per line.

    At a terminal: type a move (B3, B3 top, shift up), or help, moves, board,
    hint, quit. From a pipe (or with --format json): moves one per line, blank
    lines and # comments allowed; the state is printed before the first move and
    after each (--format json: the JSON Lines of replay, flushed, so a bot can
    drive the game as a co-process); the first invalid or illegal line ends the
    run. quit, end of input and Ctrl-C stop cleanly and say how to resume.

    Exit codes: 0 the game ended or you stopped; 1 an invalid or illegal move
    from a pipe; 2 usage error; 130 interrupted.
    """
    import os

    from .session import Game, run_pipe, run_terminal

    if no_record and resume is None:
        fail("foursquare play: --no-record goes with --resume", EXIT_USAGE)
    if record is not None and record != resume and os.path.exists(record) and os.path.getsize(record) > 0:
        fail(f"{record}: already exists; continue it with --resume {record}, or record to a new file", EXIT_USAGE)
    if resume is not None:
        game = _resumed_game(resume, seed, None if no_record else (record or resume))
    else:
        announce = seed is None
        if seed is None:
            seed = _random_seed()
        game = Game.from_seed(seed, record_path=record)
        if announce:
            print(
                f"Deal {seed} (to play it again: foursquare play --seed {seed})",
                file=sys.stderr if output is Format.json or not sys.stdin.isatty() else sys.stdout,
            )
    try:
        game.save()
    except OSError as error:
        fail(f"{game.record_path}: cannot write: {error.strerror or error}", EXIT_USAGE)
    if sys.stdin.isatty() and output is Format.text:
        code = run_terminal(game, sys.stdout, reveal=reveal, unicode=unicode, hint=_hint_function())
    else:
        code = run_pipe(
            game,
            sys.stdin.buffer,
            sys.stdout,
            sys.stderr,
            json_output=output is Format.json,
            reveal=reveal,
            unicode=unicode,
        )
    raise typer.Exit(code)


def _resumed_game(path: str, seed: int | None, record_path: str | None):
    from .session import Game

    name, verdict = _judge_file(path, seed, None)
    if verdict.problems:
        _report(name, verdict)
        fail(f"{name}: cannot resume an invalid record", EXIT_INVALID)
    assert verdict.state is not None
    if verdict.state.is_over:
        fail(f"{name}: this game is over ({verdict.summary()}); there is nothing to resume", EXIT_USAGE)
    return Game(
        verdict.state.deck,
        seed=verdict.source.seed if verdict.source.seed is not None else seed,
        moves=verdict.moves,
        record_path=record_path,
        meta=verdict.source.meta,
    )


def _hint_function():
    from .board import hint_text
    from .players import ExpertPlayer

    expert = ExpertPlayer()
    return lambda state: hint_text(expert.rate(state))


@app.command()
def hint(
    file: str = typer.Argument(..., help=FILE_HELP, metavar="FILE"),
    seed: int | None = SEED_OPTION,
    deck=DECK_OPTION,
    output: Format = typer.Option(Format.text, "--format", "-f", help="text, or json."),
    player_seed: int = typer.Option(0, "--player-seed", metavar="N", help="Seed of the expert's sampling."),
) -> None:
    """The expert's move at the end of a record, with its ratings."""
    from .board import hint_text
    from .players import ExpertPlayer

    name, verdict = _judge_file(file, seed, deck)
    if verdict.problems:
        _report(name, verdict)
        raise typer.Exit(EXIT_INVALID)
    assert verdict.state is not None
    if verdict.state.is_over:
        fail(f"{name}: the game is over ({verdict.summary()}); there is no move to hint", EXIT_INVALID)
    ratings = ExpertPlayer(player_seed).rate(verdict.state)
    if output is Format.json:
        _print_json(
            {
                "move": str(ratings[0].move),
                "ratings": [
                    {
                        "move": str(r.move),
                        "then": None if r.then is None else str(r.then),
                        "wins": r.wins,
                        "samples": r.samples,
                        "mean_score_of_wins": r.mean_score,
                    }
                    for r in ratings
                ],
            }
        )
    else:
        print(hint_text(ratings))


SOLVE_EXIT = {"winnable": EXIT_OK, "unwinnable": 3, "gave up": 4}


@app.command()
def solve(
    seed: int | None = typer.Option(None, "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number."),
    deck=DECK_OPTION,
    budget: int | None = typer.Option(
        None, "--budget", metavar="NODES", min=1, help="Most positions to visit (default: no limit)."
    ),
    timeout: float = typer.Option(10.0, "--timeout", metavar="SECONDS", min=0.01, help="Most seconds to search."),
    record: str | None = typer.Option(None, "--record", metavar="FILE", help="Write the winning line to this file."),
    output: Format = typer.Option(Format.text, "--format", "-f", help="text, or json."),
) -> None:
    """Search a deal knowing the whole stock: the best score it can find.

    Not a player: it sees every card in advance, so its result is an upper bound
    for any real player. Exit codes: 0 winnable (with the best score found, and
    whether it is proven best), 3 unwinnable (an exhaustive search found no win),
    4 gave up (budget or time ran out with nothing found), 2 usage error.
    """
    from .cards import deal as deal_cards
    from .players import solve as search
    from .records import format_record, write_atomically

    if (seed is None) == (deck is None):
        fail("foursquare solve: give --seed N or --deck CARDS (one of them)", EXIT_USAGE)
    cards = deck if deck is not None else deal_cards(seed)  # type: ignore[arg-type]
    solution = search(cards, budget=budget, timeout=timeout)
    record_text = None
    if solution.moves:
        from .engine import State

        final = State(cards)
        for move in solution.moves:
            final.apply(move)
        record_text = format_record(solution.moves, final, seed=seed, meta={"player": "solve"})
        if record is not None:
            try:
                write_atomically(record, record_text)
            except OSError as error:
                fail(f"{record}: cannot write: {error.strerror or error}", EXIT_USAGE)
    if output is Format.json:
        _print_json(
            {
                "seed": seed,
                "status": solution.status,
                "score": solution.score,
                "proven": solution.proven,
                "moves": [str(m) for m in solution.moves],
                "nodes": solution.nodes,
                "seconds": round(solution.seconds, 3),
            }
        )
    else:
        deal_name = f"Deal {seed}" if seed is not None else "The deck"
        if solution.status == "winnable":
            verdict = f"winnable, best score found {solution.score}" + (
                " (proven best)" if solution.proven else " (not proven best: the search stopped before the end)"
            )
        elif solution.status == "unwinnable":
            verdict = "unwinnable (an exhaustive search found no win)"
        else:
            verdict = "gave up (the budget ran out before a win was found)"
        print(f"{deal_name}: {verdict}")
        print("This search knows the whole stock: an upper bound for any real player, not a player.")
        print(f"Searched {solution.nodes:,} positions in {solution.seconds:.1f} s.")
        if record_text is not None:
            print("The winning line, as a game record:")
            print(record_text, end="")
    raise typer.Exit(SOLVE_EXIT[solution.status])


@app.command()
def stats(
    games: int = typer.Option(..., "--games", "-n", metavar="N", min=1, help="How many deals to play."),
    start: int = typer.Option(0, "--start", metavar="S", min=0, help="The first deal number."),
    player: str = typer.Option("expert", "--player", "-p", metavar="NAME", help="random, greedy or expert."),
    jobs: int = typer.Option(
        1, "--jobs", "-j", metavar="J", min=1, help="Processes to play in; the figures are the same."
    ),
    player_seed: int = typer.Option(0, "--player-seed", metavar="N", help="Seed of the player's own choices."),
    output: Format = typer.Option(Format.text, "--format", "-f", help="text, or json."),
) -> None:
    """Play many deals with a built-in player and sum them up.

    Plays deals START to START+GAMES-1. Prints the win rate with its 95% Wilson interval, the mean score of the won
    games, the mean time per move and the games per second. A progress bar is
    drawn on standard error when it is a terminal.
    """
    from .players import PLAYERS
    from .stats import summarize

    if player not in PLAYERS:
        fail(f"foursquare stats: --player: {player!r}: no such player; players are {', '.join(PLAYERS)}", EXIT_USAGE)
    progress = _progress_bar if sys.stderr.isatty() else None
    summary = summarize(player, start, games, jobs=jobs, player_seed=player_seed, progress=progress)
    if progress is not None:
        sys.stderr.write("\n")
    if output is Format.json:
        _print_json(summary.as_dict())
        return
    score = f"{summary.mean_score:.2f}" if summary.mean_score is not None else "-"
    print(f"player {summary.player}, deals {start} to {start + games - 1}")
    print(
        f"won {summary.wins} of {summary.games}: {summary.win_rate:.1%} "
        f"(95% interval {summary.win_low:.1%} to {summary.win_high:.1%})"
    )
    print(f"mean score of wins: {score}")
    print(
        f"time per move: mean {summary.seconds_per_move * 1000:.2f} ms, "
        f"median {summary.median_seconds_per_move * 1000:.2f} ms; {summary.games_per_second:.2f} games/s"
    )


def _progress_bar(done: int, total: int) -> None:
    width = 40
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()


@app.command()
def auto(
    seed: int | None = typer.Option(
        None, "--seed", "-s", parser=_seed_parser, metavar="N", help="Deal number; random if not given."
    ),
    player: str = typer.Option("expert", "--player", "-p", metavar="NAME", help="random, greedy or expert."),
    player_seed: int = typer.Option(0, "--player-seed", metavar="N", help="Seed of the player's own choices (random)."),
    record: str | None = typer.Option(None, "--record", metavar="FILE", help="Write the game record to this file."),
    output: Format = typer.Option(Format.text, "--format", "-f", help="text for people, json for JSON Lines."),
    reveal: bool = REVEAL_OPTION,
    unicode: bool = UNICODE_OPTION,
) -> None:
    """A built-in player plays a whole game, printed as replay prints it."""
    from .engine import State
    from .players import make_player
    from .records import format_record, write_atomically

    try:
        chosen = make_player(player, player_seed)
    except ValueError as error:
        fail(f"foursquare auto: --player: {error}", EXIT_USAGE)
    if seed is None:
        seed = _random_seed()
    state = State.from_seed(seed)
    show = _state_printer(output, reveal, unicode)
    show(0, None, None, None, state)
    moves = []
    while not state.is_over:
        move = chosen.choose(state)
        card = state.next_card if move < 32 else None
        state.apply(move)
        moves.append(move)
        show(len(moves), None, move, card, state)
    if record is not None:
        try:
            write_atomically(record, format_record(moves, state, seed=seed, meta={"player": chosen.name}))
        except OSError as error:
            fail(f"{record}: cannot write: {error.strerror or error}", EXIT_USAGE)


def _random_seed() -> int:
    import secrets

    return secrets.randbelow(2**32)


def main() -> None:
    app()
