"""`play`: a game at a terminal prompt, or driven line by line from a pipe.

A `Session` is a `Game` and, when asked, the `RecordFile` it is saved to; the record
is rewritten atomically after every move, so it is always a valid record of the
game so far, even if the process is killed. A move that would make the record
too large to read back is refused, and the record stays as it was.

Ctrl-C never cuts a move in half: SIGINT is acted on at once only while the tool
waits for input; during a move it is held until the move is played and saved.
A failure to write the output (a full disk, a closed pipe) saves the game first
and then says where it is.
"""

from __future__ import annotations

import contextlib
import datetime
import difflib
import errno
import os
import shlex
import shutil
import signal
import sys
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

from .board import PLAIN, Style, moves_preview, outcome_line, render, render_step, state_block
from .cards import Card
from .engine import IllegalMoveError, InvalidMoveError, Move
from .files import RecordFile, WriteError
from .game import Game, Step
from .records import LineTooLong, NotUtf8, format_record, iter_lines, meta_nodes, move_text, shorten, unreadable_reason

if TYPE_CHECKING:
    from .history import History
    from .records import Verdict

EXIT_OK, EXIT_INVALID, EXIT_IO, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 0, 1, 74, 130, 141
COMMANDS = ("moves", "board", "hint", "undo", "help", "quit")

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
Commands:
  moves   the legal moves, each with the face-down count it leaves
  board   the board again
  hint    the expert's move and how it rates the others
  undo    take back the last move (counted in the record)
  help    this text
  quit    stop; the game is saved and can be resumed
Tab completes moves and commands; arrow keys recall earlier lines."""


def program_name() -> str:
    """How to name this tool in a command a user will paste into the same shell.

    `foursquare` when that finds this very installation on the PATH; else the
    script as it was invoked, or `python -m foursquare_cli` with this interpreter.
    """
    bin_dir = os.path.dirname(os.path.abspath(sys.executable))
    found = shutil.which("foursquare")
    if found is not None and os.path.dirname(os.path.abspath(found)) == bin_dir:
        return "foursquare"
    invoked = sys.argv[0] if sys.argv else ""
    if os.path.basename(invoked) == "foursquare" and os.path.exists(invoked):
        return shlex.quote(invoked)
    return f"{shlex.quote(sys.executable)} -m foursquare_cli"


class RecordRefused(Exception):
    """A move whose record could not be read back; the move was taken back."""


class Session:
    """A game being played, and where it is saved (if anywhere)."""

    def __init__(self, game: Game, record: RecordFile | None = None, history: History | None = None) -> None:
        self.game = game
        self.record = record
        self.history = history if record is not None else None  # where the record is indexed
        self._meta_nodes = meta_nodes(game) if record is not None else 0

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.record is not None:
            self.index()
            self.record.close()

    def index(self) -> None:
        """Index the record in the history (when kept there); a failing index never stops a game."""
        if self.history is not None and self.record is not None:
            import sqlite3

            from .history import HistoryError

            try:
                self.history.remember(self.record.path)
            except (HistoryError, sqlite3.Error, OSError) as error:
                print(f"foursquare play: the history index was not updated: {error}", file=sys.stderr)
                self.history = None

    def save(self) -> None:
        """Write the record (if any); WriteError passes through."""
        if self.record is not None:
            self.record.write(format_record(self.game))

    def play(self, move: Move) -> Step:
        """Play and save `move`. IllegalMoveError, or RecordRefused (the move taken back), or WriteError."""
        step = self.game.play(move)
        if self.record is not None:
            text = format_record(self.game)
            reason = unreadable_reason(text, len(self.game.steps) - 1, self._meta_nodes)
            if reason is not None:
                self.game.steps.pop()
                raise RecordRefused(f"move {step.ply} {str(move)!r} refused: {reason}")
            self.record.write(text)
        return step

    def undo(self) -> Step:
        step = self.game.undo()
        self.save()
        return step

    def how_to_resume(self) -> str:
        if self.record is not None and not self.record.written:
            return "No move was played, so nothing was kept."
        if self.record is not None:
            path = shlex.quote(self.record.path)
            return f"The game is saved in {self.record.path}; to go on: {program_name()} play --resume {path}"
        return (
            f"The game so far, as a record (save it to a file, then: {program_name()} play --resume FILE):\n"
            + format_record(self.game).rstrip("\n")
        )

    def how_to_review(self) -> str:
        if self.record is not None:
            path, name = shlex.quote(self.record.path), program_name()
            return (
                f"Replay it: {name} replay {path}    Check it: {name} check {path}\n"
                f"Where was it won or lost? {name} analyze {path}"
            )
        return "The game as a record (save it to a file to replay or check it):\n" + format_record(self.game).rstrip(
            "\n"
        )


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


def _output_failed(session: Session, err: IO[str], error: OSError) -> int:
    """Standard output failed: the game is saved; say where, on standard error."""
    with contextlib.suppress(OSError, WriteError):
        session.save()
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
                    return refuse(f"{source_name}:{number}: move {ply} {shorten(text)}: {_pipe_answer(text, error)}")
                except ValueError as error:  # nothing to undo
                    return refuse(f"{source_name}:{number}: {error}")
                except RecordRefused as error:
                    return refuse(f"{source_name}:{number}: {error}")
                show(step)
            return EXIT_OK
        except KeyboardInterrupt:
            session.save()
            err.write("\nInterrupted. " + session.how_to_resume() + "\n")
            return EXIT_INTERRUPTED
        except WriteError as error:
            err.write(f"{error}; the record holds the game up to the move before. {session.how_to_resume()}\n")
            return EXIT_IO
        except OSError as error:
            return _output_failed(session, err, error)


def suggestion(text: str) -> str:
    """What to say to input that is neither a move nor a command: a near-miss, or `help`."""
    lowered = text.lower()
    squeezed = lowered.replace(" ", "")
    if len(squeezed) == 5 and squeezed.endswith("top") and squeezed[0] in "abcd" and squeezed[1] in "1234":
        return f"did you mean '{squeezed[:2].upper()} top'?"
    words = list(COMMANDS) + [f"shift {d}" for d in ("up", "down", "left", "right")]
    close = difflib.get_close_matches(lowered, words, n=1, cutoff=0.7)
    if close:
        return f"did you mean {close[0]!r}?"
    return "type 'help'"


def _pipe_answer(text: str, error: InvalidMoveError) -> str:
    """Why a piped line is not a move: the prompt's commands do not apply there; near misses get a guess."""
    word = text.lower()
    if word in COMMANDS:
        return f"{word!r} is a command of the prompt; from a pipe a line is a move, undo or quit"
    if _is_move_attempt(text):
        return error.reason
    said = suggestion(text)
    return f"not a move; {said}" if said.startswith("did you mean") else error.reason


