"""Post-game analysis: where a game was won or lost, move by move.

For every move of a game, the position before it has its one evaluation
(`ExpertPlayer.evaluate`, the very one the meter and `hint` show there): the move played
and the expert's best are read from it, so each move has one figure, and what it gave up
is the best's figure less its own (`Evaluation.lost_by`, from the figures as shown: a
move shown as high as the best gave up nothing). A shift is judged with the placement it
was made for, which alone is marked (a shift is free). The drop gives the move its mark:

- while the win is not safe (the best move's chance under 90%), the drop in the chance
  to win: `?!` (inaccuracy) when at least 3 points and an eighth of the best's chance,
  `?` (mistake) at least 6 points and a quarter, `??` (blunder) at least 10 points and
  40% of it;
- once the win is safe, the drop in the expected score, a lost future counting 0, so
  that it prices the chance lost with the score: `?!` at least 1 point, `?` at least 2,
  `??` at least 4. (The expert wins nearly every deal, so most positions are safe, and
  most marks are priced by the points of score a move costs.)

A move the expert did not choose but whose expected score is shown above its choice's is
marked good (`!`). The accuracy of a game is the share of the moves with a choice where
the move gave up nothing (as lichess counts it): following every hint is 100%. For a lost
game, the solver (which knows the stock) looks back from the end for the last position
from which a win was still possible: the move after it lost the game for good.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from typing import Any, NamedTuple

from ..errors import FoursquareError
from ..formats.lines import STDIN, ReadError, read_bytes
from ..formats.records import load
from ..formats.source import Problem
from ..players import PlayerSpec
from ..players.evaluation import Evaluation, Loss, Rating
from ..players.expert import ExpertPlayer, evaluator_of
from ..players.solver import SOLVE_BUDGET, Solution, SolveStatus, solve, winning_game
from ..rules.cards import Card
from ..rules.game import Game, Step
from ..rules.moves import Move
from ..rules.outcomes import Status
from ..store.history import History
from .deal_best import best_of_deal
from .executor import run_in_order

SAFE = 0.9  # a chance to win from which the win counts as safe


class Mark(enum.StrEnum):
    INACCURACY = "?!"
    MISTAKE = "?"
    BLUNDER = "??"
    GOOD = "!"  # not the expert's move, but one shown with a higher expected score than the expert's own


# (mark, points of chance to win lost, share of the best's chance lost), worst first
CHANCE_MARKS = ((Mark.BLUNDER, 10, 0.4), (Mark.MISTAKE, 6, 0.25), (Mark.INACCURACY, 3, 0.125))
# (mark, points of expected score lost) once the win is safe, worst first
SCORE_MARKS = ((Mark.BLUNDER, 4.0), (Mark.MISTAKE, 2.0), (Mark.INACCURACY, 1.0))


class Estimate(NamedTuple):
    """A move and the expert's figures for it, as every screen shows them: chance to win, expected score, and
    the futures behind them."""

    move: Move | None
    then: Move | None
    chance: float
    expected: float
    futures: int

    @classmethod
    def of(cls, rating: Rating) -> Estimate:
        return cls(rating.move, rating.then, rating.chance, rating.expected, rating.samples)

    @property
    def name(self) -> str:
        return str(self.move) + (f", then {self.then}" if self.then is not None else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "move": None if self.move is None else str(self.move),
            "then": None if self.then is None else str(self.then),
            "win_rate": round(self.chance, 4),
            "expected_score": round(self.expected, 3),
            "futures": self.futures,
        }


class MoveAnalysis(NamedTuple):
    ply: int
    move: Move
    played: Estimate  # the move played (a shift with its placement), from the position's evaluation
    best: Estimate  # the expert's best there: the position's figures, as the meter and hint show them
    lost: Loss  # what the move gave up against the best
    mark: Mark | None
    choice: bool  # a move counted in the accuracy: it could have been another (a shift counts with its placement)
    agreed: bool  # the move played was the expert's own, or one that leads to the same position

    def to_json(self) -> dict[str, Any]:
        """A move's line of `analyze --format json`."""
        return {
            "type": "move",
            "ply": self.ply,
            "move": str(self.move),
            "mark": None if self.mark is None else str(self.mark),
            "agreed": self.agreed,
            "given_up": {"expected_score": self.lost.points, "win_rate": round(self.lost.chance / 100, 4)},
            "played": self.played.to_json(),
            "best": self.best.to_json(),
        }


