"""What a game of `play` shows, as values: the prompt and the pipe loops (`table`, `pipe`) hand these to their
view, and `ui` turns each into text. No sentence is made here.

Each kind of thing said is a type (a board after a move, a refusal, the end of a game, where the game is
kept); what varies within a kind is an enum (`Refusal`, `Stop`, `OpeningKind`, `ProblemKind`, `CheerKind`),
never a string to match.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ..players.evaluation import Evaluation, Loss, Rating
    from ..players.solver import Solution
    from ..rules.engine import State
    from ..rules.game import Step
    from ..rules.moves import Move
    from ..store.kept import KeptGame


class OpeningKind(enum.Enum):
    NOTE = "note"  # the history's own note (an index rebuilt), in `text`
    WAITING = "waiting"  # an unfinished game is waiting (`waiting`)
    DAILY = "daily"  # the daily deal (`seed`, `day`, `practice`)
    LEVEL = "level"  # a deal of a grade (`seed`, `level`)
    DEALT = "dealt"  # a new random deal (`seed`)
    UNSAVED = "unsaved"  # why the game is not kept (`text`)
    RESUMING = "resuming"  # a record resumed (`seed`, or None for a deck; `ply`; `path`)


class Opening(NamedTuple):
    """One thing to say as a session opens (see `OpeningKind` for which fields each kind uses)."""

    kind: OpeningKind
    seed: int | None = None
    text: str = ""
    day: str | None = None
    level: str | None = None
    ply: int = 0
    path: str | None = None
    waiting: KeptGame | None = None
    practice: bool = False  # a daily deal attempted already today: kept, not counted


class Openings(NamedTuple):
    """What a session says as it opens: at the prompt on standard output, fitted; from a pipe on standard error."""

    openings: list[Opening]
    at_prompt: bool


class ProblemKind(enum.Enum):
    INDEX = "index"  # the history index was not updated; the game goes on
    UNSAVED = "unsaved"  # a kept game can no longer be written; it goes on unsaved


class SessionProblem(NamedTuple):
    """What went wrong while a session went on; the game goes on."""

    kind: ProblemKind
    error: Exception


class WhereKept(NamedTuple):
    """Where a game is kept, for saying how to go on with it or look back at it: its record file, or, when it
    has none, the record itself to save (`record_text`)."""

    over: bool
    nothing_kept: bool  # a record was opened, but no move was played
    path: str | None
    record_text: str
    kept: bool = False  # kept in the history (a game of the prompt): `--last` and `--resume` alone name it


class Saved(NamedTuple):
    """A session saved as it ends (Ctrl-C, a signal): why the last save failed, if it did, and where it is."""

    problem: str | None
    where: WhereKept


class Welcome(NamedTuple):
    """The start of a game at the prompt: the commands, then the board with its legend."""

    step: Step
    cards_to_come: bool  # the cards still to come under the board


class Board(NamedTuple):
    """The board after the last move (`board`), its legend and the count under it when asked."""

    step: Step
    cards_to_come: bool


class MeterReading(NamedTuple):
    """The meter after a move (`play --meter`): the move's own figures (`now`, the rating the hint listed for
    it where it was played; at the start, the position's best), and the move and the expert's best there, with
    what the one gave up against the other (`lost`) and showed above it (`gained`), all from that position's
    one evaluation. After a free shift, the position's own figures (`free_shift`): the same position, slid."""

    now: Rating
    played: Rating | None = None
    best: Rating | None = None
    lost: Loss | None = None
    free_shift: bool = False
    gained: Loss | None = None  # what the move shows above the best, as `lost` what it shows below


class Moved(NamedTuple):
    """What a move (or an undo: `undos`, the count after it) shows: the board with its marks, the cards to come
    when asked. The meter's line comes after it (`Metered`), so a slow reading never hides the move."""

    step: Step
    cards_to_come: bool
    undos: int | None = None


class Metered(NamedTuple):
    """The meter's line under the board just shown (`play --meter`): its reading, or None when Ctrl-C skipped it;
    `first`: the game's first reading, which says what the meter reads (a new player took its figures for the
    position now, and the hint's for a disagreement)."""

    reading: MeterReading | None
    first: bool = False


class Prompt(NamedTuple):
    """What the prompt asks for: the card to place and its move's number (`ply` + 1), or what a finished game
    takes; or, with `leaving` (`restart` or `new`), whether to leave the unfinished game for another (y/N)."""

    state: State
    ply: int
    leaving: str = ""
    counted: bool = False  # the daily deal's first attempt, over: undo is not offered (`Session.counts_as_ended`)


