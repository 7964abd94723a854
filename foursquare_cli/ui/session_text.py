"""What a session of `play` says, in words: the lines as it opens, how to resume or review a game, and its
problems as they happen (the values are `app.session`'s: `Opening`, `SessionProblem`)."""

from __future__ import annotations

import shlex
import sys

from ..app.history import Cheer
from ..app.session import Opening, Session, SessionProblem
from ..errors import display_name
from ..formats.records import format_record
from .history_report import waiting_line
from .prompt import program_name


def opening_line(opening: Opening) -> str:
    """One thing said as a session opens."""
    name = program_name()
    if opening.kind == "waiting" and opening.waiting is not None:
        return waiting_line(opening.waiting, name)
    if opening.kind == "daily" and opening.practice:
        return (
            f"Daily deal {opening.seed} ({opening.day}): you have played it today already, so this game is "
            "practice: it is kept, and only your first attempt counts (history, streak, share)"
        )
    if opening.kind == "daily":
        return f"Daily deal {opening.seed} ({opening.day}): everyone playing today gets these cards"
    if opening.kind == "level":
        return f"Deal {opening.seed}, {opening.level} (to play it again: {name} play --seed {opening.seed})"
    if opening.kind == "dealt":
        return f"Deal {opening.seed} (to play it again: {name} play --seed {opening.seed})"
    if opening.kind == "unsaved":
        return f"{opening.text}; this game is not saved."
    if opening.kind == "resuming":
        deal = f"deal {opening.seed}" if opening.seed is not None else "the deck given"
        return f"Resuming {deal} at move {opening.ply} ({display_name(opening.path or '')})"
    return opening.text


def opening_lines(openings: list[Opening]) -> list[str]:
    return [opening_line(opening) for opening in openings]


def problem_text(problem: SessionProblem) -> str:
    """A problem of a session as it is said on standard error."""
    if problem.kind == "index":
        return f"foursquare play: the history index was not updated: {problem.error}"
    return f"foursquare play: {problem.error}; the game goes on without being saved"


def say_problems(session: Session) -> Session:
    """The session's problems said on standard error as they happen (and those already kept, now)."""

    def say(problem: SessionProblem) -> None:
        print(problem_text(problem), file=sys.stderr)

    for problem in session.problems:
        say(problem)
    session.problems.clear()
    session.report = say
    return session


def _quoted(path: str) -> str:
    """A path as a shell word to paste; a path with characters no terminal should be sent, as Python writes it."""
    return shlex.quote(path) if path.isprintable() else display_name(path)


def how_to_resume(session: Session) -> str:
    """What is said as a game is left: where it is kept and how to go on; a finished game, how to look back."""
    if session.game.state.is_over:
        return how_to_review(session)
    if session.nothing_kept:
        return "No move was played, so nothing was kept."
    if session.record is not None:
        shown, path = display_name(session.record.path), _quoted(session.record.path)
        return f"The game is saved in {shown}; to go on: {program_name()} play --resume {path}"
    return (
        f"The game so far, as a record (save it to a file, then: {program_name()} play --resume FILE):\n"
        + format_record(session.game).rstrip("\n")
    )


def how_to_review(session: Session) -> str:
    if session.record is not None:
        path, name = _quoted(session.record.path), program_name()
        return (
            f"Replay it: {name} replay {path}\nCheck it: {name} check {path}\n"
            f"Where was it won or lost? {name} analyze {path}"
        )
    return "The game as a record (save it to a file to replay or check it):\n" + format_record(session.game).rstrip(
        "\n"
    )


def cheer_lines(earned: list[Cheer]) -> list[str]:
    """What a won game earned (`app.history.cheers`), in words, a line each."""
    lines = []
    for cheer in earned:
        if cheer.kind == "first_win":
            lines.append("Your first win! It is kept in your history.")
        elif cheer.kind == "best_score":
            lines.append(f"A new best score: {cheer.value} (your best was {cheer.before}).")
        elif cheer.kind == "first_at_grade":
            lines.append(f"Your first win on {'an' if str(cheer.value)[:1] in 'aeiou' else 'a'} {cheer.value} deal!")
        elif cheer.kind == "streak":
            longest = (
                " - your longest streak yet"
                if cheer.before is not None and int(cheer.value or 0) > cheer.before
                else ""
            )
            lines.append(f"{cheer.value} wins in a row{longest}!")
        elif cheer.kind == "daily_streak":
            lines.append(f"Daily streak: {cheer.value} days in a row.")
    return lines
