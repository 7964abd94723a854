"""The game at a terminal prompt: a board each turn, the reason for every refused input, and what a
player reaches for (the cards to come, a move tried before it is played, a way back from a slip).

Ctrl-C at the prompt clears the line, as in bash; `quit` or Ctrl-D leaves, the game
saved. During a move, Ctrl-C is held until the move is played and saved; during a
hint it stops the hint at once. When a game ends the end screen takes `undo` (the
last move back, even the one that lost), `restart`, `new` or `quit`.
"""

from __future__ import annotations

import re
import sys
import textwrap
import time
from collections.abc import Callable
from typing import IO, cast

from ..app.session import Session
from ..errors import InterruptedSaid, WriteError, WriteFailedSaid
from ..formats.lines import shorten
from ..players.expert import Rating
from ..rules.game import Game, NothingToUndo, Step
from ..rules.moves import IllegalMoveError, InvalidMoveError, Move
from .board import PLAIN, Style, cards_to_come, count_line, moves_preview, render, render_step, would_be
from .interrupts import Interrupts, saved
from .output import can_show, terminal_width
from .prompt import COMMANDS, END_COMMANDS, HELP, is_move_attempt, program_name, readline_setup, suggestion
from .reports import SHARE_BLOCKS, meter_line, next_daily_line, outcome_line, share_block
from .session_text import how_to_resume, how_to_review

PAUSE = 300.0  # seconds: a longer wait at the prompt is a pause, not time played
Reopen = Callable[[int | None, Game | None], tuple[Session, list[str]]]


_ESCAPES = re.compile(r"\x1b\[[0-9;]*m")
_SECOND_COLUMN = re.compile(r"\S( {2,})(?=\S)")
_KEPT_SPACE = "\0"  # a space inside a command to copy, while the line is broken


def fitted(text: str, width: int, program: str = "foursquare") -> str:
    """`text` with each line that passes `width` columns broken between words (never inside one), its
    continuation indented under the line's own text: after its first wide gap (a table's second column, as
    in `help` and the hint) when that is in the first half, else under its first word. Colour sequences
    take no width; a command to copy (`program play --resume FILE`, `program` as `prompt.program_name` says
    it) is never broken, but moved whole to the next line; a line that fits is left exactly as it is."""
    command = re.compile(rf"(?<!\S){re.escape(program)} [^;\n]*?(?=;| {{2,}}|\)|$)")
    lines = []
    for line in text.split("\n"):
        if len(_ESCAPES.sub("", line)) <= width:
            lines.append(line)
            continue
        gap = _SECOND_COLUMN.search(line)
        longest = max(len(word) for word in _ESCAPES.sub("", line).split())
        column = gap.end(1) if gap is not None else width
        hang = column if column <= width // 2 and column + longest <= width else len(line) - len(line.lstrip(" "))
        kept = command.sub(lambda found: found.group(0).replace(" ", _KEPT_SPACE), line)
        broken = textwrap.fill(
            kept, width, subsequent_indent=" " * hang, break_long_words=False, break_on_hyphens=False
        )
        lines.append(broken.replace(_KEPT_SPACE, " "))
    return "\n".join(lines)


class FittedOutput:
    """The prompt's output: everything written is fitted to the terminal's width as it is then (`fitted`), so
    a window made narrower mid-game gets lines that fit from the next one on."""

    def __init__(self, out: IO[str], width: Callable[[], int] = terminal_width) -> None:
        self._out = out
        self._width = width
        self._program = program_name()

    def write(self, text: str) -> int:
        return self._out.write(fitted(text, self._width(), self._program))

    def flush(self) -> None:
        self._out.flush()


