"""The standard streams: writing the output, one line on standard error, colour, and rich's
progress bar. The only module that draws on standard error while a run goes on."""

from __future__ import annotations

import errno
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, cast

from ..rules.game import Step
from .board import Style, state_block


def broken_pipe(error: OSError) -> bool:
    """Whether a failed write means the reader of the output went away (exit 141, nothing said)."""
    return isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE


def write(text: str) -> None:
    """Text on standard output, flushed (a co-process reads each state as it comes)."""
    sys.stdout.write(text)
    sys.stdout.flush()


def say(line: str) -> None:
    """One line on standard error, if there is one to write to."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def style(reveal: bool, unicode: bool, color: str = "never") -> Style:
    """How boards are drawn: colour `always`, `never`, or `auto`: as rich's Console finds the terminal (a
    terminal that takes ANSI colour; NO_COLOR, FORCE_COLOR and TERM=dumb honoured; on Windows, a console
    with virtual-terminal sequences). Rich is imported only when `auto` has to ask."""
    return Style(reveal=reveal, unicode=unicode and can_show("\u2660\u2665\u2666\u2663"),
                 color=color == "always" or (color == "auto" and _terminal_has_colour()))  # fmt: skip


def _terminal_has_colour() -> bool:
    if sys.stdout is None or (not sys.stdout.isatty() and not os.environ.get("FORCE_COLOR")):
        return False  # what rich would find too, without importing it
    from rich.console import Console

    console = Console(file=sys.stdout)  # NO_COLOR: no colour, and none of the bold and dim either
    return console.is_terminal and not console.no_color and console.color_system in ("standard", "256", "truecolor")


def terminal_width() -> int:
    """The columns a line may take: the terminal's, less one (a line of the full width wraps on some)."""
    return max(20, shutil.get_terminal_size((100, 24)).columns - 1)


def can_show(text: str) -> bool:
    """Whether standard output's encoding has these characters (`PYTHONIOENCODING=ascii` has no suit symbols)."""
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def step_printer(json_output: bool, shown: Style) -> Callable[[Step], None]:
    """A listener printing each step as `replay` shows it: boards (the first with the legend), or JSON Lines."""
    first = True

    def show(step: Step) -> None:
        nonlocal first
        write(state_block(step, json_output=json_output, style=shown, first=first))
        first = False

    return show


@contextmanager
def progress(total: int, label: str) -> Iterator[Callable[..., None] | None]:
    """`rich`'s progress bar (elapsed time, time left) on standard error when it is a terminal; else nothing.

    The bar is updated with `update(done)`, or `update(done, total)` when the total becomes known.
    """
    if sys.stderr is None or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("elapsed,"),
        TimeRemainingColumn(),
        TextColumn("left"),
    )
    with Progress(*columns, console=Console(file=cast(IO[str], _Unfailing(sys.stderr))), transient=True) as bar:
        task = bar.add_task(label, total=total)

        def update(done: int, new_total: int | None = None) -> None:
            bar.update(task, completed=done, total=new_total if new_total is not None else bar.tasks[0].total)

        yield update


class _Unfailing:
    """Standard error for the progress bar: a terminal that went away (EIO) or a full stream stops the bar,
    never the run, whose results go to standard output."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream: IO[str] | None = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                self._stream.write(text)
            except (OSError, ValueError):
                self._stream = None
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._stream = None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError("the terminal went away")
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"


def emit(out: str, errors: list[str], *, out_first: bool) -> None:
    """A file's output and its lines for standard error, in the order the command gives them."""
    if out_first:
        write(out)
    for line in errors:
        say(line)
    if not out_first:
        write(out)
