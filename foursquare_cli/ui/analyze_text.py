"""`analyze`'s text and JSON: a game move by move, its marks, and what the solver says of the deal."""

from __future__ import annotations

from ..app.analyze import AlreadyAnalysed, FileProblems, FileReport
from ..errors import display_name
from ..formats.records import outcome_words
from ..rules.outcomes import Status
from ..runs.analysis import AnalysisSummary, Estimate, Mark, MoveAnalysis
from .board import render, render_step
from .hint_text import percent
from .output import Screen, Text, can_show, text_of


def _figures(estimate: Estimate) -> str:
    return f"{percent(estimate.chance):>6}{estimate.expected:>5.1f}"  # a score is below 100: a space before it


def analysis_heading(name: str, game_line: str) -> str:
    """The table's head: what each column holds (`win` the chance to win after the move, `score` the expected
    score, the expert's figures for its own move beside): 59 columns, room for a chance of `>99.9%`."""
    return (
        f"Analysis of {name}: {game_line}\n"
        f"{'move':>4} {'played':<11}{'':<3}{'win':>5} {'score':>5}  {'expert':<15} {'win':>5} {'score':>5}"
    )


def analysis_line(analysed: MoveAnalysis) -> str:
    """One move: what was played, its mark, its figures, and the expert's own move there and its figures."""
    mark = str(analysed.mark) if analysed.mark is not None else ""
    best = analysed.best
    expert = "same" if analysed.agreed else str(best.move) + (f", {best.then}" if best.then is not None else "")
    return (
        f"{analysed.ply:>4} {str(analysed.move):<11}{mark:<3}{_figures(analysed.played)}  {expert:<15} {_figures(best)}"
    )


GRAPH_ROWS = 4  # rows of the graph, a quarter of its height each
GRAPH_TOP = 24  # the highest expected score (the cards a won game can leave in the stock)
GRAPH_BLOCKS = " \u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"  # eighths of a row, empty to full
GRAPH_ASCII = " ..--==##"  # the same eighths where the blocks cannot be shown
GRAPH_AXES = ("\u2502", "\u2514", "\u2500")  # the value axis, the corner, the move axis
ASCII_AXES = ("|", "+", "-")
GRAPH_LABEL = 6  # the columns before the graph: a row's label and its axis


def moves_a_column(points: int, width: int) -> int:
    """How many moves a column of the graph stands for: one, unless the game is wider than the room."""
    return -(-points // max(10, width - GRAPH_LABEL))


def score_graph(points: list[tuple[int, float, str]], *, width: int = 80, unicode: bool = True) -> list[str]:
    """The expected score across a game, drawn: one column for each (move, expected score, mark) point (move 0
    is before the first move), as high as the score out of `GRAPH_TOP`, in `GRAPH_ROWS` rows of eighth blocks
    (`#`, `=`, `-`, `.` without Unicode); a marked move has its mark's last sign (`?`, `!`) on the move axis,
    which is numbered every ten moves. A game longer than the width has a column for every few moves, the
    lowest score among them (so a drop is never hidden)."""
    if not points:
        return []
    every = moves_a_column(len(points), width)
    columns = [points[at : at + every] for at in range(0, len(points), every)]
    heights = [min(score for _, score, _ in column) / GRAPH_TOP for column in columns]
    levels = GRAPH_BLOCKS if unicode else GRAPH_ASCII
    upright, corner, across = GRAPH_AXES if unicode else ASCII_AXES
    eighths = GRAPH_ROWS * 8
    filled = [round(max(0.0, min(1.0, height)) * eighths) for height in heights]
    lines = []
    for row in range(GRAPH_ROWS, 0, -1):
        label = str(GRAPH_TOP * row // GRAPH_ROWS)
        drawn = "".join(levels[max(0, min(8, fill - (row - 1) * 8))] for fill in filled)
        lines.append(f"{label:>4} {upright}{drawn}".rstrip())
    axis = "".join(_axis_mark(column, across) for column in columns)
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


def _axis_mark(column: list[tuple[int, float, str]], across: str) -> str:
    """A column's sign on the move axis: `?` for a mistake of any size among its moves, else `!` for a good
    move, else the axis."""
    marks = "".join(mark for _, _, mark in column)
    return "?" if "?" in marks else "!" if "!" in marks else across


def analysis_graph(analysis_moves: list[MoveAnalysis], final: float | None, *, width: int, unicode: bool) -> str:
    """`analyze`'s picture of a game: the expected score at the start (the best move's there), then after each
    move the move's own (the meter's figure: the one the position it was played from gave it; a shift changes
    nothing), and at the end the score the game got (`final`, 0 for a loss; None for a game not over); a mark
    on the move that made it."""
    points: list[tuple[int, float, str]] = []
    if analysis_moves:
        points.append((analysis_moves[0].ply - 1, analysis_moves[0].best.expected, ""))
        for moved in analysis_moves:  # a shift is free: nothing changed, as the meter says
            expected = points[-1][1] if moved.move.is_shift else moved.played.expected
            points.append((moved.ply, expected, str(moved.mark or "")))
        if final is not None:
            points[-1] = (points[-1][0], final, points[-1][2])
    drawn = score_graph(points, width=width, unicode=unicode)
    if not drawn:
        return ""
    every = moves_a_column(len(points), width)
    notes = [f"a column every {every} moves, the lowest"] if every > 1 else []
    notes.append("0 is the start")
    signs = "".join(mark for _, _, mark in points)
    notes += [said for sign, said in (("?", "? a mistake"), ("!", "! a good move")) if sign in signs]
    return f"The expected score after each move ({', '.join(notes)}):\n" + "\n".join(drawn) + "\n"


def analysis_summary(summary: AnalysisSummary) -> str:
    marks = ", ".join(f"{count} {mark}" for mark, count in summary.marks.items() if count) or "no marks"
    lines = [f"Result: {summary.status}" + (f", score {summary.score}" if summary.score is not None else "")]
    if summary.start is not None:
        lines.append(
            f"Before the first move the expert gave the deal {percent(summary.start.chance)} "
            f"(expected score {summary.start.expected:.1f}, from the {summary.start.futures:,} futures its move "
            "was played out in)."
        )
    accuracy = f"{summary.accuracy:.0%}" if summary.accuracy is not None else "-"
    lines.append(
        f"Marks: {marks}. Accuracy (moves with a choice that gave up nothing against the expert's best): {accuracy}."
    )
    if summary.lost_after is not None:
        there = summary.lost_at_best
        if summary.lost_by_the_best:
            said = "; the expert would have played it too: the cards to come decided it"
        else:
            said = f"; the expert would have played {there.name} there" if there is not None else ""
        lines.append(f"The game was lost for good at move {summary.lost_after}{said}.")
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
        if analysed.mark not in (None, Mark.GOOD):  # the position the mistake was made in, the card in hand
            before = game.steps[analysed.ply - 1].state
            parts.append(f"Before move {analysed.ply} ({analysed.move}):\n" + render(before) + "\n")
        if value.boards:
            parts.append(render_step(game.steps[analysed.ply]) + "\n")
    final = float(summary.score or 0) if game.state.is_over else summary.now.expected if summary.now else None
    parts.append(analysis_graph(analysis.moves, final, width=screen.width or 100, unicode=unicode))
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