class AnalysisSummary(NamedTuple):
    path: str  # the file analysed
    status: Status
    score: int | None
    moves: int
    marks: dict[str, int]
    accuracy: float | None
    start: Estimate | None  # the expert's figures before the first move
    now: Estimate | None  # a game not over: the expert's figures where it stands
    best_score: int | None  # the best score the solver found for the deal
    best_score_proven: bool
    lost_after: int | None  # a lost game: the move after which no win was possible
    lost_at_best: Estimate | None  # what the expert would have played there
    lost_by_the_best: bool  # the move that lost it for good was the expert's own: the stock, not the move
    solution: Game | None  # the solver's winning line

    def to_json(self) -> dict[str, Any]:
        """The summary line of `analyze --format json` and of `analyze --results`."""
        return {
            "type": "summary",
            "path": self.path,
            "status": str(self.status),
            "score": self.score,
            "moves": self.moves,
            "best_score": self.best_score,
            "best_score_proven": self.best_score_proven,
            "marks": self.marks,
            "accuracy": self.accuracy,
            "start": None if self.start is None else self.start.to_json(),
            "now": None if self.now is None else self.now.to_json(),
            "lost_after": self.lost_after,
            "lost_at_best": None if self.lost_at_best is None else self.lost_at_best.to_json(),
        }


def mark_of(best: Estimate, lost: Loss) -> Mark | None:
    """The mark a move earns by what it gave up against the best move (see the module's docstring)."""
    if best.chance >= SAFE:
        return next((mark for mark, points in SCORE_MARKS if lost.points >= points), None)
    share = lost.chance / (best.chance * 100) if best.chance > 0 else 0.0
    return next((mark for mark, points, part in CHANCE_MARKS if lost.chance >= points and share >= part), None)


def judged(evaluation: Evaluation, steps: list[Step], index: int) -> Rating:
    """The rating the move of `steps[index]` stands for in its position's evaluation: a placement's own; a
    shift's (shifts are free) the placement the player made after it, found by the position it leads to; a
    shift no placement followed (the record ends there), the best of that shift, or the best."""
    following = next((step for step in steps[index:] if step.card is not None), None)
    move = steps[index].move
    assert move is not None
    found = evaluation.leading_to(following.state) if following is not None else evaluation.find(move)
    return found or evaluation.best


def analyze_moves(game: Game, expert: ExpertPlayer) -> Iterator[MoveAnalysis]:
    """Each move of `game` (its steps), analysed in turn from its position's evaluation (see the module's
    docstring)."""
    steps = game.steps
    for index in range(1, len(steps)):
        state, step = steps[index - 1].state, steps[index]
        assert step.move is not None
        evaluation = expert.evaluate(state)
        best = evaluation.best
        played = judged(evaluation, steps, index)
        lost = evaluation.lost_by(played)
        agreed = evaluation.is_best(played)
        before_a_placement = step.card is None and any(later.card is not None for later in steps[index:])
        choice = len(evaluation.distinct()) > 1 and not before_a_placement
        if agreed or before_a_placement:  # a shift is free: its placement, judged where it was made, is marked
            mark = None
        elif lost.nothing and not evaluation.gained_by(played).nothing:  # shown above the best: the meter's words
            mark = Mark.GOOD
        else:
            mark = mark_of(Estimate.of(best), lost)
        yield MoveAnalysis(step.ply, step.move, Estimate.of(played), Estimate.of(best), lost, mark, choice, agreed)


def lost_for_good(game: Game, budget: int = SOLVE_BUDGET // 2) -> int | None:
    """For a lost game, the ply after which no win was possible even knowing the stock; None if unknown.

    Looks back from the end: the first position the solver proves winnable is the
    last one from which a win was possible; if it gives up on a position first,
    the answer is not known.
    """
    if game.state.status is not Status.LOST:
        return None
    for step in reversed(game.steps[:-1]):
        solution = solve(step.state, budget=budget)
        if solution.status is SolveStatus.WINNABLE:
            return step.ply + 1
        if solution.status is SolveStatus.GAVE_UP:
            return None
    return 1  # no position of the game, the first included, could be won


def summary_of_analysis(
    game: Game,
    moves: list[MoveAnalysis],
    deal_solution: Solution,
    lost_after: int | None,
    path: str = "",
    now: Estimate | None = None,
) -> AnalysisSummary:
    marks = {str(mark): sum(1 for m in moves if m.mark is mark) for mark in Mark}
    choices = [m for m in moves if m.choice]
    accuracy = sum(m.lost.nothing for m in choices) / len(choices) if choices else None
    outcome = game.state.outcome
    there = moves[lost_after - 1] if lost_after is not None and lost_after <= len(moves) else None
    return AnalysisSummary(
        path=path,
        status=outcome.status,
        score=outcome.score,
        moves=len(moves),
        marks=marks,
        accuracy=accuracy,
        start=moves[0].best if moves else None,
        now=now,
        best_score=deal_solution.score,
        best_score_proven=deal_solution.proven,
        lost_after=lost_after,
        lost_at_best=there.best if there is not None else None,
        lost_by_the_best=there is not None and there.lost.nothing,
        solution=winning_game(game.deck, game.seed, deal_solution),
    )


def analyze(
    game: Game,
    expert: ExpertPlayer,
    solve_budget: int = SOLVE_BUDGET,
    progress: Callable[[int], None] | None = None,
    path: str = "",
    known: Sequence[Sequence[Move]] = (),
) -> tuple[list[MoveAnalysis], AnalysisSummary]:
    """The whole analysis of a game: each move, then the summary (with the solver's best for the deal)."""
    moves = []
    for analysed in analyze_moves(game, expert):
        moves.append(analysed)
        if progress is not None:
            progress(len(moves))
    played = [game.moves] if game.state.status is Status.WON else []  # its best is never below the score played
    deal_solution = best_of_deal(game.deck, budget=solve_budget, known=[*played, *known])
    if progress is not None:  # the two searches after the moves are steps of the bar too (it had sat at its end)
        progress(len(moves) + 1)
    lost_after = lost_for_good(game, max(1, solve_budget // 2))
    if progress is not None:
        progress(len(moves) + 2)
    now = None if game.state.is_over else Estimate.of(expert.evaluate(game.state).best)
    return moves, summary_of_analysis(game, moves, deal_solution, lost_after, path, now)


class Request(NamedTuple):
    """What to analyse and how: one task of `analyze`, picklable for worker processes."""

    path: str
    seed: int | None
    deck: tuple[Card, ...] | None
    expert: PlayerSpec
    solve_budget: int = SOLVE_BUDGET
    data: bytes | None = None  # the file's bytes, when read before (standard input, for a worker)
    kept: bool = False  # the deal's search also starts from its games won and kept in the history, as `solve`


class FileAnalysis(NamedTuple):
    """A file's analysis: the file's problems, the game as far as it was legal, each move and the summary;
    or the error that kept the file from being read (then nothing else)."""

    path: str
    problems: list[Problem]
    game: Game | None
    moves: list[MoveAnalysis]
    summary: AnalysisSummary | None
    error: FoursquareError | None = None


SOLVER_STEPS = 2  # after the moves: the deal's best, then when the game was lost for good


def analyze_file(request: Request, progress: Callable[[int, int], None] | None = None) -> FileAnalysis:
    """Read and analyse one file: the one call `analyze` makes per file (in a worker, with --jobs).

    `progress(steps done, steps)` after each move and each of the solver's two searches (`SOLVER_STEPS`),
    when the caller draws a bar. A
    file that cannot be read (or a deal that contradicts it) is returned as the
    error, so a run goes on to the next file.
    """
    try:
        verdict = load(request.path, seed=request.seed, deck=request.deck, data=request.data)
    except FoursquareError as error:
        return FileAnalysis(request.path, [], None, [], None, error)
    game = verdict.game
    if game is None:
        return FileAnalysis(request.path, verdict.problems, None, [], None)
    known: list[list[Move]] = []
    if request.kept and game.seed is not None:
        with closing(History()) as history:
            known = history.won_lines(game.seed)
    moves, summary = analyze(
        game,
        evaluator_of(request.expert),
        solve_budget=request.solve_budget,
        progress=None if progress is None else lambda done: progress(done, game.ply + SOLVER_STEPS),
        path=request.path,
        known=known,
    )
    return FileAnalysis(request.path, verdict.problems, game, moves, summary)


def analyze_files(
    requests: list[Request], jobs: int = 1, progress: Callable[[int, int], None] | None = None
) -> Iterator[FileAnalysis]:
    """Each file's analysis, in order: one file in this process (`progress(steps done, steps)` after each
    move and search), several in up to `jobs` worker processes (`progress(files done, files)` after each file)."""
    if len(requests) == 1:
        yield analyze_file(requests[0], progress)
        return
    requests = [_with_stdin_read(request) for request in requests]  # a worker's standard input is not ours
    for done, analysis in enumerate(run_in_order(analyze_file, requests, jobs), start=1):
        if progress is not None:
            progress(done, len(requests))
        yield analysis


def _with_stdin_read(request: Request) -> Request:
    if request.path != STDIN or request.data is not None:
        return request
    try:
        return request._replace(data=read_bytes(STDIN))
    except ReadError:
        return request  # the worker reports it, in the file's turn
