"""`play`: a game at a terminal prompt, or driven line by line from a pipe.

A `Game` is a deal, the moves so far and, when asked, the file it is recorded to;
the record is rewritten atomically after every move, so it is always a valid
record of the game so far, even if the process is killed.

Ctrl-C never cuts a move in half: SIGINT is acted on at once only while the tool
waits for input; during a move it is held until the move is played and saved.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from typing import IO, Any

from .board import render, render_step, state_block
from .cards import Card, deal
from .engine import WON, IllegalMoveError, InvalidMoveError, Move, State
from .records import format_record, write_atomically

EXIT_OK, EXIT_INVALID, EXIT_INTERRUPTED = 0, 1, 130

HELP = """\
Place each card you are given on the 4x4 grid (columns A-D, rows 1-4).
  B3          place it on the empty cell B3 (it must share an edge with a pile;
              the first card may go anywhere)
  B3 top      place it on top of the pile at B3 (a pile holds at most 4 cards)
  shift up    slide the whole layout one cell (up, down, left, right); free
After a card is placed, its row and then its column are checked: if it is higher
than every other face-up top card in the line, or lower than every one, or there
is none, every other top card in the line is turned over. Ties never count.
Win: all 16 cells filled and face up; your score is the cards left in the stock.
Lose: more than 4 face-down cards, or the stock runs out.
Commands: help, moves (the legal moves now), board, quit."""


class Game:
    """A game being played: its deal, its moves so far, and where it is recorded."""

    def __init__(
        self,
        deck: tuple[Card, ...],
        seed: int | None = None,
        moves: list[Move] | None = None,
        record_path: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        self.seed = seed
        self.meta = meta
        self.record_path = record_path
        self.state = State(deck)
        self.moves: list[Move] = []
        self.last_card: Card | None = None
        for move in moves or []:
            self.play(move)

    @classmethod
    def from_seed(cls, seed: int, record_path: str | None = None) -> Game:
        return cls(deal(seed), seed=seed, record_path=record_path)

    def play(self, move: Move) -> Card | None:
        """Apply `move`; the card it placed (None for a shift). IllegalMoveError if forbidden."""
        card = self.state.next_card if move < 32 else None
        self.state.apply(move)
        self.moves.append(move)
        self.last_card = card
        return card

    def record_text(self) -> str:
        return format_record(self.moves, self.state, seed=self.seed, meta=self.meta)

    def save(self) -> None:
        if self.record_path is not None:
            write_atomically(self.record_path, self.record_text())

    def deal_words(self) -> str:
        return (
            f"--seed {self.seed}" if self.seed is not None else "--deck '" + " ".join(map(str, self.state.deck)) + "'"
        )

    def how_to_resume(self) -> str:
        if self.record_path is not None:
            return f"The game is saved in {self.record_path}; to go on: foursquare play --resume {self.record_path}"
        return (
            "The game so far, as a record (save it to a file, then: foursquare play --resume FILE):\n"
            + self.record_text().rstrip("\n")
        )

    def how_to_review(self) -> str:
        if self.record_path is not None:
            return f"Replay it: foursquare replay {self.record_path}    Check it: foursquare check {self.record_path}"
        return "The game as a record (save it to a file to replay or check it):\n" + self.record_text().rstrip("\n")


def outcome_line(state: State) -> str:
    outcome = state.outcome
    if outcome.status == WON:
        return f"You won! Score {outcome.score} (cards left in the stock)."
    return f"You lost: {outcome.reason}."


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


def run_pipe(
    game: Game,
    lines: IO[str] | IO[bytes],
    out: IO[str],
    err: IO[str],
    *,
    json_output: bool,
    reveal: bool = False,
    unicode: bool = False,
    source_name: str = "<stdin>",
) -> int:
    """Read moves one per line (blank lines and `#` comments allowed; `quit` stops).

    `lines` may be binary (standard input's buffer): each line is then decoded as
    UTF-8 on its own, so text that is not UTF-8 is reported at its line.

    Prints the state before the first move and after every move (JSON Lines, or
    boards as `replay` prints them), flushing each. The first invalid or illegal
    line ends the run with exit code 1 and one line on `err`. The game ending ends
    the run without reading further, so a co-process never waits on the other.
    """

    def show() -> None:
        move = game.moves[-1] if game.moves else None
        out.write(
            state_block(
                game.state,
                len(game.moves),
                move,
                game.last_card,
                json_output=json_output,
                reveal=reveal,
                unicode=unicode,
            )
        )
        out.flush()

    interrupts = _Interrupts()
    line_number = 0
    with interrupts.installed():
        try:
            game.save()
            show()
            while not game.state.is_over:
                with interrupts.waiting_for_input():
                    raw = lines.readline()
                if isinstance(raw, bytes):  # decoded line by line, so an error has its line number
                    try:
                        line = raw.decode("utf-8")
                    except UnicodeDecodeError:
                        err.write(f"{source_name}:{line_number + 1}: not UTF-8 text\n")
                        return EXIT_INVALID
                else:
                    line = raw
                if not line:
                    err.write("End of input before the end of the game. " + game.how_to_resume() + "\n")
                    return EXIT_OK
                line_number += 1
                text = line.split("#", 1)[0].strip()
                if not text:
                    continue
                if text.lower() == "quit":
                    err.write(game.how_to_resume() + "\n")
                    return EXIT_OK
                number = len(game.moves) + 1
                try:
                    game.play(Move.from_str(text))
                except (InvalidMoveError, IllegalMoveError) as error:
                    # One line, as scripts expect; a record being kept is already saved.
                    err.write(f"{source_name}:{line_number}: move {number} {text!r}: {error.reason}\n")
                    return EXIT_INVALID
                game.save()
                show()
            return EXIT_OK
        except KeyboardInterrupt:
            game.save()
            err.write("\nInterrupted. " + game.how_to_resume() + "\n")
            return EXIT_INTERRUPTED


def run_terminal(
    game: Game,
    out: IO[str],
    *,
    reveal: bool = False,
    unicode: bool = False,
    read_line=input,
    hint=None,
) -> int:
    """The game at a prompt: a board each turn, the reason for every refused input."""
    interrupts = _Interrupts()
    commands = "help, moves, board, " + ("hint, " if hint is not None else "") + "quit"
    with interrupts.installed():
        try:
            game.save()
            out.write(f"Type a move (B3, B3 top, shift up) or one of: {commands}.\n\n")
            out.write(render(game.state, reveal=reveal, unicode=unicode) + "\n")
            while not game.state.is_over:
                card = game.state.next_card
                assert card is not None
                prompt = f"Move {len(game.moves) + 1}, place {card.symbol() if unicode else card}> "
                try:
                    with interrupts.waiting_for_input():
                        out.flush()
                        text = read_line(prompt).strip()
                except EOFError:
                    out.write("\n" + game.how_to_resume() + "\n")
                    return EXIT_OK
                except UnicodeDecodeError:
                    out.write("That was not UTF-8 text; type a move like B3 (or help).\n")
                    continue
                command = text.lower()
                if not command:
                    continue
                if command == "quit":
                    out.write(game.how_to_resume() + "\n")
                    return EXIT_OK
                if command == "help":
                    out.write(HELP + "\n")
                    continue
                if command == "board":
                    out.write(render(game.state, reveal=reveal, unicode=unicode) + "\n")
                    continue
                if command == "moves":
                    out.write("Legal moves: " + ", ".join(str(m) for m in game.state.legal_moves()) + "\n")
                    continue
                if command == "hint" and hint is not None:
                    out.write(hint(game.state) + "\n")
                    continue
                try:
                    move = Move.from_str(text)
                    game.play(move)
                except (InvalidMoveError, IllegalMoveError) as error:
                    out.write(f"{error} (type help for the rules)\n")
                    continue
                game.save()
                out.write(
                    "\n"
                    + render_step(game.state, len(game.moves), move, game.last_card, reveal=reveal, unicode=unicode)
                    + "\n"
                )
            out.write(outcome_line(game.state) + "\n" + game.how_to_review() + "\n")
            return EXIT_OK
        except KeyboardInterrupt:
            game.save()
            out.write("\nInterrupted. " + game.how_to_resume() + "\n")
            out.flush()
            return EXIT_INTERRUPTED
