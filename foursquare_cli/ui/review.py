"""`analyze`'s text and JSON: a game move by move, its marks, and what the solver says of the deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import AlreadySaid, ProblemsSaid, UnreadableSaid, UsageError, display_name
from ..formats.protocol import json_line
from ..rules.engine import Status
from .board import render, render_step
from .reports import game_summary, percent, problem_line

if TYPE_CHECKING:
    from ..runs.analysis import AnalysisSummary, Estimate, FileAnalysis, MoveAnalysis


def _figures(estimate: Estimate) -> str:
    return f"{percent(estimate.win_rate):>4} {estimate.expected_score:>5.1f}"


def analysis_heading(name: str, game_line: str) -> str:
    return (
        f"Analysis of {name}: {game_line}\n"
        f"{'move':>5}  {'played':<14}{'mark':<5} {'chance  exp.':>12}   {'expert':<16}{'chance  exp.':>12}"
    )


def analysis_line(analysed: MoveAnalysis) -> str:
    """One move: what was played, its mark, its figures, and the expert's move and figures."""
    mark = str(analysed.mark) if analysed.mark is not None else ""
    best = analysed.best
    expert = "same" if analysed.agreed else str(best.move) + (f", {best.then}" if best.then is not None else "")
    return (
        f"{analysed.ply:>5}  {str(analysed.move):<14}{mark:<5} {_figures(analysed.played):>12}   "
        f"{expert:<16}{_figures(best):>12}"
    )


def analysis_summary(summary: AnalysisSummary) -> str:
    marks = ", ".join(f"{count} {mark}" for mark, count in summary.marks.items() if count) or "no marks"
    lines = [f"Result: {summary.status}" + (f", score {summary.score}" if summary.score is not None else "")]
    if summary.start is not None:
        lines.append(
            f"Before the first move the expert gave the deal {percent(summary.start.win_rate)} "
            f"(expected score {summary.start.expected_score:.1f}; {summary.start.futures} futures)."
        )
    accuracy = f"{summary.accuracy:.0%}" if summary.accuracy is not None else "-"
    lines.append(f"Marks: {marks}. Accuracy (moves with a choice where you played the expert's move): {accuracy}.")
    if summary.lost_after is not None:
        there = summary.lost_at_best
        suggestion = f"; the expert would have played {there.move} there" if there is not None else ""
        lines.append(f"The game was lost for good at move {summary.lost_after}{suggestion}.")
    elif summary.status is Status.LOST:
        lines.append("When the game was lost for good is not known: the solver gave up on a position.")
    if summary.best_score is not None:
        proven = "proven best" if summary.best_score_proven else "not proven best"
        lines.append(f"The solver's best score for this deal, knowing the stock: {summary.best_score} ({proven}).")
    else:
        lines.append("The solver found no win for this deal within its budget.")
    return "\n".join(lines)


def analysis_printed(analysis: FileAnalysis, *, json_output: bool, boards: bool) -> AlreadySaid | None:
    """A file's analysis printed as `analyze` prints it (`analysis_report`); what it failed with, if it did."""
    from .output import emit

    out, errors, failure = analysis_report(analysis, json_output=json_output, boards=boards)
    emit(out, errors, out_first=True)
    return failure


def analysis_report(
    analysis: FileAnalysis, *, json_output: bool, boards: bool
) -> tuple[str, list[str], AlreadySaid | None]:
    """A file's analysis as `analyze` prints it: its standard output, its lines for standard error, and what
    it failed with once they are said (UnreadableSaid: it could not be read; ProblemsSaid: it has problems)."""
    name = display_name(analysis.path)
    if analysis.error is not None:
        failed = UnreadableSaid() if isinstance(analysis.error, UsageError) else ProblemsSaid()
        return "", [str(analysis.error)], failed
    errors = [problem_line(name, problem) for problem in analysis.problems]
    game, summary = analysis.game, analysis.summary
    if game is None or summary is None:
        return "", errors, ProblemsSaid()
    parts: list[str] = []
    if json_output:
        parts.extend(json_line(m.to_json()) for m in analysis.moves)
        parts.append(json_line(summary.to_json(analysis.path)))
    else:
        parts.append(analysis_heading(name, game_summary(game.state, game.ply, game.undos)) + "\n")
        for analysed in analysis.moves:
            parts.append(analysis_line(analysed) + "\n")
            if analysed.mark is not None:  # the position the mistake was made in, with the card in hand
                before = game.steps[analysed.ply - 1].state
                parts.append(f"Before move {analysed.ply} ({analysed.move}):\n" + render(before) + "\n")
            if boards:
                parts.append(render_step(game.steps[analysed.ply]) + "\n")
        parts.append(analysis_summary(summary) + "\n")
    return "".join(parts), errors, ProblemsSaid() if errors else None
