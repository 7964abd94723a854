"""Records in words: a game's states as `replay`, `auto` and a piped `play` print them, `check`'s verdicts, and
a file's problems (a deal's words are in `deal_text`, which loads the grade's players)."""

from __future__ import annotations

from ..app.check import CheckedFile, Unreadable
from ..app.loading import Problems
from ..errors import display_name
from ..formats.records import Verdict
from ..rules.game import Step
from .board import render_step
from .output import Screen, Text, text_of


@text_of.register
def _step(value: Step, screen: Screen) -> Text:
    """A board after a blank line, naming what the move turned; the first of a run carries the legend."""
    first = screen.boards == 0
    screen.boards += 1
    return Text(("" if first else "\n") + render_step(value, screen.style, with_legend=first) + "\n")


def problem_lines(verdict: Verdict) -> tuple[str, ...]:
    """Each problem of a file as `file:line:column: message`, as much of the place as is known."""
    return tuple(problem.located(verdict.source.display_name) for problem in verdict.problems)


@text_of.register
def _problems(value: Problems, screen: Screen) -> Text:
    return Text(err=problem_lines(value.verdict))


def verdict_line(name: str, verdict: Verdict) -> str:
    """`check`'s line for one file: its outcome, or how many problems it has."""
    if verdict.valid:
        return f"{name}: {verdict.outcome_words()}"
    count = len(verdict.problems)
    return f"{name}: invalid ({count} problem{'' if count == 1 else 's'})"


@text_of.register
def _checked_file(value: CheckedFile, screen: Screen) -> Text:
    if value.verdict is None:
        return Text()  # said already (`Unreadable`)
    return Text(verdict_line(display_name(value.path), value.verdict) + "\n")


@text_of.register
def _unreadable(value: Unreadable, screen: Screen) -> Text:
    return Text(err=(str(value.error),))
