"""Post-game analysis: where a game was won or lost, move by move.

For every move of a game, the expert rates the position before it (every candidate
move, by successive halving) and then compares the move played with its own best
move on the same futures (a fifth of the budget each, at least 100), so the two
figures are measured alike.
The drop from the best to the move played gives the move its mark:

- while the win is not safe, the drop in the chance to win: `?!` (inaccuracy) when
  at least 3 points and an eighth of the best's chance, `?` (mistake) at least 6
  points and a quarter, `??` (blunder) at least 10 points and 40% of it;
- once the win is safe (both chances at least 90%), the drop in the expected
  score: `?!` at least 1 point, `?` at least 2, `??` at least 4.

The accuracy of a game is the share of the moves with a choice (more than one
candidate) where the player chose the expert's move. For a lost game, the solver
(which knows the stock) looks back from the end for the last position from which a
win was still possible: the move after it lost the game for good.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from .cards import Card
from .engine import Move, State, Status, play
from .game import Game
from .players import Candidate, ExpertPlayer, Rating, Strength, candidates_of
from .solver import Solution, SolveStatus, solve


def compared_futures(expert: ExpertPlayer) -> int:
    """Futures the move played and the best move are each measured on: a fifth of the budget, 100 at least."""
    return max(100, expert.playouts // 5)


SAFE = 0.9  # a chance to win from which the win counts as safe
SOLVE_BUDGET = 400_000  # positions the solver may visit for the deal's best score (a count, so figures repeat)


class Mark(enum.StrEnum):
    INACCURACY = "?!"
    MISTAKE = "?"
    BLUNDER = "??"


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

    def as_dict(self) -> dict[str, Any]:
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
    position: Estimate  # the position before the move: its best move's figures
    played: Estimate
    best: Estimate
    mark: Mark | None
    choice: bool  # more than one candidate: the move could have been another
    agreed: bool  # the move played was the expert's own


class Summary(NamedTuple):
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


def mark_of(best: Estimate, played: Estimate) -> Mark | None:
    """The mark a move earns by what it lost against the best move (see the module's docstring)."""
    if best.win_rate >= SAFE and played.win_rate >= SAFE:
        lost = best.expected_score - played.expected_score
        return next((mark for mark, points in SCORE_MARKS if lost >= points), None)
    lost = best.win_rate - played.win_rate
    share = lost / best.win_rate if best.win_rate > 0 else 0.0
    return next((mark for mark, points, part in CHANCE_MARKS if lost >= points and share >= part), None)


def _estimate(rating: Rating) -> Estimate:
    return Estimate(rating.move, rating.then, rating.win_rate, rating.expected_score, rating.samples)


def _candidate_for(state: State, move: Move, candidates: list[Candidate], expert: ExpertPlayer) -> Candidate:
    """The expert's candidate the move played stands for: a placement, or a shift with its best placement."""
    if not move.is_shift:
        return Candidate(move, move)
    shifted = [c for c in candidates if c.move == move]
    if shifted:
        best = max(expert.compare(state, shifted, compared_futures(expert) // 4), key=lambda rating: rating.value)
        return Candidate(move, best.then if best.then is not None else move)
    after = play(state, move)
    return Candidate(move, candidates_of(after)[0].placement)


def analyze_moves(game: Game, expert: ExpertPlayer) -> Iterator[MoveAnalysis]:
    """Each move of `game` (its steps), analysed in turn."""
    for before, step in zip(game.steps, game.steps[1:], strict=False):
        state = before.state
        assert step.move is not None
        candidates = candidates_of(state)
        ratings = expert.rate(state)
        best = ratings[0]
        choice = len(candidates) > 1
        played_candidate = _candidate_for(state, step.move, candidates, expert)
        best_candidate = Candidate(best.move, best.then if best.then is not None else best.move)
        agreed = played_candidate == best_candidate or (step.move == best.move and step.move.is_shift)
        if not choice:
            only = _estimate(best)
            yield MoveAnalysis(step.ply, step.move, only, only, only, None, False, True)
            continue
        measured = expert.compare(state, [best_candidate, played_candidate], compared_futures(expert))
        best_estimate = _estimate(measured[0])
        played_estimate = best_estimate if agreed else _estimate(measured[1])
        mark = None if agreed else mark_of(best_estimate, played_estimate)
        yield MoveAnalysis(step.ply, step.move, best_estimate, played_estimate, best_estimate, mark, True, agreed)


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


def summarize(game: Game, moves: list[MoveAnalysis], deal_solution: Solution, lost_after: int | None) -> Summary:
    from .solver import winning_game

    marks = {str(mark): sum(1 for m in moves if m.mark is mark) for mark in Mark}
    choices = [m for m in moves if m.choice]
    accuracy = sum(m.agreed for m in choices) / len(choices) if choices else None
    outcome = game.state.outcome
    lost_at_best = moves[lost_after - 1].best if lost_after is not None and lost_after <= len(moves) else None
    return Summary(
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
) -> tuple[list[MoveAnalysis], Summary]:
    """The whole analysis of a game: each move, then the summary (with the solver's best for the deal)."""
    moves = []
    for analysed in analyze_moves(game, expert):
        moves.append(analysed)
        if progress is not None:
            progress(len(moves))
    deal_solution = solve(game.deck, budget=solve_budget, timeout=None)
    return moves, summarize(game, moves, deal_solution, lost_for_good(game, max(1, solve_budget // 2)))


class Report(NamedTuple):
    """A file's analysis as the command prints it: its standard output, its lines for standard error,
    its exit code, and the solver's line as a record (for --solution)."""

    out: str
    err: list[str]
    code: int
    solution: str | None


class Request(NamedTuple):
    """What to analyse and how: one task of `analyze`, picklable for worker processes."""

    path: str
    seed: int | None
    deck: tuple[Card, ...] | None
    seed_of_expert: int
    strength: Strength
    json_output: bool
    boards: bool
    solve_budget: int = SOLVE_BUDGET


def report(request: Request, progress: Callable[[int, int], None] | None = None) -> Report:
    """Read, analyse and print one file: the one call `analyze` makes per file (in a worker, with --jobs).

    `progress(moves done, moves)` after each move, when the caller draws a bar.
    """
    from .board import (
        analysis_heading,
        analysis_line,
        analysis_move_json,
        analysis_summary,
        analysis_summary_json,
        game_summary,
        json_line,
        problem_line,
        render_step,
    )
    from .records import DealConflict, NoDeal, ReadError, display_name, format_record, load

    name = display_name(request.path)
    try:
        verdict = load(request.path, seed=request.seed, deck=request.deck)
    except (ReadError, DealConflict, NoDeal) as error:
        return Report("", [f"{name}: {error}"], 2, None)
    errors = [problem_line(name, problem) for problem in verdict.problems]
    if verdict.game is None:
        return Report("", errors, 1, None)
    game = verdict.game
    expert = ExpertPlayer(request.seed_of_expert, request.strength.playouts, request.strength.think)
    moves, summary = analyze(
        game,
        expert,
        solve_budget=request.solve_budget,
        progress=None if progress is None else lambda done: progress(done, game.ply),
    )
    parts: list[str] = []
    if request.json_output:
        parts.extend(json_line(analysis_move_json(m)) for m in moves)
        parts.append(json_line(analysis_summary_json(request.path, summary)))
    else:
        parts.append(analysis_heading(name, game_summary(game.state, game.ply, game.undos)) + "\n")
        for analysed in moves:
            parts.append(analysis_line(analysed) + "\n")
            if request.boards or analysed.mark is not None:
                parts.append(render_step(game.steps[analysed.ply]) + "\n")
        parts.append(analysis_summary(summary) + "\n")
    solution = format_record(summary.solution) if summary.solution is not None else None
    return Report("".join(parts), errors, 1 if errors else 0, solution)
