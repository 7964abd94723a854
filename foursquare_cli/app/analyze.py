"""`analyze`: where a game was won or lost, move by move (`runs.analysis`), each file's analysis as it comes;
its summary kept in a results file and the solver's winning line in a record when asked (both checked before
anything is analysed)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from ..errors import ExitStatus, UsageError
from ..formats.records import format_record
from ..players import PlayerSpec
from ..players.solver import SOLVE_BUDGET
from ..runs.analysis import FileAnalysis, Request, analyze_files
from ..runs.results import AnalysisResults, AnalysisSettings
from ..store.files import opened_record
from .loading import DealGiven, files_or_last


class AnalyzeRequest(NamedTuple):
    files: list[str]
    deal: DealGiven = DealGiven()
    expert: PlayerSpec = PlayerSpec()
    solve_budget: int = SOLVE_BUDGET
    jobs: int = 1
    results: str | None = None
    solution: str | None = None
    force: bool = False
    boards: bool = False  # a board after every move
    last: bool = False  # the game played last, kept in the history, instead of files


class AlreadyAnalysed(NamedTuple):
    """A file the results file holds already: it is not analysed again."""

    path: str
    results: str


class FileReport(NamedTuple):
    """A file's analysis to show (with a board after every move when asked); nothing for a file not analysed."""

    analysis: FileAnalysis
    boards: bool

    def to_json(self) -> list[dict[str, Any]]:
        """`analyze --format json`: a line for each move, then the summary (nothing for a file not analysed)."""
        summary = self.analysis.summary
        if summary is None:
            return []
        return [move.to_json() for move in self.analysis.moves] + [summary.to_json()]


class FileProblems(NamedTuple):
    """What kept a file from being analysed whole: the error that kept it from being read, or its problems
    (the moves before an illegal one are analysed), each said on standard error."""

    analysis: FileAnalysis

    @property
    def exit_status(self) -> ExitStatus:
        analysis = self.analysis
        if analysis.error is not None:
            return ExitStatus.USAGE if isinstance(analysis.error, UsageError) else ExitStatus.INVALID
        return ExitStatus.INVALID if analysis.problems or analysis.summary is None else ExitStatus.SUCCESS


def analyses(
    request: AnalyzeRequest, show: Callable[[object], None], progress: Callable[[int, int], None] | None = None
) -> Iterator[FileReport | FileProblems]:
    """Each file's analysis in order (the files the results file holds already said, and left out)."""

    request = request._replace(files=files_or_last(request.files, request.last))
    if request.solution is not None and len(request.files) > 1:
        raise UsageError("--solution goes with one file")
    strength = request.expert.strength
    settings = AnalysisSettings(
        request.deal.seed, request.expert.seed, strength.playouts, strength.think, request.solve_budget
    )
    kept = AnalysisResults(request.results, settings) if request.results is not None else None
    try:
        done = kept.done if kept is not None else {}
        for path in sorted({path for path in request.files if path in done}):
            show(AlreadyAnalysed(path, request.results or ""))
        todo = [
            Request(path, request.deal.seed, request.deal.deck, request.expert, request.solve_budget, kept=True)
            for path in request.files
            if path not in done
        ]
        with opened_record(request.solution, replace=request.force, option="--solution") as file:
            for analysis in analyze_files(todo, request.jobs, progress):
                summary = analysis.summary
                if file is not None and summary is not None and summary.solution is not None:
                    file.write(format_record(summary.solution))
                if kept is not None and summary is not None:
                    kept.add(summary)
                yield FileReport(analysis, request.boards)
                if analysis.error is not None or analysis.problems or analysis.summary is None:
                    yield FileProblems(analysis)
    finally:
        if kept is not None:
            kept.close()
