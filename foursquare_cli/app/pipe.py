"""`play` driven line by line from a pipe: a bot, a script, a file of moves.

Moves one per line (blank lines and `#` comments allowed; `undo` and `quit` too),
read as `replay` reads a move log (`formats.lines.iter_lines`); a shift and the placement
it is made for may share a line, as the hint writes them (`shift left, then D3`). The
state is shown before the first move and after every move or undo, each as it comes (a
co-process reads it at once); the first invalid or illegal line ends the game with exit 1
and one line, then where the game is kept, as every end of the input says (the input
running out, `quit`). The game ending ends the loop without reading further, so a co-process
never waits on the other. Ctrl-C never cuts a move in half (`interrupts`). A
failure to write the output (a full disk, a closed pipe) saves the game first and
then says where it is.
"""

from __future__ import annotations

import errno
from typing import IO, Protocol

from ..errors import ExitStatus, Terminated, WriteError
from ..formats.lines import UnreadableLine, iter_lines, move_text
from ..rules.game import NothingToUndo
from ..rules.moves import IllegalMoveError, InvalidMoveError, moves_of_line
from .events import Left, OutputFailed, PipeRefused, Saved, Stop, Stopped
from .interrupts import Interrupts
from .session import RecordRefused, Session


class PipeView(Protocol):
    """What the pipe loop needs: the moves' stream and its name, and each value shown (a step on standard
    output, as a board or a JSON line; what is refused or said on standard error)."""

    @property
    def source_name(self) -> str: ...

    def lines(self) -> IO[bytes]: ...

    def show(self, value: object) -> None: ...


def play_from_pipe(session: Session, view: PipeView) -> ExitStatus:
    """The loop described in the module's docstring; how it ended, each way said where it happened."""
    game = session.game

    def refuse(refused: PipeRefused) -> ExitStatus:
        view.show(refused)
        view.show(Left(session.where_kept()))  # where the game is kept, as every other end of a pipe says
        return ExitStatus.INVALID

    interrupts = Interrupts()
    name = view.source_name
    with interrupts.installed():
        try:
            view.show(game.step)
            reader = iter_lines(view.lines())
            while not game.state.is_over:
                try:
                    with interrupts.waiting_for_input():
                        number, line = next(reader)
                except StopIteration:
                    view.show(Stopped(Stop.END_OF_INPUT, session.saved()))
                    return ExitStatus.SUCCESS
                except UnreadableLine as error:
                    return refuse(PipeRefused(name, error.number, None, "", error.message))
                text = move_text(line)
                command = text.lower()
                if not text:
                    continue
                if command == "quit":
                    view.show(Left(session.where_kept()))
                    return ExitStatus.SUCCESS
                ply = game.ply + 1
                try:
                    steps = [session.undo()] if command == "undo" else session.play_line(moves_of_line(text))
                except IllegalMoveError as error:  # one line, as scripts expect; a kept record is already saved
                    return refuse(PipeRefused(name, number, ply, text, error.reason))
                except InvalidMoveError as error:
                    legal = tuple(game.state.legal_moves())
                    return refuse(PipeRefused(name, number, ply, text, error.reason, not_a_move=True, legal=legal))
                except NothingToUndo as error:  # said as every refused line is: its number and text
                    return refuse(PipeRefused(name, number, ply, text, str(error)))
                except RecordRefused as error:  # its reason names the move already
                    return refuse(PipeRefused(name, number, None, text, str(error)))
                for step in steps:
                    view.show(step)
            return ExitStatus.SUCCESS
        except KeyboardInterrupt:
            view.show(Stopped(Stop.INTERRUPTED, session.saved()))
            return ExitStatus.INTERRUPTED
        except Terminated:
            view.show(Stopped(Stop.TERMINATED, session.saved()))
            return ExitStatus.TERMINATED
        except WriteError as error:
            view.show(Stopped(Stop.WRITE_FAILED, Saved(None, session.where_kept()), str(error)))
            return ExitStatus.IO
        except OSError as error:
            session.save_quietly()
            broken = _broken_pipe(error)
            view.show(OutputFailed(broken, str(error.strerror or error), session.where_kept()))
            return ExitStatus.BROKEN_PIPE if broken else ExitStatus.IO


def _broken_pipe(error: OSError) -> bool:

    return isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE
