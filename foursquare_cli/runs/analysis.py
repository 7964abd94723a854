"""Post-game analysis: where a game was won or lost, move by move.

For every move of a game, the expert rates the position before it (every candidate
move, by successive halving) and then compares the move played with its own best
move on the same futures (a fifth of the budget each, at least 100), so the two
figures are measured alike. Every figure is on the expert's own scale, as the meter
and `hint` show it (`players.calibration`): the chance that the expert, playing on,
wins, and the score it then gets; the position's figures are the very ratings the
meter and `hint` give there.
The drop from the best to the move played gives the move its mark:

- while the win is not safe, the drop in the chance to win: `?!` (inaccuracy) when
  at least 3 points and an eighth of the best's chance, `?` (mistake) at least 6
  points and a quarter, `??` (blunder) at least 10 points and 40% of it;
- once the win is safe (the best move's chance at least 90%), the drop in the
  expected score, a lost future counting 0, so that it prices the chance lost with
  the score: `?!` at least 1 point, `?` at least 2, `??` at least 4. (The expert
  wins nearly every deal, so most positions are safe, and most marks are priced by
  the points of score a move costs: three cards more face down early in a game
  rarely cost the game, but often cost three points.)

The accuracy of a game is the share of the moves with a choice (more than one
candidate) where the player chose the expert's move. For a lost game, the solver
(which knows the stock) looks back from the end for the last position from which a
win was still possible: the move after it lost the game for good.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from ..errors import FoursquareError
from ..formats.lines import STDIN, ReadError, read_bytes
from ..formats.records import load
from ..formats.source import Problem
from ..players import PlayerSpec
from ..players.expert import Candidate, ExpertPlayer, Rating, candidates_of
from ..players.solver import Solution, SolveStatus, solve, winning_game
from ..rules.cards import Card
from ..rules.engine import State, Status, state_after
from ..rules.game import Game
from ..rules.moves import Move
from .executor import run_in_order


def compared_futures(expert: ExpertPlayer) -> int:
    """Futures the move played and the best move are each measured on: a fifth of the budget, 100 at least."""
    return max(100, expert.playouts // 5)


SAFE = 0.9  # a chance to win from which the win counts as safe
SOLVE_BUDGET = 400_000  # positions the solver may visit for the deal's best score (a count, so figures repeat)


class Mark(enum.StrEnum):
    INACCURACY = "?!"
    MISTAKE = "?"
    BLUNDER = "??"
    GOOD = "!"  # not the expert's move, but one the same futures rate at least as high


# (mark, points of chance to win lost, share of the best's chance lost), worst first
CHANCE_MARKS = ((Mark.BLUNDER, 0.10, 0.4), (Mark.MISTAKE, 0.06, 0.25), (Mark.INACCURACY, 0.03, 0.125))
# (mark, points of expected score lost) once the win is safe, worst first
SCORE_MARKS = ((Mark.BLUNDER, 4.0), (Mark.MISTAKE, 2.0), (Mark.INACCURACY, 1.0))


class Estimate(NamedTuple):
    """A move and the expert's figures for it: chance to win, expected score, and the futures behind them."""

    move: Move | None
    then: Move | None
    win_rate: float
    expected_score: float
    futures: int

    def to_json(self) -> dict[str, Any]:
        return {
            "move": None if self.move is None else str(self.move),
            "then": None if self.then is None else str(self.then),
            "win_rate": round(self.win_rate, 4),
            "expected_score": round(self.expected_score, 3),
            "futures": self.futures,
        }


