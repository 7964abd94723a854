"""The game at a terminal prompt, as a loop over what is typed: a board each turn, the reason for every refused
input, and what a player reaches for (the cards to come, a move tried before it is played, a way back from a
slip, a hint, the meter).

The loop turns each key into a call on the game's one owner, its `Session` (a move, an
undo, the hint, the meter, the end screen), and shows what comes back; its view
(`TableView`, `ui.terminal`'s) reads the keys and turns every value shown (`events`)
into text. Ctrl-C at the prompt clears the line, as in bash; `quit` or Ctrl-D leaves,
the game saved. During a move, Ctrl-C is held until the move is played and saved
(`interrupts`); during a hint or the meter it stops them at once. When a game ends the
end screen takes `undo` (the last move back, even the one that lost), `restart`, `new`
or `quit`.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Protocol

from ..errors import ExitStatus, Terminated, WriteError, quoted
from ..rules.game import Game, NothingToUndo, Step
from ..rules.moves import IllegalMoveError, InvalidMoveError, Move, moves_of_line
from .events import (
    Asked,
    Board,
    CtrlC,
    EndOfInput,
    Left,
    Metered,
    MeterReading,
    Moved,
    Prompt,
    Refusal,
    Refused,
    Reopened,
    Saved,
    Shown,
    Stop,
    Stopped,
    Welcome,
    Working,
)
from .hint import Hinted
from .interrupts import Interrupts
from .opening import Reopen
from .session import RecordRefused, Session

PAUSE = 300.0  # seconds: a longer wait at the prompt is a pause, not time played
WORKING_AFTER = 2.0  # seconds a hint or the meter works before it says so (the default budget takes under 1)
COMMANDS = ("moves", "left", "try", "board", "hint", "undo", "restart", "new", "help", "quit")
END_COMMANDS = ("undo", "restart", "new", "board", "help", "quit")  # what the end screen takes


class TableView(Protocol):
    """What the prompt loop needs of a terminal: a line typed at a prompt (KeyboardInterrupt on Ctrl-C,
    EOFError on Ctrl-D, UnicodeDecodeError for bytes that are not UTF-8), and each value shown as text."""

    def read(self, prompt: Prompt, legal: Callable[[], list[Move]]) -> str: ...

    def show(self, value: object) -> None: ...


class Table:
    """One prompt session: the game being played (which `restart` and `new` replace) and its view."""

    def __init__(
        self,
        session: Session,
        view: TableView,
        *,
        reopen: Reopen | None = None,
        cards_to_come: bool = False,
        meter: bool = False,
        looking_back: bool = False,
    ) -> None:
        self.session = session
        self.opened = session  # the caller's, which the caller closes
        self.view = view
        self.reopen = reopen
        self.cards_to_come = cards_to_come
        self.meter = meter
        self.looking_back = looking_back  # the end screen says what the game earned and what the deal allowed
        self.interrupts = Interrupts()
        self._interrupts_in_a_row = 0  # Ctrl-C at the prompt: the second in a row says how to leave
        self._meter_read = False  # a reading shown already: only the first says what the meter reads
        self.ended = False  # the end screen of the current game has been shown

    @property
    def game(self) -> Game:
        return self.session.game

    def read(self) -> str | None:
        """A line typed at the prompt; None at the end of input (Ctrl-D). Ctrl-C clears the line."""
        started = time.monotonic()
        playing = not self.game.state.is_over  # the clock stops with the game: the end screen is not play
        if self.meter and playing:
            self.session.look_ahead()  # the meter's next reading, worked out while the player thinks
        try:
            with self.interrupts.waiting_for_input():
                asked = Prompt(self.game.state, self.game.ply, counted=self.session.counts_as_ended)
                text = self.view.read(asked, self.game.state.legal_moves).strip()
            thought = time.monotonic() - started
            if playing and thought <= PAUSE:  # a longer pause is not time played
                self.session.add_time(thought)
            self._interrupts_in_a_row = 0
            return text
        except KeyboardInterrupt:
            self._interrupts_in_a_row += 1
            self.view.show(CtrlC(again=self._interrupts_in_a_row >= 2))
            return ""
        except EOFError:
            self.view.show(EndOfInput())
            return None
        except UnicodeDecodeError:
            self.view.show(Refused(Refusal.NOT_UTF8))
            return ""
        finally:
            self.session.stop_looking()

    def run(self) -> ExitStatus:
        """The loop (see the module's docstring); how it ended (Ctrl-C, a failed write), each way said already."""
        with self.interrupts.installed():
            try:
                self.view.show(Welcome(self.game.step, self.cards_to_come))
                while True:
                    if self.game.state.is_over and not self.ended:
                        self.end_screen()
                    text = self.read()
                    if text is None or text.lower() == "quit":
                        where = self.session.leave()
                        if not (self.game.state.is_over and self.ended):  # an end screen said how to look back
                            self.view.show(Left(where))
                        return ExitStatus.SUCCESS
                    if text:
                        self.answer(text)
            except KeyboardInterrupt:
                self.view.show(Stopped(Stop.INTERRUPTED, self.session.saved()))
                return ExitStatus.INTERRUPTED
            except Terminated:
                self.view.show(Stopped(Stop.TERMINATED, self.session.saved()))
                return ExitStatus.TERMINATED
            except WriteError as error:
                self.view.show(Stopped(Stop.WRITE_FAILED, Saved(None, self.session.where_kept()), str(error)))
                return ExitStatus.IO
            finally:
                self.session.stop_looking(abandon=True)  # the process is not kept waiting as it ends
                if self.session is not self.opened:
                    self.session.__exit__(None, None, None)

    def end_screen(self) -> None:
        self.view.show(self.session.game_over(self.looking_back))
        self.ended = True

    def answer(self, text: str) -> None:
        command, _, rest = text.lower().partition(" ")
        if command in COMMANDS and command != "try" and rest.strip() not in ("", "detail" if command == "hint" else ""):
            # words a command takes none of (`hint B1`, `quit now`): no command, guessed at, nothing counted
            self.view.show(Refused(Refusal.NOT_A_MOVE, text, "", self.game.state))
        elif self.game.state.is_over and command not in END_COMMANDS:
            self.view.show(Refused(Refusal.GAME_OVER))
        elif command == "help":
            self.view.show(Shown(Asked.HELP, self.game.state))
        elif command == "board":
            self.view.show(Board(self.game.step, self.cards_to_come))
        elif command == "moves":
            self.legal_moves()
        elif command == "left":
            self.view.show(Shown(Asked.CARDS_TO_COME, self.game.state))
        elif command == "try":
            self.try_move(text.partition(" ")[2])
        elif command == "hint":
            self.hint(detail=rest.strip() == "detail")
        elif command == "undo":
            self.undo()
        elif command in ("restart", "new"):
            self.start_again(command)
        else:
            self.play(text)

    def legal_moves(self) -> None:
        """`moves`; with the meter on, each with its expected score: the hint's figures for every move, so it is
        a hint, counted as one (and stopped by Ctrl-C as one)."""
        evaluation = None
        if self.meter and not self.game.state.is_over:
            try:
                with self.working(hint=True):
                    evaluation = self.session.hint().evaluation
            except KeyboardInterrupt:
                self.view.show(Refused(Refusal.HINT_STOPPED))
                return
        self.view.show(Shown(Asked.LEGAL_MOVES, self.game.state, evaluation))

    def hint(self, *, detail: bool) -> None:
        try:
            with self.working(hint=True):
                said = self.session.hint()
        except KeyboardInterrupt:
            self.view.show(Refused(Refusal.HINT_STOPPED))
            return
        self.view.show(Hinted(said, detail))

    @contextlib.contextmanager
    def working(self, *, hint: bool) -> Iterator[None]:
        """Ctrl-C stops the work at once; work still going after WORKING_AFTER says so, once (`Working`). The lock
        keeps that line from crossing what the work shows when it ends just as the timer fires."""
        lock = threading.Lock()
        ended = False

        def say() -> None:
            with lock:
                if not ended:
                    self.view.show(Working(hint))

        timer = threading.Timer(WORKING_AFTER, say)
        timer.daemon = True  # never keeps a process that is ending waiting
        timer.start()
        try:
            with self.interrupts.waiting_for_input():
                yield
        finally:
            with lock:
                ended = True
            timer.cancel()

    def try_move(self, text: str) -> None:
        if not text.strip():
            self.view.show(Refused(Refusal.TRY_WHAT))
            return
        try:
            tried = self.session.tried(moves_of_line(text))
        except InvalidMoveError as error:  # the text clipped, as every refusal quotes it (150 x's ran past 60 columns)
            self.view.show(Refused(Refusal.TRY_REFUSED, f"{quoted(text.strip())}: {error.reason}"))
            return
        except IllegalMoveError as error:
            self.view.show(Refused(Refusal.TRY_REFUSED, str(error)))
            return
        self.view.show(tried)

    def undo(self) -> None:
        try:
            step = self.session.undo()
        except NothingToUndo as error:
            self.view.show(Refused(Refusal.NOTHING_TO_UNDO, str(error)))
            return
        self.ended = False
        self.moved(step, undos=self.game.undos)

    def start_again(self, command: str) -> None:
        if self.reopen is None:
            self.view.show(Refused(Refusal.CANNOT_REOPEN, command))
            return
        game = self.game
        answer = self.leave_answer(command) if game.ply > 0 and not game.state.is_over else "y"
        if answer is None or answer.strip().lower() not in ("y", "yes"):
            self.view.show(Refused(Refusal.STAYED, command, "cut short" if answer is None else ""))
            return
        if self.session.record is not None and not (game.state.is_over and self.ended):
            self.view.show(Left(self.session.where_kept(), for_another=True))  # kept nowhere (--no-record): no word
        if self.session is not self.opened:
            self.session.__exit__(None, None, None)
        else:
            self.session.index()
        self.session, said = self.reopen(game.seed, game if command == "restart" else None)
        self.ended = False
        self.view.show(Reopened(command == "restart", said, self.game.step, self.cards_to_come))

    def leave_answer(self, command: str) -> str | None:
        """The player's answer to whether to leave the unfinished game for `command`'s, None when Ctrl-C or
        the end of input cut the question short (the cursor still on its line): only a typed y (yes) leaves;
        anything else keeps the game going (a typo never throws a game away)."""
        try:
            with self.interrupts.waiting_for_input():
                return self.view.read(Prompt(self.game.state, self.game.ply, command), list)
        except (KeyboardInterrupt, EOFError):
            return None
        except UnicodeDecodeError:
            return ""

    def play(self, text: str) -> None:
        try:
            steps = self.session.play_line(moves_of_line(text))
        except IllegalMoveError as error:
            self.view.show(Refused(Refusal.ILLEGAL, str(error)))
            return
        except InvalidMoveError as error:
            self.view.show(Refused(Refusal.NOT_A_MOVE, text, error.reason, self.game.state))
            return
        except RecordRefused as error:
            self.view.show(Refused(Refusal.RECORD_REFUSED, str(error)))
            return
        for step in steps:
            if step is steps[-1]:
                self.moved(step)
            else:
                self.view.show(Moved(step, self.cards_to_come))

    def moved(self, step: Step, undos: int | None = None) -> None:
        """What a move shows, and an undo again: the board with its marks and the count, then the meter's line
        when asked (the last move's too), worked out once the board is up."""
        self.view.show(Moved(step, self.cards_to_come, undos))
        if self.meter:
            reading = self.meter_reading()
            if reading is not None or not step.state.is_over:
                self.view.show(Metered(reading, first=reading is not None and not self._meter_read))
                self._meter_read = self._meter_read or reading is not None

    def meter_reading(self) -> MeterReading | None:
        """The session's meter reading when the meter is asked for; None when not, or when Ctrl-C skips it."""
        if not self.meter:
            return None
        try:
            with self.working(hint=False):
                return self.session.meter_reading()
        except KeyboardInterrupt:
            return None