def _is_move_attempt(text: str) -> bool:
    """Input that was meant as a move (a cell-like first word, or `shift`): its parse error is the answer."""
    first = text.split()[0].lower() if text.split() else ""
    return first == "shift" or (1 < len(first) <= 3 and first[0].isalpha() and first[1:].isdigit())


def _completer(session: Session) -> Callable[[str, int], str | None]:
    def complete(text: str, index: int) -> str | None:
        options = [str(move) for move in session.game.state.legal_moves()] + list(COMMANDS)
        matches = [option for option in options if option.lower().startswith(text.lower())]
        return matches[index] if index < len(matches) else None

    return complete


def _readline_setup(session: Session) -> None:
    """Line editing, history and Tab completion where the standard library's readline exists."""
    try:
        import readline
    except ImportError:  # the prompt still works, without editing
        return
    readline.set_completer(_completer(session))
    readline.set_completer_delims("\t\n")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")


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
        _readline_setup(session)
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
                    out.write((hint(game) if hint is not None else "No hint here.") + "\n")
                    continue
                if command == "undo":
                    try:
                        step = session.undo()
                    except ValueError as error:
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
                    if _is_move_attempt(text):
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
            session.save()
            out.write("\nInterrupted. " + session.how_to_resume() + "\n")
            out.flush()
            return EXIT_INTERRUPTED
        except WriteError as error:
            print(f"{error}; the record holds the game up to the move before.", file=sys.stderr)
            return EXIT_IO


class PlayRequestError(ValueError):
    """`play` options that cannot be carried out together, or a record that cannot be resumed
    (then `verdict` holds its problems)."""

    def __init__(self, message: str, verdict: Verdict | None = None, path: str | None = None) -> None:
        super().__init__(f"{path}: {message}" if path is not None else message)
        self.verdict = verdict
        self.path = path  # the file the message is about, named first


def daily_seed(today: datetime.date | None = None) -> tuple[int, datetime.date]:
    """The deal of the day: the UTC date's digits as a number (20261130 for 2026-11-30), the same for everyone."""
    day = today or datetime.datetime.now(datetime.UTC).date()
    return int(day.strftime("%Y%m%d")), day


def new_seed() -> int:
    import secrets

    return secrets.randbelow(2**32)


LAST_GAME = "\x00last"  # `--resume` given with no file: the last unfinished game (no path holds a NUL)