class MoveAnalysis(NamedTuple):
    ply: int
    move: Move
    position: Estimate  # the position before the move: its best move's figures, as the meter and hint show them
    played: Estimate
    best: Estimate
    mark: Mark | None
    choice: bool  # more than one candidate: the move could have been another
    agreed: bool  # the move played was the expert's own

    def to_json(self) -> dict[str, Any]:
        """A move's line of `analyze --format json`."""
        return {
            "type": "move",
            "ply": self.ply,
            "move": str(self.move),
            "mark": None if self.mark is None else str(self.mark),
            "agreed": self.agreed,
            "position": self.position.to_json(),
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
    start: Estimate | None  # the expert's estimate before the first move
    best_score: int | None  # the best score the solver found for the deal
    best_score_proven: bool
    lost_after: int | None  # a lost game: the move after which no win was possible
    lost_at_best: Estimate | None  # what the expert would have played there
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
            "lost_after": self.lost_after,
            "lost_at_best": None if self.lost_at_best is None else self.lost_at_best.to_json(),
        }


def mark_of(best: Estimate, played: Estimate) -> Mark | None:
    """The mark a move earns by what it lost against the best move (see the module's docstring)."""
    if best.win_rate >= SAFE:
        lost = best.expected_score - played.expected_score
        return next((mark for mark, points in SCORE_MARKS if lost >= points), None)
    lost = best.win_rate - played.win_rate
    share = lost / best.win_rate if best.win_rate > 0 else 0.0
    return next((mark for mark, points, part in CHANCE_MARKS if lost >= points and share >= part), None)


def _estimate(rating: Rating) -> Estimate:
    """A rating's figures as the tool shows them everywhere: the expert's chance and score (`calibration`)."""
    return Estimate(rating.move, rating.then, rating.chance, rating.expected, rating.samples)


