"""A game being played, and all it owns: the `Session` of `play`, at a prompt or from a pipe.

A `Session` is the one owner of a game: its `Game`, the `RecordFile` it is saved to
(when asked), its entry in the history, its clock, and the expert its hint, its meter
and its end screen read. The record is rewritten atomically after every move, so it is
always a valid record of the game so far, even if the process is killed; a move that
would make the record too large to read back is refused, and the record stays as it
was. The prompt (`table`) and the pipe (`pipe`) only turn keys into calls on it and
its values into text; `opening` opens one from `play`'s options.

Values, never sentences: what goes wrong on the way (the index not updated, a kept
game that can no longer be saved) is handed to the session's `report` callback as
a `SessionProblem` (`events`); `ui` turns it into text.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable

from ..errors import InvalidInput, WriteError
from ..formats.records import format_record, meta_nodes, unreadable_reason
from ..players import PlayerSpec
from ..players.evaluation import Evaluation
from ..players.futures import abandon_playouts
from ..players.grade import grade
from ..players.solver import SOLVE_BUDGET, solve
from ..rules import playout
from ..rules.engine import State, state_after
from ..rules.game import Game, NothingToUndo, Step
from ..rules.moves import Move
from ..store.files import RecordFile
from ..store.history import History, HistoryError
from .events import GameOver, MeterReading, ProblemKind, Saved, SessionProblem, Tried, WhereKept
from .hint import ExpertHint, expert_hint
from .history import cheers

DEAL_BUDGET = SOLVE_BUDGET if playout.search_level_in_c is not None else 100_000
"""Positions the end screen's solver may visit: `solve`'s own search with C (a tenth of a second), so the two say
one best; without C a fifth of it (two seconds rather than nine)."""


class RecordRefused(InvalidInput):
    """A move whose record could not be read back; the move was taken back."""


LOOK_AHEAD = 3  # the expert's best moves whose positions the meter works out while the player thinks
PONDER_AFTER = 0.3  # seconds of thought before it looks past the position: a script's quick answers never do


class Session:
    """A game being played, and where it is saved (if anywhere)."""

    def __init__(
        self,
        game: Game,
        record: RecordFile | None = None,
        history: History | None = None,
        *,
        kept: bool = False,
        resumed: bool = False,
        expert: PlayerSpec = PlayerSpec(),
    ) -> None:
        """`kept`: the record is a game kept in the data folder (not a file the user named), so a failing
        write stops the saving, not the game. `resumed`: the record already holds the game so far. `expert`:
        whose evaluations the hint, the meter and the move list show."""
        self.game = game
        self.expert = expert
        self.record = record
        self.history = history if record is not None else None  # where the record is indexed
        self.kept = kept
        self.resumed = resumed
        self._as_resumed = (game.ply, game.undos, game.hints) if resumed else None  # the record holds this much
        self._meta_nodes = meta_nodes(game) if record is not None else 0
        self.problems: list[SessionProblem] = []
        self.report: Callable[[SessionProblem], None] = self.problems.append
        """Where problems go as they happen (`ui` says them); by default they are kept in `problems`."""
        self._pondering = threading.Event()  # set: the look-ahead under way (if any) stops

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.record is not None:
            if self.kept and self.nothing_kept:  # reserved for a game never played, or its moves all taken back
                with contextlib.suppress(OSError):  # (the index forgets it at its next look)
                    if self.record.written or os.stat(self.record.path).st_size == 0:
                        os.unlink(self.record.path)
            else:
                self.index()
            self.record.close()

    def index(self) -> None:
        """Index the record in the history (when kept there); a failing index never stops a game."""
        if self.history is not None and self.record is not None:
            try:
                self.history.remember(self.record.path)
            except (HistoryError, sqlite3.Error, OSError) as error:
                self.report(SessionProblem(ProblemKind.INDEX, error))
                self.history = None

    def save(self) -> None:
        """Write the record (if any); WriteError passes through, but for a kept game, which goes on unsaved."""
        if self.record is not None:
            self._write(format_record(self.game))

    def save_quietly(self) -> str | None:
        """Save as the session ends (Ctrl-C, a failed output): why it could not be, or None. A resumed record
        that nothing was done to is left as it was (a pipe that played no move had marked a prompt's game piped,
        and so hidden it from `--resume` alone)."""
        if self._as_resumed == (self.game.ply, self.game.undos, self.game.hints):
            return None
        try:
            self.save()
        except WriteError as error:
            return str(error)
        return None

    def _write(self, text: str) -> None:
        assert self.record is not None
        try:
            self.record.write(text)
        except WriteError as error:
            if not self.kept:
                raise
            self.report(SessionProblem(ProblemKind.UNSAVED, error))
            self.record.close()
            self.record = self.history = None

    def play(self, move: Move) -> Step:
        """Play and save `move`. IllegalMoveError, or RecordRefused (the move taken back), or WriteError."""
        step = self.game.play(move)
        if self.record is not None:
            text = format_record(self.game)
            reason = unreadable_reason(text, len(self.game.steps) - 1, self._meta_nodes, self.game.hints)
            if reason is not None:
                self.game.steps.pop()
                raise RecordRefused(f"move {step.ply} {str(move)!r} refused: {reason}")
            self._write(text)
        return step

    def play_line(self, moves: tuple[Move, ...]) -> list[Step]:
        """Play the moves of one line (`moves_of_line`: a move, or a shift and its placement), all or none: the
        line is tried on a copy first, so a placement the shift does not allow plays neither."""
        if len(moves) > 1:
            trial = self.game.state.copy()
            for move in moves:
                trial.apply(move)
        return [self.play(move) for move in moves]

    def grade(self) -> str | None:
        """The deal's grade, kept in the record's meta: worked out (a third of a second) for the end screen of
        a game at the prompt; a game played from a pipe is not graded unless its deal was chosen by grade."""
        meta, seed = self.game.meta, self.game.seed
        if not isinstance(meta, dict) or seed is None:
            return None
        if "grade" not in meta:
            meta["grade"] = grade(seed).level
        return str(meta["grade"])

    def add_time(self, seconds: float) -> None:
        """Count `seconds` spent at the prompt in the record's `meta: seconds:` (a game whose meta is ours)."""
        meta = self.game.meta
        if isinstance(meta, dict):
            meta["seconds"] = round(float(meta.get("seconds") or 0) + seconds, 1)

    def undo(self) -> Step:
        """The last move taken back; NothingToUndo at the start, and once the day's first attempt at the daily
        deal has ended: it counts as it ended (a loss undone had been played on to a win, shared as won)."""
        if self.counts_as_ended:
            raise NothingToUndo(
                "the daily deal's first attempt counts as it ended; restart plays it again, as practice"
            )
        step = self.game.undo()
        self.save()
        return step

    @property
    def counts_as_ended(self) -> bool:
        """The day's first attempt at the daily deal, over: it stands as it ended (no undo), whatever else the
        prompt offers."""
        meta = self.game.meta if isinstance(self.game.meta, dict) else {}
        return self.game.state.is_over and bool(meta.get("daily")) and not meta.get("practice")

    @property
    def nothing_kept(self) -> bool:
        """A record was opened for this game, but no move was played (or every one was taken back, in a game
        the history keeps): nothing was kept. An unfinished game of no move in the history was clutter."""
        if self.record is None or self.resumed:
            return False
        return not self.record.written or (self.kept and self.game.ply == 0)

    def where_kept(self) -> WhereKept:
        """Where the game is kept, to say how to go on with it or look back at it."""
        path = self.record.path if self.record is not None else None
        kept = self.kept and self.history is not None and not self.piped
        return WhereKept(self.game.state.is_over, self.nothing_kept, path, format_record(self.game), kept)

    @property
    def piped(self) -> bool:
        """A game of a pipe (`meta: piped: true`): kept, but `--resume` alone never offers it."""
        return isinstance(self.game.meta, dict) and self.game.meta.get("piped") is True

    def saved(self) -> Saved:
        """Save as the session ends (Ctrl-C, a signal, a failed output): why it failed if it did, and where."""
        return Saved(self.save_quietly(), self.where_kept())

    def tried(self, moves: tuple[Move, ...]) -> Tried:
        """What `moves` (a line: a move, or a shift and its placement) would do, played on a copy: the game is
        left as it is. IllegalMoveError when one cannot be played."""
        after = self.game.state.copy()
        effects = [after.apply(move) for move in moves]
        return Tried(Step(-1, moves[-1], effects[-1].card, effects[-1].turned, after))

    def hint(self) -> ExpertHint:
        """The expert's evaluation of the position, taken as a hint: counted in the record, which is saved."""
        said = expert_hint(self.game.state, self.expert)
        self.game.hints += 1
        self.save()
        return said

    def evaluation_of(self, step: Step) -> Evaluation:
        """The evaluation of the position after `step`: the very one `hint` gives there (the same strength, so
        the same futures), worked out once a position (`ExpertPlayer.evaluate` remembers it)."""
        return expert_hint(step.state, self.expert).evaluation

    def look_ahead(self) -> None:
        """While the player thinks at the prompt, the meter's next reading: the position on the board is
        evaluated at once on a thread of its own (the next move's figures and what it gave up are that
        evaluation's, whatever the move), then, after PONDER_AFTER, the positions the expert's best few moves
        lead to (their own hints). Fair: nothing worked out here is shown before the player asks or moves, and
        a position's card is the one already in hand. The thread stops between positions at `stop_looking`."""
        self.stop_looking()
        state = self.game.state
        if not state.is_over:
            stop = self._pondering = threading.Event()
            looking = threading.Thread(target=self._ponder, args=(state.copy(), stop), name="foursquare-meter")
            looking.daemon = True  # a game left while it looks ahead is not kept waiting for it
            looking.start()

    def stop_looking(self, *, abandon: bool = False) -> None:
        """The player has answered: the look-ahead stops (an evaluation it began finishes, and is remembered).
        `abandon`, as the game is left: what it queued is dropped too (`abandon_playouts`), not waited for."""
        self._pondering.set()
        if abandon:
            abandon_playouts()

    def _ponder(self, state: State, stop: threading.Event) -> None:
        try:
            evaluation = expert_hint(state, self.expert).evaluation  # what the next meter line reads
            if stop.wait(PONDER_AFTER):
                return
            for rating in evaluation.distinct()[:LOOK_AHEAD]:
                if stop.is_set():
                    return
                after = state_after(state, rating.move, rating.then)
                if not after.is_over:
                    expert_hint(after, self.expert)
        except Exception:  # a look-ahead is only a saving: the meter works the position out itself
            return

    def meter_reading(self) -> MeterReading | None:
        """The meter (`play --meter`) after the last move: the move's own figures, the chance and expected score
        the expert gave it in the position it was played in (the figures `hint` listed for it there, worked out
        while the player thought, so the line comes at once whatever the move), and what it gave up against the
        expert's best there, from that one evaluation; the move that ends the game too. A shift is free (the
        position is the same, slid), so after one the figures the line before it showed, nothing given up (an
        outside try: showing the position's own best there moved the figure of a move that changed nothing).
        After the first card, or a move with no choice (every move leading to one position), only the figures.
        At the start (an undo back to it), the position's own figures."""
        steps = self.game.steps
        last = steps[-1]
        if last.move is not None and last.move.is_shift and not last.state.is_over:
            placed = len(steps) - 1
            while placed > 0 and (moved := steps[placed].move) is not None and moved.is_shift:
                placed -= 1  # the shifts before it were free too
            before = self._reading_after(steps, placed)
            return MeterReading(before.now if before is not None else self.evaluation_of(last).best, free_shift=True)
        return self._reading_after(steps, len(steps) - 1)

    def _reading_after(self, steps: list[Step], index: int) -> MeterReading | None:
        step = steps[index]
        if index == 0:
            return None if step.state.is_over else MeterReading(self.evaluation_of(step).best)
        assert step.move is not None  # every step after the start is a move's
        before = self.evaluation_of(steps[index - 1])  # after a shift: the position it opened, as the player sees it
        played = before.find(step.move) or before.leading_to(step.state)  # the move as typed, else where it led
        if played is None:  # no rating leads there: the position's own figures
            return None if step.state.is_over else MeterReading(self.evaluation_of(step).best)
        if index == 1 or len(before.distinct()) == 1:
            return MeterReading(played)  # the first card (any cell alike), or no choice: no expert's move to speak of
        return MeterReading(played, played, before.best, before.lost_by(played), gained=before.gained_by(played))

    def game_over(self, looking_back: bool = True) -> GameOver:
        """The end screen: the game's figures and how to look back at it, its grade kept in the record; with
        `looking_back`, what it earned among the kept games and what the deal allowed (the solver, quickly)."""
        game = self.game
        graded = self.grade()
        if graded is not None and self.record is not None and self.record.written:
            self.save()  # the grade, kept in the record for the history
        won = game.state.outcome.score is not None
        day = game.meta.get("daily") if isinstance(game.meta, dict) else None
        earned = []
        if looking_back and won and self.history is not None and self.record is not None:
            self.index()
            earned = cheers(game, self.history, self.record.path)
        return GameOver(
            state=game.state,
            ply=game.ply,
            undos=game.undos,
            hints=game.hints,
            grade=graded,
            daily=str(day) if day else None,
            practice=isinstance(game.meta, dict) and game.meta.get("practice") is True,
            seed=game.seed,
            cheers=earned,
            potential=solve(game.deck, budget=DEAL_BUDGET, known=[game.moves] if won else []) if looking_back else None,
            where=self.where_kept(),
            counted=self.counts_as_ended,
        )

    def leave(self) -> WhereKept:
        """The game left (`quit`, the end of input): the time played since the last move saved; where it is."""
        if self.record is not None and self.record.written:
            self.save()
        return self.where_kept()