def open_session(
    *,
    seed: int | None = None,
    deck: tuple[Card, ...] | None = None,
    daily: bool = False,
    record: str | None = None,
    resume: str | None = None,
    no_record: bool = False,
    force: bool = False,
    history: History | None = None,
    mention_waiting: bool = False,
) -> tuple[Session, list[str]]:
    """A session ready to play, and the lines to say first (its deal, where it is kept, why not).

    With `history`, a game is kept in the data folder (unless `record` names its
    file) and indexed; `resume=LAST_GAME` is the last unfinished game there; with
    `mention_waiting`, a new game first says when an unfinished one is waiting.
    PlayRequestError for contradictory options or a record that cannot be resumed
    (with the verdict's problems in `.verdict`); ReadError, WriteError, DealConflict,
    NoDeal from reading and opening the files.
    """
    if no_record and record is not None:
        raise PlayRequestError("--no-record and --record contradict each other; give one")
    if daily and (seed is not None or deck is not None or resume is not None):
        raise PlayRequestError("--daily picks the deal; give it without --seed, --deck or --resume")
    if seed is not None and deck is not None:
        raise PlayRequestError("give --seed or --deck, not both")
    said = []
    if history is not None and mention_waiting and resume is None and record is None:
        said.extend(_waiting(history))
    if resume is None:
        session, opening = _new_session(seed, deck, daily, record, no_record, force, history)
    else:
        session, opening = _resumed_session(resume, seed, deck, record, no_record, force, history)
    return session, (history.notes if history is not None else []) + said + opening


def _waiting(history: History) -> list[str]:
    """The line that says an unfinished game is waiting, if one is (and the history can be read)."""
    from .board import waiting_line
    from .history import HistoryError

    try:
        waiting = history.last_unfinished()
    except HistoryError:
        return []
    return [waiting_line(waiting, program_name())] if waiting is not None else []


def _new_session(
    seed: int | None,
    deck: tuple[Card, ...] | None,
    daily: bool,
    record: str | None,
    no_record: bool,
    force: bool,
    history: History | None,
) -> tuple[Session, list[str]]:
    from .history import HistoryError, started_now

    said = []
    started = started_now()
    meta: dict[str, Any] = {"started": started}
    if daily:
        seed, day = daily_seed()
        said.append(f"Daily deal {seed} ({day.isoformat()}): everyone playing today gets these cards")
        meta["daily"] = day.isoformat()
    elif seed is None and deck is None:
        seed = new_seed()
        said.append(f"Deal {seed} (to play it again: {program_name()} play --seed {seed})")
    game = Game(deck, meta=meta) if deck is not None else Game.from_seed(seed or 0, meta=meta)
    path = record
    if path is None and history is not None and not no_record:
        try:
            path = history.new_record_path(game.seed, started)
        except HistoryError as error:
            said.append(f"{error}; this game is not saved.")
            history = None
    session = Session(game, RecordFile(path, replace=force) if path is not None else None, history)
    if record is not None:  # a file the user named exists from the start; a kept game from its first move
        session.save()
        session.index()
    return session, said


def _resumed_session(
    resume: str,
    seed: int | None,
    deck: tuple[Card, ...] | None,
    record: str | None,
    no_record: bool,
    force: bool,
    history: History | None,
) -> tuple[Session, list[str]]:
    from .history import HistoryError
    from .records import NoDeal, keepable_meta, load

    if resume == LAST_GAME:
        waiting = None
        if history is not None:
            try:
                waiting = history.last_unfinished()
            except HistoryError as error:
                raise PlayRequestError(f"{error}; give the record to resume: --resume FILE") from None
        if waiting is None:
            raise PlayRequestError("no unfinished game is waiting; start one with play, or give --resume FILE")
        resume = waiting.path
    try:
        verdict = load(resume, seed=seed, deck=deck)
    except NoDeal:
        raise PlayRequestError(
            "a move log carries no deal; give --seed N or --deck CARDS with --resume", path=resume
        ) from None
    if verdict.problems:
        raise PlayRequestError("cannot resume an invalid record", verdict, path=resume)
    resumed = verdict.game
    assert resumed is not None
    if resumed.state.is_over:
        raise PlayRequestError("this game is over; there is nothing to resume", path=resume)
    if verdict.source.meta_value is not None:
        resumed.meta = keepable_meta(verdict.source)
        if resumed.meta is None:
            raise PlayRequestError("its meta cannot be written back as it was; resume a copy without meta", path=resume)
    target = None if no_record else (record or resume)
    file = RecordFile(target, replace=force or target == resume) if target is not None else None
    session = Session(resumed, file, history if target is not None else None)
    session.index()
    deal_name = f"deal {resumed.seed}" if resumed.seed is not None else "the deck given"
    return session, [f"Resuming {deal_name} at move {resumed.ply + 1} ({resume})"]
