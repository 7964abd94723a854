"""Records and deals in words: a game's states as `replay`, `auto` and a piped `play` print them, `check`'s
verdicts, a file's problems, and `deal`'s stock."""

from __future__ import annotations

from ..app.auto import DealtAtRandom
from ..app.check import CheckedFile, Unreadable
from ..app.deal import Dealt
from ..app.loading import Problems
from ..errors import display_name
from ..formats.records import Verdict
from ..players.grade import GAMES, Grade
from ..rules.game import Step
from .board import card_text, render_step
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


def grade_words(grade: Grade) -> str:
    """A deal's grade and the measures it was made of."""
    return (
        f"{grade.level} (of {GAMES} greedy games {grade.greedy_won:.0%} won, filling the grid first "
        f"{grade.filling_won:.0%}; a quick expert scored {grade.quick_score})"
    )


@text_of.register
def _dealt(value: Dealt, screen: Screen) -> Text:
    cards = " ".join(card_text(card, screen.style) for card in value.cards)
    return Text(cards + "\n", (f"grade: {grade_words(value.grade)}",), whole=True)


@text_of.register
def _dealt_at_random(value: DealtAtRandom, screen: Screen) -> Text:
    return Text(err=(f"Deal {value.seed} (to watch it again: --seed {value.seed})",))