def _candidate_for(
    state: State, move: Move, following: Move | None, candidates: list[Candidate], expert: ExpertPlayer
) -> Candidate:
    """The expert's candidate the move played stands for: a placement; a shift with the placement the player
    made after it (a shift costs nothing: it is judged with the placement it was made for); a shift the game
    did not follow with a placement, with its best placement."""
    if not move.is_shift:
        return Candidate(move, move)
    if following is not None and following.is_placement:
        return Candidate(move, following)
    shifted = [c for c in candidates if c.move == move]
    if shifted:
        best = max(expert.compare(state, shifted, compared_futures(expert) // 4), key=lambda rating: rating.value)
        return Candidate(move, best.then if best.then is not None else move)
    after = state_after(state, move)
    return Candidate(move, candidates_of(after)[0].placement)


def analyze_moves(game: Game, expert: ExpertPlayer) -> Iterator[MoveAnalysis]:
    """Each move of `game` (its steps), analysed in turn.

    The move played and the expert's own move (its choice there, always) are measured on the same futures;
    a move played that those futures rate at least as high as the expert's is marked good (`!`), one that
    loses enough against it is marked by what it lost (`mark_of`).
    """
    steps = game.steps
    for index in range(1, len(steps)):
        state, step = steps[index - 1].state, steps[index]
        assert step.move is not None
        following = steps[index + 1].move if index + 1 < len(steps) else None
        candidates = candidates_of(state)
        ratings = expert.rate(state)
        best = ratings[0]
        choice = len(candidates) > 1
        played_candidate = _candidate_for(state, step.move, following, candidates, expert)
        best_candidate = Candidate(best.move, best.then if best.then is not None else best.move)
        agreed = played_candidate == best_candidate or (step.move == best.move and step.move.is_shift)
        if not choice:
            only = _estimate(best)
            yield MoveAnalysis(step.ply, step.move, only, only, only, None, False, True)
            continue
        measured = expert.compare(state, [best_candidate, played_candidate], compared_futures(expert))
        best_estimate = _estimate(measured[0])
        played_estimate = best_estimate if agreed else _estimate(measured[1])
        if agreed:
            mark = None
        elif measured[1].value >= measured[0].value:
            mark = Mark.GOOD  # the figures rate it at least as high as the expert's own: good, not a difference
        else:
            mark = mark_of(best_estimate, played_estimate)
        # the position's figures are the ones the meter and `hint` show there (the same ratings)
        yield MoveAnalysis(step.ply, step.move, _estimate(best), played_estimate, best_estimate, mark, True, agreed)


def lost_for_good(game: Game, budget: int = SOLVE_BUDGET // 2) -> int | None:
    """For a lost game, the ply after which no win was possible even knowing the stock; None if unknown.

    Looks back from the end: the first position the solver proves winnable is the
    last one from which a win was possible; if it gives up on a position first,
    the answer is not known.
    """
    if game.state.status is not Status.LOST:
        return None
    for step in reversed(game.steps[:-1]):
        solution = solve(step.state, budget=budget, timeout=None)
        if solution.status is SolveStatus.WINNABLE:
            return step.ply + 1
        if solution.status is SolveStatus.GAVE_UP:
            return None
    return 1  # no position of the game, the first included, could be won


def summary_of_analysis(
    game: Game, moves: list[MoveAnalysis], deal_solution: Solution, lost_after: int | None, path: str = ""
) -> AnalysisSummary:
    marks = {str(mark): sum(1 for m in moves if m.mark is mark) for mark in Mark}
    choices = [m for m in moves if m.choice]
    accuracy = sum(m.agreed or m.mark is Mark.GOOD for m in choices) / len(choices) if choices else None
    outcome = game.state.outcome
    lost_at_best = moves[lost_after - 1].best if lost_after is not None and lost_after <= len(moves) else None
    return AnalysisSummary(
        path=path,
        status=outcome.status,
        score=outcome.score,
        moves=len(moves),
        marks=marks,
        accuracy=accuracy,
        start=moves[0].position if moves else None,
        best_score=deal_solution.score,
        best_score_proven=deal_solution.proven,
        lost_after=lost_after,
        lost_at_best=lost_at_best,
        solution=winning_game(game.deck, game.seed, deal_solution),
    )


def analyze(
    game: Game,
    expert: ExpertPlayer,
    solve_budget: int = SOLVE_BUDGET,
    progress: Callable[[int], None] | None = None,
    path: str = "",
) -> tuple[list[MoveAnalysis], AnalysisSummary]:
    """The whole analysis of a game: each move, then the summary (with the solver's best for the deal)."""
    moves = []
    for analysed in analyze_moves(game, expert):
        moves.append(analysed)
        if progress is not None:
            progress(len(moves))
    deal_solution = solve(game.deck, budget=solve_budget, timeout=None)
    lost_after = lost_for_good(game, max(1, solve_budget // 2))
    return moves, summary_of_analysis(game, moves, deal_solution, lost_after, path)


class Request(NamedTuple):
    """What to analyse and how: one task of `analyze`, picklable for worker processes."""

    path: str
    seed: int | None
    deck: tuple[Card, ...] | None
    expert: PlayerSpec
    solve_budget: int = SOLVE_BUDGET
    data: bytes | None = None  # the file's bytes, when read before (standard input, for a worker)


class FileAnalysis(NamedTuple):
    """A file's analysis: the file's problems, the game as far as it was legal, each move and the summary;
    or the error that kept the file from being read (then nothing else)."""

    path: str
    problems: list[Problem]
    game: Game | None
    moves: list[MoveAnalysis]
    summary: AnalysisSummary | None
    error: FoursquareError | None = None


def analyze_file(request: Request, progress: Callable[[int, int], None] | None = None) -> FileAnalysis:
    """Read and analyse one file: the one call `analyze` makes per file (in a worker, with --jobs).

    `progress(moves done, moves)` after each move, when the caller draws a bar. A
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
    moves, summary = analyze(
        game,
        ExpertPlayer.from_spec(request.expert),
        solve_budget=request.solve_budget,
        progress=None if progress is None else lambda done: progress(done, game.ply),
        path=request.path,
    )
    return FileAnalysis(request.path, verdict.problems, game, moves, summary)


def analyze_files(
    requests: list[Request], jobs: int = 1, progress: Callable[[int, int], None] | None = None
) -> Iterator[FileAnalysis]:
    """Each file's analysis, in order: one file in this process (`progress(moves done, moves)` after each
    move), several in up to `jobs` worker processes (`progress(files done, files)` after each file)."""
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
