"""`play`: the game at a terminal prompt, or driven line by line from a pipe.

Ctrl-C never cuts a move in half: SIGINT is acted on at once only while the tool
waits for input; during a move it is held until the move is played and saved. A
failure to write the output (a full disk, a closed pipe) saves the game first and
then says where it is.
"""

from __future__ import annotations

import contextlib
import errno
import signal
import sys
from collections.abc import Callable, Iterator
from typing import IO

from ..errors import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_INVALID, EXIT_IO, EXIT_OK, UsageError, WriteError
from ..formats.lines import LineTooLong, NotUtf8, iter_lines, move_text, shorten
from ..players.expert import Strength
from ..rules.game import Game, NothingToUndo, Step
from ..rules.moves import IllegalMoveError, InvalidMoveError, Move
from .board import PLAIN, Style, moves_preview, render, render_step, state_block
from .prompt import COMMANDS, HELP, is_move_attempt, pipe_answer, readline_setup, suggestion
from .reports import deal_potential, hint_text, outcome_line
from .session import PlayOptions, RecordRefused, Session, open_session


class _Interrupts:
    """Hold SIGINT while a move is being played and saved; let it through while waiting for input."""

    def __init__(self) -> None:
        self.waiting = False
        self.pending = False

    def _handle(self, signum: int, frame: object) -> None:
        if self.waiting:
            raise KeyboardInterrupt
        self.pending = True

    @contextlib.contextmanager
    def installed(self) -> Iterator[_Interrupts]:
        try:
            previous = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread: leave signals alone
            yield self
            return
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)

    @contextlib.contextmanager
    def waiting_for_input(self) -> Iterator[None]:
        if self.pending:
            raise KeyboardInterrupt
        self.waiting = True
        try:
            yield
        finally:
            self.waiting = False


def _saved(session: Session) -> str:
    """Save as the session ends, and say where it is (and, if the last save failed, that it did)."""
    problem = session.save_quietly()
    failed = f"{problem}; the record holds the game up to the move before. " if problem else ""
    return failed + session.how_to_resume()


def _output_failed(session: Session, err: IO[str], error: OSError) -> int:
    """Standard output failed: the game is saved; say where, on standard error."""
    session.save_quietly()
    broken = isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE
    with contextlib.suppress(OSError, ValueError):
        if broken:
            if session.record is not None:
                err.write(session.how_to_resume() + "\n")
        else:
            err.write(f"foursquare play: cannot write the output: {error.strerror or error}\n")
            if session.record is not None:
                err.write(session.how_to_resume() + "\n")
        err.flush()
    return EXIT_BROKEN_PIPE if broken else EXIT_IO


def run_pipe(
    session: Session,
    lines: IO[bytes],
    out: IO[str],
    err: IO[str],
    *,
    json_output: bool,
    style: Style = PLAIN,
    source_name: str = "<stdin>",
) -> int:
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

    def refuse(message: str) -> int:
        err.write(message + "\n")
        return EXIT_INVALID

    interrupts = _Interrupts()
    with interrupts.installed():
        try:
            show(game.step)
            reader = iter_lines(lines)
            while not game.state.is_over:
                try:
                    with interrupts.waiting_for_input():
                        number, line = next(reader)
                except StopIteration:
                    err.write("End of input before the end of the game. " + session.how_to_resume() + "\n")
                    return EXIT_OK
                except LineTooLong as error:
                    return refuse(f"{source_name}:{error.number}: {error}")
                except NotUtf8 as error:
                    return refuse(f"{source_name}:{error.number}: not UTF-8 text")
                text = move_text(line)
                command = text.lower()
                if not text:
                    continue
                if command == "quit":
                    err.write(session.how_to_resume() + "\n")
                    return EXIT_OK
                ply = game.ply + 1
                try:
                    step = session.undo() if command == "undo" else session.play(Move.from_str(text))
                except IllegalMoveError as error:
                    # One line, as scripts expect; a record being kept is already saved.
                    return refuse(f"{source_name}:{number}: move {ply} {shorten(text)}: {error.reason}")
                except InvalidMoveError as error:
                    return refuse(f"{source_name}:{number}: move {ply} {shorten(text)}: {pipe_answer(text, error)}")
                except NothingToUndo as error:
                    return refuse(f"{source_name}:{number}: {error}")
                except RecordRefused as error:
                    return refuse(f"{source_name}:{number}: {error}")
                show(step)
            return EXIT_OK
        except KeyboardInterrupt:
            err.write("\nInterrupted. " + _saved(session) + "\n")
            return EXIT_INTERRUPTED
        except WriteError as error:
            err.write(f"{error}; the record holds the game up to the move before. {session.how_to_resume()}\n")
            return EXIT_IO
        except OSError as error:
            return _output_failed(session, err, error)


