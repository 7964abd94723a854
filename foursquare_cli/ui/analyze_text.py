"""`analyze`'s text and JSON: a game move by move, its marks, and what the solver says of the deal."""

from __future__ import annotations

from ..app.analyze import AlreadyAnalysed, FileProblems, FileReport
from ..errors import display_name
from ..formats.records import outcome_words
from ..rules.engine import Status
from ..runs.analysis import AnalysisSummary, Estimate, MoveAnalysis
from .board import render, render_step
from .hint_text import percent
from .output import Screen, Text, can_show, text_of


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


GRAPH_ROWS = 4  # rows of the chance graph, a quarter of the chance each
GRAPH_BLOCKS = " \u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"  # eighths of a row, empty to full
GRAPH_ASCII = " ..--==##"  # the same eighths where the blocks cannot be shown
GRAPH_AXES = ("\u2502", "\u2514", "\u2500")  # the value axis, the corner, the move axis
ASCII_AXES = ("|", "+", "-")
GRAPH_LABEL = 6  # the columns before the graph: a row's label and its axis


def moves_a_column(points: int, width: int) -> int:
    """How many moves a column of the graph stands for: one, unless the game is wider than the room."""
    return -(-points // max(10, width - GRAPH_LABEL))


def chance_graph(points: list[tuple[int, float, bool]], *, width: int = 80, unicode: bool = True) -> list[str]:
    """The chance to win across a game, drawn: one column for each (move, chance, marked) point (move 0 is
    before the first move), as high as the chance, in `GRAPH_ROWS` rows of eighth blocks (`#`, `=`, `-`, `.`
    without Unicode); a marked move has a `?` on the move axis, which is numbered every ten moves. A game longer
    than the width has a column for every few moves, the lowest chance among them (so a drop is never hidden)."""
    if not points:
        return []
    every = moves_a_column(len(points), width)
    columns = [points[at : at + every] for at in range(0, len(points), every)]
    heights = [min(chance for _, chance, _ in column) for column in columns]
    levels = GRAPH_BLOCKS if unicode else GRAPH_ASCII
    upright, corner, across = GRAPH_AXES if unicode else ASCII_AXES
    eighths = GRAPH_ROWS * 8
    filled = [round(max(0.0, min(1.0, height)) * eighths) for height in heights]
    lines = []
    for row in range(GRAPH_ROWS, 0, -1):
        label = f"{100 * row // GRAPH_ROWS}%"
        drawn = "".join(levels[max(0, min(8, fill - (row - 1) * 8))] for fill in filled)
        lines.append(f"{label:>4} {upright}{drawn}".rstrip())
    axis = "".join("?" if any(marked for _, _, marked in column) else across for column in columns)
    lines.append(f"{'':>4} {corner}{axis}")
    numbers = [" "] * (len(columns) + 3)
    for at, column in enumerate(columns):
        tenth = -(-column[0][0] // 10) * 10  # the first multiple of ten among the column's moves
        label = str(tenth)
        free = all(mark == " " for mark in numbers[max(0, at - 1) : at + len(label)])
        if tenth <= column[-1][0] and free:
            numbers[at : at + len(label)] = label
    lines.append(" " * GRAPH_LABEL + "".join(numbers).rstrip())
    return lines


def analysis_graph(analysis_moves: list[MoveAnalysis], start: Estimate | None, *, width: int, unicode: bool) -> str:
    """`analyze`'s picture of a game: the expert's chance to win (playing on from there) before the first move
    and after each one."""
    points = [(0, start.win_rate, False)] if start is not None else []
    points += [(analysed.ply, analysed.played.win_rate, analysed.mark is not None) for analysed in analysis_moves]
    drawn = chance_graph(points, width=width, unicode=unicode)
    if not drawn:
        return ""
    every = moves_a_column(len(points), width)
    notes = [f"a column every {every} moves, the lowest"] if every > 1 else []
    notes.append("0 is the start" if start is not None else "the first column is move 1")
    if any(marked for _, _, marked in points):
        notes.append("? a marked move")
    return f"The chance to win after each move ({', '.join(notes)}):\n" + "\n".join(drawn) + "\n"


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


@text_of.register
def _file_report(value: FileReport, screen: Screen) -> Text:
    """A file's analysis as `analyze` prints it, the graph as wide as the terminal and in blocks where they can
    be shown."""
    analysis = value.analysis
    name = display_name(analysis.path)
    game, summary = analysis.game, analysis.summary
    if game is None or summary is None:
        return Text()
    unicode = can_show(GRAPH_BLOCKS + "".join(GRAPH_AXES))
    parts = [analysis_heading(name, outcome_words(game.state, game.ply, game.undos)) + "\n"]
    for analysed in analysis.moves:
        parts.append(analysis_line(analysed) + "\n")
        if analysed.mark is not None:  # the position the mistake was made in, with the card in hand
            before = game.steps[analysed.ply - 1].state
            parts.append(f"Before move {analysed.ply} ({analysed.move}):\n" + render(before) + "\n")
        if value.boards:
            parts.append(render_step(game.steps[analysed.ply]) + "\n")
    parts.append(analysis_graph(analysis.moves, summary.start, width=screen.width, unicode=unicode))
    parts.append(analysis_summary(summary) + "\n")
    return Text("".join(parts))


@text_of.register
def _file_problems(value: FileProblems, screen: Screen) -> Text:
    analysis = value.analysis
    if analysis.error is not None:
        return Text(err=(str(analysis.error),))
    return Text(err=tuple(problem.located(display_name(analysis.path)) for problem in analysis.problems))


@text_of.register
def _already_analysed(value: AlreadyAnalysed, screen: Screen) -> Text:
    return Text(err=(f"{display_name(value.path)}: analysed already, in {display_name(value.results)}",))