class Refusal(enum.Enum):
    ILLEGAL = "illegal"  # a move the rules forbid (`text`: the engine's reason)
    NOT_A_MOVE = "not a move"  # not a move nor a command (`text`: the input; `detail`: why; `state`: for a guess)
    RECORD_REFUSED = "record refused"  # the record could not hold the move (`text`)
    GAME_OVER = "game over"  # a finished game takes only a few commands
    NOTHING_TO_UNDO = "nothing to undo"  # (`text`: the message)
    TRY_WHAT = "try what"  # `try` without a move
    TRY_REFUSED = "try refused"  # `try` with a move that is no move or is illegal (`text`)
    NO_HINT = "no hint"
    HINT_STOPPED = "hint stopped"  # Ctrl-C during a hint
    NOT_UTF8 = "not utf-8"
    CANNOT_REOPEN = "cannot reopen"  # `restart`/`new` where no game can be kept (`text`: the command)
    STAYED = "stayed"  # `restart`/`new` not confirmed: the game goes on (`text`: the command)


class Working(NamedTuple):
    """A hint (`hint`), or else the meter's reading, still at work after a while (a large budget can take minutes,
    and a prompt that says nothing looks hung): said once, with the key that stops it."""

    hint: bool


class Refused(NamedTuple):
    """Input the prompt does not carry out, and why (`state`: the position, to guess what was meant)."""

    kind: Refusal
    text: str = ""
    detail: str = ""
    state: State | None = None


class Asked(enum.Enum):
    """A prompt command that shows something of the position, not a move."""

    HELP = "help"
    LEGAL_MOVES = "moves"
    CARDS_TO_COME = "left"


class Shown(NamedTuple):
    """`help`, `moves` or `left`: what the command shows of `state` (`moves` with the meter on: each move's
    figure, from the position's `evaluation`)."""

    asked: Asked
    state: State
    evaluation: Evaluation | None = None


class Tried(NamedTuple):
    """`try MOVE`: the board the move would leave, nothing played."""

    step: Step


class CtrlC(NamedTuple):
    """Ctrl-C at the prompt cleared the line; the second in a row says how to leave."""

    again: bool


class EndOfInput(NamedTuple):
    """Ctrl-D at the prompt."""


class CheerKind(enum.Enum):
    FIRST_WIN = "first_win"
    BEST_SCORE = "best_score"  # `value` the new best, `before` the best before
    FIRST_AT_GRADE = "first_at_grade"  # `value` the grade
    STREAK = "streak"  # `value` wins in a row, `before` the longest streak before
    DAILY_STREAK = "daily_streak"  # `value` days in a row


class Cheer(NamedTuple):
    """Something a won game earned, measured against the games kept before it."""

    kind: CheerKind
    value: int | str | None = None
    before: int | None = None


class GameOver(NamedTuple):
    """The end screen: the outcome and the counts, the grade; for a daily deal its number, the time to the next
    and the block to share; what the game earned; what the deal allowed; how to look back at the game."""

    state: State
    ply: int
    undos: int
    hints: int
    grade: str | None
    daily: str | None  # the day of a daily deal
    practice: bool  # a daily deal played again the same day: it counts in no figure and has no block to share
    seed: int | None
    cheers: list[Cheer]
    potential: Solution | None
    where: WhereKept
    counted: bool = False  # the daily deal's first attempt: it stands as it ended (`Session.counts_as_ended`)


class Left(NamedTuple):
    """The player left the prompt (`quit`, Ctrl-D), or started another game (`for_another`): where this one is
    kept."""

    where: WhereKept
    for_another: bool = False


class Reopened(NamedTuple):
    """`restart` (this deal again) or `new` (a new deal): what the new session says first, then its board."""

    restart: bool
    openings: list[Opening]
    step: Step
    cards_to_come: bool


class Stop(enum.Enum):
    INTERRUPTED = "interrupted"  # Ctrl-C during a move (at the prompt) or from a pipe
    TERMINATED = "terminated"  # SIGTERM or SIGHUP
    END_OF_INPUT = "end of input"  # a pipe ended before the game
    QUIT = "quit"  # `quit` from a pipe
    WRITE_FAILED = "write failed"  # the record could not be written (`error`)


class Stopped(NamedTuple):
    """A game left otherwise than at the prompt's `quit`: why, what was saved, and where it is kept."""

    stop: Stop
    saved: Saved
    error: str | None = None


class PipeRefused(NamedTuple):
    """A line of a pipe refused: where (`source:line`), the move's number (None when the line is refused before
    it is read as one) and text, and why: `reason`, the engine's or the reader's; with `not_a_move` the line
    was no move at all (a prompt command, a near miss), which ui answers for what it is, guessing only a legal move."""

    source: str
    line: int
    ply: int | None
    text: str
    reason: str
    not_a_move: bool = False
    legal: tuple[Move, ...] | None = None  # with not_a_move: the moves legal there, so a guess is only one of them


class OutputFailed(NamedTuple):
    """Standard output failed during a piped game (a full disk, a closed pipe): the game is saved first."""

    broken_pipe: bool
    error: str
    where: WhereKept