def run_terminal(
    session: Session,
    out: IO[str],
    *,
    style: Style = PLAIN,
    read_line: Callable[[str], str] = input,
    hint: Callable[[Game], str] | None = None,
    epilogue: Callable[[Session], str] | None = None,
) -> int:
    """The game at a prompt: a board each turn, the reason for every refused input.

    `hint(game)` answers `hint`; `epilogue(session)` adds lines when the game ends
    (what the deal allowed, how to replay it).
    """
    game = session.game
    interrupts = _Interrupts()
    if read_line is input:
        readline_setup(lambda: game.state.legal_moves())
    with interrupts.installed():
        try:
            out.write(f"Type a move (B3, B3 top, shift up) or one of: {', '.join(COMMANDS)}.\n\n")
            out.write(render(game.state, style, with_legend=True) + "\n")
            while not game.state.is_over:
                card = game.state.next_card
                assert card is not None
                prompt = f"Move {game.ply + 1}, place {card.symbol() if style.unicode else card}> "
                try:
                    with interrupts.waiting_for_input():
                        out.flush()
                        text = read_line(prompt).strip()
                except EOFError:
                    out.write("\n" + session.how_to_resume() + "\n")
                    return EXIT_OK
                except UnicodeDecodeError:
                    out.write("That was not UTF-8 text; type a move like B3 (or help).\n")
                    continue
                command = text.lower()
                if not command:
                    continue
                if command == "quit":
                    out.write(session.how_to_resume() + "\n")
                    return EXIT_OK
                if command == "help":
                    out.write(HELP + "\n")
                    continue
                if command == "board":
                    out.write(render(game.state, style, with_legend=True) + "\n")
                    continue
                if command == "moves":
                    out.write(moves_preview(game.state) + "\n")
                    continue
                if command == "hint":
                    try:
                        with interrupts.waiting_for_input():  # Ctrl-C stops a slow hint at once
                            said = hint(game) if hint is not None else "No hint here."
                    except KeyboardInterrupt:
                        said = "\nHint stopped; the game goes on."
                    out.write(said + "\n")
                    continue
                if command == "undo":
                    try:
                        step = session.undo()
                    except NothingToUndo as error:
                        out.write(f"{error}\n")
                        continue
                    out.write(f"\nUndone (undos so far: {game.undos}).\n" + render_step(step, style) + "\n")
                    continue
                try:
                    step = session.play(Move.from_str(text))
                except IllegalMoveError as error:
                    out.write(f"{error} (type help for the rules)\n")
                    continue
                except InvalidMoveError as error:
                    if is_move_attempt(text):
                        out.write(f"{shorten(text)}: {error.reason}\n")
                    else:
                        out.write(f"unknown command {shorten(text)}; {suggestion(text)}\n")
                    continue
                except RecordRefused as error:
                    out.write(f"{error}\n")
                    continue
                out.write("\n" + render_step(step, style) + "\n")
            out.write(outcome_line(game.state, game.ply, game.undos) + "\n")
            if epilogue is not None:
                out.write(epilogue(session) + "\n")
            out.write(session.how_to_review() + "\n")
            return EXIT_OK
        except KeyboardInterrupt:
            out.write("\nInterrupted. " + _saved(session) + "\n")
            out.flush()
            return EXIT_INTERRUPTED
        except WriteError as error:
            print(f"{error}; the record holds the game up to the move before.", file=sys.stderr)
            return EXIT_IO


def expert_hint(strength: Strength) -> Callable[[Game], str]:
    """`hint` at the prompt: the expert's move and ratings for the position, at `strength`."""

    def hint(game: Game) -> str:
        from ..players import ExpertPlayer

        return hint_text(ExpertPlayer(0, strength.playouts, strength.think).rate(game.state), game.state)

    return hint


def deal_epilogue(session: Session) -> str:
    """What the deal allowed, from the solver: 100,000 positions (a second or less), two seconds at most."""
    from ..players.solver import solve

    return deal_potential(solve(session.game.deck, budget=100_000, timeout=2.0))


def play(options: PlayOptions, *, json_output: bool, shown: Style, strength: Strength) -> int:
    """`play`: open the session its options ask for, say what is to be said first, then play at the prompt
    (standard input a terminal, text output) or from the pipe; the exit code."""
    from ..store.history import History

    stdin = sys.stdin
    if stdin is None or stdin.closed:
        raise UsageError("standard input is closed; pipe moves in, or play at a terminal")
    at_prompt = stdin.isatty() and not json_output
    history = None if json_output or options.no_record else History()
    session, opening = open_session(**options._asdict(), history=history, mention_waiting=at_prompt)
    for line in opening:
        print(line, file=sys.stdout if at_prompt else sys.stderr)
    with session:
        if at_prompt:
            return run_terminal(session, sys.stdout, style=shown, hint=expert_hint(strength), epilogue=deal_epilogue)
        return run_pipe(
            session, stdin.buffer, sys.stdout, sys.stderr, json_output=json_output, style=shown._replace(color=False)
        )