class Table:
    """One prompt session: the game being played (which `restart` and `new` replace) and the terminal."""

    def __init__(
        self,
        session: Session,
        out: IO[str],
        style: Style,
        read_line: Callable[[str], str],
        hint: Callable[[Game], str] | None,
        epilogue: Callable[[Session], str] | None,
        reopen: Reopen | None,
        count: bool,
        meter: Callable[[Game], Rating] | None = None,
    ) -> None:
        self.session = session
        self.opened = session  # the caller's, which the caller closes
        self.out = out
        self.style = style
        self.read_line = read_line
        self.hint = hint
        self.epilogue = epilogue
        self.reopen = reopen
        self.count = count
        self.meter = meter
        self.interrupts = Interrupts()
        self._interrupts_in_a_row = 0  # Ctrl-C at the prompt: the second in a row says how to leave
        self.ended = False  # the end screen of the current game has been shown

    @property
    def game(self) -> Game:
        return self.session.game

    def board(self, *, legend: bool = False) -> str:
        """The board with the marks of the last move (the card placed, the cards turned)."""
        step = self.game.step
        text = render(step.state, self.style, step=step if step.move is not None else None, with_legend=legend)
        return text + ("\n" + count_line(step.state) if self.count and not step.state.is_over else "")

    def prompt(self) -> str:
        card = self.game.state.next_card
        if card is None:
            return "Game over (undo, restart, new, quit)> "
        # numbered by the cards placed: a shift is free (README), so it does not take a number
        return f"Move {self.game.state.drawn + 1}, place {card.symbol() if self.style.unicode else card}> "

    def read(self) -> str | None:
        """A line typed at the prompt; None at the end of input (Ctrl-D). Ctrl-C clears the line."""
        started = time.monotonic()
        try:
            with self.interrupts.waiting_for_input():
                self.out.flush()
                text = self.read_line(self.prompt()).strip()
            thought = time.monotonic() - started
            if thought <= PAUSE:  # a longer pause is not time played
                self.session.add_time(thought)
            self._interrupts_in_a_row = 0
            return text
        except KeyboardInterrupt:
            self._interrupts_in_a_row += 1
            said = "(Ctrl-C clears the line; to leave, type quit or press Ctrl-D: the game is kept)"
            self.out.write("\n" + (said + "\n" if self._interrupts_in_a_row >= 2 else ""))
            return ""
        except EOFError:
            self.out.write("\n")
            return None
        except UnicodeDecodeError:
            self.out.write("That was not UTF-8 text; type a move like B3 (or help).\n")
            return ""

    def run(self) -> None:
        if self.read_line is input:
            readline_setup(lambda: self.game.state.legal_moves())
        with self.interrupts.installed():
            try:
                self.out.write(f"Type a move (B3, B3 top, shift up) or one of: {', '.join(COMMANDS)}.\n\n")
                self.out.write(self.board(legend=True) + "\n")
                while True:
                    if self.game.state.is_over and not self.ended:
                        self.end_screen()
                    text = self.read()
                    if text is None or text.lower() == "quit":
                        if self.session.record is not None and self.session.record.written:
                            self.session.save()  # the time played since the last move
                        self.say_how_to_resume()
                        return
                    if text:
                        self.answer(text)
            except KeyboardInterrupt:
                self.out.write("\nInterrupted. " + saved(self.session) + "\n")
                self.out.flush()
                raise InterruptedSaid() from None
            except WriteError as error:
                print(f"{error}; the record holds the game up to the move before.", file=sys.stderr)
                raise WriteFailedSaid() from None
            finally:
                if self.session is not self.opened:
                    self.session.__exit__(None, None, None)

    def end_screen(self) -> None:
        game = self.game
        grade = self.session.grade()
        if grade is not None and self.session.record is not None and self.session.record.written:
            self.session.save()  # the grade, kept in the record for the history
        self.out.write(outcome_line(game.state, game.ply, game.undos, game.hints, grade) + "\n")
        day = game.meta.get("daily") if isinstance(game.meta, dict) else None
        if day:
            unicode = self.style.unicode or can_show(SHARE_BLOCKS)
            self.out.write(next_daily_line(str(day), game.seed) + "\n")
            self.out.write("To share (no card is named):\n")
            self.out.write(share_block(str(day), game.state, game.ply, game.undos, game.hints, unicode=unicode) + "\n")
        if self.epilogue is not None:
            self.out.write(self.epilogue(self.session) + "\n")
        self.out.write(how_to_review(self.session) + "\n")
        self.out.write(
            "The game is over: undo takes the last move back; restart plays this deal again, new a new one; "
            "quit leaves.\n"
        )
        self.ended = True

    def answer(self, text: str) -> None:
        command, _, rest = text.lower().partition(" ")
        over = self.game.state.is_over
        if over and command not in END_COMMANDS:
            self.out.write("The game is over: type undo, restart, new or quit (or board, help).\n")
            return
        if command == "help":
            self.out.write(HELP + "\n")
        elif command == "board":
            self.out.write(self.board(legend=True) + "\n")
        elif command == "moves":
            self.out.write(moves_preview(self.game.state, self.style) + "\n")
        elif command == "left":
            self.out.write(cards_to_come(self.game.state) + "\n")
        elif command == "try":
            self.try_move(text.partition(" ")[2])
        elif command == "hint":
            self.out.write(self.hinted(detail=rest.strip() == "detail") + "\n")
        elif command == "undo":
            self.undo()
        elif command in ("restart", "new"):
            self.start_again(command)
        else:
            self.play(text)

    def hinted(self, *, detail: bool) -> str:
        if self.hint is None:
            return "No hint here."
        try:
            with self.interrupts.waiting_for_input():  # Ctrl-C stops a slow hint at once
                said = self.hint(self.game)
        except KeyboardInterrupt:
            return "\nHint stopped; the game goes on."
        self.game.hints += 1
        self.session.save()
        return said if detail or "\n\n" not in said else said.split("\n\n", 1)[0]

    def try_move(self, text: str) -> None:
        if not text.strip():
            self.out.write("try what? give a move, like 'try B3' or 'try shift up'\n")
            return
        try:
            step = would_be(self.game.state, Move.from_str(text))
        except (InvalidMoveError, IllegalMoveError) as error:
            self.out.write(f"{error}\n")
            return
        heading = render_step(step, self.style, next_unseen=True).split("\n", 1)[1]  # the card after: not seen
        said = f"If you played {step.move}: the board would be (nothing is played; undo is not needed)"
        self.out.write(f"\n{said}\n{heading}\n")

    def say_how_to_resume(self) -> None:
        """Where the game is kept and how to go on, as it is left; not again for a game whose end screen,
        just shown, said how to look back."""
        if not (self.game.state.is_over and self.ended):
            self.out.write(how_to_resume(self.session) + "\n")

    def undo(self) -> None:
        try:
            step = self.session.undo()
        except NothingToUndo as error:
            self.out.write(f"{error}\n")
            return
        self.ended = False
        self.out.write(f"\nUndone (undos so far: {self.game.undos}).\n")
        self.show_step(step)

    def start_again(self, command: str) -> None:
        if self.reopen is None:
            self.out.write(f"'{command}' needs a new game to be kept; leave with quit and play again.\n")
            return
        game = self.game
        self.say_how_to_resume()
        if self.session is not self.opened:
            self.session.__exit__(None, None, None)
        else:
            self.session.index()
        self.session, said = self.reopen(game.seed, game if command == "restart" else None)
        self.ended = False
        for line in said:
            self.out.write(line + "\n")
        heading = "This deal again, from its start." if command == "restart" else "A new deal."
        self.out.write(f"\n{heading}\n" + self.board(legend=True) + "\n")

    def play(self, text: str) -> None:
        from ..app.session import RecordRefused

        legal = self.game.state.legal_moves()
        try:
            step = self.session.play(Move.from_str(text))
        except IllegalMoveError as error:
            self.out.write(f"{error} (type help for the rules)\n")
            return
        except InvalidMoveError as error:
            if is_move_attempt(text) and not suggestion(text, legal).startswith("did you mean"):
                self.out.write(f"{shorten(text)}: {error.reason}\n")
            else:
                self.out.write(f"unknown command {shorten(text)}; {suggestion(text, legal)}\n")
            return
        except RecordRefused as error:
            self.out.write(f"{error}\n")
            return
        self.out.write("\n")
        self.show_step(step)

    def show_step(self, step: Step) -> None:
        """What a move prints, and an undo again: the board with its marks, the count and the meter when asked."""
        self.out.write(render_step(step, self.style, by_cards=True) + "\n")  # numbered as the prompt numbers
        if self.count and not step.state.is_over:
            self.out.write(count_line(step.state) + "\n")
        self.show_meter()

    def show_meter(self) -> None:
        """The expert's chance to win from here, as a bar (`play --meter`); Ctrl-C skips it."""
        if self.meter is None or self.game.state.is_over:
            return
        try:
            with self.interrupts.waiting_for_input():
                rating = self.meter(self.game)
        except KeyboardInterrupt:
            self.out.write("\n")
            return
        self.out.write(meter_line(rating) + "\n")


def run_terminal(
    session: Session,
    out: IO[str],
    *,
    style: Style = PLAIN,
    read_line: Callable[[str], str] = input,
    hint: Callable[[Game], str] | None = None,
    epilogue: Callable[[Session], str] | None = None,
    reopen: Reopen | None = None,
    count: bool = False,
    meter: Callable[[Game], Rating] | None = None,
) -> None:
    """The game at a prompt (see the module's docstring); InterruptedSaid or WriteFailedSaid when it ends so.

    `hint(game)` answers `hint` (its first paragraph; `hint detail` all of it);
    `epilogue(session)` adds lines when the game ends (what the deal allowed);
    `reopen(seed, game)` opens the session of `restart` (the game's deal again) and
    `new` (game None: a new deal); `count` shows the cards to come under each board.
    """
    fitted_out = cast(IO[str], FittedOutput(out))  # all it writes fits the terminal
    Table(session, fitted_out, style, read_line, hint, epilogue, reopen, count, meter).run()
