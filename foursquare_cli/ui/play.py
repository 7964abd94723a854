"""`play`: the game at a terminal prompt, or driven line by line from a pipe.

Ctrl-C never cuts a move in half: SIGINT is acted on at once only while the tool
waits for input; during a move it is held until the move is played and saved. A
failure to write the output (a full disk, a closed pipe) saves the game first and
then says where it is.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import IO

from ..app.session import PlayOptions, RecordRefused, Session, open_play
from ..errors import (
    AlreadySaid,
    BrokenPipeSaid,
    InterruptedSaid,
    ProblemsSaid,
    UsageError,
    WriteError,
    WriteFailedSaid,
)
from ..formats.lines import LineTooLong, NotUtf8, iter_lines, move_text, shorten
from ..players.expert import Rating, Strength
from ..rules.game import Game, NothingToUndo, Step
from ..rules.moves import IllegalMoveError, InvalidMoveError, Move
from .board import PLAIN, Style, state_block
from .interrupts import Interrupts, saved
from .output import broken_pipe, can_show, terminal_width
from .prompt import pipe_answer, program_name
from .reports import deal_potential, hint_text
from .session_text import cheer_lines, how_to_resume, opening_lines, say_problems
from .terminal import fitted, run_terminal


def _saved_after_output_failed(session: Session, err: IO[str], error: OSError) -> AlreadySaid:
    """Standard output failed: the game is saved; say where, on standard error. The error to end with."""
    session.save_quietly()
    broken = broken_pipe(error)
    with contextlib.suppress(OSError, ValueError):
        if broken:
            if session.record is not None:
                err.write(how_to_resume(session) + "\n")
        else:
            err.write(f"foursquare play: cannot write the output: {error.strerror or error}\n")
            if session.record is not None:
                err.write(how_to_resume(session) + "\n")
        err.flush()
    return BrokenPipeSaid() if broken else WriteFailedSaid()


def run_pipe(
    session: Session,
    lines: IO[bytes],
    out: IO[str],
    err: IO[str],
    *,
    json_output: bool,
    style: Style = PLAIN,
    source_name: str = "<stdin>",
) -> None:
    """Read moves one per line (blank lines and `#` comments allowed; `undo` and `quit` too).

    Prints the state before the first move and after every move or undo (JSON
    Lines, or boards as `replay` prints them), flushing each. The first invalid or
    illegal line ends the run with exit code 1 and one line on `err`. The game
    ending ends the run without reading further, so a co-process never waits on
    the other. Lines are read as `replay` reads a move log (`records.iter_lines`).
    """
    game = session.game
    first = True

    def show(step: Step) -> None:
        nonlocal first
        out.write(state_block(step, json_output=json_output, style=style, first=first))
        out.flush()
        first = False

    def refuse(message: str) -> ProblemsSaid:
        err.write(message + "\n")
        return ProblemsSaid()

    interrupts = Interrupts()
    with interrupts.installed():
        try:
            show(game.step)
            reader = iter_lines(lines)
            while not game.state.is_over:
                try:
                    with interrupts.waiting_for_input():
                        number, line = next(reader)
                except StopIteration:
                    err.write("End of input before the end of the game. " + how_to_resume(session) + "\n")
                    return
                except LineTooLong as error:
                    raise refuse(f"{source_name}:{error.number}: {error}") from None
                except NotUtf8 as error:
                    raise refuse(f"{source_name}:{error.number}: not UTF-8 text") from None
                text = move_text(line)
                command = text.lower()
                if not text:
                    continue
                if command == "quit":
                    err.write(how_to_resume(session) + "\n")
                    return
                ply = game.ply + 1
                try:
                    step = session.undo() if command == "undo" else session.play(Move.from_str(text))
                except IllegalMoveError as error:
                    # One line, as scripts expect; a record being kept is already saved.
                    raise refuse(f"{source_name}:{number}: move {ply} {shorten(text)}: {error.reason}") from None
                except InvalidMoveError as error:
                    raise refuse(
                        f"{source_name}:{number}: move {ply} {shorten(text)}: {pipe_answer(text, error)}"
                    ) from None
                except NothingToUndo as error:
                    raise refuse(f"{source_name}:{number}: {error}") from None
                except RecordRefused as error:
                    raise refuse(f"{source_name}:{number}: {error}") from None
                show(step)
        except KeyboardInterrupt:
            err.write("\nInterrupted. " + saved(session) + "\n")
            raise InterruptedSaid() from None
        except WriteError as error:
            err.write(f"{error}; the record holds the game up to the move before. {how_to_resume(session)}\n")
            raise WriteFailedSaid() from None
        except OSError as error:
            raise _saved_after_output_failed(session, err, error) from None


def prompt_hint(strength: Strength, style: Style = PLAIN) -> Callable[[Game], str]:
    """`hint` at the prompt: the expert's best moves for the position (`app.actions.expert_hint`, as the
    `hint` command), at `strength`, drawn in `style`."""

    def hint(game: Game) -> str:
        from ..app.actions import expert_hint

        ratings, risks = expert_hint(game.state, 0, strength, most=5)
        return hint_text(ratings, game.state, style=style, detail=True, risks=risks)

    return hint


def deal_epilogue(session: Session) -> str:
    """What a won game earned among your games (`app.history.cheers`), then what the deal allowed, from the
    solver: 100,000 positions (a second or less), two seconds at most."""
    from ..app.history import cheers
    from ..players.solver import solve

    earned = cheer_lines(cheers(session))
    solution = solve(session.game.deck, budget=100_000, timeout=2.0)
    return "\n".join([*earned, deal_potential(solution, session.game.state.outcome.score)])


def run_play(
    options: PlayOptions,
    *,
    json_output: bool,
    shown: Style,
    strength: Strength,
    count: bool = False,
    meter: bool = False,
) -> None:
    """`play`: open the session its options ask for, say what is to be said first, then play at the prompt
    (standard input a terminal, text output) or from the pipe. An AlreadySaid error when it ends otherwise
    than well (a move refused from the pipe, Ctrl-C, a failed write): its exit code is all that is left."""
    stdin = sys.stdin
    if stdin is None or stdin.closed:
        raise UsageError("standard input is closed; pipe moves in, or play at a terminal")
    at_prompt = stdin.isatty() and not json_output
    keep = not (json_output or options.no_record)
    session, opening, reopen_values = open_play(options, keep=keep, at_prompt=at_prompt)
    say_problems(session)
    for line in opening_lines(opening):
        if at_prompt:
            print(fitted(line, terminal_width(), program_name()))  # as all the prompt says
        else:
            print(line, file=sys.stderr)

    def reopen(seed: int | None, game: Game | None) -> tuple[Session, list[str]]:
        """`restart` and `new` at the prompt: the sessions `app.session.open_play` opens, their words said."""
        reopened, said = reopen_values(seed, game)
        return say_problems(reopened), opening_lines(said)

    with session:
        if at_prompt:
            run_terminal(
                session,
                sys.stdout,
                style=shown,
                hint=prompt_hint(strength, shown),
                epilogue=deal_epilogue,
                reopen=reopen,
                count=count,
                meter=prompt_meter(strength) if meter else None,
            )
        else:
            run_pipe(
                session,
                stdin.buffer,
                sys.stdout,
                sys.stderr,
                json_output=json_output,
                style=shown._replace(color=False),
            )


def prompt_meter(strength: Strength) -> Callable[[Game], Rating]:
    """`play --meter`: the expert's figures for the position, the very ones `hint` gives its move there (the
    same budget and seed: the same futures), so the meter and the hint never disagree."""

    def meter(game: Game) -> Rating:
        from ..app.actions import expert_hint

        return expert_hint(game.state, 0, strength, most=0).ratings[0]

    return meter


def shared_result(game: Game, day: str, *, unicode: bool = True) -> str:
    """`history --share DATE`: the spoiler-free block of that day's daily game (`app.history.daily_game`)."""
    from .reports import SHARE_BLOCKS, share_block

    blocks = unicode and can_show(SHARE_BLOCKS)
    return share_block(day, game.state, game.ply, game.undos, game.hints, unicode=blocks)
